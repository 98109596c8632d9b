"""The table's side of Wi-Fi dashboards: a dashboard links on a path of its own with its key (a wrong key is closed
with a reason and changes nothing), and finds its table again by the table's beacon, never another table's. The
dashboards are the firmware on the `micropython` unix port through the stand-in radio; the tablets are the real
phones' server and transport; every packet goes to 127.0.0.1."""

import socket

import pytest

from companion.dashboards_wifi import Beacon, beacon_message, new_key
from companion.phones.server import PhoneServer
from companion.transport import AllPorts, NoPorts, Transport
from companion.transport.websocket_backend import LinkPorts
from tests.link.harness import FAST, Notes, wait_for
from tests.portable import link_script
from tests.wifi.harness import Air, WifiDashboard


class Tablet:
    def __init__(self, keys, links=None):
        self.links = links if links is not None else LinkPorts()
        self.transport = Transport(AllPorts(NoPorts(), self.links), FAST)
        self.transport.start()
        self.server = PhoneServer(self.links, files=object())  # no seat page asked for here: no files made
        self.port = self.server.start("127.0.0.1", 0)
        self.server.serve_dashboards(keys)
        self.notes = Notes(self.transport)

    def stop(self):
        self.server.stop()
        self.transport.stop()


@pytest.fixture
def made():
    things = []
    yield things
    for thing in reversed(things):
        (thing.kill if hasattr(thing, "kill") else thing.stop)()


def _free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_key_is_random_and_the_beacon_carries_no_secret():
    keys = {new_key() for _ in range(100)}
    assert len(keys) == 100 and all(len(k) == 26 and k.isalnum() for k in keys)
    key = new_key()
    message = beacon_message("table-1", 8765)
    assert key.encode() not in message and b"table-1" in message and b"8765" in message


def test_the_right_key_links_and_a_wrong_one_is_refused_with_a_reason_and_changes_nothing(tmp_path, made):
    key = new_key()
    tablet = Tablet({key: "Ann"})
    made.append(tablet)
    air = Air(tmp_path, join_ms=100)
    wrong = WifiDashboard(tmp_path, air, tablet.port, "/dashboard/%s/link" % new_key(), dev="wifi-wrong").start()
    made.append(wrong)
    assert wait_for(lambda: wrong.state() == "refused by the table (this dashboard is not paired to this table)"
                    or any("refused" in s for s in wrong.states), 20), wrong.output
    assert any("not paired to this table" in line for line in wrong.output), wrong.output
    assert tablet.links.scan() == {} and tablet.transport.dashboards() == []  # no port was ever made for it
    right = WifiDashboard(tmp_path, air, tablet.port, "/dashboard/%s/link" % key, dev="wifi-right").start()
    made.append(right)
    assert wait_for(lambda: right.state() == "linked", 20), right.output
    cmds = link_script.commands(4)
    for cid, name, args in cmds:
        tablet.transport.send(right.dev, name, args, cid)
    notes = tablet.notes
    assert wait_for(lambda: notes.drain() and {c[0] for c in cmds} <= set(notes.answered()), 20), notes.all
    assert notes.answered(right.dev) == [c[0] for c in cmds]
    assert tablet.transport.dashboards() == [right.dev]  # the refused one never reached the table


def test_two_tables_beacons_on_loopback_each_dashboard_joins_its_own(tmp_path, made):
    key_a, key_b = new_key(), new_key()
    # Both tables know both keys (a dashboard paired twice): only the beacon's table id keeps each on its own
    tablet_a = Tablet({key_a: "Ann", key_b: "Bob"})
    tablet_b = Tablet({key_a: "Ann", key_b: "Bob"})
    made.extend([tablet_a, tablet_b])
    listen_a, listen_b = _free_port(socket.SOCK_DGRAM), _free_port(socket.SOCK_DGRAM)
    heard_by_both = [("127.0.0.1", listen_a), ("127.0.0.1", listen_b)]
    air = Air(tmp_path, join_ms=100)
    dead = _free_port()  # the address each was paired at, gone: the tables moved
    dashes = []
    for dev, key, table, listen in (("wifi-a", key_a, "table-a", listen_a), ("wifi-b", key_b, "table-b", listen_b)):
        d = WifiDashboard(tmp_path, air, dead, "/dashboard/%s/link" % key, dev=dev)
        d.conf.update(table=table, beacon_port=listen, beacon_bind="127.0.0.1")
        made.append(d.start())
        dashes.append(d)
    assert wait_for(lambda: all(d.state() == "no table found" for d in dashes), 20), [d.output for d in dashes]
    made.append(Beacon("table-a", tablet_a.port, to=heard_by_both, every_s=0.2).start())
    made.append(Beacon("table-b", tablet_b.port, to=heard_by_both, every_s=0.2).start())
    assert wait_for(lambda: all(d.state() == "linked" for d in dashes), 20), [d.output for d in dashes]
    assert wait_for(lambda: tablet_a.transport.dashboards() == ["wifi-a"], 10), tablet_a.transport.dashboards()
    assert wait_for(lambda: tablet_b.transport.dashboards() == ["wifi-b"], 10), tablet_b.transport.dashboards()
    assert not tablet_a.notes.of("hello", "wifi-b") and not tablet_b.notes.of("hello", "wifi-a")
