"""A whole game of Formula 5 through the real parts: two virtual dashboards (the real firmware on the
micropython unix port, its game link on a pty, opened by the tablet's pyserial transport) whose players press
the buttons, and the tablet's logic (F5Referee with its SQLite log, the link bridge) playing a bot and the two
cars without a player. The players choose as the simple bot would, so the game through the devices must come
out exactly as the engine plays it alone with the same seed."""

import os

import pytest

from companion.f5.referee import F5Referee
from companion.link_bridge import LinkBridge
from companion.transport import CONNECTED, Transport
from companion.transport.pyserial_backend import PyserialPorts
from shared_rules.f5 import bot
from shared_rules.f5.cards import COLOURS, FIRST_PIT, colour
from shared_rules.f5.game import PIT, Game
from tests.firmware.dash import VirtualDashboard, modes
from tests.link.harness import FAST, FakeUsb, raw_pty
from tests.wait import until

SEED = 2026
PLAYERS = [0, 1, 2]  # cars 0 and 1 on dashboards, 2 a bot; 3 and 4 have no player
BOTS = [2]
F5_MODES = modes("ondemand/f5_ui.py")  # what the viewer reports as "mode"
MESSAGE, MAIN, HAND = F5_MODES["MESSAGE"], F5_MODES["MAIN"], F5_MODES["HAND"]
HEAP = "160K"


def group(card):
    return COLOURS if card >= FIRST_PIT else colour(card)


def groups(hand):
    return sorted({group(c) for c in hand})


class Seat:
    def __init__(self, workdir, dev, usb):
        self.master, slave = raw_pty()
        # A Pico-sized heap: the Formula 5 mode must fit next to the Formula 1 code it is loaded beside.
        self.dash = VirtualDashboard(workdir, dev=dev, heap=HEAP, stdin=self.master, stdout=self.master)
        self.dash.start()
        self.slave = slave  # kept open: the tablet opens its path
        usb.paths.append(os.ttyname(slave))

    def close(self):
        self.dash.kill()
        os.close(self.master)
        os.close(self.slave)


def pump(bridge, pred, timeout=20):
    until(pred, timeout, "the table to get there", every=0.005, meanwhile=bridge.poll)


def press_move(d, hand, ev):
    """The player's buttons for the engine event `ev`, from the dashboard's main screen."""
    d.wait(lambda: d.mode() in (MAIN, MESSAGE))
    if d.mode() == MESSAGE:
        d.tap("OK")
    d.wait(lambda: d.rows()[0].startswith("YOUR TURN"))
    d.tap("OK")
    d.wait(lambda: d.mode() == HAND)
    rows = [g for g in groups(hand) if g < COLOURS] + [COLOURS]
    if ev[0] != PIT:
        d.tap(*["DOWN"] * rows.index(colour(ev[2])), "OK")
        return
    d.tap(*["DOWN"] * (len(rows) - 1), "OK")  # PIT STOP
    pit_rows = list(reversed(groups(hand)))
    d.tap(*["DOWN"] * pit_rows.index(group(ev[2])), "OK")
    left = [c for c in hand if c != ev[2] and c < FIRST_PIT]
    disc_rows = groups(left)
    for g in disc_rows:
        n = len([c for c in ev[3] if colour(c) == g])
        if n:
            d.tap(*["OK"] * n)
        d.tap("DOWN")
    d.tap("OK")  # CONFIRM PIT


@pytest.mark.whole
def test_a_whole_game_through_the_dashboards(tmp_path):
    usb = FakeUsb()
    seats = {}
    transport = None
    ref = None
    try:
        for car in (0, 1):
            seats[car] = Seat(str(tmp_path), "f5-%d" % car, usb)
        ref = F5Referee.new(str(tmp_path / "f5.db"), PLAYERS, bots=BOTS, seed=SEED)
        for car, s in seats.items():
            ref.pair(car, s.dash.dev)
        transport = Transport(PyserialPorts(usb), FAST)
        transport.start()
        bridge = LinkBridge(transport, ref)
        pump(bridge, lambda: all(transport.status(s.dash.dev) == CONNECTED for s in seats.values()))
        # the engine alone, the same seed, every player choosing as the simple bot
        alone = Game(SEED, PLAYERS)
        while not alone.over:
            alone.apply(bot.choose(alone))
        presses = 0
        while not ref.game.over:
            if ref.auto_move() is not None:
                bridge.push()
                continue
            car = ref.game.to_move()
            d = seats[car].dash
            n = len(ref.game.events)
            pump(bridge, lambda d=d: not transport.pending(d.dev))  # the dashboard holds its turn's view
            ev = bot.choose(ref.game)  # what this player decides (read from the table only to script it)
            press_move(d, ref.game.hand(car), ev)
            presses += 1
            pump(bridge, lambda n=n: len(ref.game.events) > n)
            assert ref.game.events[-1] == ev, "the buttons made another move than the player chose"
        assert ref.game.events == alone.events and ref.game.snapshot() == alone.snapshot()
        assert presses == 24  # 12 rounds, two dashboard players
        assert not bridge.errors
        pump(bridge, lambda: not transport.pending())
        for car, s in seats.items():
            d = s.dash
            d.wait(lambda d=d: "RACE OVER" in d.rows()[0])
            text = " ".join(d.rows())
            assert ("YOU WIN" in text) == (ref.game.winner() == car)
            assert "Position %d." % (ref.game.position(car) + 1) in text
        # the log resumes the finished game exactly
        again = F5Referee.open(str(tmp_path / "f5.db"))
        assert again.game.snapshot() == ref.game.snapshot()
        again.close()
    finally:
        if transport is not None:
            transport.stop()
        for s in seats.values():
            s.close()
        if ref is not None:
            ref.close()


def test_a_restarted_dashboard_gets_its_hand_back(tmp_path):
    """The dashboard keeps no Formula 5 state: after a power cut it says hello in Formula 1 and the tablet
    sends its view again, the same hand and the turn it was at."""
    usb = FakeUsb()
    seat = Seat(str(tmp_path), "f5-r", usb)
    transport = None
    ref = F5Referee.new(str(tmp_path / "f5.db"), [0, 1], bots=[1], seed=4)
    try:
        ref.pair(0, "f5-r")
        transport = Transport(PyserialPorts(usb), FAST)
        transport.start()
        bridge = LinkBridge(transport, ref)
        d = seat.dash
        hand_row = lambda: "HAND %d" % len(ref.game.hand(0))  # noqa: E731
        while ref.auto_move() is not None:
            bridge.push()
        pump(bridge, lambda: not transport.pending() and transport.status("f5-r") == CONNECTED)
        d.wait(lambda: d.mode() in (MAIN, MESSAGE) and d.state["car"] is not None)
        if d.mode() == MESSAGE:
            d.tap("OK")
        d.wait(lambda: hand_row() in d.rows()[5])
        seat.dash.kill()
        seat.dash.start()
        pump(bridge, lambda: d.mode() in (MAIN, MESSAGE) and not transport.pending())
        if d.mode() == MESSAGE:
            d.tap("OK")
        d.wait(lambda: hand_row() in d.rows()[5])
        assert d.rows()[0].startswith("YOUR TURN") == (ref.game.to_move() == 0)
    finally:
        if transport is not None:
            transport.stop()
        seat.close()
        ref.close()
