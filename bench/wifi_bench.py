"""Wi-Fi dashboards (Pico W) against the tablet, on loopback, with the stand-in radio (docs/wifi.md says what only a
real Pico W can confirm): the firmware's Wi-Fi link on the `micropython` unix port (firmware/host/wifi_main.py) and the
tablet's real phones server, Transport, and (for the race) LinkBridge and Referee.

wifi.join_to_first_ack_s          the network up (the stand-in's join takes its JOIN_MS, a real CYW43 its own) to the
                                  table's first command answered by the dashboard, worst of JOINS (s; target 3)
wifi.command_to_ack_vs_phone      a tablet command to its ack in the app's queue over the Wi-Fi link, p99, against the
                                  same over a phone's link socket (bench/phone_link_bench.py's phone), the same
                                  commands in the same run, alternating in rounds (target 1.5)
wifi.command_to_ack_ms_p99        the Wi-Fi link's p99 (ms); wifi.phone_command_to_ack_ms_p99 the phone's, same run
wifi.relink_after_drop_s          the network back after a drop to the dashboard linked again, worst of DROPS (s;
                                  target 2; the stand-in's join of JOIN_MS included)
wifi.lost, wifi.doubled           commands (syncs aside) the dashboards applied fewer / more times in the faulty
                                  mixed race (tests/wifi/race.py: 3 Wi-Fi, 1 USB, 2 phones; cuts, stalls, black holes,
                                  a 20 s Wi-Fi drop, the tablet moved to another port) than in the clean one (target 0)
wifi.race_relink_s_max            in that race: the network back to each Wi-Fi dashboard in step again, the slowest (s)
"""

import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.link_bench import _percentile  # noqa: E402
from bench.phone_link_bench import PhoneLink, _commands, _connected  # noqa: E402
from bench.results import record  # noqa: E402
from companion.dashboards_wifi import new_key  # noqa: E402
from companion.phones.server import PhoneServer  # noqa: E402
from companion.transport import Transport  # noqa: E402
from companion.transport.websocket_backend import LinkPorts  # noqa: E402
from tests.link.harness import FAST  # noqa: E402
from tests.wifi.harness import Air, WifiDashboard  # noqa: E402

JOIN_MS = 300  # the stand-in radio's join
JOINS = 5
DROPS = 5
ROUNDS = 10
PER_ROUND = 100
RACE = dict(players=6, laps=3, lap_spaces=8)
SEED = 1962


def _until(pred, what, timeout=30, step=0.002):
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise TimeoutError("never: " + what)
        time.sleep(step)  # a poll period


class WifiLink:
    """A tablet (server and transport) and one Wi-Fi dashboard through the stand-in air."""

    def __init__(self, tmp, dev="wifi-1"):
        self.key = new_key()
        self.links = LinkPorts()
        self.server = PhoneServer(self.links, files=object())  # no seat page asked for: no files made
        self.port = self.server.start("127.0.0.1", 0)
        self.server.serve_dashboards({self.key: "bench"})
        self.t = Transport(self.links, FAST)
        self.t.start()
        self.air = Air(tmp, join_ms=JOIN_MS)
        self.dev = dev
        self.dash = WifiDashboard(tmp, self.air, self.port, "/dashboard/%s/link" % self.key, dev=dev)

    def start(self):
        self.dash.start()
        _connected(self.t, self.dev)
        return self

    def run(self, n):
        return _commands(self.t, self.dev, n)

    def close(self):
        self.dash.kill()
        self.t.stop()
        self.server.stop()


def join_to_first_ack(tmp):
    """The air comes up with a command already waiting for the dashboard: seconds to its answer."""
    times = []
    for i in range(JOINS):
        folder = os.path.join(tmp, "join-%d" % i)
        os.makedirs(folder)
        link = WifiLink(folder, "join-%d" % i)
        try:
            link.air.write(up=False)
            link.dash.start()
            _until(lambda: link.dash.state() == "no network found", "the dashboard saw no network")  # noqa: B023
            t0 = time.monotonic()
            link.air.write(up=True)
            cid = link.t.send(link.dev, "deal", {"card": "SS"})
            while True:
                note = link.t.events.get(timeout=30)
                if note.kind in ("done", "refused") and note.cmd_id == cid:
                    break
            times.append(time.monotonic() - t0)
        finally:
            link.close()
    return times


def relink_after_drop(tmp):
    folder = os.path.join(tmp, "drops")
    os.makedirs(folder)
    link = WifiLink(folder, "drop-1").start()
    times = []
    try:
        for _ in range(DROPS):
            linked = link.dash.states.count("linked")
            link.air.write(up=False)
            _until(lambda: link.dash.state() == "no network found", "the drop seen")  # noqa: B023
            t0 = time.monotonic()
            link.air.write(up=True)
            _until(lambda: link.dash.states.count("linked") > linked, "linked again")  # noqa: B023
            times.append(time.monotonic() - t0)
    finally:
        link.close()
    return times


def command_to_ack(tmp):
    wifi_dir, phone_dir = os.path.join(tmp, "wifi"), os.path.join(tmp, "phone")
    os.makedirs(wifi_dir)
    os.makedirs(phone_dir)
    wifi, phone = WifiLink(wifi_dir).start(), PhoneLink(phone_dir)
    try:
        on_wifi, on_phone = [], []
        for _ in range(ROUNDS):
            on_wifi += wifi.run(PER_ROUND)
            on_phone += phone.run(PER_ROUND)
    finally:
        phone.close()
        wifi.close()
    return on_wifi, on_phone


def faulty_race(tmp):
    from tests.wifi.race import lost_and_doubled, run

    clean = run(os.path.join(tmp, "clean"), SEED, **RACE)
    faulty = run(os.path.join(tmp, "faulty"), SEED, faults=1, fault_rate=0.15, **RACE)
    for key in ("dashboards", "saved", "table", "log", "results"):
        if faulty[key] != clean[key]:
            raise AssertionError("the faulty race ended otherwise: " + key)
    lost, doubled = lost_and_doubled(clean, faulty)
    return lost, doubled, faulty


def main():
    load_before = _load()
    with tempfile.TemporaryDirectory() as tmp:
        joins = join_to_first_ack(tmp)
        drops = relink_after_drop(tmp)
        on_wifi, on_phone = command_to_ack(tmp)
        lost, doubled, faulty = faulty_race(tmp)
    p99_wifi, p99_phone = _percentile(on_wifi, 0.99), _percentile(on_phone, 0.99)
    figures = {
        "wifi.join_to_first_ack_s": round(max(joins), 3),
        "wifi.command_to_ack_vs_phone": round(p99_wifi / p99_phone, 3),
        "wifi.command_to_ack_ms_p99": round(p99_wifi, 3),
        "wifi.phone_command_to_ack_ms_p99": round(p99_phone, 3),
        "wifi.relink_after_drop_s": round(max(drops), 3),
        "wifi.lost": lost,
        "wifi.doubled": doubled,
        "wifi.race_relink_s_max": round(max(faulty["relinked_s"]), 3),
    }
    record(figures)
    print("wifi:", figures, "join median %.3f s, relink median %.3f s, wifi p50 %.3f ms, phone p50 %.3f ms"
          % (statistics.median(joins), statistics.median(drops), statistics.median(on_wifi),
             statistics.median(on_phone)), "load before", load_before, "after", _load())
    return figures


def _load():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


if __name__ == "__main__":
    main()
