# A stand-in for MicroPython's `network` module on the unix port, used only by tests: the Wi-Fi radio is the one
# piece of a Pico W that cannot exist here. Tests put a `network.py` that star-imports this on MICROPYPATH; nothing
# else imports it, and a plain Pico's firmware never asks for `network` at all.
#
# The air is a small JSON file whose path is $F1_AIR (rewritten whole by the test, atomically):
#   {"ssid": "track", "password": "...", "join_ms": 300, "up": true}
# A station that connects with the right name and password gets an address join_ms later; a wrong password ends in
# STAT_WRONG_PASSWORD, an unknown name in STAT_NO_AP_FOUND; "up": false drops every station (isconnected() turns
# false) until it is true again, when a station that was joined joins again by itself, as a real one does.
import json
import os
import time

STA_IF = 0
AP_IF = 1
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_WRONG_PASSWORD = -3
STAT_NO_AP_FOUND = -2
STAT_CONNECT_FAIL = -1
STAT_GOT_IP = 3

_READ_EVERY_MS = 50  # the air file is read at most this often (a status poll costs no file read each time)


def _air():
    try:
        with open(os.getenv("F1_AIR") or "air.json") as f:  # type: ignore[attr-defined]
            return json.load(f)
    except (OSError, ValueError):
        return {}  # no air file (or caught mid-write by a reader elsewhere): no network


class WLAN:
    def __init__(self, interface=STA_IF):
        self._active = False
        self._ssid = None
        self._password = None
        self._since = None  # ticks_ms when the join started (or the network came back)
        self._air = {}
        self._read_at = None

    def active(self, on=None):
        if on is None:
            return self._active
        self._active = bool(on)
        if not on:
            self.disconnect()
        return None

    def connect(self, ssid, key=None):
        self._ssid = ssid
        self._password = key
        self._since = time.ticks_ms()

    def disconnect(self):
        self._ssid = None
        self._since = None

    def _read(self):
        now = time.ticks_ms()
        if self._read_at is None or time.ticks_diff(now, self._read_at) >= _READ_EVERY_MS:
            was_up = self._air.get("up", False)
            self._air = _air()
            self._read_at = now
            if self._air.get("up") and not was_up and self._since is not None:
                self._since = now  # the network came back: the join takes its time again
        return self._air

    def status(self, param=None):
        if param == "rssi":
            return -55 if self.isconnected() else 0
        if not self._active or self._since is None:
            return STAT_IDLE
        air = self._read()
        if not air.get("up") or air.get("ssid") != self._ssid:
            return STAT_NO_AP_FOUND
        if air.get("password") != self._password:
            return STAT_WRONG_PASSWORD
        if time.ticks_diff(time.ticks_ms(), self._since) < air.get("join_ms", 0):
            return STAT_CONNECTING
        return STAT_GOT_IP

    def isconnected(self):
        return self.status() == STAT_GOT_IP

    def ifconfig(self):
        return ("127.0.0.1", "255.0.0.0", "127.0.0.1", "127.0.0.1")
