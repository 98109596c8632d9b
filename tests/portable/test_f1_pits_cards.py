# Pits, pit cards and tactic cards. Each test quotes the 1962 rulebook sentence it checks.
from shared_rules.errors import RuleError
from shared_rules.f1 import cards
from shared_rules.f1.race import Race
from tests.portable.check import raises
from tests.portable.f1_helpers import car_at, moving_car

NAMES = ["Ann", "Bob", "Cy", "Di"]


def test_sixteen_pit_cards_and_35_tactic_cards():
    "Tactic Cards (7 of each)"
    assert len(cards.pit_deck()) == 16
    assert len(cards.tactic_deck(cards.PER_KIND)) == 35
    assert len(cards.tactic_deck(6)) == 30
    race = Race(1, NAMES, 3)
    assert race.card_count() == (35, 16)


def test_five_cards_dealt_to_each_player():
    "shuffle all the Tactic Cards and deal five to each player."
    race = Race(3, NAMES, 3)
    assert [len(c.hand) for c in race.cars] == [5, 5, 5, 5]
    assert len(race.tactic) == 35 - 20


def test_pit_resets_every_dial_but_laps():
    "Once in the pit, all dials, except the lap indicator, are reset to zero."
    car = moving_car(60, tyre=6, brake=4)
    car.pit("QUICK")
    assert (car.speed, car.tyre, car.brake, car.status) == (0, 0, 0, "pit")
    assert car.laps_left == 2  # the pit stop ends the lap (decision)


def test_pit_card_always_drawn_and_effects():
    "When calling at the pits a player must always draw a Pit Card, and follow its instructions"
    for code in cards.pit_deck():
        car = moving_car(60)
        car.pit(code)
        miss, start, _extra, special, _text = cards.PIT_CARDS[code]
        assert (car.miss, car.fixed, car.special) == (miss, start, special)
    assert cards.PIT_CARDS["IGNITION"][0] == 2
    assert cards.PIT_CARDS["GOOD80"][1] == 80
    assert cards.PIT_CARDS["SLOW40"][1] == 40
    assert cards.PIT_CARDS["GEAR20"][1] == 20


def test_missed_moves():
    "Faulty Ignition. Miss two moves."
    car = moving_car(60)
    car.pit("IGNITION")
    car.end_turn()
    assert car.start_turn() == 0
    assert car.start_turn() == 0
    assert car.start_turn() == 1
    car.set_speed(60)
    assert car.status == "racing"


def test_starting_speed_from_pit_card():
    "Good Pit Work. Starting speed is 80. Do not miss move."
    car = moving_car(60)
    car.pit("GOOD80")
    car.end_turn()
    assert car.start_turn() == 1
    assert car.speed_choices() == [80]
    raises(RuleError, car.set_speed, 60)
    car.set_speed(80)
    assert car.speed == 80 and car.status == "racing"


def test_pit_only_at_end_of_lap_and_not_on_last_lap():
    "At the end of any lap a driver may drive into his pit."
    car = moving_car(60)
    car.laps_left = 1
    raises(RuleError, car.pit, "QUICK")
    assert car.status == "racing"


def test_pit_after_crossing_line_does_not_count_lap_twice():
    "Every time that a player's car lands on or crosses over the chequered finish line, that car's lap indicator is reduced by one."
    car = moving_car(60)
    car.lap()
    car.pit("QUICK")
    assert car.laps_left == 2


def test_special_tyres_take_one_bend_at_40_over():
    "Take any one bend at 40 mph over safety speed without penalty (Return to pack when used)."
    race = Race(5, NAMES, 3)
    car = race.cars[0]
    car.special = 1
    race.pit_pile.remove(cards.SPECIAL_TYRES)
    car.speed = 100
    race.set_speed(0, 120)
    ev = race.corner(0, 80, special=1)
    assert ev["dice"] == [] and ev["pen"] == [0, 0, 0]
    assert car.special == 0 and race.pit_pile[-1] == cards.SPECIAL_TYRES
    assert race.card_count() == (35, 16)
    raises(RuleError, race.corner, 0, 80, 1)


def test_one_card_per_turn():
    "Only one Tactic Card may be used on a turn."
    car = moving_car(60, hand=["FG", "QR"])
    assert car.play_card("FG") == 2
    raises(RuleError, car.play_card, "QR")
    assert car.hand == ["QR"]


def test_no_card_after_penalty_roll():
    "A player cannot play a Tactic Card after he has rolled the dice to determine a penalty."
    car = moving_car(60, hand=["SS"])
    car.rolled = 1
    raises(RuleError, car.play_card, "SS")
    assert car.hand == ["SS"]


