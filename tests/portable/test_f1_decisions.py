# The decisions of docs/rules.md where the 1962 rulebook is silent or ambiguous.
from shared_rules.errors import RuleError
from shared_rules.f1 import charts
from shared_rules.f1.race import Race
from tests.portable.check import raises
from tests.portable.f1_helpers import car_at, moving_car

NAMES = ["Ann", "Bob", "Cy"]


def test_decision_card_spaces_crossing_a_band_are_thrown_for():
    "docs/rules.md 4: extra spaces from a tactic card that cross a band are thrown for, at the speedometer's speed."
    race = Race(11, NAMES, 3)
    car = race.cars[0]
    car.hand[0] = "QR"
    race.tactic.append(race.tactic.pop(0))
    car.speed = 60
    race.set_speed(0, 100)
    race.play_card(0, "QR")
    ev = race.corner(0, 60)
    assert len(ev["dice"]) == 2


def test_decision_two_cars_spin_at_one_corner():
    "docs/rules.md 7: a second car spinning at the same corner is spun like the first."
    race = Race(12, NAMES, 3)
    for seat in (0, 1):
        race.cars[seat].speed = 100
        race.set_speed(seat, 160)
        race.corner(seat, 80)
        assert race.cars[seat].status == "spun"
        race.end_turn(seat)
    race.set_speed(2, 20)
    race.end_turn(2)
    assert race.cars[0].speed_choices()[-1] == 60


def test_decision_carburettor_lifts_restart_limits():
    "docs/rules.md 11: Good Carburettor: anything above the current speed up to 120, at the start of any turn."
    car = car_at(0, hand=["GC"])
    car.status = "spun"
    car.cap = 60
    assert car.speed_choices(carb=1) == [20, 40, 60, 80, 100, 120]
    car.set_speed(120, "GC")
    assert car.speed == 120 and car.status == "racing"
    fast = car_at(140, hand=["GC"])
    raises(RuleError, fast.set_speed, 160, "GC")


def test_decision_waiting_in_pit_drops_starting_speed():
    "docs/rules.md 12: a car blocked in its pit that dials up to 60 loses the pit card's starting speed."
    car = moving_car(60)
    car.pit("GEAR20")
    car.end_turn()
    car.start_turn()
    raises(RuleError, car.set_speed, 40)
    car.hold(60)
    car.end_turn()
    car.start_turn()
    assert car.speed_choices()[-1] == 120


def test_decision_special_tyres_even_on_worn_tyres():
    "docs/rules.md 14: special tyres take a band at 20 or 40 over, even with tyres at 8."
    assert charts.corner_case(40, 8, special_tyres=1) == charts.WAIVED
    assert charts.corner_case(60, 0, special_tyres=1) == charts.AUTO_SPIN


def test_decision_no_pit_stop_at_end_of_last_lap():
    "docs/rules.md 9: a car cannot pit at the end of its last lap (it has finished)."
    car = moving_car(60)
    car.laps_left = 1
    raises(RuleError, car.pit, "QUICK")
    car.lap()
    assert car.status == "finished"
