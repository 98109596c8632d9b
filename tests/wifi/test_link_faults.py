"""The Wi-Fi link through a relay with a Wi-Fi network's faults (tests/wifi/fault_proxy.py): a connection cut, stalled,
or turned into a black hole (bytes swallowed, nobody told). The dashboard gets out of a black hole by itself (nothing
heard from the table, which beats every second, for 4 s: it dials again), and every command is applied exactly once."""

import pytest

from companion.dashboards_wifi import new_key
from tests.link.harness import wait_for
from tests.portable import link_script
from tests.wifi.fault_proxy import FaultProxy
from tests.wifi.harness import Air, WifiDashboard
from tests.wifi.test_table_side import Tablet


@pytest.fixture
def made():
    things = []
    yield things
    for thing in reversed(things):
        (thing.kill if hasattr(thing, "kill") else thing.stop)()


@pytest.mark.parametrize("fault", ["cut", "stall", "black_hole"])
def test_a_faulty_connection_costs_no_command(tmp_path, made, fault):
    key = new_key()
    tablet = Tablet({key: "Ann"})
    made.append(tablet)
    proxy = FaultProxy(tablet.port).start()
    made.append(proxy)
    dash = WifiDashboard(tmp_path, Air(tmp_path, join_ms=50), proxy.port, "/dashboard/%s/link" % key).start()
    made.append(dash)
    assert wait_for(lambda: dash.state() == "linked", 20), dash.output
    cmds = link_script.commands(8)
    notes = tablet.notes
    for cid, name, args in cmds[:4]:
        tablet.transport.send(dash.dev, name, args, cid)
    assert wait_for(lambda: notes.drain() and {c[0] for c in cmds[:4]} <= set(notes.answered()), 20), notes.all
    {"cut": lambda: proxy.cut(key), "stall": lambda: proxy.stall(key, 1.5),
     "black_hole": lambda: proxy.black_hole(key)}[fault]()
    for cid, name, args in cmds[4:]:  # sent into the fault: they arrive once it is over, or after a new dial
        tablet.transport.send(dash.dev, name, args, cid)
    assert wait_for(lambda: notes.drain() and {c[0] for c in cmds} <= set(notes.answered()), 30), (
        "never answered after a %s" % fault, dash.states, notes.all)
    assert notes.answered(dash.dev) == [c[0] for c in cmds]  # each once, in order
    assert wait_for(lambda: dash.saved()[0] == link_script.expected(cmds), 10), dash.saved()
    if fault != "stall":
        assert dash.states.count("linked") >= 2, dash.states  # it dialled again by itself