def test_move_cards_not_when_spun_or_in_pit():
    "Use at the end of any turn except when you have spun off or are in the Pit."
    car = moving_car(100, hand=["QR"])
    car.penalty(1, 0, 0)
    raises(RuleError, car.play_card, "QR")
    car2 = moving_car(60, hand=["FG"])
    car2.pit("QUICK")
    raises(RuleError, car2.play_card, "FG")


def test_move_card_spaces():
    "Quick Reactions — Move four spaces forward."
    assert cards.EXTRA_SPACES == {"FG": 2, "QR": 4, "SS": 3}


def test_good_carburettor_to_120_at_once():
    "Good Carburettor Adjustment by Mechanics — Accelerate immediately up to 120 mph. Use at the beginning of any turn."
    car = car_at(0, hand=["GC"])
    assert car.speed_choices(carb=1)[-1] == 120
    car.set_speed(120, "GC")
    assert car.speed == 120 and car.hand == []
    car2 = moving_car(60, hand=["GC"])
    raises(RuleError, car2.check_card, "GC")


def test_card_not_in_hand_refused():
    "Players should not show their Tactic Cards to other players."
    race = Race(2, NAMES, 3)
    car = race.cars[0]
    missing = [k for k in cards.TACTIC_KINDS if k not in car.hand][0]
    race.set_speed(0, 60)
    before = race.snapshot()
    raises(RuleError, race.play_card, 0, missing)
    raises(RuleError, race.play_card, 1, car.hand[0])
    assert race.snapshot() == before


def test_used_card_goes_to_bottom_of_pile():
    "Once a card has been used it must be returned to the bottom of the Tactic Card pile on the board."
    race = Race(4, NAMES, 3)
    car = race.cars[0]
    car.hand[0] = "FG"
    race.tactic.append(race.tactic.pop(0))  # keep the count right after editing the hand
    race.set_speed(0, 60)
    ev = race.play_card(0, "FG")
    assert ev["spaces"] == 2 and race.tactic[-1] == "FG"


def test_superb_driving_takes_a_corner_at_any_speed():
    "Superb Driving — Take one corner at any speed providing the track is clear. Use during any turn."
    race = Race(6, NAMES, 3)
    car = race.cars[0]
    car.hand[0] = "SD"
    car.speed = 100
    race.set_speed(0, 160)
    raises(RuleError, race.play_card, 0, "SD", 0)  # the track is not clear
    race.play_card(0, "SD")
    ev = race.corner(0, 40)
    assert ev["dice"] == [] and ev["pen"] == [0, 0, 0] and car.status == "racing"
    ev2 = race.corner(0, 40)
    assert ev2["pen"] == [1, 0, 0]  # only one corner


def _orders_next(seed):
    """A race whose first pit card is New Instructions, seat 0 to play at 60."""
    race = Race(seed, NAMES, 3)
    race.pit_pile.remove("ORDERS")
    race.pit_pile.insert(0, "ORDERS")
    race.set_speed(0, 60)
    return race


def test_new_instructions_gives_extra_card_from_discards():
    "New Instructions. Permission to use extra tactic card. Miss one move. The extra card to be taken from the top of the discard pile."
    race = _orders_next(8)
    car = race.cars[0]
    code = [c for c in car.hand if cards.TACTIC_TIMING[c] == cards.AT_END][0]
    race.play_card(0, code)  # "returned to the bottom of the Tactic Card pile": the discard pile's top
    ev = race.pit(0)
    assert ev["pit"] == "ORDERS" and ev["drawn"] == code
    assert len(car.hand) == 5 and car.miss == 1
    assert race.card_count() == (35, 16)


def test_decision_new_instructions_with_nothing_discarded_gives_no_card():
    "docs/rules.md 8: the extra card is taken from the top of the discard pile; with no card discarded yet, none."
    race = _orders_next(8)
    car = race.cars[0]
    bottom = race.tactic[-1]
    ev = race.pit(0)
    assert ev["pit"] == "ORDERS" and "drawn" not in ev
    assert len(car.hand) == 5 and car.miss == 1 and race.tactic[-1] == bottom  # an undealt card is no discard
    assert race.card_count() == (35, 16)


def test_decision_a_discard_is_taken_once():
    "docs/rules.md 8: the card taken leaves the discard pile; the next New Instructions finds the one below it, if any."
    race = _orders_next(8)
    race.play_card(0, [c for c in race.cars[0].hand if cards.TACTIC_TIMING[c] == cards.AT_END][0])
    assert race.discarded == 1
    race.pit(0)
    assert race.discarded == 0
    assert race.card_count() == (35, 16)
