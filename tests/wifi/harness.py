"""A Wi-Fi dashboard on the unix port (firmware/host/wifi_main.py) and the air it joins (the stand-in `network`,
firmware/host/network_standin.py): the air is a file the test rewrites whole, atomically, as the network changes."""

import json
import os
import subprocess
import threading

from tests import mpy
from tests.link.harness import restored

STANDIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "standin")  # its network.py: the stand-in


class Air:
    def __init__(self, tmpdir, ssid="track", password="correct horse", join_ms=300):
        self.path = os.path.join(str(tmpdir), "air.json")
        self.conf = {"ssid": ssid, "password": password, "join_ms": join_ms, "up": True}
        self.write()

    def write(self, **changes):
        self.conf.update(changes)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.conf, f)
        os.replace(tmp, self.path)


class WifiDashboard:
    """One dashboard process linking over the stand-in Wi-Fi; `states` are the link's states it printed, in order."""

    def __init__(self, tmpdir, air, port, path, dev="wifi-1", ssid="track", password="correct horse",
                 host="127.0.0.1", heap="192K"):
        self.dev = dev
        self.air = air
        self.store = os.path.join(str(tmpdir), dev + ".json")
        self.conf_path = os.path.join(str(tmpdir), dev + "-wifi.json")
        self.conf = {"ssid": ssid, "password": password, "host": host, "port": port, "path": path}
        self.heap = heap
        self.proc = None
        self.states = []
        self.output = []

    def start(self):
        with open(self.conf_path, "w") as f:
            json.dump(self.conf, f)
        env = dict(os.environ, MICROPYPATH=mpy.micropypath(STANDIN), F1_DASH_ID=self.dev, F1_LINK_STORE=self.store,
                   F1_WIFI=self.conf_path, F1_AIR=self.air.path)
        cmd = [mpy.micropython_path(), "-X", "heapsize=" + self.heap, "firmware/host/wifi_main.py"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env=env, cwd=mpy.ROOT)
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self):
        for raw in self.proc.stdout:  # type: ignore[union-attr]
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.output.append(line)
            if line.startswith("wifi: "):
                self.states.append(line[6:])

    def state(self):
        return self.states[-1] if self.states else None

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def saved(self):
        return restored(self.store)
