"""A power cycle as Table.result makes one at the end of every race (cable out, dashboard killed and started again,
cable back in), with the tablet's port scanner held at the instant that once left dash-2 `link=lost` for good at
the end of tests/table/test_soak.py under load: the scanner has listed the ports; the cable is pulled and that
port's reader ends, which frees its pty number; the dashboard's new pty takes that number (Linux hands out the
lowest free one), so the listing now names the dashboard's own end of its line. A scanner that trusts that listing
opens it: pyserial sets VMIN 0 on the dashboard's tty and reads its input beside it, the firmware on the unix port
then reads no byte where poll said one was there, takes it for its stdin closed, and never answers a `hi` again
(its state still equal to the table's, nothing pending: what the failure showed).

On a real tablet the same listing would open whatever device took the node after the Pico left it. The scanner
must open a port only from a listing taken after that port's last reader ended.

Real parts (tests/table/table.py: the firmware on the `micropython` unix port behind its relay, the pyserial
Transport, the two-car `table` of conftest.py). Cost: about 3 s.
"""

import os
import termios
import threading

from tests.table.test_late_notes import wait


class HeldScan:
    """Hold the transport's scanner just after its next listing of the ports, until release(); records every key
    the transport opens from then on (PortSource.open)."""

    def __init__(self, source):
        self.held = threading.Event()
        self.go = threading.Event()
        self.opened = []
        self.scan, self.open = source.scan, source.open
        source.scan, source.open = self._scan, self._open

    def _scan(self):
        ports = self.scan()
        if not self.held.is_set():
            self.held.set()
            self.go.wait(20)
        return ports

    def _open(self, key):
        self.opened.append(key)
        return self.open(key)

    def release(self):
        self.go.set()


def _number(path):
    return int(path.rsplit("/", 1)[1])


def _hold_ptys_below(path):
    """Open a pty for every free number below path's, so that the next pty opened gets path; returns their fds
    (None when path's number is no longer free: taken by another process on this machine)."""
    held = []
    while True:
        m, s = os.openpty()
        name = os.ttyname(s)
        if name == path:
            os.close(m)
            os.close(s)
            return held
        held += [m, s]
        if _number(name) > _number(path):
            for fd in held:
                os.close(fd)
            return None


def _restart_on(seat, path, attempts=5):
    """Kill the dashboard and start it again on a new pty at `path` (the tablet's old port)."""
    for _ in range(attempts):
        seat.kill()
        held = _hold_ptys_below(path)
        try:
            seat.start()
        finally:
            for fd in held or ():
                os.close(fd)
        if seat.tty == path:
            return
    raise AssertionError("the dashboard's pty never got %s (another process took the number)" % path)


def test_a_port_listed_before_its_cable_was_pulled_is_not_opened_after(table):
    t = table.transport
    s = table.seats[1]
    old = s.relay.path
    reader = t.workers[old]
    hold = HeldScan(t.source)
    try:
        assert hold.held.wait(20)  # the scanner has listed the ports: the old port among them
        s.unplug()
        assert wait(lambda: not reader.thread.is_alive())  # its reader saw the cable go and closed the port
        _restart_on(s, old)  # the power cycle: the dashboard's own tty now at the path the listing names
        s.plug()
    finally:
        hold.release()
    table.settle()
    assert s.tty not in hold.opened, hold.opened
    assert termios.tcgetattr(s.master)[6][termios.VMIN] == 1  # its line as the harness set it (raw, VMIN 1)
