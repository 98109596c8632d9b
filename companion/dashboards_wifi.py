"""The table's side of Wi-Fi dashboards (Pico W): each dashboard's key, and the beacon that lets a dashboard find its
table after the tablet's address changed.

A dashboard links on the phones' server (companion/phones/server.py) at /dashboard/<key>/link, with the key made for
it at pairing (new_key(), as random as a phone seat's token); PhoneServer.serve_dashboards({key: name}) says which
keys this table knows. The beacon says, once a second while pairing or a game is on, "table <id> is on port <port>":
no secret, only what a dashboard paired to that table needs to dial it (the key stays with the dashboard and the
table). Where it is sent is a parameter: on a table, the LAN's broadcast address (BROADCAST); in tests, loopback
addresses only.
"""

import json
import os
import secrets
import socket
import threading

from companion import storage

BEACON_PORT = 8766  # where dashboards listen for tables (UDP)
TOKEN_PREFIX = "dashboard:"  # a Wi-Fi dashboard's link port carries this + its key as its token (the server's)
BROADCAST = (("255.255.255.255", BEACON_PORT),)
KEY_LETTERS = "abcdefghijklmnopqrstuvwxyz234567"


def new_key():
    """A dashboard's key: 26 letters and digits, 130 random bits (a phone seat's token has as many)."""
    return "".join(secrets.choice(KEY_LETTERS) for _ in range(26))


KEYS_FILE = "wifi_keys.json"  # in a game's dashboards folder (companion/storage.py dashboards_dir): {dev: key}
TABLE_ID_FILE = "table_id"  # in the app's data folder: this table's id, made once


def dashboard_keys(folder):
    """{dashboard id: its key} of the Pico Ws paired in this game (`folder`: its dashboards folder); {} if none."""
    try:
        with open(os.path.join(folder, KEYS_FILE)) as f:
            keys = json.load(f)
    except (OSError, ValueError):
        return {}
    if not isinstance(keys, dict):
        return {}
    return {d: k for d, k in keys.items() if isinstance(d, str) and isinstance(k, str)}


def keep_key(folder, dev, key):
    """A Pico W's key, made at its pairing, kept with the game (never its network's password)."""
    keys = dashboard_keys(folder)
    keys[dev] = key
    storage.write_private(os.path.join(folder, KEYS_FILE), json.dumps(keys, sort_keys=True))


def table_id(folder):
    """This table's id (its beacon's, and the Pico Ws paired here join only its beacon): made once, kept in
    `folder` (the app's data folder), so a dashboard paired once finds this table in every game."""
    path = os.path.join(folder, TABLE_ID_FILE)
    try:
        with open(path) as f:
            tid = f.read().strip()
        if tid:
            return tid
    except OSError:
        pass
    tid = "table-" + "".join(secrets.choice(KEY_LETTERS) for _ in range(10))
    os.makedirs(folder, exist_ok=True)
    storage.write_private(path, tid)
    return tid


def beacon_message(table_id, port):
    return json.dumps({"t": "f1table", "id": table_id, "port": port}, separators=(",", ":")).encode()


class Beacon:
    """Says where this table is, every `every_s` seconds, to each (host, port) of `to`, from a thread of its own."""

    def __init__(self, table_id, port, to=BROADCAST, every_s=1.0):
        self.port = port
        self.message = beacon_message(table_id, port)
        self.to = tuple(to)
        self.every_s = every_s
        self.stopped = threading.Event()
        self.thread = None
        self.sent = 0

    def start(self):
        self.stopped.clear()
        self.thread = threading.Thread(target=self._run, name="beacon", daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.stopped.set()
        if self.thread is not None:
            self.thread.join(5)
            self.thread = None

    def _run(self):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            if any(host.endswith(".255") for host, _port in self.to):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            while not self.stopped.is_set():
                for address in self.to:
                    try:
                        s.sendto(self.message, address)
                        self.sent += 1
                    except OSError:
                        pass  # no network now: the next second tries again
                self.stopped.wait(self.every_s)


def beacon_targets(server_host, given=None):
    """Where the beacon goes: `given` if any (tests: loopback addresses only), else $F1_BEACON_TO ("host:port"), else
    the LAN's broadcast address; a server on loopback is found on loopback only (nothing leaves the machine)."""
    if given is not None:
        return tuple(given)
    env = os.environ.get("F1_BEACON_TO")
    if env:
        host, _, port = env.rpartition(":")
        return ((host, int(port)),)
    if server_host.startswith("127."):
        return ((server_host, BEACON_PORT),)
    return BROADCAST


class WifiDashboards:
    """The open game's Wi-Fi dashboards on the phones' server: their keys served, and the beacon while any is paired.

    wifi = WifiDashboards(server, table_id, beacon_to=None)   # server: the PhoneServer (companion/phones/server.py)
    wifi.open_game(game_dir, host)    # its keys served; the beacon says "table <id> on <port>" every second
    wifi.refresh()                    # a key kept meanwhile (keep_key at pairing) is served from now on
    wifi.close_game()                 # no key served, the beacon stops
    """

    def __init__(self, server, table, beacon_to=None, every_s=1.0):
        self.server = server
        self.table = table
        self.beacon_to = beacon_to
        self.every_s = every_s
        self.game_dir = None
        self.host = None
        self.devs = {}  # key -> the dashboard (its id) it was made for at pairing
        self.beacon = None

    def open_game(self, game_dir, host):
        self.game_dir = game_dir
        self.host = host
        self.refresh()

    def refresh(self):
        found = dashboard_keys(self.game_dir) if self.game_dir is not None else {}
        self.devs = {key: dev for dev, key in found.items()}
        self.server.serve_dashboards({key: "dashboard %s" % dev for key, dev in self.devs.items()})
        port = self.server.port
        if not self.devs or port is None:
            self._stop_beacon()
        elif self.beacon is None or self.beacon.port != port:
            self._stop_beacon()
            self.beacon = Beacon(self.table, port, beacon_targets(self.host or "", self.beacon_to), self.every_s)
            self.beacon.start()

    def close_game(self):
        self.game_dir = None
        self.refresh()

    def _stop_beacon(self):
        if self.beacon is not None:
            self.beacon.stop()
            self.beacon = None
