# The tablet's half of the protocol, free of I/O: one Device per dashboard (outlives cables), one Session per
# open port. Commands go one at a time per dashboard, resent until answered; notes for the app are returned.
from shared_rules.link import codec, schema
from shared_rules.link.framing import LineReader, crc_hex, encode, frames  # noqa: F401 (the tablet's names too)
from shared_rules.link import notes as note
from shared_rules.link import wifi

HELLO_RETRY_MS = 300  # ask again for a hello after this long, then twice as long each time, up to 8 times as long
# (a Pico sitting at its REPL echoes every "hi" back with a traceback: no need to do that three times a second)...
HELLO_EAGER = 12  # ...but a new port is asked this many times first, every HELLO_RETRY_MS / 2 (1.8 s in all): a
# replugged dashboard answers the first "hi" it hears, and a lost hello must not cost seconds
COMMAND_RETRY_MS = 250  # resend an unanswered command this often (a repeat is answered, never applied again)
FAST_RETRY_MS = 40  # ...or at a damaged frame from its dashboard, once this long after sending it
HEARTBEAT_MS = 1000  # send a heartbeat after this long without sending anything
SILENT_MS = 2500  # no frame for this long: the dashboard is "silent"

CONNECTED = "connected"
SILENT = "silent"
LOST = "lost"
EVENTS_KEPT = 64  # event ids remembered per dashboard: one ack can be lost, and the event comes again


class Device:
    """What the tablet knows of one dashboard: its last state, and the commands it still owes an answer to."""

    def __init__(self, dev):
        self.dev = dev
        self.firmware = None
        self.protocol = None
        self.snapshot = None
        self.rev = None  # the dashboard's state revision that snapshot shows
        # The snapshot holds only events this tablet has taken (the dashboard had none waiting, or just the event
        # that carried it): only then may it be compared with the table.
        self.settled = False
        self.pending = []  # [id, name, args], oldest first; pending[0] is in flight once sent
        self.sent_ms = None  # when pending[0] was last sent, None if not sent on this session
        self.events = []  # the ids of the last EVENTS_KEPT events taken, oldest first
        self.held = []  # ids passed to the app and not yet kept by it: acked by kept(), not on arrival
        self.session = None  # type: Session | None
        self.resends = 0  # commands sent again for want of an answer (the link's quality, shown on the tablet)
        self.acked_ms = None  # when the last command was answered (the tablet's clock, ms)
        # A Pico W's network (the hello's "w", docs/protocol.md §15a): None no radio, "" none set, else its name;
        # and the `wifi` message that sets it while unanswered (in memory only: it holds the password)
        self.wifi = None  # type: str | None
        self.wifi_out = None  # type: dict | None
        self.wifi_tries = 0
        self.wifi_sent = 0

    def submit(self, cid, name, args):
        frames({"a": args, "c": name, "id": cid, "t": "cmd"})  # refuse now what could never be sent
        for p in self.pending:
            if p[0] == cid:
                return
        self.pending.append([cid, name, args])

    def remember(self, ids):
        """Event ids taken before this link started (the game log's, oldest first): a resend of one is
        acknowledged and not passed on again."""
        self.events[:] = ([e for e in ids if e not in self.events] + self.events)[-EVENTS_KEPT:]

    def forget(self, eid):
        """The app could not keep event eid (its log failed): its next resend is passed on again."""
        if eid in self.held:
            self.held.remove(eid)
        if eid in self.events:
            self.events.remove(eid)

    def kept(self, eid, now_ms):
        """The app has kept event eid (applied and logged it, or logged it as refused): acknowledge it now, on
        whatever port the dashboard is on. With no port, its next resend is acknowledged as taken."""
        if eid in self.held:
            self.held.remove(eid)
            if self.session is not None:
                self.session.ack(eid, now_ms)


