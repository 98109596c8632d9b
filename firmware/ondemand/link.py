# The dashboard's end of the USB serial link: polls stdin without ever blocking, one byte at a time
# (the Pico's sys.stdin.read(n) blocks until n bytes arrive), and writes frames to stdout.
# The protocol itself lives in shared_rules.link.dashboard; this class only moves bytes and time.
import select
import sys
from time import ticks_ms as _now  # the protocol's clock: it wraps, the protocol compares with ticks_diff

from micropython import const
from shared_rules.link.dashboard import DashboardProtocol

_FIRMWARE = const("0.2.0")
_MAX_BYTES_PER_POLL = const(512)  # one USB receive buffer; then let the game loop run


def _device_id():
    """machine.unique_id() as hex on a Pico; on the unix port (no unique_id) $F1_DASH_ID, which tests set."""
    import machine

    try:
        return machine.unique_id().hex()  # type: ignore[attr-defined]
    except AttributeError:
        import os

        return os.getenv("F1_DASH_ID") or "unix-dashboard"  # type: ignore[attr-defined]


def take_seat(tablet, keeper, make):
    """One link at a time (USB, or a Pico W's Wi-Fi: firmware/app.py's Tablet): the link make(done ids) takes the seat
    from the one before, with its unacknowledged events, and the one before closes. The journal goes on (opened once):
    nothing lost or doubled. Returns the new link."""
    if keeper.journal is None:
        keeper.open_journal()
    done, events = tablet.kept_now()
    if tablet.link is not None:
        tablet.link.close()
    tablet.kept = ([], [])  # the link keeps them from here on
    link = tablet.link = make(done)
    if events:
        link.restore_events(events)
    return link


class DashboardLink(DashboardProtocol):
    """The tablet link of one dashboard: the protocol (shared_rules.link.dashboard) on stdin/stdout. A subclass,
    not a wrapper, so the protocol's methods cost no heap of their own here; those the app calls without a time
    (state_changed, post_event, tablet_present) read the board's ticks_ms themselves.

    link = DashboardLink(get_snapshot, apply_command, on_applied=save, done=saved_ids)
      get_snapshot() -> dict              the player's state (the app's report: Car.snapshot(), or an F5 seat)
      apply_command(name, args)           apply a tablet command or raise RuleError having changed nothing
      on_applied(done_ids)                save state + done_ids atomically; called before the ack is sent
      on_journal(cid, name, args)         or: journal the applied command (firmware/ondemand/journal.py), before the ack
      done                                the done_ids saved last time (repeats after a restart are dropped)
      dev                                 the dashboard id; default machine.unique_id() as hex on the Pico, on
                                          the unix port $F1_DASH_ID (tests), else "unix-dashboard"
    link.poll(timeout_ms)                 call every loop pass: reads what arrived, answers, heartbeats
    link.post_event(name, args)           a player's action for the tablet, right after the change: it carries
                                          the state it made; resent until acknowledged
    link.state_changed()                  the player changed something on the dashboard: push the state (after
                                          a post_event it sends nothing: the event carried it)
    link.done_ids()                       what to save with the state at any other save
    link.pending_events() / restore_events(saved)   the unacknowledged events, to save and restore
    link.tablet_present()                 true if the tablet spoke in the last 3 s
    link.feed(data, now_ms)               bytes that arrived some other way (same handling as poll's)
    link.eof                              unix port only: stdin closed, stop the loop
    link.usb                              1: the USB link (a Pico W's Wi-Fi link has 0, firmware/ondemand/wifi_link.py)
    on_wifi                               a Pico W's answer to the table's `wifi` message (DashboardProtocol)
    """

    usb = 1

    def __init__(self, get_snapshot, apply_command, on_applied=None, done=(), dev=None,
                 stdin=None, stdout=None, on_journal=None, on_wifi=None):
        self.stdin = stdin or sys.stdin.buffer
        self.poller = select.poll()
        self.poller.register(stdin or sys.stdin, select.POLLIN)
        self.eof = False  # unix port: stdin closed (never on a Pico)
        if not dev:
            dev = _device_id()
        # Frames go straight to the stream's write: MicroPython's stdout (USB on a Pico, a file descriptor on
        # the unix port) buffers nothing, so there is nothing to flush and no method of our own to hold heap.
        write = (stdout or sys.stdout.buffer).write
        DashboardProtocol.__init__(self, dev, _FIRMWARE, get_snapshot, apply_command, write, on_applied, done,
                                   on_journal=on_journal, on_wifi=on_wifi)  # no time: the protocol reads the board's

    def close(self):
        """Another link takes the seat (a Pico W's Wi-Fi): the cable stays, nothing to close."""

    def poll(self, timeout_ms=0):
        """Wait up to timeout_ms for input, handle every byte already there, then do timed work."""
        n = 0
        wait = timeout_ms
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
            self.feed(b, _now())  # one byte: the reader keeps the line in its fixed buffer, no slices
        self.tick(_now())
        return n
