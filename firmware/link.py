# The dashboard's end of the USB serial link: polls stdin without ever blocking, one byte at a time
# (the Pico's sys.stdin.read(n) blocks until n bytes arrive), and writes frames to stdout.
# The protocol itself lives in shared_rules.link.dashboard; this class only moves bytes and time.
import select
import sys
import time

from micropython import const
from shared_rules.link.dashboard import DashboardProtocol

_FIRMWARE = const("0.1.0")


def _now():
    return int(time.ticks_ms())  # type: ignore[arg-type]
_MAX_BYTES_PER_POLL = const(512)  # one USB receive buffer; then let the game loop run


def device_id():
    """machine.unique_id() as hex on the Pico; on the unix port $F1_DASH_ID (tests), else a fixed name."""
    try:
        import machine

        return "".join("%02x" % b for b in machine.unique_id())  # type: ignore[attr-defined]
    except (ImportError, AttributeError):
        pass
    try:
        import os

        v = os.getenv("F1_DASH_ID")  # type: ignore[attr-defined]
        if v:
            return v
    except (ImportError, AttributeError):
        pass
    return "unix-dashboard"


class DashboardLink:
    """The tablet link of one dashboard.

    link = DashboardLink(get_snapshot, apply_command, on_applied=save, done=saved_ids)
      get_snapshot() -> dict              the player's full state (Car.snapshot())
      apply_command(name, args)           apply a tablet command or raise RuleError having changed nothing
      on_applied(done_ids)                save state + done_ids atomically; called before the ack is sent
      on_journal(cid, name, args)         or: journal the applied command (firmware/journal.py), before the ack
      done                                the done_ids saved last time (repeats after a restart are dropped)
    link.poll(timeout_ms)                 call every loop pass: reads what arrived, answers, heartbeats
    link.feed(data)                       bytes that arrived some other way (same handling as poll's)
    link.state_changed()                  the player changed something on the dashboard: push the state
    link.post_event(name, args)           an event for the tablet, resent until acknowledged
    link.done_ids()                       what to save with the state at any other save
    link.pending_events() / restore_events(saved)   the unacknowledged events, to save and restore
    link.tablet_present()                 1 if the tablet spoke in the last 3 s
    link.eof                              unix port only: stdin closed, stop the loop
    """

    def __init__(self, get_snapshot, apply_command, on_applied=None, done=(), dev=None,
                 stdin=None, stdout=None, on_journal=None):
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer
        self.eof = False
        self.poller = select.poll()
        self.poller.register(stdin or sys.stdin, select.POLLIN)
        self.proto = DashboardProtocol(dev or device_id(), _FIRMWARE, get_snapshot, apply_command, self._write,
                                       on_applied, done, _now(), on_journal)

    def _write(self, frame):
        self.stdout.write(frame)
        try:
            self.stdout.flush()  # type: ignore[attr-defined]
        except AttributeError:
            pass

    def poll(self, timeout_ms=0):
        """Wait up to timeout_ms for input, handle every byte already there, then do timed work."""
        n = 0
        wait = timeout_ms
        reader = self.proto.reader
        while n < _MAX_BYTES_PER_POLL and self.poller.poll(wait):
            wait = 0
            try:
                b = self.stdin.read(1)
            except OSError:  # unix port: the other end of the pty went away
                b = None
            if not b:
                self.eof = True  # never on a Pico; on the unix port the caller stops
                break
            n += 1
            # One byte at a time, so the byte path is feed_byte's (no slices, no garbage per byte); the
            # protocol sees only whole lines, exactly as proto.feed would hand them over.
            line = reader.feed_byte(b[0])
            if line is not None:
                self.proto.feed_line(line, _now())
        self.proto.tick(_now())
        return n

    def feed(self, data):
        """Bytes that arrived some other way (tests, another transport): handled as if read from stdin."""
        self.proto.feed(data, _now())

    def state_changed(self):
        self.proto.state_changed(_now())

    def post_event(self, name, args):
        return self.proto.post_event(name, args, _now())

    def done_ids(self):
        return self.proto.done_ids()

    def pending_events(self):
        """Events not yet acknowledged by the tablet: save them with the state to resend after a restart."""
        return self.proto.pending_events()

    def restore_events(self, events):
        self.proto.restore_events(events)

    def tablet_present(self):
        return 1 if self.proto.tablet_present(_now()) else 0
