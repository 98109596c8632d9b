# The dashboard's half of the protocol, free of I/O: bytes in, frames out. The time is passed in by the caller;
# on MicroPython a call may leave it out (None) to mean the board's ticks_ms: the app has no clock to pass.
import os

from shared_rules.link import codec

try:
    from micropython import const  # _UNDERSCORE constants vanish at compile time: no name, no dict entry
except ImportError:  # CPython: const(x) is just the int x
    const = int

_HEARTBEAT_MS = const(1000)  # send a heartbeat after this long without sending anything
_TABLET_GONE_MS = const(3000)  # no frame from the tablet for this long: show "no tablet"
_EVENT_RETRY_MS = const(500)  # resend an unacknowledged event this often
_MAX_OUTBOX = const(16)
# The command ids kept: the tablet has at most one command in flight per dashboard, so only the latest few
# ids can ever come back; 64 is ample and keeps the saved state small.
_DONE_KEPT = const(64)
_MAX_ID = const(40)  # a command id longer than this is refused: every id is kept, saved and journaled

try:
    from time import ticks_diff as _ticks_diff  # type: ignore  # MicroPython: ticks_ms wraps, this does not
    from time import ticks_ms as _ticks_ms  # type: ignore
except ImportError:  # CPython: plain milliseconds, always passed in (no clock here: tests run on their own time)
    _ticks_ms = None

    def _ticks_diff(a, b):
        return a - b


