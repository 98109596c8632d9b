"""Standalone play (no tablet) beyond the plain turn: a blocked car waiting at up to 60, and the extra tactic card
of the New Instructions pit card. The real firmware on a virtual dashboard, driven by its buttons; a car in a
given state (in the pit, holding given cards) is set up as a save the dashboard restores at power-on."""

import pytest

from firmware.ondemand import store
from shared_rules.f1 import cards
from shared_rules.f1.cards import card_text
from shared_rules.f1.car import Car
from tests.firmware.test_linked import start as start_linked


def saved_car(d, **fields):
    """Power-on state for `d`: a 3-lap car with these fields, as a save the firmware restores."""
    car = Car(3)
    for k, v in fields.items():
        setattr(car, k, v)
    store.save(d.state_path, {"car": car.snapshot(), "done": [], "ev": [], "gen": 1})
    return d


def spin_off(d):
    """A turn at 60 that takes a corner with safety speed 0: "60 mph or more over ... automatically spins off"."""
    d.tap("OK", "UP", "UP", "UP", "OK")  # start the turn, 60
    d.tap("OK")  # CORNER; the safety dial opens at 40
    d.tap("DOWN", "DOWN")
    assert d.big(0, 18) == "  0"
    d.tap("OK")
    assert d.car()["status"] == "spun"
    d.tap("OK", "DOWN", "DOWN", "DOWN", "OK")  # message away; END TURN
    assert d.car()["my_turn"] == 0


def end_of_dial(d, key):
    """The highest (key "UP") or lowest ("DOWN") speed the dial offers: key until the big digits stop changing."""
    for _ in range(10):
        before = d.big()
        d.tap(key)
        if d.big() == before:
            return int(before)
    raise AssertionError(d.screen())


def top_of_dial(d):
    return end_of_dial(d, "UP")


def test_blocked_on_a_spin_off_point_waits_at_up_to_60_then_may_reach_120(dash):
    # "If a car is blocked in the pit or in a Spin Off Point, the player may bring his speedometer up to 60 mph,
    # although he may be unable to move, and on his next turn he can move off at any speed up to 120 mph."
    d = dash().start()
    spin_off(d)
    d.tap("OK")  # the next turn: the speed dial, which says how to declare a block
    rows = d.rows()
    assert rows[0].startswith("SET SPEED") and rows[7] == "OK:GO BACK:WAIT"
    assert top_of_dial(d) == 60  # moving off after a spin: "any speed up to 60 mph"
    d.tap("BACK")  # blocked
    rows = d.rows()
    assert rows[0].startswith("BLOCKED") and rows[6] == "NO MOVE" and rows[7] == "OK:WAIT BACK:NO"
    assert d.big() == " 60"  # opens at the most it may dial
    d.tap("UP")
    assert d.big() == " 60"  # never past 60 while waiting
    d.tap("DOWN")
    assert d.big() == " 40"
    d.tap("UP", "OK")
    c = d.car()
    assert (c["speed"], c["status"], c["my_turn"]) == (60, "spun", 0)  # still on the spin-off point; turn over
    assert d.rows()[0].startswith("SPUN OFF") and d.big() == " 60" and d.rows()[7] == "OK:START TURN"
    d.tap("OK")  # the turn after: up to 120
    assert d.rows()[0].startswith("SET SPEED")
    assert top_of_dial(d) == 120
    d.tap("OK")
    assert (d.car()["speed"], d.car()["status"]) == (120, "racing")


def test_blocked_in_the_pit_waits_at_60_instead_of_the_pit_cards_starting_speed(dash):
    # "If a car is blocked in the pit ... the player may bring his speedometer up to 60 mph": a pit card's
    # starting speed ("Missed Gear Change. Slow Start. Starting speed is 20") is the move out, not the wait.
    d = saved_car(dash(), status="pit", fixed=20, laps_left=2).start()
    assert d.rows()[0].startswith("IN PIT")
    d.tap("OK")
    assert d.rows()[0].startswith("SET SPEED") and top_of_dial(d) == 20  # moving off: exactly 20
    d.tap("BACK")
    assert d.rows()[0].startswith("BLOCKED")
    d.tap("OK")
    c = d.car()
    assert (c["speed"], c["status"], c["fixed"], c["my_turn"]) == (60, "pit", 0, 0)
    d.tap("OK")
    assert top_of_dial(d) == 120


def test_a_racing_car_is_never_offered_the_wait(dash):
    # The wait is only for a car "blocked in the pit or in a Spin Off Point"; a car on the track that is blocked
    # moves up behind the blocker instead.
    d = dash().start()
    d.tap("OK")
    assert d.rows()[7] == "OK:SET BACK:NO"
    d.tap("BACK")
    assert d.rows()[0].startswith("YOUR TURN")  # BACK is just "not now"
    assert d.car()["speed_set"] == 0


def test_back_out_of_the_wait_changes_nothing(dash):
    d = dash().start()
    spin_off(d)
    d.tap("OK", "BACK")
    assert d.rows()[0].startswith("BLOCKED")
    d.tap("BACK")
    c = d.car()
    assert d.rows()[0].startswith("SPUN OFF") and (c["speed"], c["speed_set"], c["my_turn"]) == (0, 0, 1)