class Session:
    """One open port. write(bytes) sends; `devices` (dashboard id -> Device) is shared by all sessions.

    hold_events: a new event is acknowledged only when the app has kept it (Device.kept), so an app that dies
    before keeping it is sent it again; otherwise it is acknowledged as it arrives."""

    def __init__(self, write, devices, now_ms, timing=None, hold_events=False):
        self.write = write
        self.devices = devices
        self.hold_events = hold_events
        t = timing or {}
        self.hello_retry = t.get("hello_retry", HELLO_RETRY_MS)
        self.command_retry = t.get("command_retry", COMMAND_RETRY_MS)
        self.heartbeat = t.get("heartbeat", HEARTBEAT_MS)
        self.silent_ms = t.get("silent", SILENT_MS)
        self.reader = LineReader()  # lines out of the byte stream, and fragments put back together
        self.frag_id = 0
        self.device = None  # bound by the first hello
        self.last_rx = None
        self.last_tx = now_ms
        self.last_hi = None
        self.hello_wait = self.hello_retry
        self.his = 0  # "hi" sent since the port opened (or the last hello)
        self.last_n = -1
        self.bad_frames = 0
        self.complaints = []  # what was wrong with this port's messages, each reported once
        self.incompatible = False
        self.closed = False
        self.hi(now_ms)

    def _send(self, msg, now_ms):
        if self.closed:
            return
        self.frag_id += 1
        self.write(b"".join(frames(msg, self.frag_id)))  # one write: the transport queues it whole
        self.last_tx = now_ms

    def ack(self, eid, now_ms):
        self._send({"t": "ack", "id": eid}, now_ms)

    def hi(self, now_ms):
        self.last_hi = now_ms
        self.his += 1
        self._send({"t": "hi", "p": codec.PROTOCOL}, now_ms)

    def status(self, now_ms):
        if self.closed:
            return LOST
        if self.last_rx is None or now_ms - self.last_rx >= self.silent_ms:
            return SILENT
        return CONNECTED

    def close(self):
        self.closed = True
        d = self.device
        if d is not None and d.session is self:
            d.session = None
            d.sent_ms = None

    # -- receiving ---------------------------------------------------------------------------------------
    def feed(self, data, now_ms):
        notes = []
        for line in self.reader.feed(data):
            try:
                msg = codec.decode(line)
                self.last_rx = now_ms
                msg = self.reader.add(msg)  # FrameError too for a fragment that cannot be used
            except codec.FrameError:
                self.bad_frames += 1
                self._damaged(now_ms)
                continue
            if msg is None:
                continue
            try:
                self._handle(msg, now_ms, notes)
            except Exception as e:  # a defect of ours for this message: never the end of the port (it would
                self.bad_frames += 1  # come again after the reconnect, and end it again)
                self._complain("%s: %s %s" % (msg["t"], type(e).__name__, e), notes)
        return notes

    def _damaged(self, now_ms):
        """A damaged frame came while a command was in flight: most likely its answer (an ack is three fragments).
        Resend it now rather than at the timer; a repeat is answered and never applied twice."""
        d = self.device
        if d is not None and d.session is self and d.sent_ms is not None and now_ms - d.sent_ms >= FAST_RETRY_MS:
            d.resends += 1
            self._send_command(d, now_ms)

    def _complain(self, why, notes):
        """A Bad note (dashboard id or None, what was wrong) for the app's log, once per kind of wrong."""
        if why not in self.complaints and len(self.complaints) < 32:
            self.complaints.append(why)
            notes.append(note.bad(self.device.dev if self.device is not None else None, why))

    def _handle(self, msg, now_ms, notes):
        verdict, why = schema.inbound(msg)  # before anything reads a field of it
        if why is not None:
            self._complain(why, notes)
        if verdict == schema.DROP:
            self.bad_frames += 1
            return
        t = msg["t"]
        n = msg.get("n")
        if t == "hello":
            self._hello(msg, now_ms, notes)
            return
        d = self.device
        if d is None or d.session is not self:
            if self.last_hi is None or now_ms - self.last_hi >= self.hello_retry:
                self.hi(now_ms)  # a dashboard we have not met on this port yet (e.g. tablet restarted)
            return
        if isinstance(n, int):
            if n == self.last_n:
                return  # a duplicated frame: already handled (a serial line repeats, it never reorders)
            if n < self.last_n and now_ms - self.last_hi >= self.hello_retry:
                self.hi(now_ms)  # the count restarted: the dashboard rebooted and its hello was lost
            self.last_n = n
        if t == "wifi" or t == "err" and d.wifi_out is not None and msg.get("id") == d.wifi_out["id"]:
            wifi.answered(d, msg, notes)  # (an older dashboard answers err "type": it has no Wi-Fi)
        elif t == "ack" or t == "err":
            if d.pending and d.sent_ms is not None and msg.get("id") == d.pending[0][0]:
                cid = d.pending.pop(0)[0]
                d.sent_ms = None
                d.acked_ms = now_ms
                if t == "ack":
                    self._take_state(d, msg)
                    notes.append(note.done(d.dev, cid, d.snapshot))
                    notes.append(note.state(d.dev, d.snapshot, d.rev, d.settled))
                else:
                    notes.append(note.refused(d.dev, cid, msg.get("e"), msg.get("m")))
                self.pump(now_ms)
        elif t == "st":
            if self._take_state(d, msg):
                notes.append(note.state(d.dev, d.snapshot, d.rev, d.settled))
        elif t == "hb":
            if msg.get("r") != d.rev:
                self._send({"t": "get"}, now_ms)  # a state frame went missing: ask for the state
            elif not msg.get("q") and not d.settled and d.snapshot is not None:
                d.settled = True  # every event that state held is acknowledged now: taken by the table
                notes.append(note.state(d.dev, d.snapshot, d.rev, True))
        elif t == "ev":
            self._event(d, msg, verdict, why, now_ms, notes)

    def _event(self, d, msg, verdict, why, now_ms, notes):
        eid = msg["id"]
        if eid in d.held:
            pass  # the app has it and acks it once kept; the dashboard resends until then
        elif eid in d.events:
            self.ack(eid, now_ms)  # taken already: the first ack was lost
        else:
            d.events.append(eid)
            if len(d.events) > EVENTS_KEPT:
                d.events.pop(0)
            if verdict == schema.REFUSE:
                self.ack(eid, now_ms)  # answered, so not sent again; the rules never see it
                notes.append(note.rejected(d.dev, eid, why))
            elif self.hold_events:
                d.held.append(eid)
                notes.append(note.event(d.dev, eid, msg["e"], msg["a"]))
            else:
                self.ack(eid, now_ms)
                notes.append(note.event(d.dev, eid, msg["e"], msg["a"]))
        # The state the event made (after it in the notes: the app takes the event first). A resend carries the
        # state as it is at its sending.
        if self._take_state(d, msg, 1):
            notes.append(note.state(d.dev, d.snapshot, d.rev, d.settled))

    def _hello(self, msg, now_ms, notes):
        dev = msg.get("dev")
        if not isinstance(dev, str) or not dev:
            return
        d = self.devices.get(dev)
        if d is None:
            d = Device(dev)
            self.devices[dev] = d
        if d.session is not None and d.session is not self:
            d.session.device = None  # the dashboard moved to this port (replugged)
        self.device = d
        d.session = self
        self.hello_wait = self.hello_retry
        self.his = 0
        d.sent_ms = None  # whatever was in flight is resent now; the dashboard drops a repeat
        n = msg.get("n")
        self.last_n = n if isinstance(n, int) else -1
        d.firmware = msg.get("fw")
        d.protocol = msg.get("p")
        w = msg.get("w")
        d.wifi = wifi.unb64(w) if isinstance(w, str) else None
        self._take_state(d, msg)
        self.incompatible = d.protocol != codec.PROTOCOL
        notes.append(note.hello(dev, d.firmware, d.protocol, d.snapshot, d.settled))
        self.pump(now_ms)

    def _take_state(self, d, msg, own=0):
        """The state msg carries, if any; settled when it holds no event the table has not taken (the events
        waiting on the dashboard, "q", count the event that carries it: own)."""
        if isinstance(msg.get("s"), dict):
            d.snapshot = msg["s"]
            d.rev = msg.get("r")
            d.settled = msg.get("q", 0) <= own
            return True
        return False

    # -- sending commands and time -----------------------------------------------------------------------
    def pump(self, now_ms):
        """Send the oldest pending command if nothing is in flight."""
        d = self.device
        if d is None or d.session is not self or self.incompatible or not d.pending or d.sent_ms is not None:
            return
        self._send_command(d, now_ms)

    def _send_command(self, d, now_ms):
        p = d.pending[0]
        d.sent_ms = now_ms
        self._send({"t": "cmd", "id": p[0], "c": p[1], "a": p[2]}, now_ms)

    def send(self, msg, now_ms):
        """Any message to this port's dashboard now (the `wifi` message: shared_rules/link/wifi.py)."""
        self._send(msg, now_ms)

    def tick(self, now_ms):
        d = self.device
        if d is None or d.session is not self:
            eager = self.his <= HELLO_EAGER
            if now_ms - self.last_hi >= (self.hello_retry // 2 if eager else self.hello_wait):
                self.hi(now_ms)
                if not eager:
                    self.hello_wait = min(self.hello_wait * 2, self.hello_retry * 8)
        elif d.sent_ms is not None and now_ms - d.sent_ms >= self.command_retry:
            d.resends += 1
            self._send_command(d, now_ms)
        else:
            self.pump(now_ms)
        if d is not None and d.session is self and d.wifi_out is not None and \
                now_ms - d.wifi_sent >= self.command_retry:
            wifi.send(self, d, now_ms)
        if now_ms - self.last_tx >= self.heartbeat:
            self._send({"t": "hb"}, now_ms)
