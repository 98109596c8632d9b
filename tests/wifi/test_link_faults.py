"""The Wi-Fi link through a relay with a Wi-Fi network's faults (tests/wifi/fault_proxy.py): a connection cut, stalled,
or turned into a black hole (bytes swallowed, nobody told). The dashboard gets out of a black hole by itself (nothing
heard from the table, which beats every second, for 4 s: it dials again), and every command is applied exactly once."""

import pytest

from companion.dashboards_wifi import new_key
from companion.transport.websocket_backend import LinkPorts
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


class CountingPorts(LinkPorts):
    """The tablet's link ports, counting the WebSocket messages each dashboard's socket brought."""

    def __init__(self):
        super().__init__()
        self.messages = 0

    def connect(self, label, send, close, token=None):
        port = super().connect(label, send, close, token)
        received = port.received

        def counted(data):
            self.messages += 1
            received(data)

        port.received = counted
        return port


def test_a_message_goes_in_one_websocket_message_not_one_per_fragment(tmp_path, made):
    # An ack is three fragments (lines) of the protocol. Written one by one, each small write waited for TCP's
    # delayed ack behind the one before (Nagle): 40 ms per fragment on Linux, the Wi-Fi link's median 44 ms against
    # a phone's 3 ms. Gathered per loop pass, a command's answer is one WebSocket message (two at most: its ack,
    # and a heartbeat that fell due in between).
    key = new_key()
    tablet = Tablet({key: "Ann"}, CountingPorts())
    made.append(tablet)
    ports = tablet.links
    dash = WifiDashboard(tmp_path, Air(tmp_path, join_ms=50), tablet.port, "/dashboard/%s/link" % key).start()
    made.append(dash)
    notes = tablet.notes
    assert wait_for(lambda: dash.state() == "linked" and tablet.transport.status(dash.dev) == "connected", 20)
    cmds = link_script.commands(10)
    per_command = []
    for cid, name, args in cmds:
        before = ports.messages
        tablet.transport.send(dash.dev, name, args, cid)
        assert wait_for(lambda: notes.drain() and cid in notes.answered(), 10), notes.all  # noqa: B023
        per_command.append(ports.messages - before)
    assert max(per_command) <= 2, per_command
