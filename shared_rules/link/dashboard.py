# The dashboard's half of the protocol, free of I/O: bytes in, frames out, time passed in by the caller.
# Every function and module-level name here is heap on a Pico: helpers used once are written in place.
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

try:
    from time import ticks_diff as _ticks_diff  # type: ignore  # MicroPython: ticks_ms wraps, this does not
except ImportError:  # CPython: plain milliseconds, a - b (no function of our own: it would be heap on a Pico)
    _ticks_diff = int.__sub__


class DashboardProtocol:
    """Applies tablet commands at most once and keeps the tablet told about this dashboard.

    get_snapshot() -> dict of the player's state; apply_command(name, args) applies a tablet command or raises
    (RuleError or ValueError) having changed nothing; on_applied(done) is called after a command changed the
    state and BEFORE the ack goes out, with the ids to save together with that state (see done_ids).
    on_journal(cid, name, args), if given, is called there too, before on_applied: the command just applied, for
    a dashboard that journals commands (one appended line) instead of saving its whole state before each ack.
    write(frame) sends one whole frame (bytes ending in a newline); a fragmented message is several calls in a row.
    """

    def __init__(self, device_id, firmware, get_snapshot, apply_command, write, on_applied=None, done=(),
                 now_ms=0, on_journal=None):
        self.device_id = device_id
        self.firmware = firmware
        self.get_snapshot = get_snapshot
        self.apply_command = apply_command
        self.write = write
        self.on_applied = on_applied
        self.on_journal = on_journal
        self.done = []  # [id, outcome] of the last _DONE_KEPT commands handled, oldest first (see _seen)
        for it in done:
            self._seen(it[0], it[1])
        self.reader = codec.Receiver()  # lines out of the byte stream, and fragments put back together
        self.seq = 0
        self.rev = 0  # counts state changes this boot; heartbeats carry it so the tablet notices a missed one
        self.last_tx = now_ms
        self.last_rx = None
        self.outbox = []  # [event_id, name, args, last_sent_ms or None]
        self.event_count = 0
        # Event ids must not repeat after a restart; a random 24-bit boot number makes that practically certain.
        try:
            import os

            nonce = int.from_bytes(os.urandom(3), "big")
        except Exception:
            import random

            nonce = random.getrandbits(24)
        self.event_prefix = "%s.%x." % (device_id[-6:], nonce)
        self.bad_frames = 0
        self.hello(now_ms)

    # -- sending -----------------------------------------------------------------------------------------
    def _send(self, msg, now_ms):
        self.seq += 1
        msg["n"] = self.seq
        codec.frames(msg, self.seq, self.write)  # a write per frame, as each is made: no message-sized join
        self.last_tx = now_ms

    def hello(self, now_ms):
        self._send({"t": "hello", "p": codec.PROTOCOL, "dev": self.device_id, "fw": self.firmware,
                    "r": self.rev, "s": self.get_snapshot()}, now_ms)

    def state_changed(self, now_ms):
        """Push the full state after a change made on the dashboard itself (no ack needed)."""
        self.rev += 1
        self._send({"t": "st", "r": self.rev, "s": self.get_snapshot()}, now_ms)

    def post_event(self, name, args, now_ms):
        """Queue an event for the tablet (e.g. a card played); resent until acked. Returns its id."""
        if len(self.outbox) >= _MAX_OUTBOX:
            raise ValueError("event outbox full")
        codec.canonical(args)  # refuse now what could never be sent
        self.event_count += 1
        eid = self.event_prefix + str(self.event_count)
        self.outbox.append([eid, name, args, None])
        self.tick(now_ms)
        return eid

    def pending_events(self):
        """Unacknowledged events [[id, name, args], ...], to save if they must survive a restart."""
        out = []  # a loop, not a comprehension: that would be one more function's code on the Pico's heap
        for e in self.outbox:
            out.append(e[:3])
        return out

    def restore_events(self, events):
        for e in events:
            self.outbox.append([e[0], e[1], e[2], None])

    def done_ids(self):
        """The handled command ids to save atomically with the state (give them back as `done` at boot)."""
        return list(map(list, self.done))  # copies (map, not a comprehension: no extra code object)

    def _seen(self, cid, outcome=None):
        """The outcome recorded for cid ("" applied, else the error code), or None if cid is new; a new cid
        given an outcome is recorded, the oldest dropped past _DONE_KEPT."""
        for it in self.done:
            if it[0] == cid:
                return it[1]
        if outcome is not None:
            self.done.append([cid, outcome])
            if len(self.done) > _DONE_KEPT:
                self.done.pop(0)
        return None

    def tablet_present(self, now_ms):
        return self.last_rx is not None and _ticks_diff(now_ms, self.last_rx) < _TABLET_GONE_MS

    # -- receiving ---------------------------------------------------------------------------------------
    def feed(self, data, now_ms):
        """Bytes from the line. Non-frames are skipped, bad frames dropped (the sender retries)."""
        for b in data:  # byte by byte, as firmware/link.py reads the line (the bulk feed is the tablet's)
            line = self.reader.feed_byte(b)
            if line is not None:
                self.feed_line(line, now_ms)

    def feed_line(self, line, now_ms):
        try:
            msg = codec.decode(line)
        except codec.FrameError:
            self.bad_frames += 1
            return
        self.last_rx = now_ms
        msg = self.reader.add(msg)
        if msg is not None:
            self.handle(msg, now_ms)

    def handle(self, msg, now_ms):
        t = msg["t"]
        if t == "cmd":
            self._command(msg, now_ms)
        elif t == "hi":
            self.hello(now_ms)
        elif t == "ack":
            eid = msg.get("id")
            for e in self.outbox[:]:  # a loop, not a comprehension: no extra code object on the Pico
                if e[0] == eid:
                    self.outbox.remove(e)
        elif t == "get":
            self._send({"t": "st", "r": self.rev, "s": self.get_snapshot()}, now_ms)
        elif t == "hb":
            pass
        else:
            eid = msg.get("id")
            eid = codec.clean_text(eid, 40) if isinstance(eid, str) else ""
            self._send({"t": "err", "id": eid, "e": "type",
                        "m": codec.clean_text("unknown message type " + t)}, now_ms)

    def _command(self, msg, now_ms):
        cid = msg.get("id")
        name = msg.get("c")
        args = msg.get("a", {})
        if not isinstance(cid, str) or not cid or not isinstance(name, str) or not isinstance(args, dict):
            cid = codec.clean_text(cid, 40) if isinstance(cid, str) else ""
            self._send({"t": "err", "id": cid, "e": "proto", "m": "cmd needs id c a"}, now_ms)
            return
        outcome = self._seen(cid)
        if outcome is not None:  # seen before: answer again, apply nothing
            if outcome == "":
                self._send({"t": "ack", "id": cid, "dup": 1, "r": self.rev, "s": self.get_snapshot()}, now_ms)
            else:
                self._send({"t": "err", "id": cid, "dup": 1, "e": outcome, "m": "already refused"}, now_ms)
            return
        try:
            self.apply_command(name, args)
        except Exception as e:  # the handler refused, having changed nothing: tell the tablet why
            code = getattr(e, "code", None)
            code = code if isinstance(code, str) else "invalid"
            code = codec.clean_text(code, 16) or "invalid"
            self._seen(cid, code)
            self._send({"t": "err", "id": cid, "e": code, "m": codec.clean_text(e)}, now_ms)
            return
        self._seen(cid, "")
        self.rev += 1
        if self.on_journal is not None:
            self.on_journal(cid, name, args)  # kept before the ack: an ack always means "kept"
        if self.on_applied is not None:
            self.on_applied(self.done_ids())  # saved before the ack: an ack always means "kept"
        self._send({"t": "ack", "id": cid, "dup": 0, "r": self.rev, "s": self.get_snapshot()}, now_ms)

    # -- time --------------------------------------------------------------------------------------------
    def tick(self, now_ms):
        """Resend due events and keep the heartbeat going. Call often (every loop pass)."""
        for e in self.outbox:
            if e[3] is None or _ticks_diff(now_ms, e[3]) >= _EVENT_RETRY_MS:
                self._send({"t": "ev", "id": e[0], "e": e[1], "a": e[2]}, now_ms)
                e[3] = now_ms
        if _ticks_diff(now_ms, self.last_tx) >= _HEARTBEAT_MS:
            self._send({"t": "hb", "r": self.rev}, now_ms)

