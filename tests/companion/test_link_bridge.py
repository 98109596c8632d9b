"""The bridge between the referee and real dashboards, without a window: virtual dashboards (the real
firmware on the `micropython` unix port) over ptys, the pyserial transport, the referee's commands."""

import os

import pytest

from companion.link_bridge import LinkBridge
from companion.f1.referee import Referee
from companion.transport import Transport
from companion.f1.view import RaceView
from companion.virtual import VirtualPorts
from shared_rules.link import notes as note
from tests.firmware.dash import restored, text_rows
from tests.wait import poll
from tests.wait import until

FAST = {"hello_retry": 150, "command_retry": 250, "heartbeat": 400, "silent": 1000, "scan_s": 0.1}


@pytest.fixture
def table(tmp_path):
    ports = VirtualPorts(real=False)
    transport = Transport(ports, FAST)
    transport.start()
    ref = Referee.new(str(tmp_path / "g.db"), ["Ann", "Bob"], 3, seed=11)
    bridge = LinkBridge(transport, ref)
    yield ports, transport, ref, bridge, str(tmp_path)
    transport.stop()
    ports.stop()
    ref.close()


def pump(bridge, pred, timeout=15):
    """Poll as the app's Clock would, until pred() holds."""
    return poll(pred, timeout, meanwhile=bridge.poll)


def taken(d, button):
    """A press the virtual dashboard has handled to the end, its save included (its `A` line came back)."""
    n = d.handled
    assert d.tap(button)
    until(lambda: d.handled > n, 10, "dashboard %s to take %s" % (d.dev, button))


def agree(ports, ref, transport):
    for seat, dev in ref.pairs.items():
        d = ports.virtual[dev]
        if d.state is None or d.state.get("car") != ref.race.cars[seat].snapshot():
            return False
    return not transport.pending()


def test_dashboards_appear_then_follow_the_table_and_the_player(table):
    ports, transport, ref, bridge, work = table
    for dev in ("virtual-1", "virtual-2"):
        ports.add(work, dev)
    assert pump(bridge, lambda: [d for d, s in bridge.dashboards() if s == "connected"] == ["virtual-1", "virtual-2"])
    assert transport.pending() == []  # nobody paired: nothing is sent to anyone
    ref.pair(0, "virtual-1")
    ref.pair(1, "virtual-2")
    bridge.push()
    assert pump(bridge, lambda: agree(ports, ref, transport))
    assert bridge.link_of(0) == ("virtual-1", "connected")
    # The first player sets 60 on the dashboard itself: the table follows.
    first = ports.virtual["virtual-1"]
    for button in ("OK", "UP", "UP", "UP", "OK"):
        taken(first, button)
    assert pump(bridge, lambda: ref.race.cars[0].speed_set == 1)
    assert ref.race.cars[0].speed == 60
    view = RaceView(ref, bridge)
    view.pick(corner=0, lane=0)  # 20 over at Corner 1: the dice are thrown
    ev = view.roll_corner()
    assert len(ev["dice"]) == 2
    assert pump(bridge, lambda: agree(ports, ref, transport))
    d1, d2 = ev["dice"]
    assert pump(bridge, lambda: text_rows(first.image)[0] == "DICE %d+%d" % (d1, d2), 5), text_rows(first.image)
    # A mistake, taken back: the dashboard returns to the state before the roll.
    view.undo()
    assert pump(bridge, lambda: agree(ports, ref, transport))
    assert first.state["car"]["rolled"] == 0


def test_a_press_out_of_turn_changes_nothing_anywhere(table):
    ports, transport, ref, bridge, work = table
    ports.add(work, "virtual-2")
    ref.pair(1, "virtual-2")
    bridge.push()
    assert pump(bridge, lambda: agree(ports, ref, transport))
    second = ports.virtual["virtual-2"]
    taken(second, "OK")  # not this car's turn: the linked dashboard refuses by itself
    # Handled to the end, its save included: an event it posted would be in that save until acknowledged, or,
    # acknowledged already, on the transport's queue for this poll.
    assert not restored(second.state_path).get("ev")
    bridge.poll()
    assert ref.race.seat == 0 and ref.race.cars[1].speed_set == 0
    assert bridge.errors == [] and agree(ports, ref, transport)


