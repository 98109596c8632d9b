"""The tablet's reader of a virtual dashboard's viewer channel (companion/virtual.py). A dashboard killed while it
writes its state line (the app quitting, a crash) leaves that line cut short; the reader drops it and keeps
what it had, instead of dying on it (seen once in a soak: JSONDecodeError in thread virtual-virtual-2)."""

import os
import socket
import subprocess
import threading

from companion.virtual import VirtualDashboard

WHOLE = b'S {"car": {"seat": 0}, "mode": 0, "saves": 1, "free": 1000}\n'


def _serve(path, lines):
    """A stand-in for the dashboard's side of the channel: one client, these bytes, then closed."""
    ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ls.bind(path)
    ls.listen(1)

    def run():
        conn, _ = ls.accept()
        for line in lines:
            conn.sendall(line)
        conn.close()
        ls.close()

    threading.Thread(target=run, daemon=True).start()


def _read(tmp_path, lines):
    d = VirtualDashboard(str(tmp_path), "virtual-9")
    d.sock_path = os.path.join(str(tmp_path), "viewer.sock")
    _serve(d.sock_path, lines)
    d.proc = subprocess.Popen(["sleep", "30"])  # the reader reads while its dashboard's process runs
    try:
        d._viewer()  # returns at the end of the channel
    finally:
        d.proc.kill()
        d.proc.wait()
    return d


def test_a_state_line_cut_short_by_a_killed_dashboard_is_dropped(tmp_path):
    d = _read(tmp_path, [WHOLE, b'S {"car": '])
    assert d.state == {"car": {"seat": 0}, "mode": 0, "saves": 1, "free": 1000}


def test_a_line_the_reader_cannot_parse_changes_nothing_and_the_next_is_taken(tmp_path):
    d = _read(tmp_path, [b"S {not json\n", b"G 0 zz\n", b"F x\n", WHOLE, b"F 3\n"])
    assert d.state["saves"] == 1 and d.frame == 3
