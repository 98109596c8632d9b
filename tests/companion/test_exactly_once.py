"""A dashboard event is taken once, even across a tablet crash that ate its ack.

The dashboard resends an event until the tablet acknowledges it. The tablet remembers the ids it took, and
that memory must outlive the app: here the real firmware (micropython unix port) posts an event, the tablet
takes it, every frame back to the dashboard is lost (so the ack never arrives), the tablet dies and reopens
its game log, and the dashboard resends the same event id. The table must apply it exactly once.
"""

import os
import time

import pytest

from companion.f5_referee import F5Referee
from companion.link_bridge import LinkBridge
from companion.transport import CONNECTED, Transport
from companion.transport.pyserial_backend import PyserialPorts
from shared_rules.f5 import bot
from tests.f5_devices.test_f5_full_game import press_move
from tests.firmware.dash import restored
from tests.firmware.race_script import dial
from tests.link.harness import FAST, FakeUsb
from tests.table.table import Seat, Table

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs ptys")


def pending_events(dash):
    """The events the dashboard's last save still holds unacknowledged (firmware/app.py saves them as 'ev')."""
    try:
        return restored(dash.state_path).get("ev")
    except (OSError, ValueError, KeyError):
        return None


def until(pred, timeout=10, poll=None):
    """Wait for pred(), calling poll() meanwhile as the app's Clock would."""
    end = time.monotonic() + timeout
    while not pred():
        if poll is not None:
            poll()
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_formula1_event_taken_before_a_tablet_crash_is_not_applied_again(tmp_path):
    table = Table(str(tmp_path), 7, players=2, laps=3, lap_spaces=12).open()
    try:
        ref = table.ref
        seat = ref.race.seat
        s = table.seats[seat]
        d = s.dash
        car = table.car(seat)
        v = [x for x in car.speed_choices() if x and car.braking_cost(x) == (0, 0, 0)][0]
        s.relay.down.blackhole = True  # from now on nothing reaches the dashboard: no ack either
        d.tap("OK")
        dial(d, v)
        d.tap("OK")
        assert table.pump(lambda: table.car(seat).speed_set == 1, 10), "the table never took the speed"
        assert table.car(seat).speed == v
        assert until(lambda: pending_events(d), 5, table.bridge.poll)  # saved as still unacknowledged
        eid = pending_events(d)[0][0]
        # The table plays on: this turn ends, the other car moves, and it is this car's turn again, speed not
        # yet set: a second "speed" event for this seat would now be legal.
        ref.end_turn()
        other = ref.race.seat
        ref.set_speed([x for x in table.car(other).speed_choices() if x][0])
        ref.end_turn()
        table.bridge.push()
        assert ref.race.seat == seat and table.car(seat).speed_set == 0
        taken = len([e for e in ref.entries if e.get("t") == "speed" and e["seat"] == seat])
        table.kill_tablet()  # the app dies with the ack never delivered; it reopens its log
        assert table.ref.race.seat == seat and table.car(seat).speed_set == 0
        s.relay.down.blackhole = False
        table.settle()
        # The dashboard sent the same id again and got its ack this time...
        assert until(lambda: pending_events(d) == [], 10, table.bridge.poll), pending_events(d)
        until(lambda: False, 0.5, table.bridge.poll)  # the ack leaves before the note: let the app take it
        # ...and the table did not apply it a second time.
        after = [e for e in table.ref.entries if e.get("t") == "speed" and e["seat"] == seat]
        assert len(after) == taken == 1, [e for e in table.ref.entries if e.get("t") != "pair"]
        assert table.car(seat).speed_set == 0 and table.ref.race.seat == seat
        assert table.bridge.errors == []
        assert eid in table.transport.devices[s.dev].events
        table.settle()  # and every dashboard shows the table's car
    finally:
        table.close()


def test_formula5_move_taken_before_a_tablet_crash_is_not_played_again(tmp_path):
    usb = FakeUsb()
    path = str(tmp_path / "f5.db")
    seat = Seat(str(tmp_path), "f5-x", usb, 1)
    seat.start()
    transports = []
    refs = []
    try:
        ref = F5Referee.new(path, [0, 1], bots=[1], seed=4)
        refs.append(ref)
        ref.pair(0, "f5-x")
        transport = Transport(PyserialPorts(usb), FAST)
        transport.start()
        transports.append(transport)
        bridge = LinkBridge(transport, ref)
        d = seat.dash

        def pump(pred, timeout=20):
            end = time.monotonic() + timeout
            while not pred():
                bridge.poll()
                if time.monotonic() > end:
                    return False
                time.sleep(0.005)
            return True

        while ref.auto_move() is not None:
            bridge.push()
        assert pump(lambda: not transport.pending() and transport.status("f5-x") == CONNECTED)
        n = len(ref.game.events)
        ev = bot.choose(ref.game)
        seat.relay.down.blackhole = True  # nothing reaches the dashboard any more: the ack is lost
        press_move(d, ref.game.hand(0), ev)
        assert pump(lambda: len(ref.game.events) == n + 1), "the table never took the move"
        assert ref.game.events[-1] == ev
        assert until(lambda: pending_events(d), 5, bridge.poll)
        moves = list(ref.game.events)
        # The app dies (nothing closed cleanly) and reopens its log; the dashboard still resends its move.
        transport.stop()
        ref = F5Referee.open(path)
        refs.append(ref)
        transport = Transport(PyserialPorts(usb), FAST)
        transport.start()
        transports.append(transport)
        bridge = LinkBridge(transport, ref)
        assert ref.game.events == moves
        seat.relay.down.blackhole = False
        assert pump(lambda: transport.status("f5-x") == CONNECTED)
        assert until(lambda: pending_events(d) == [], 10, bridge.poll), pending_events(d)
        until(lambda: False, 0.5, bridge.poll)  # the ack leaves before the note: let the app take it
        assert pump(lambda: not transport.pending())
        # Taken once: not played again, and not refused as a stale move either (the table sees no error).
        assert ref.game.events == moves
        assert bridge.errors == []
    finally:
        for t in transports:
            t.stop()
        seat.close()
        for r in refs:
            r.close()
