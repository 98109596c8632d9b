"""A whole race at a table with every kind of link: three Pico W dashboards (the dashboard app as a Pico W runs it,
firmware/main.py on the `micropython` unix port, paired once and never plugged in: their link is the Wi-Fi, through
the stand-in radio and a fault-injecting relay, tests/wifi/fault_proxy.py), one USB dashboard (the firmware on a pty
behind tests/table's relay) and two phones (the firmware behind a page's WebSocket, tests/link/ws_page.py), against
the tablet's phones server, Transport, LinkBridge and Referee (tests/table/table.py's race). Loopback only: the beacon
goes to three 127.0.0.1 ports, one per Pico W.

Every player presses their own dashboard's buttons: the Pico W players too, their choices made on the dashboard and
sent over the Wi-Fi. While the table's Wi-Fi is down a Pico W's player waits for it to press (the others play on).

Faulty, it adds (seeded, at random moments, often right after a press or a decision):
- per link: a break (Wi-Fi: the relay cuts the connection; phone: the socket breaks; USB: the cable is pulled), a
  stall (Wi-Fi: nothing moves for up to 1.5 s; phone: gone from the Wi-Fi without a word; USB: a burst of mangled
  frames) and a silence (Wi-Fi: a black hole, bytes swallowed and nobody told; phone: a broken socket; USB: garbage);
- at turn DROP_TURN, the table's Wi-Fi drops for DROP_S = 20 s on all three Wi-Fi dashboards (the race goes on
  meanwhile: their commands wait), then comes back;
- at turn KILL_TURN or the first after the Wi-Fi is back, the tablet app is killed and started again on ANOTHER port: the Wi-Fi dashboards find it by its
  beacon alone; the phones' players open the new address (a phone has no beacon: its QR code says it).
"""

import json
import os
import socket
import time

from companion.dashboards_wifi import Beacon, new_key
from companion.transport import CONNECTED, AllPorts
from companion.transport.pyserial_backend import PyserialPorts
from tests.firmware.dash import VirtualDashboard
from tests.table.phone_table import PhoneSeat, PhoneTable
from tests.table.table import Seat, TableError
from tests.wait import until
from tests.wifi.harness import STANDIN

TABLE_ID = "race-table"
WIFI_SEATS, USB_SEAT = (0, 1, 2), 3  # and the phones: 4, 5
RACE_KINDS = ("break", "break", "stall", "silence")
DROP_TURN, DROP_S = 3, 20.0  # the 20 s: the point of the test, most of its wall time
KILL_TURN = 9
BEACON_EVERY_S = 1.0  # the app's


def _free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WifiSeat:
    """A Pico W's seat: the dashboard app as a Pico W runs it (firmware/main.py with the host board, on the unix port:
    its buttons pressed by the players, its screen read), paired once (its network, the table's id and its key stored
    as pairing stores them, tests/wifi/test_pairing_by_plugging.py) and never plugged in: its only link is the
    Wi-Fi, through the stand-in radio and the fault relay, to the table its beacon says."""

    def __init__(self, table, i):
        self.table = table
        self.dev = "wifi-%d" % (i + 1)
        self.key = table.keys[i]
        self.listen = table.listen[i]
        home = os.path.join(table.workdir, self.dev)  # its own flash: the save and wifi.json beside it
        os.makedirs(home, exist_ok=True)
        with open(os.path.join(home, "wifi.json"), "w") as f:
            json.dump({"ssid": table.air.conf["ssid"], "password": table.air.conf["password"], "table": TABLE_ID,
                       "key": self.key}, f)
        self.dash = VirtualDashboard(home, dev=self.dev, path_extra=(STANDIN,),
                                     env={"F1_AIR": table.air.path, "F1_BEACON": "127.0.0.1:%d" % self.listen})

    def start(self):
        self.dash.start()

    def kill(self):
        self.dash.kill()

    def plug(self):
        pass  # no cable

    def unplug(self):
        pass

    def close(self):
        self.kill()


