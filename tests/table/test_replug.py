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
import time
import tty

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


def _keep(path):
    """An fd of the pty at `path`: its number stays taken while this is open, whoever else closes their ends."""
    return os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)


def _pty_at(path, kept):
    """A raw pty whose slave is `path`, whose number the test has `kept` until now. Linux hands out the lowest
    free number: every pty opened on the way (a number below path's that was free, or that another process freed
    meanwhile) is held until path's is reached. (This test once let the number go free first, and on a busy
    machine another process opening a pty, a second test run beside it, took it: 1 whole run in 20.)"""
    held = []
    try:
        os.close(kept)  # the kernel frees the number a moment later, on its own time (the node goes with it)
        end = time.monotonic() + 5
        while True:
            m, s = os.openpty()
            name = os.ttyname(s)
            if name == path:
                tty.setraw(s)
                tty.setraw(m)
                return m, s
            if _number(name) < _number(path):
                held += [m, s]  # a lower number, free or freed by another process meanwhile
                continue
            os.close(m)
            os.close(s)
            assert time.monotonic() < end, "%s was not freed (or another process holds it now)" % path
            time.sleep(0.001)  # the poll period: not freed yet, or freed and taken by another process (then it is there again)
    finally:
        for fd in held:
            os.close(fd)


def _restart_on(seat, path, kept):
    """Kill the dashboard and start it again on a new pty at `path` (the tablet's old port)."""
    seat.kill()
    seat.start(pty=_pty_at(path, kept))
    assert seat.tty == path


def test_a_port_listed_before_its_cable_was_pulled_is_not_opened_after(table):
    t = table.transport
    s = table.seats[1]
    old = s.relay.path
    reader = t.workers[old]
    hold = HeldScan(t.source)
    try:
        assert hold.held.wait(20)  # the scanner has listed the ports: the old port among them
        kept = _keep(old)
        s.unplug()
        assert wait(lambda: not reader.thread.is_alive())  # its reader saw the cable go and closed the port
        _restart_on(s, old, kept)  # the power cycle: the dashboard's own tty now at the path the listing names
        s.plug()
    finally:
        hold.release()
    table.settle()
    assert s.tty not in hold.opened, hold.opened
    assert termios.tcgetattr(s.master)[6][termios.VMIN] == 1  # its line as the harness set it (raw, VMIN 1)
