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

BEACON_PORT = 8766  # where dashboards listen for tables (UDP)
BROADCAST = (("255.255.255.255", BEACON_PORT),)
KEY_LETTERS = "abcdefghijklmnopqrstuvwxyz234567"


def new_key():
    """A dashboard's key: 26 letters and digits, 130 random bits (a phone seat's token has as many)."""
    return "".join(secrets.choice(KEY_LETTERS) for _ in range(26))


KEYS_FILE = "wifi_keys.json"  # in a game's dashboards folder (companion/storage.py dashboards_dir): {dev: key}
TABLE_ID_FILE = "table_id"  # in the app's data folder: this table's id, made once


def _write_private(path, text):
    """Atomically (a temp file, then a rename), readable by its owner only: keys are secrets."""
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


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
    _write_private(os.path.join(folder, KEYS_FILE), json.dumps(keys, sort_keys=True))


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
    _write_private(path, tid)
    return tid


def beacon_message(table_id, port):
    return json.dumps({"t": "f1table", "id": table_id, "port": port}, separators=(",", ":")).encode()


class Beacon:
    """Says where this table is, every `every_s` seconds, to each (host, port) of `to`, from a thread of its own."""

    def __init__(self, table_id, port, to=BROADCAST, every_s=1.0):
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