class MixedTable(PhoneTable):
    def __init__(self, workdir, seed, players=6, **kw):
        from tests.wifi.fault_proxy import FaultProxy
        from tests.wifi.harness import Air

        os.makedirs(workdir, exist_ok=True)
        self.workdir = workdir
        self.air = Air(workdir, join_ms=300)
        self.keys = [new_key() for _ in WIFI_SEATS]
        self.listen = [_free_udp_port() for _ in WIFI_SEATS]
        self.proxy = FaultProxy(0)
        self.beacon = None
        self.drop_until = None
        self.dropped_at = self.back_at = None
        self.relinked_s = []  # per Wi-Fi dashboard: network back -> in step with the table again (s)
        self.moved = None  # (old port, new port) of the tablet's restart
        kw.setdefault("fault_kinds", RACE_KINDS)
        super().__init__(workdir, seed, players=players, **kw)
        self.counts.update(wifi_drop=0, tablet_moved=0, wifi_choices=0)  # wifi_choices: made on a Pico W

    # ---- the tablet's side ---------------------------------------------------------------------------------
    def _serve(self):
        super()._serve()
        self.server.serve_dashboards({key: "seat %d" % (i + 1) for i, key in enumerate(self.keys)})
        if self.proxy.port is None:
            self.proxy.upstream = self.web_port
            self.proxy.start()
        else:
            self.proxy.move(self.web_port)
        if self.beacon is not None:
            self.beacon.stop()
        self.beacon = Beacon(TABLE_ID, self.proxy.port, to=[("127.0.0.1", p) for p in self.listen],
                             every_s=BEACON_EVERY_S).start()

    def _ports(self):
        if self.server is None:
            self._serve()
        return AllPorts(PyserialPorts(self.usb), self.server.links)

    def _seat(self, i, dashboard):
        if i in WIFI_SEATS:
            return WifiSeat(self, i)
        if i == USB_SEAT:
            return Seat(self.workdir, "dash-%d" % (i + 1), self.usb, self.seed + i, dashboard)
        url = "http://127.0.0.1:%d/%s/link" % (self.web_port, self.tokens[i])
        return PhoneSeat(self.workdir, "phone-%d" % (i + 1), self.pages, url, self.seed + i, dashboard)

    def _noisy_lines(self):
        pass  # every line is clean between faults: its faults are fault()'s

    def kill_tablet_elsewhere(self):
        """The app dies and starts again on another port (its own was taken meanwhile)."""
        old = self.web_port
        self.web_port = 0
        self.kill_tablet()
        self.moved = (old, self.web_port)
        if self.web_port == old:
            raise AssertionError("the tablet came back on its old port: nothing to find")
        for i, s in enumerate(self.seats):
            if isinstance(s, PhoneSeat):
                s.page.url = "http://127.0.0.1:%d/%s/link" % (self.web_port, self.tokens[i])
        self.counts["tablet_moved"] += 1

    # ---- the table's Wi-Fi, dropped and back -------------------------------------------------------------------
    def _weather(self):
        if self.drop_until is not None and time.monotonic() >= self.drop_until:
            self.air.write(up=True)
            self.drop_until = None
            self.back_at = time.monotonic()
            self.relinked_s = [None] * len(WIFI_SEATS)
        if self.back_at is not None and None in self.relinked_s:
            for k, seat in enumerate(WIFI_SEATS):
                if self.relinked_s[k] is None and self._wifi_in_step(seat):
                    self.relinked_s[k] = time.monotonic() - self.back_at

    def drop_wifi(self):
        self.air.write(up=False)
        self.dropped_at = time.monotonic()
        self.drop_until = self.dropped_at + DROP_S
        self.counts["wifi_drop"] += 1

    def _away(self):
        return {self.seats[i].dev for i in WIFI_SEATS} if self.drop_until is not None else set()

    def _wifi_in_step(self, seat):
        s = self.seats[seat]
        t = self.transport
        car = self.ref.race.cars[seat].snapshot()
        st = s.dash.state
        return (t.status(s.dev) == CONNECTED and not t.pending(s.dev) and t.snapshot(s.dev) == car
                and st is not None and st.get("car") == car)

    def in_step(self):
        """Every dashboard connected, told everything and showing the table's car; the Wi-Fi ones not while the
        table's Wi-Fi is down (the race goes on: their commands wait for them)."""
        self._weather()
        away = self._away()
        t = self.transport
        if any(p[0] not in away for p in t.pending()):
            return False
        for seat, s in enumerate(self.seats):
            if s.dev in away:
                continue
            if seat in WIFI_SEATS:
                if not self._wifi_in_step(seat):
                    return False
                continue
            st = s.dash.state
            if t.status(s.dev) != CONNECTED or st is None or st.get("car") != self.ref.race.cars[seat].snapshot():
                return False
        return True

    # ---- the players ------------------------------------------------------------------------------------------
    def play_turn(self):
        if self.faulty and self.counts["turns"] == DROP_TURN and not self.counts["wifi_drop"]:
            self.drop_wifi()
        if self.faulty and self.counts["turns"] >= KILL_TURN and not self.counts["tablet_moved"]:
            # On a quiet machine the turns outrun the 20 s drop: the kill waits for the Wi-Fi to come back
            until(lambda: self.drop_until is None, DROP_S + 30, "the table's Wi-Fi back after its drop",
                  meanwhile=self._weather)
            # Once the Wi-Fi is back and every dashboard told everything: the commands a tablet queued are not kept
            # across its restart (by design: the game log is; the resumed game syncs a dashboard that differs), so
            # a kill meanwhile would trade commands for syncs, and the counts below could not tell a loss
            self.settle()
            self.kill_tablet_elsewhere()
        super().play_turn()

    def _wifi_back(self, seat):
        """A Wi-Fi dashboard's player presses once the table's Wi-Fi is back: off the table, a dashboard plays on its
        own (the race goes on meanwhile at the other seats, and their commands wait for it)."""
        if seat in WIFI_SEATS and self.drop_until is not None:
            if not self.pump(lambda: self._weather() or self.drop_until is None, DROP_S + 30):
                raise TableError("the table's Wi-Fi never came back after its drop")

    def dash_speed(self, seat, v, carb):
        self._wifi_back(seat)
        super().dash_speed(seat, v, carb)
        self.counts["wifi_choices"] += seat in WIFI_SEATS

    def dash_card(self, seat, code):
        self._wifi_back(seat)
        ev = super().dash_card(seat, code)
        self.counts["wifi_choices"] += seat in WIFI_SEATS
        return ev

    # ---- faults -----------------------------------------------------------------------------------------------
    def fault(self, kind, s):
        rnd = self.frng
        if isinstance(s, WifiSeat):
            if kind == "break":
                self.proxy.cut(s.key)
            elif kind == "stall":
                self.proxy.stall(s.key, rnd.uniform(0.3, 1.5))
            else:
                self.proxy.black_hole(s.key)
            self.pump(lambda: False, rnd.uniform(0.0, 0.5))
        elif isinstance(s, PhoneSeat):
            super().fault({"break": "drop", "stall": "vanish", "silence": "drop"}[kind], s)
        else:
            super().fault({"break": "unplug", "stall": "burst", "silence": "garbage"}[kind], s)

    def _cable(self, s):
        if isinstance(s, WifiSeat):
            return "wifi: screen %s; proxy pipes %s" % (s.dash.rows(), [(p.key[:4], p.hole) for p in self.proxy.pipes])
        if isinstance(s, PhoneSeat):
            return super()._cable(s)
        return "USB relay %s" % s.relay.path

    def close(self):
        try:
            super().close()
        finally:
            if self.beacon is not None:
                self.beacon.stop()
            self.proxy.stop()


def run(workdir, seed, **kw):
    """One whole race at the mixed table; Table.result() with what the Wi-Fi side measured."""
    os.makedirs(workdir, exist_ok=True)
    table = MixedTable(workdir, seed, **kw)
    try:
        table.open()
        out = table.play()
        out.update(relinked_s=table.relinked_s, moved=table.moved, proxy=dict(table.proxy.counts),
                   dropped=table.dropped_at is not None)
        return out
    finally:
        table.close()


def lost_and_doubled(clean, faulty):
    """Commands (not syncs) each dashboard applied fewer times than in the clean race, and more times."""
    lost = doubled = 0
    for key in set(clean["applied"]) | set(faulty["applied"]):
        if key[1] == "sync":
            continue  # the table sends one whenever it cannot be sure what a dashboard holds: its count is free
        n, m = clean["applied"].get(key, 0), faulty["applied"].get(key, 0)
        lost += max(0, n - m)
        doubled += max(0, m - n)
    return lost, doubled
