"""Between the referee and the dashboards' link, on the UI thread, never blocking.

The transport reads and writes the ports on its own threads and leaves notes in a queue; poll() (called by
a Kivy Clock every few tens of ms) drains it: a dashboard's hello or quiet state is reconciled with the
table, a player's action on a dashboard goes to the referee, and whatever the referee wants the dashboards
to be told is handed to the transport for the dashboard paired with each seat.

A dashboard event is taken once per game, even across a crash: the referee records its id with its effect in
the game log, and a reopened referee's ids seed the link's memory, so a resend whose first ack was lost is
acknowledged again and applied never again.

And the ack follows the effect: the transport holds a new event's ack until the referee has applied and logged
it (or logged it as refused), so an app that dies in between is sent the event again. An event that comes
while no game is open is held, unacknowledged, and taken by the next game opened (the one resumed after a
crash); an event from a dashboard with no seat in the open game is acknowledged and dropped (the table's car
goes to the dashboard when it is paired).
"""

import queue

from companion.transport import LOST


class LinkBridge:
    def __init__(self, transport, referee=None):
        self.transport = transport
        transport.hold_events()  # acked by _event once the referee has kept it
        self.referee = referee
        self.held = []  # event notes that came while no game was open, for the next game opened
        self._remember_taken()
        self.seen = {}  # dev -> {"fw", "snapshot"}: every dashboard that said hello, paired or not
        self.status = {}  # dev -> connected / silent / lost
        self.errors = []  # short messages for the table (a dashboard action the rules refused)
        self.changed = 0  # counts notes that may change what the screen shows
        self.recheck = set()  # dashboards whose events came in while commands were in flight to them

    def attach(self, referee):
        self.referee = referee
        self._remember_taken()
        if referee is not None:
            held, self.held = self.held, []
            for note in held:  # first: a dashboard reports an action before the state it led to
                self._event(note)
            for dev, info in self.seen.items():
                seat = referee.seat_of(dev)
                if seat is not None and info.get("snapshot") is not None:
                    referee.reconcile(seat, info["snapshot"])
            self.push()

    def poll(self, limit=500):
        """Drain up to `limit` notes, act on them, push commands. Returns the number of notes handled."""
        notes = []
        for _ in range(limit):
            try:
                notes.append(self.transport.events.get_nowait())
            except queue.Empty:
                break
        # Events first: a dashboard reports an action before the state it led to.
        acted = []
        for note in notes:
            if note[0] == "event":
                self._event(note)
                acted.append(note[1])
        # The table mirrored those actions as if the dashboard still held them, but a sync sent meanwhile (its
        # state frame overtook a lost event frame) may have undone one there: check against its latest state.
        # (Formula 1 only: its reconcile compares whole cars; Formula 5's compares a view counter that every
        # event moves on, so there it would push the same view again after each play.)
        recheck = self.referee is not None and self.referee.GAME == "f1"
        for dev in set(acted) if recheck else ():
            if self.transport.pending(dev):
                self.recheck.add(dev)  # the sync may still be on its way: check again at its ack
            else:
                self._reconcile(dev, self.transport.snapshot(dev))
        for note in notes:
            kind = note[0]
            if kind == "hello":
                _, dev, info = note
                self.seen[dev] = {"fw": info.get("fw"), "snapshot": info.get("s")}
                self.status[dev] = "connected"
                self._reconcile(dev, info.get("s"))
            elif kind == "status":
                self.status[note[1]] = note[2]
            elif kind == "state":
                dev, snap = note[1], note[2]
                if dev in self.seen:
                    self.seen[dev]["snapshot"] = snap
                if not self.transport.pending(dev):
                    self._reconcile(dev, snap)
            elif kind == "done":
                if note[1] in self.seen:
                    self.seen[note[1]]["snapshot"] = note[3]
                if note[1] in self.recheck and not self.transport.pending(note[1]):
                    self.recheck.discard(note[1])
                    self._reconcile(note[1], note[3])  # its whole state, with nothing left in flight
            elif kind == "refused":
                self._reconcile(note[1], self.transport.snapshot(note[1]))
        if notes:
            self.changed += 1
        self.push()
        return len(notes)

    def _remember_taken(self):
        """The link forgets the event ids it took when the app ends; the game log does not: hand them back."""
        ref = self.referee
        if ref is not None:
            for dev, ids in ref.taken.recent().items():
                self.transport.remember_events(dev, ids)

    def _event(self, note):
        _, dev, eid, name, args = note
        ref = self.referee
        if ref is None:
            self.held.append(note)  # no game open (yet: the app may be about to resume one): not acked
            return
        seat = ref.seat_of(dev)
        if seat is not None:
            # Applied and logged with its id, or refused and its id logged. If this raises, nothing is kept
            # and nothing acked: the dashboard resends it until the app, restarted from its log, takes it.
            err = ref.on_dashboard_event(seat, name, args, (dev, eid))
            if err is not None:
                self.errors.append("%s: %s" % (ref.names()[seat], err))
        self.transport.ack_event(dev, eid)  # kept (or not this game's): the dashboard may forget it

    def _reconcile(self, dev, snap):
        ref = self.referee
        seat = ref.seat_of(dev) if ref is not None else None
        if seat is not None and isinstance(snap, dict):
            ref.reconcile(seat, snap)

    def push(self):
        """Hand the referee's commands to the transport; a seat with no dashboard is resynced on pairing."""
        ref = self.referee
        if ref is None:
            return 0
        n = 0
        for seat, cid, name, args in ref.take_commands():
            dev = ref.pairs.get(seat)
            if dev is not None:
                self.transport.send(dev, name, args, cid)
                n += 1
        return n

    def dashboards(self):
        """Every dashboard seen, sorted, with its link status."""
        return [(dev, self.status.get(dev, LOST)) for dev in sorted(self.seen)]

    def link_of(self, seat):
        ref = self.referee
        dev = ref.pairs.get(seat) if ref is not None else None
        if dev is None:
            return None, "none"
        return dev, self.status.get(dev, LOST)
