"""The dashboard's Wi-Fi link (firmware/ondemand/wifi_link.py) on the real `micropython` unix port, through the
stand-in radio, against the tablet's real server and transport on loopback: it joins, links, takes commands exactly
once, says a wrong password in words, and links again by itself when the network drops and comes back."""

import pytest

from companion.phones.server import PhoneServer, Seat
from companion.transport import CONNECTED, AllPorts, NoPorts, Transport
from companion.transport.websocket_backend import LinkPorts
from tests.link.harness import FAST, Notes, wait_for
from tests.portable import link_script
from tests.wifi.harness import Air, WifiDashboard

TOKEN = "a" * 26


@pytest.fixture
def table():
    links = LinkPorts()
    t = Transport(AllPorts(NoPorts(), links), FAST)
    t.start()
    server = PhoneServer(links)
    port = server.start("127.0.0.1", 0)
    server.serve({TOKEN: Seat(TOKEN, "Ann")})
    yield t, port, server
    server.stop()
    t.stop()


@pytest.fixture
def dashboards():
    made = []
    yield made
    for d in made:
        d.kill()


def _check_exactly_once(dash, t, notes, cmds):
    ids = [c[0] for c in cmds]
    assert notes.answered(dash.dev) == ids
    expected = link_script.expected(cmds)
    assert wait_for(lambda: dash.saved()[0] == expected, 10), (dash.saved()[0], expected)
    assert wait_for(lambda: t.snapshot(dash.dev) == expected, 10)


def test_joins_links_and_takes_commands_exactly_once(tmp_path, table, dashboards):
    t, port, _server = table
    notes = Notes(t)
    air = Air(tmp_path, join_ms=400)
    dash = WifiDashboard(tmp_path, air, port, "/%s/link" % TOKEN).start()
    dashboards.append(dash)
    assert wait_for(lambda: dash.state() == "linked", 20), ("the dashboard never linked", dash.output)
    assert dash.states[0] == "joining", dash.states  # the stand-in's join takes its time first
    assert wait_for(lambda: notes.of("hello", dash.dev), 10), "no hello reached the tablet"
    cmds = link_script.commands(8)
    for cid, name, args in cmds:
        t.send(dash.dev, name, args, cid)
    assert wait_for(lambda: notes.drain() and {c[0] for c in cmds} <= set(notes.answered()), 20), (notes.all, dash.output)
    _check_exactly_once(dash, t, notes, cmds)
    assert t.status(dash.dev) == CONNECTED


def test_a_wrong_password_is_said_in_words_and_never_links(tmp_path, table, dashboards):
    t, port, _server = table
    air = Air(tmp_path, join_ms=100)
    dash = WifiDashboard(tmp_path, air, port, "/%s/link" % TOKEN, password="wrong").start()
    dashboards.append(dash)
    assert wait_for(lambda: dash.state() == "wrong password", 20), ("never said so", dash.output)
    assert "linked" not in dash.states
    assert t.dashboards() == []
    assert not any("wrong" in line and "password" not in line for line in dash.output)
    assert not any("correct horse" in line for line in dash.output)


def test_the_network_drops_and_comes_back_and_nothing_is_lost_or_doubled(tmp_path, table, dashboards):
    t, port, _server = table
    notes = Notes(t)
    air = Air(tmp_path, join_ms=200)
    dash = WifiDashboard(tmp_path, air, port, "/%s/link" % TOKEN).start()
    dashboards.append(dash)
    assert wait_for(lambda: dash.state() == "linked", 20), dash.output
    cmds = link_script.commands(12)
    for cid, name, args in cmds[:4]:
        t.send(dash.dev, name, args, cid)
    assert wait_for(lambda: notes.drain() and {c[0] for c in cmds[:4]} <= set(notes.answered()), 20)
    air.write(up=False)
    assert wait_for(lambda: dash.state() == "no network found", 10), dash.states
    for cid, name, args in cmds[4:]:  # sent while the dashboard is away: resent when it is back
        t.send(dash.dev, name, args, cid)
    air.write(up=True)
    assert wait_for(lambda: dash.states.count("linked") >= 2, 20), dash.states
    assert wait_for(lambda: notes.drain() and {c[0] for c in cmds} <= set(notes.answered()), 20), (notes.all, dash.output)
    _check_exactly_once(dash, t, notes, cmds)
