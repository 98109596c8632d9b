"""The tablet serves its game's Wi-Fi dashboards: the keys kept with the game are served on the phones' server, the
beacon runs while any is paired (to loopback here: every packet goes to 127.0.0.1), a dashboard that links on its key
is its seat's dashboard through the same bridge and referee as a Pico chosen for the seat, and after the tablet
restarted on another port it finds the table again by the beacon. The table id is the install's, made once.

The dashboards are the firmware's Wi-Fi link on the `micropython` unix port (firmware/host/wifi_main.py) through the
stand-in radio; the tablet is the app's own Phones (companion/phones/table.py), Transport, LinkBridge and Referee."""

import json
import os
import socket

import pytest

from companion import link_words
from companion.dashboards_wifi import KEYS_FILE, TABLE_ID_FILE, dashboard_keys, keep_key, new_key, table_id
from companion.f1.referee import Referee
from companion.link_bridge import LinkBridge
from companion.phones.table import Phones
from companion.transport import AllPorts, NoPorts, Transport
from companion.transport.websocket_backend import LinkPorts
from tests.link.harness import FAST, wait_for
from tests.wifi.harness import Air, WifiDashboard

TABLE = "table-under-test"


def _free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_keys_are_kept_with_the_game_atomically_and_only_for_this_user(tmp_path):
    assert dashboard_keys(str(tmp_path)) == {}
    a, b, c = new_key(), new_key(), new_key()
    keep_key(str(tmp_path), "pico-a", a)
    keep_key(str(tmp_path), "pico-b", b)
    assert dashboard_keys(str(tmp_path)) == {"pico-a": a, "pico-b": b}
    keep_key(str(tmp_path), "pico-a", c)  # paired again: its new key replaces the old one
    assert dashboard_keys(str(tmp_path)) == {"pico-a": c, "pico-b": b}
    path = tmp_path / KEYS_FILE
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert not any(p.name.endswith(".tmp") for p in tmp_path.iterdir())  # written whole, then renamed
    path.write_text("{not json")
    assert dashboard_keys(str(tmp_path)) == {}  # damaged: no dashboard, never a crash


def test_the_table_id_is_made_once_and_kept(tmp_path):
    first = table_id(str(tmp_path))
    assert first == table_id(str(tmp_path)) and first.startswith("table-") and len(first) > 10
    assert (tmp_path / TABLE_ID_FILE).read_text() == first
    other = tmp_path / "other"
    other.mkdir()
    assert table_id(str(other)) != first  # another install, another table


class Tablet:
    """The app's parts for the table side: its link ports, transport, phones' server (with the Wi-Fi dashboards) and
    a referee with its bridge; the bridge's hello pairs a dashboard on a seat's key, as the app's does."""

    def __init__(self, game_dir, db, listen):
        self.links = LinkPorts()
        self.transport = Transport(AllPorts(NoPorts(), self.links), FAST)
        self.transport.start()
        self.phones = Phones(self.links, host="127.0.0.1", files=object(), table=TABLE,
                             beacon_to=[("127.0.0.1", listen)])
        self.ref = Referee.open(db) if os.path.exists(db) else Referee.new(db, ["Ann", "Bob", "Cy"], 3, seed=7)
        self.phones.open_game(game_dir)
        self.bridge = LinkBridge(self.transport, self.ref)
        self.bridge.on_hello = self._hello

    def _hello(self, dev):
        seats = [(seat, name) for seat, name in enumerate(self.ref.race.names)]
        if self.phones.linked(dev, self.transport, self.links, self.ref, seats):
            self.bridge.push()

    def poll(self):
        self.bridge.poll()
        return False

    def stop(self):
        self.phones.stop()
        self.transport.stop()
        self.ref.close()


@pytest.fixture
def made(monkeypatch):
    monkeypatch.setenv("F1_PHONE_PORT", "0")
    things = []
    yield things
    for thing in reversed(things):
        (thing.kill if hasattr(thing, "kill") else thing.stop)()


