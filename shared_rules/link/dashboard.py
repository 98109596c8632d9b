# The dashboard's half of the protocol, free of I/O: bytes in, frames out, time passed in by the caller.
from shared_rules.link import codec
from shared_rules.link.ids import IdRing

HEARTBEAT_MS = 1000  # send a heartbeat after this long without sending anything
TABLET_GONE_MS = 3000  # no frame from the tablet for this long: show "no tablet"
EVENT_RETRY_MS = 500  # resend an unacknowledged event this often
MAX_OUTBOX = 16


try:
    from time import ticks_diff as _ticks_diff  # type: ignore  # MicroPython: ticks_ms wraps, this does not
except ImportError:  # CPython: plain milliseconds

    def _ticks_diff(a, b):
        return a - b


class DashboardProtocol:
    """Applies tablet commands at most once and keeps the tablet told about this dashboard.

    get_snapshot() -> dict of the player's state; apply_command(name, args) applies a tablet command or raises
    (RuleError or ValueError) having changed nothing; on_applied(done) is called after a command changed the
    state and BEFORE the ack goes out, with the ids to save together with that state (see done_ids).
    on_journal(cid, name, args), if given, is called there too, before on_applied: the command just applied, for
    a dashboard that journals commands (one appended line) instead of saving its whole state before each ack.
    write(data) sends whole frames (one or several, each ending in a newline).
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
        self.done = IdRing(64, done)
        self.reader = codec.LineReader()
        self.assembler = codec.Assembler()
        self.seq = 0
        self.rev = 0  # counts state changes this boot; heartbeats carry it so the tablet notices a missed one
        self.last_tx = now_ms
        self.last_rx = None
        self.outbox = []  # [event_id, name, args, last_sent_ms or None]
        self.event_count = 0
        self.event_prefix = "%s.%x." % (device_id[-6:], _boot_nonce())
        self.bad_frames = 0
        self.hello(now_ms)

    # -- sending -----------------------------------------------------------------------------------------
    def _send(self, msg, now_ms):
        self.seq += 1
        msg["n"] = self.seq
        self.write(b"".join(codec.frames(msg, self.seq)))  # one write: fragments leave together
        self.last_tx = now_ms

    def hello(self, now_ms):
        self._send({"t": "hello", "p": codec.PROTOCOL, "dev": self.device_id, "fw": self.firmware,
                    "r": self.rev, "s": self.get_snapshot()}, now_ms)

    def state_changed(self, now_ms):
        """Push the full state after a change made on the dashboard itself (no ack needed)."""
        self.rev += 1
        self._send_state(now_ms)

    def _send_state(self, now_ms):
        self._send({"t": "st", "r": self.rev, "s": self.get_snapshot()}, now_ms)

    def post_event(self, name, args, now_ms):
        """Queue an event for the tablet (e.g. a card played); resent until acked. Returns its id."""
        if len(self.outbox) >= MAX_OUTBOX:
            raise ValueError("event outbox full")
        codec.canonical(args)  # refuse now what could never be sent
        self.event_count += 1
        eid = self.event_prefix + str(self.event_count)
        self.outbox.append([eid, name, args, None])
        self.tick(now_ms)
        return eid

    def pending_events(self):
        """Unacknowledged events [[id, name, args], ...], to save if they must survive a restart."""
        return [[e[0], e[1], e[2]] for e in self.outbox]

    def restore_events(self, events):
        for e in events:
            self.outbox.append([e[0], e[1], e[2], None])

    def done_ids(self):
        """The handled command ids to save atomically with the state (give them back as `done` at boot)."""
        return self.done.dump()

    def tablet_present(self, now_ms):
        return self.last_rx is not None and _ticks_diff(now_ms, self.last_rx) < TABLET_GONE_MS

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
        msg = self.assembler.add(msg)
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
            self.outbox = [e for e in self.outbox if e[0] != eid]
        elif t == "get":
            self._send_state(now_ms)
        elif t == "hb":
            pass
        else:
            self._send({"t": "err", "id": _str_or(msg.get("id"), ""), "e": "type",
                        "m": codec.clean_text("unknown message type " + t)}, now_ms)

    def _command(self, msg, now_ms):
        cid = msg.get("id")
        name = msg.get("c")
        args = msg.get("a", {})
        if not isinstance(cid, str) or not cid or not isinstance(name, str) or not isinstance(args, dict):
            self._send({"t": "err", "id": _str_or(cid, ""), "e": "proto", "m": "cmd needs id c a"}, now_ms)
            return
        outcome = self.done.get(cid)
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
            self.done.add(cid, code)
            self._send({"t": "err", "id": cid, "e": code, "m": codec.clean_text(e)}, now_ms)
            return
        self.done.add(cid, "")
        self.rev += 1
        if self.on_journal is not None:
            self.on_journal(cid, name, args)  # kept before the ack: an ack always means "kept"
        if self.on_applied is not None:
            self.on_applied(self.done.dump())  # saved before the ack: an ack always means "kept"
        self._send({"t": "ack", "id": cid, "dup": 0, "r": self.rev, "s": self.get_snapshot()}, now_ms)

    # -- time --------------------------------------------------------------------------------------------
    def tick(self, now_ms):
        """Resend due events and keep the heartbeat going. Call often (every loop pass)."""
        for e in self.outbox:
            if e[3] is None or _ticks_diff(now_ms, e[3]) >= EVENT_RETRY_MS:
                self._send({"t": "ev", "id": e[0], "e": e[1], "a": e[2]}, now_ms)
                e[3] = now_ms
        if _ticks_diff(now_ms, self.last_tx) >= HEARTBEAT_MS:
            self._send({"t": "hb", "r": self.rev}, now_ms)


def _str_or(v, default):
    return codec.clean_text(v, 40) if isinstance(v, str) else default


def _boot_nonce():
    # Event ids must not repeat after a restart; a random 24-bit boot number makes that practically certain.
    try:
        import os

        return int.from_bytes(os.urandom(3), "big")
    except Exception:
        import random

        return random.getrandbits(24)