class DashboardProtocol:
    """Applies tablet commands at most once and keeps the tablet told about this dashboard.

    get_snapshot() -> dict of the player's state; apply_command(name, args) applies a tablet command or raises
    (RuleError or ValueError) having changed nothing; on_applied(done) is called after a command changed the
    state and BEFORE the ack goes out, with the ids to save together with that state (see done_ids).
    on_journal(cid, name, args), if given, is called there too, before on_applied: the command just applied, for
    a dashboard that journals commands (one appended line) instead of saving its whole state before each ack.
    write(frame) sends one whole frame (bytes ending in a newline); a fragmented message is several calls in a row.
    on_wifi(msg), on a dashboard with a radio (a Pico W: firmware/ondemand/wifi_conf.py): the answer to the
    table's `wifi` message (the network to join, docs/protocol.md §15a), and on_wifi(None) the hello's `w`.
    Without it a `wifi` message is answered "no Wi-Fi" and the hello has no `w`.
    """

    def __init__(self, dev, firmware, get_snapshot, apply_command, write, on_applied=None, done=(),
                 now_ms=None, on_journal=None, on_wifi=None):
        self.dev = dev  # the dashboard id
        self.firmware = firmware
        self.get_snapshot = get_snapshot
        self.apply_command = apply_command
        self.write = write
        self.on_applied = on_applied
        self.on_journal = on_journal
        self.on_wifi = on_wifi
        # (id, outcome) of the last _DONE_KEPT commands handled, oldest first; outcome "" applied, else the
        # error code it was refused with. Tuples: half a list's heap each, and 64 of them stay all race on a Pico.
        self.done = [tuple(d) for d in done][-_DONE_KEPT:]
        self.reader = codec.Receiver()  # lines out of the byte stream, and fragments put back together
        # Messages sent: each one's "n", the number of its fragments, and the counter in event ids (post_event
        # sends its event at once, so no two events get the same count).
        self.seq = 0
        self.rev = 0  # counts state changes this boot; heartbeats carry it so the tablet notices a missed one
        self.last_tx = now_ms
        self.last_rx = None
        self.outbox = []  # [event_id, name, args, last_sent_ms or None]
        self.carried = -1  # the revision the last event carried: the state_changed() after it sends nothing
        self.owed = 0  # a state went out while events waited: say so (a heartbeat) once they are all acked
        # Event ids must not repeat after a restart; a random 24-bit boot number makes that practically certain
        # (os.urandom: the Pico's ring oscillator, the system's random source elsewhere).
        self.event_prefix = "%s.%x." % (dev[-6:], int.from_bytes(os.urandom(3), "big"))
        self.hello(now_ms)

    # -- sending -----------------------------------------------------------------------------------------
    def _send(self, msg, now_ms, q=-1):
        # q >= 0: msg carries the state, and q is how many events it holds that the tablet has not acked (the
        # tablet compares the state with its table only when it has taken every one of them); 0 goes unsaid.
        if q >= 0:
            msg["r"] = self.rev
            msg["s"] = self.get_snapshot()
            if q:
                msg["q"] = q
            if q > (msg["t"] == "ev"):  # more than an event itself: the tablet waits for a heartbeat saying 0
                self.owed = 1
        self.seq += 1
        msg["n"] = self.seq
        codec.frames(msg, self.seq, self.write)  # a write per frame, as each is made: no message-sized join
        self.last_tx = _ticks_ms() if now_ms is None else now_ms  # type: ignore[misc]

    def hello(self, now_ms):
        msg = {"t": "hello", "p": codec.PROTOCOL, "dev": self.dev, "fw": self.firmware}
        if self.on_wifi is not None:
            msg["w"] = self.on_wifi(None)  # the network it is set to, or "" (a radio, nothing set)
        self._send(msg, now_ms, len(self.outbox))

    def state_changed(self, now_ms=None):
        """Push the full state after a change made on the dashboard itself (no ack needed). After post_event
        nothing: the event carried the state it made (one message per change, so the tablet never sees the
        state without the action that made it)."""
        if self.carried == self.rev:
            self.carried = -1
            return
        self.rev += 1
        self._send({"t": "st"}, now_ms, len(self.outbox))

    def post_event(self, name, args, now_ms=None):
        """Queue an event for the tablet (e.g. a card played), made on the state as it is now: the event carries
        that state, so call it after the change and before state_changed(). Resent until acked. Returns its id."""
        if len(self.outbox) >= _MAX_OUTBOX:
            raise ValueError("event outbox full")
        eid = self.event_prefix + str(self.seq)
        # Sent at once, and queued only once sent: what could never be sent is refused (ValueError) here.
        self.rev += 1
        try:
            self._send({"t": "ev", "id": eid, "e": name, "a": args}, now_ms, len(self.outbox) + 1)
        except ValueError:
            self.rev -= 1
            raise
        self.carried = self.rev
        self.outbox.append([eid, name, args, self.last_tx])
        return eid

    def pending_events(self):
        """Unacknowledged events [[id, name, args], ...], to save if they must survive a restart."""
        return [e[:3] for e in self.outbox]

    def restore_events(self, events):
        for e in events:
            self.outbox.append([e[0], e[1], e[2], None])

    def done_ids(self):
        """The handled command ids to save atomically with the state (give them back as `done` at boot)."""
        return [list(d) for d in self.done]  # copies: the caller saves them

    def tablet_present(self, now_ms=None):
        """True if the tablet spoke in the last 3 s."""
        if now_ms is None:
            now_ms = _ticks_ms()  # type: ignore[misc]  # (the stubs' ticks type: an int on the board)
        return self.last_rx is not None and _ticks_diff(now_ms, self.last_rx) < _TABLET_GONE_MS  # type: ignore

    # -- receiving ---------------------------------------------------------------------------------------
    def feed(self, data, now_ms):
        """Bytes from the line, each message handled as it completes. Non-frames are skipped, bad frames
        dropped unanswered (the sender retries)."""
        reader = self.reader
        for b in data:  # byte by byte, in the reader's fixed buffer (the bulk feed is the tablet's)
            line = reader.feed_byte(b)
            if line is None:
                continue
            try:
                msg = codec.decode(line)
                self.last_rx = now_ms
                msg = reader.add(msg)
            except codec.FrameError:
                continue
            if msg is None:  # a fragment: the rest of its message is still to come
                continue
            t = msg["t"]
            if t == "cmd":
                self._command(msg, now_ms)
            elif t == "hi":
                self.hello(now_ms)
            elif t == "ack":
                eid = msg.get("id")
                for e in self.outbox:
                    if e[0] == eid:  # ids are unique: one to remove at most
                        self.outbox.remove(e)
                        if not self.outbox and self.owed:  # every event taken: the state last sent is whole
                            self.owed = 0
                            self._send({"t": "hb", "r": self.rev}, now_ms)
                        break
            elif t == "get":
                self._send({"t": "st"}, now_ms, len(self.outbox))
            elif t == "wifi":  # the network to join: kept apart from the state, never journaled nor echoed
                if self.on_wifi is not None:
                    answer = self.on_wifi(msg)
                else:
                    eid = msg.get("id")
                    eid = codec.clean_text(eid, _MAX_ID) if isinstance(eid, str) else ""
                    answer = {"t": "wifi", "id": eid, "e": "nowifi", "m": "this dashboard has no Wi-Fi"}
                msg = None  # the password goes no further
                self._send(answer, now_ms)
            elif t != "hb":
                eid = msg.get("id")
                eid = codec.clean_text(eid, 40) if isinstance(eid, str) else ""
                self._send({"t": "err", "id": eid, "e": "type",
                            "m": codec.clean_text("unknown message type " + t)}, now_ms)

    def _command(self, msg, now_ms):
        cid = msg.get("id")
        name = msg.get("c")
        args = msg.get("a", {})
        if (not isinstance(cid, str) or not cid or len(cid) > _MAX_ID or not isinstance(name, str)
                or not isinstance(args, dict)):
            cid = codec.clean_text(cid, _MAX_ID) if isinstance(cid, str) else ""
            self._send({"t": "err", "id": cid, "e": "proto", "m": "cmd needs id c a"}, now_ms)
            return
        dup = 1
        for it in self.done:
            if it[0] == cid:  # seen before: answer again, apply nothing
                if it[1]:
                    self._send({"t": "err", "id": cid, "dup": 1, "e": it[1], "m": "already refused"}, now_ms)
                    return
                break
        else:  # new: apply it
            dup = 0
            try:
                self.apply_command(name, args)
                outcome = ""
            except Exception as e:  # the handler refused, having changed nothing: tell the tablet why
                code = getattr(e, "code", None)
                outcome = (isinstance(code, str) and codec.clean_text(code, 16)) or "invalid"
                self._send({"t": "err", "id": cid, "e": outcome, "m": codec.clean_text(e)}, now_ms)
            self.done.append((cid, outcome))
            if len(self.done) > _DONE_KEPT:
                self.done.pop(0)
            if outcome:
                return
            self.rev += 1
            if self.on_journal is not None:
                self.on_journal(cid, name, args)  # kept before the ack: an ack always means "kept"
            if self.on_applied is not None:
                self.on_applied(self.done_ids())  # saved before the ack: an ack always means "kept"
        self._send({"t": "ack", "id": cid, "dup": dup}, now_ms, len(self.outbox))

    # -- time --------------------------------------------------------------------------------------------
    def tick(self, now_ms):
        """Resend due events and keep the heartbeat going. Call often (every loop pass)."""
        n = len(self.outbox)
        for e in self.outbox:
            if e[3] is None or _ticks_diff(now_ms, e[3]) >= _EVENT_RETRY_MS:
                self._send({"t": "ev", "id": e[0], "e": e[1], "a": e[2]}, now_ms, n)  # with the state as it is
                e[3] = now_ms
        if _ticks_diff(now_ms, self.last_tx) >= _HEARTBEAT_MS:  # type: ignore  # (ticks: an int on the board)
            hb = {"t": "hb", "r": self.rev}
            if n:
                hb["q"] = n  # events waiting: the state of revision r is not whole on the tablet yet
            self._send(hb, now_ms)