def test_a_replaced_dashboard_is_brought_back_to_the_table(table):
    ports, transport, ref, bridge, work = table
    ports.add(work, "virtual-1")
    ref.pair(0, "virtual-1")
    bridge.push()
    view = RaceView(ref, bridge)
    view.set_speed(40)
    assert pump(bridge, lambda: agree(ports, ref, transport))
    # Power cut and its saved state lost: it comes back as a fresh dashboard, says hello, is resynced.
    old = ports.virtual.pop("virtual-1")
    old.stop()
    os.remove(old.state_path)
    fresh = ports.add(work, "virtual-1")
    assert pump(bridge, lambda: fresh.state is not None and fresh.state.get("car", {}).get("speed") == 40)
    assert pump(bridge, lambda: agree(ports, ref, transport))


class HeldTransport:
    """Just enough transport for poll(): notes to hand out, and commands in flight to every dashboard or none."""

    def __init__(self, notes, in_flight=True):
        import queue

        self.events = queue.Queue()
        for n in notes:
            self.events.put(n)
        self.in_flight = in_flight
        self.sent = []

    def pending(self, dev=None):
        return self.in_flight

    def send(self, dev, name, args, cid):
        self.sent.append((dev, name))

    def remember_events(self, dev, ids):
        pass

    def hold_events(self):
        pass

    def ack_event(self, dev, eid):
        pass


@pytest.mark.parametrize("game", ["f1", "f5"])
def test_a_state_is_compared_with_the_table_only_once_nothing_is_in_flight(tmp_path, game):
    # The state an event carried, or a hello, while commands are in flight to that dashboard is older than what
    # they will make: compared only at their ack (which brings the state after them), for either game.
    from companion.f5.referee import F5Referee

    path = str(tmp_path / "g.db")
    ref = Referee.new(path, ["Ann", "Bob"], 3, seed=11) if game == "f1" else F5Referee.new(path, [0, 1], seed=11)
    try:
        ref.pair(0, "dash-9")
        ref.take_commands()
        odd = {"game": "f5", "k": 99, "n": 1}  # neither game's table holds that
        notes = [note.hello("dash-9", "1", 1, odd, True), note.state("dash-9", odd, 3, True)]
        t = HeldTransport(notes)
        bridge = LinkBridge(t, ref)
        bridge.poll()
        assert t.sent == [] and bridge.due == {"dash-9"}
        t.in_flight = False
        bridge.poll()  # nothing new came, but it was due: compared now, once
        assert [n for _, n in t.sent] == ["sync" if game == "f1" else "f5"] and bridge.due == set()
        bridge.poll()
        assert len(t.sent) == 1
    finally:
        ref.close()


def test_what_raises_for_one_dashboard_stops_neither_the_poll_nor_another_dashboards_event(tmp_path):
    ref = Referee.new(str(tmp_path / "g.db"), ["Ann", "Bob"], 3, seed=11)
    try:
        ref.pair(0, "dash-a")
        ref.pair(1, "dash-b")
        real = ref.on_dashboard_event

        def judge(seat, name, args, taken=None):
            if seat == 1:
                raise TypeError("a defect of ours, for this dashboard's event only")
            return real(seat, name, args, taken)

        ref.on_dashboard_event = judge
        t = HeldTransport([note.event("dash-b", "b1", "speed", {"v": 40}), note.event("dash-a", "a1", "speed", {"v": 40}),
                           note.state("dash-b", {"hand": [[]]}, 1, True)], in_flight=False)
        acked = []
        t.ack_event = lambda dev, eid: acked.append((dev, eid))
        bridge = LinkBridge(t, ref)
        assert bridge.poll() == 3  # nothing escaped
        assert ref.race.cars[0].speed_set == 1 and ref.race.cars[0].speed == 40
        assert acked == [("dash-b", "b1"), ("dash-a", "a1")]  # b's refused (it is synced back), a's taken
        assert bridge.errors and bridge.errors[0].startswith("Bob:")
    finally:
        ref.close()
