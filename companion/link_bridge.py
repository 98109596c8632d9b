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

import logging
import queue

from companion.eventlog import LogError
from companion.transport import LOST

log = logging.getLogger(__name__)


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
        # dev -> (its latest state as the notes told it, settled): settled when that state holds no event the
        # table has not taken yet, the only kind worth comparing with the table (tablet.Device.settled)
        self.latest = {}
        self.due = set()  # dashboards whose state is to be compared with the table once nothing is in flight
        # dev -> ids of the commands handed to the transport whose answer ("done"/"refused") the notes have not
        # brought yet. The transport forgets a command when its answer arrives, before it posts the answer's
        # notes: its own pending() runs ahead of the notes, this does not.
        self.unanswered = {}
        self.failed = set()  # (dev, event id) whose handling raised: logged once
        # on_hello(dev): called at each hello, before the notes after it are handled (the app pairs a phone that
        # linked on its seat's token here, so the events it sends next already count for that seat)
        self.on_hello = None
        self.wifi = {}  # dev -> the last answer to a Pico W's network set at pairing (a Wifi note: no password in it)
        # While the tablet's dice roll, the commands wait in the referee's outbox, in order: a dashboard showing
        # the throw before the dice on the table land would spoil them (hold_commands / release_commands).
        self.holding = False
        self.defer = None  # defer(fn): fn called after the next frame is drawn (push_soon)
        self._push_due = False

    def attach(self, referee):
        self.referee = referee
        self.holding = False
        self._remember_taken()
        if referee is not None:
            held, self.held = self.held, []
            for note in held:
                self._guarded(note)
            self.due.update(self.latest)
            self.push()
            self._reconcile_due()
            self.push()

    def poll(self, limit=500):
        """Drain up to `limit` notes, act on them, push commands. Returns the number of notes handled.

        Notes are taken in the order they came: an event before the state it made (the dashboard sends them as
        one message). Nothing raised for one note stops the others, or the app (this is a Kivy Clock callback)."""
        notes = []
        for _ in range(limit):
            try:
                notes.append(self.transport.events.get_nowait())
            except queue.Empty:
                break
        for note in notes:
            self._guarded(note)
        if notes:
            self.changed += 1
        self.push()  # first: a state compared with the table while commands wait in the referee is stale
        self._reconcile_due()
        self.push()
        return len(notes)

    def _guarded(self, note):
        try:
            self._note(note)
        except Exception:
            log.exception("link: note %r from dashboard %s not handled", note[0], note[1])

    def _note(self, note):
        """One note of the transport (a record of shared_rules/link/notes.py), read by its fields' names."""
        kind = note.kind
        if kind == "event":
            self._event(note)
        elif kind == "hello":
            info = note.info
            self.seen[note.dev] = {"fw": info.get("fw"), "snapshot": info.get("s")}
            self.status[note.dev] = "connected"
            if self.on_hello is not None:
                self.on_hello(note.dev)
            self._state(note.dev, info.get("s"), info.get("settled", True))
        elif kind == "status":
            self.status[note.dev] = note.status
        elif kind == "state":
            self._state(note.dev, note.snapshot, note.settled)
        elif kind == "done":
            self._answered(note.dev, note.cmd_id)
            self._stale(note.dev)  # the state after it is the note that follows
            if note.dev in self.seen:
                self.seen[note.dev]["snapshot"] = note.snapshot
        elif kind == "refused":
            self._answered(note.dev, note.cmd_id)
            self.due.add(note.dev)  # the table believed it applied: compare again (the dashboard changed nothing)
        elif kind == "rejected":  # an event of a shape no rule can read: acknowledged, never applied
            log.warning("link: dashboard %s sent event %s the table cannot take: %s", note.dev, note.event_id,
                        note.why)
            self._show(note.dev, "action not understood (%s)" % note.why)
            self._stale(note.dev)  # its state, which holds it, follows
            self.due.add(note.dev)
        elif kind == "bad":
            log.warning("link: dashboard %s: %s", note.dev or "(not yet known)", note.why)
        elif kind == "wifi":  # a Pico W's answer at pairing (companion/wifi_pairing.py): its network's name, or why not
            self.wifi[note.dev] = note

    def _state(self, dev, snap, settled):
        if not isinstance(snap, dict):
            return
        if dev in self.seen:
            self.seen[dev]["snapshot"] = snap
        self.latest[dev] = (snap, settled)
        self.due.add(dev)

    def _reconcile_due(self):
        """Each dashboard whose state came is compared with the table once, on its latest state, when nothing is
        in flight to it (its ack brings the state after it) and that state holds every event it reported.

        "In flight" and "latest" as the notes tell them, in their order: the transport's threads run ahead of the
        queue (a reader takes an answer, then posts its notes one by one), so a command the transport no longer
        holds may still have its answer on the way, and an answer or event drained may still have its state on
        the way (tests/table/test_late_notes.py)."""
        for dev in sorted(self.due):
            if self.unanswered.get(dev) or self.transport.pending(dev):
                continue  # the ack of what is in flight brings a fresh state, and marks it due again
            self.due.discard(dev)
            snap, settled = self.latest.get(dev, (None, False))
            if settled:
                try:
                    self._reconcile(dev, snap)
                except Exception:
                    log.exception("link: the state of dashboard %s could not be compared", dev)

    def _remember_taken(self):
        """The link forgets the event ids it took when the app ends; the game log does not: hand them back."""
        ref = self.referee
        if ref is not None:
            for dev, ids in ref.taken.recent().items():
                self.transport.remember_events(dev, ids)

    def _show(self, dev, text):
        ref = self.referee
        seat = ref.seat_of(dev) if ref is not None else None
        if seat is not None:
            self.errors.append("%s: %s" % (ref.names()[seat], text))

    def _answered(self, dev, cid):
        ids = self.unanswered.get(dev)
        if ids is not None:
            ids.discard(cid)

    def _stale(self, dev):
        """A note that changed the dashboard's state (an answer) or the table's (an event) came: the state it
        made is the "state" note right behind it, maybe not drained yet. Until then the latest state is older than
        the table's knowledge, and comparing it would sync back what the dashboard has already left."""
        if dev in self.latest:
            self.latest[dev] = (self.latest[dev][0], False)

    def _event(self, note):
        dev, eid, name, args = note.dev, note.event_id, note.name, note.args
        self._stale(dev)
        ref = self.referee
        if ref is None:
            self.held.append(note)  # no game open (yet: the app may be about to resume one): not acked
            return
        seat = ref.seat_of(dev)
        if seat is not None:
            # Applied and logged with its id, or refused and its id logged. Then acknowledged.
            try:
                err = ref.on_dashboard_event(seat, name, args, (dev, eid))
            except LogError:
                # Not kept (the log could not be written): not acknowledged, and taken again when resent.
                if (dev, eid) not in self.failed:
                    self.failed.add((dev, eid))
                    log.exception("link: event %s of dashboard %s not kept", eid, dev)
                self.transport.retry_event(dev, eid)
                return
            except Exception as e:  # a defect of ours for this event: refused, so the dashboard is synced back
                log.exception("link: event %s of dashboard %s could not be judged", eid, dev)
                err = "not understood (%s)" % type(e).__name__
                self.due.add(dev)
            if err is not None:
                self.errors.append("%s: %s" % (ref.names()[seat], err))
        if seat is not None and not self._kept_on_disk():
            self.transport.retry_event(dev, eid)  # applied and written, not yet on disk: acked once it is
            return
        self.transport.ack_event(dev, eid)  # kept (or not this game's): the dashboard may forget it

    def _reconcile(self, dev, snap):
        ref = self.referee
        seat = ref.seat_of(dev) if ref is not None else None
        if seat is not None and isinstance(snap, dict):
            ref.reconcile(seat, snap)

    def _kept_on_disk(self):
        """The game log's appends flushed to disk (EventLog.sync) before anything that follows from them leaves
        the tablet. False, with the error for the table, if the disk refused (the next push tries again)."""
        try:
            self.referee.log.sync()
            return True
        except LogError as e:
            log.error("link: %s", e)  # the file and the system's words, for whoever reads the log
            self.errors.append("This tablet could not save the game to its storage: the dashboards wait for it, "
                               "and it tries again at the next move.")
            return False

    def push_soon(self):
        """push() once the screen has drawn what was just done (`defer`, set by the app: the next frame), so the
        disk's flush before it is not part of the tap's frame; at once where nothing defers (tests, benches)."""
        if self.defer is None:
            self.push()
        elif not self._push_due:
            self._push_due = True
            self.defer(self._due_push)

    def _due_push(self):
        self._push_due = False
        self.push()

    def push(self):
        """Hand the referee's commands to the transport; a seat with no dashboard is resynced on pairing."""
        ref = self.referee
        if ref is None or self.holding or not ref.outbox:
            return 0
        if not self._kept_on_disk():
            return 0
        n = 0
        for seat, cid, name, args in ref.take_commands():
            dev = ref.pairs.get(seat)
            if dev is not None:
                self.transport.send(dev, name, args, cid)
                self.unanswered.setdefault(dev, set()).add(cid)
                n += 1
        return n

    def hold_commands(self):
        """Nothing goes to the dashboards until release_commands() (the dice are rolling on the table)."""
        self.holding = True

    def release_commands(self):
        self.holding = False
        self.push()

    def dashboards(self):
        """Every dashboard seen, sorted, with its link status."""
        return [(dev, self.status.get(dev, LOST)) for dev in sorted(self.seen)]

    def link_of(self, seat):
        ref = self.referee
        dev = ref.pairs.get(seat) if ref is not None else None
        if dev is None:
            return None, "none"
        return dev, self.status.get(dev, LOST)