def test_with_the_tablet_the_dashboard_never_declares_a_block(tmp_path):
    # At the table the tablet decides blocks (race.hold); the dashboard's BACK stays "not now".
    d, t = start_linked(tmp_path, dev="noblock")
    try:
        snap = dict(t.devices["noblock"].snapshot, status="spun", cap=60)
        assert t.command("b1", "sync", snap)[0] == "done"
        assert t.command("b2", "turn", {"on": 1})[0] == "done"
        d.wait(lambda: d.rows()[0].startswith("SET SPEED"))
        assert d.rows()[7] == "OK:SET BACK:NO"
        d.tap("BACK")
        assert d.rows()[0].startswith("SPUN OFF")
        assert d.car()["speed_set"] == 0 and d.car()["speed"] == 0
    finally:
        t.stop()
        d.kill()


def pit_until_new_instructions(d, hand, tries=400):
    """Restart from a car about to pit holding `hand` until the dashboard's own pit card is New Instructions
    (its draw is random, 1 in 16); returns the car and the screen then."""
    for _ in range(tries):
        saved_car(d, my_turn=1, speed_set=1, speed=60, hand=list(hand)).start()
        d.tap("OK", "DOWN", "DOWN")  # the move menu: PIT STOP
        assert d.rows()[3] == "PIT STOP", d.screen()
        d.tap("OK")
        c = d.car()
        assert c["status"] == "pit"
        if c["miss"] == 1 and len(c["hand"]) > len(hand):
            return c, d.rows()
        assert c["hand"] == list(hand), "only New Instructions deals a card"
        d.kill()
    raise AssertionError("no New Instructions in %d pit stops" % tries)


@pytest.mark.parametrize("missing", [cards.SUPERB, cards.CARBURETTOR])
def test_new_instructions_deals_the_one_card_left_in_its_own_pile(dash, missing):
    # "New Instructions. Permission to use extra tactic card. Miss one move. The extra card to be taken from the
    # top of the discard pile." A lone dashboard's pile is its own deck less its hand: holding every card but
    # one, the extra card can only be that one.
    hand = cards.tactic_deck(cards.PER_KIND)
    hand.remove(missing)
    d = dash()
    c, rows = pit_until_new_instructions(d, hand)
    assert c["hand"] == hand + [missing]
    assert rows[0] == "NEW INSTRUCTIONS"
    shown = " ".join(r for r in rows[2:7] if r)
    assert shown == "Card dealt: %s. Miss one move." % card_text(missing)
    d.kill()
    d.start()  # the dealt card is in the save
    assert d.car()["hand"] == hand + [missing]


def test_new_instructions_with_an_empty_pile_deals_nothing(dash):
    # The whole deck in hand: no pile to take from (the table's rule too: a card only "if race.tactic").
    hand = cards.tactic_deck(cards.PER_KIND)
    d = dash()
    for _ in range(400):
        saved_car(d, my_turn=1, speed_set=1, speed=60, hand=list(hand)).start()
        d.tap("OK", "DOWN", "DOWN", "OK")
        rows = d.rows()
        if rows[0] != "PIT CARD" or "New Instructions." in " ".join(rows):
            break
        d.kill()
    whole = ["New", "Instructions.", "Extra tactic", "card from the", "discard pile.", "Miss one move."]
    assert rows[0] == "PIT CARD" and rows[1:7] == whole, d.screen()
    assert d.car()["hand"] == hand and d.car()["miss"] == 1


@pytest.mark.parametrize("worn, lowest", [({"brake": 5}, 80), ({"tyre": 8}, 60), ({}, 0)])
def test_the_dial_offers_no_reduction_the_car_cannot_pay_for(dash, worn, lowest):
    # "tire wear ... reach its maximum of 8 points. In this case speed may be reduced by 40 mph only. Likewise
    # brake wear ... maximum of 5 points. In this case speed may be reduced by 20 mph only."
    d = saved_car(dash(), speed=100, **worn).start()
    d.tap("OK")  # start the turn: the speed dial, at the present speed
    assert d.rows()[0].startswith("SET SPEED") and d.big() == "100"
    assert end_of_dial(d, "DOWN") == lowest
    assert "SPINS" not in d.screen()  # the lowest speed offered is one the car can pay for
    d.tap("OK")
    assert d.car()["speed"] == lowest and d.car()["status"] == "racing"


def test_a_finished_car_is_offered_a_new_race(dash):
    # The main screen of a car that has finished offered "OK:START TURN", a turn it can never have.
    d = saved_car(dash(), status="finished", laps_left=0).start()
    rows = d.rows()
    assert rows[0].startswith("FINISHED") and rows[7] == "OK:NEW RACE", rows
    d.tap("OK")
    assert d.rows()[0].startswith("NEW RACE") and d.big(48, 16, 2) == " 3"  # the laps of the race it finished
    d.tap("UP", "OK")
    assert d.car()["status"] == "racing" and d.car()["laps_left"] == 4 and len(d.car()["hand"]) == 5