def test_a_paired_wifi_dashboard_becomes_its_seats_dashboard_and_finds_the_table_again_on_another_port(tmp_path,
                                                                                                      made):
    game_dir = str(tmp_path / "game.dash")
    os.makedirs(game_dir)
    db = str(tmp_path / "game.db")
    key = new_key()
    keep_key(game_dir, "wifi-bob", key)  # as pairing does: the dashboard got the same key, the table id and the address
    listen = _free_port(socket.SOCK_DGRAM)
    tablet = Tablet(game_dir, db, listen)
    made.append(tablet)
    tablet.ref.pair(1, "wifi-bob")  # the host gave the Pico W to Bob's seat on the pairing screen
    assert tablet.phones.wifi.beacon is not None and tablet.phones.wifi.beacon.to == (("127.0.0.1", listen),)
    air = Air(tmp_path, join_ms=100)
    dash = WifiDashboard(tmp_path, air, tablet.phones.server.port, "/dashboard/%s/link" % key, dev="wifi-bob")
    dash.conf.update(table=TABLE, beacon_port=listen, beacon_bind="127.0.0.1")
    made.append(dash.start())

    def in_step():
        tablet.poll()
        car = tablet.ref.race.cars[1].snapshot()
        return tablet.ref.pairs.get(1) == dash.dev and tablet.transport.snapshot(dash.dev) == car

    assert wait_for(in_step, 20), ("never Bob's dashboard", tablet.ref.pairs, dash.output)
    said = link_words.of(tablet.transport, tablet.links, dash.dev)
    assert said.startswith("Wi-Fi: linked"), said  # the pairing screen's words for its seat
    # The tablet dies and starts again; its port is another program's now: it serves on another, and says so
    old_port = tablet.phones.server.port
    tablet.stop()
    made.remove(tablet)
    blocker = socket.socket()
    blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # its old connections wait out TIME_WAIT
    blocker.bind(("127.0.0.1", old_port))
    blocker.listen()
    made.append(_Closer(blocker))
    tablet = Tablet(game_dir, db, listen)  # it asks for its saved port first, as the app does
    made.append(tablet)
    assert tablet.phones.server.port != old_port
    assert wait_for(lambda: dash.states.count("linked") >= 2, 20), dash.output
    assert wait_for(in_step, 20), ("not in step again", dash.output)  # the new port came by the beacon alone


def test_a_game_with_no_wifi_dashboard_sends_no_beacon(tmp_path, made):
    game_dir = str(tmp_path / "game.dash")
    os.makedirs(game_dir)
    listen = _free_port(socket.SOCK_DGRAM)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as heard:
        heard.bind(("127.0.0.1", listen))
        heard.settimeout(0.1)
        tablet = Tablet(game_dir, str(tmp_path / "game.db"), listen)
        made.append(tablet)
        assert tablet.phones.wifi.beacon is None
        key = new_key()
        keep_key(game_dir, "pico-w", key)
        tablet.phones.wifi.refresh()  # a dashboard paired meanwhile
        got, _ = _receive(heard, 5)
        assert json.loads(got) == {"t": "f1table", "id": TABLE, "port": tablet.phones.server.port}
        assert key.encode() not in got
        tablet.phones.close_game()  # the table left the game: no more beacons
        assert tablet.phones.wifi.beacon is None


def _receive(sock, deadline_s):
    import time

    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            return sock.recvfrom(256)
        except TimeoutError:
            continue
    raise AssertionError("no beacon heard in %s s" % deadline_s)


class _Closer:
    def __init__(self, sock):
        self.sock = sock

    def stop(self):
        self.sock.close()


def test_tests_send_beacons_to_loopback_only():
    from companion.dashboards_wifi import beacon_targets

    assert beacon_targets("192.168.1.20") == (("127.0.0.1", 8766),)  # tests/conftest.py: F1_BEACON_TO
    assert beacon_targets("127.0.0.1", [("127.0.0.1", 9)]) == (("127.0.0.1", 9),)


def test_the_apps_beacon_goes_to_the_lan_broadcast_address_or_stays_on_loopback(monkeypatch):
    from companion.dashboards_wifi import BROADCAST, beacon_targets

    monkeypatch.delenv("F1_BEACON_TO")
    assert beacon_targets("192.168.1.20") == BROADCAST  # only worked out here, never sent
    assert beacon_targets("127.0.0.1") == (("127.0.0.1", 8766),)
