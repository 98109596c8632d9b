"""A player's press never waits for the network: a Pico W whose table cannot be reached (a black hole: the packets go
nowhere, nobody says no) still answers its buttons at once, while its Wi-Fi link keeps trying to reach the table.

The whole dashboard app (firmware/main.py, the host board) on the `micropython` unix port with the stand-in radio, a
network stored as pairing stores it, and the table's beacon pointing at a loopback black hole of one of two kinds:
- "connect": a listening socket whose backlog is full, so the dashboard's connect is never answered (SYN dropped);
- "upgrade": a socket that accepts the connection, reads the WebSocket request and never answers it.
The press is made while the dashboard's dial into that hole is in progress. Its frame must come while that same dial
still waits (the order of the two events, not a time): a dashboard whose loop stopped for the dial answers the press
only once the dial has given up."""

import json
import os
import socket
import threading

import pytest

from companion.dashboards_wifi import Beacon
from tests.firmware.dash import VirtualDashboard
from tests.wait import until
from tests.wifi.harness import STANDIN, Air

SSID, PASSWORD, TABLE = "track", "correct horse battery", "table-hole"
_SYN_SENT = "02"  # /proc/net/tcp's state of a connect not answered yet


def _free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _connects_to(port):
    """Local ports of this machine's loopback TCP sockets still connecting to 127.0.0.1:port (/proc/net/tcp)."""
    want = "0100007F:%04X" % port
    found = set()
    with open("/proc/net/tcp") as f:
        next(f)
        for line in f:
            fields = line.split()
            if fields[2] == want and fields[3] == _SYN_SENT:
                found.add(fields[1])
    return found


class ConnectHole:
    """A loopback port whose listener's backlog is full: a connect to it is never answered (its SYNs are dropped)."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(0)
        self.port = self.listener.getsockname()[1]
        self.filler = socket.create_connection(("127.0.0.1", self.port), timeout=5)  # the one place in the queue
        self.dial = None

    def dialling(self):
        """The dashboard's connect, once it is waiting in the hole (its local port)."""
        pending = _connects_to(self.port)
        self.dial = next(iter(pending)) if len(pending) == 1 else None
        return self.dial

    def still_dialling(self):
        return self.dial in _connects_to(self.port)

    def close(self):
        self.filler.close()
        self.listener.close()


class UpgradeHole:
    """A loopback port that takes the connection and the WebSocket request, and never answers."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]
        self.dials = []  # each connection whose request has come in whole
        self.dial = None
        self.held = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(conn)
            threading.Thread(target=self._take_request, args=(conn,), daemon=True).start()

    def _take_request(self, conn):
        got = b""
        try:
            while b"\r\n\r\n" not in got:
                data = conn.recv(1024)
                if not data:
                    return
                got += data
        except OSError:
            return
        self.dials.append(conn)

    def dialling(self):
        """The dashboard's latest dial whose request came in, while it waits for the answer."""
        self.dial = self.dials[-1] if self.dials and conn_open(self.dials[-1]) else None
        return self.dial

    def still_dialling(self):
        """That dial's connection open and silent: the dashboard has not given it up."""
        return self.dial is not None and conn_open(self.dial)

    def close(self):
        self.listener.close()
        for conn in self.held:
            conn.close()


def conn_open(conn):
    try:
        return conn.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:
        return True  # nothing to read, and no end either
    except OSError:
        return False


@pytest.mark.parametrize("kind", ["connect", "upgrade"])
def test_a_press_is_answered_while_the_dial_into_a_black_hole_still_waits(tmp_path, kind):
    hole = ConnectHole() if kind == "connect" else UpgradeHole()
    (tmp_path / "air").mkdir()
    air = Air(tmp_path / "air", ssid=SSID, password=PASSWORD, join_ms=0)
    with open(os.path.join(str(tmp_path), "wifi.json"), "w") as f:  # as pairing stored it
        json.dump({"ssid": SSID, "password": PASSWORD, "table": TABLE, "key": "k" * 26}, f)
    beacon_port = _free_udp_port()
    beacon = Beacon(TABLE, hole.port, to=[("127.0.0.1", beacon_port)], every_s=0.2).start()
    d = VirtualDashboard(str(tmp_path), dev="picow-hole", path_extra=(STANDIN,),
                         env={"F1_AIR": air.path, "F1_BEACON": "127.0.0.1:%d" % beacon_port})
    try:
        d.start()
        # A test process stalled for the dial's whole 3 s (a loaded machine) looks again at the next dial; a dashboard
        # whose loop waits for its dial answers no press before the dial ends, however many times it is tried.
        for key in ("OK", "BACK", "OK"):
            until(hole.dialling, 20, "the dashboard dialling the table's address (the black hole)")
            before = d.rows()
            frames = d.frames
            d.tap(key)  # answered: its A line comes once the press is handled, its frame drawn and saved
            assert d.frames > frames and d.rows() != before, "the press changed nothing on the screen"
            if hole.still_dialling():
                break
        else:
            raise AssertionError("each press was answered only after the dial into the black hole gave up")
        until(lambda: not hole.still_dialling(), 20, "the dial into the black hole given up at its deadline")
    finally:
        d.kill()
        beacon.stop()
        hole.close()
