# Speedometer and Speed Reduction Chart. Each test quotes the 1962 rulebook sentence it checks.
from shared_rules.errors import RuleError
from shared_rules.f1.charts import spaces, braking_cost, max_reduction, FREE_40
from shared_rules.f1.race import Race
from tests.portable.check import raises
from tests.portable.f1_helpers import car_at, moving_car


def test_one_space_per_20_mph():
    "One space on the board represents 20 mph on the speedometer, so ... 100 mph ... moves his car 5 spaces."
    assert spaces(100) == 5
    assert spaces(20) == 1
    assert spaces(60) == 3


def test_speedometer_runs_0_to_160_in_steps_of_20():
    "(The speedometer gauge runs from 0 to 160 mph in 20 mph increments.)"
    car = car_at(100)
    assert car.speed_choices() == [0, 20, 40, 60, 80, 100, 120, 140, 160]
    raises(RuleError, car.set_speed, 180)
    raises(RuleError, car.set_speed, 50)
    raises(RuleError, car.set_speed, -20)
    assert car.speed == 100


def test_increase_at_most_60_per_turn():
    "Speed may be increased by 20, 40 or 60 mph per turn but never by more than 60 mph."
    car = car_at(0)
    assert car.speed_choices() == [0, 20, 40, 60]
    e = raises(RuleError, car.set_speed, 80)
    assert e.code == "speed"
    assert car.speed == 0 and not car.speed_set
    car.set_speed(60)
    assert car.speed == 60


def test_second_turn_can_reach_120():
    "Then on a player's next turn he can, if he wishes, set his speedometer up to 120 mph and move 6 spaces."
    car = car_at(60)
    car.set_speed(120)
    assert car.speed == 120 and spaces(car.speed) == 6


def test_speed_set_once_per_turn():
    "At the beginning of every turn a player must decide on the speed at which he will move"
    car = car_at(60)
    car.set_speed(80)
    raises(RuleError, car.set_speed, 100)
    assert car.speed == 80


def test_not_your_turn_refused():
    "After the first player has moved his car his turn ends and the player to his left plays"
    car = car_at(60, turn=0)
    raises(RuleError, car.set_speed, 80)
    assert car.speed == 60


def test_reduction_of_20_is_free():
    "a 20 mph reduction in speed may be made on any turn and does not result in any brake or tire wear."
    car = car_at(100)
    assert car.set_speed(80) == (0, 0, 0)
    assert (car.tyre, car.brake) == (0, 0)


def test_reduction_chart():
    "| 40 mph | 1 | — |  | 60 mph | 2 | 1 |  | 80 mph | 3 | 2 |  | 100 mph | 4 | 3 |"
    for reduction, brake, tyre in ((40, 1, 0), (60, 2, 1), (80, 3, 2), (100, 4, 3)):
        car = car_at(140)
        car.set_speed(140 - reduction)
        assert (car.brake, car.tyre) == (brake, tyre), reduction


def test_preview_before_confirming():
    "When reducing speed at the beginning of any turn a player must pay any penalty demanded by the Speed Reduction Chart"
    car = car_at(120, tyre=2, brake=1)
    assert car.braking_cost(60) == (2, 1, 0)
    assert (car.speed, car.tyre, car.brake) == (120, 2, 1)  # a preview changes nothing


def _refused(car, v, words):
    """set_speed(v) is refused, saying `words`, and changes nothing; v is not among the speeds offered."""
    before = car.snapshot()
    e = raises(RuleError, car.set_speed, v)
    assert e.code == "speed" and words in str(e), str(e)
    assert car.snapshot() == before
    assert v not in car.speed_choices()


def test_tyre_max_limits_reduction_to_40():
    "tire wear may become excessive and reach its maximum of 8 points. In this case speed may be reduced by 40 mph only."
    car = car_at(100, tyre=8)
    assert car.speed_choices() == [60, 80, 100, 120, 140, 160]
    _refused(car, 40, "tyres at 8: reduce speed by 40 mph at most")
    _refused(car, 0, "tyres at 8")
    assert car.set_speed(60) == (1, 0, 0)
    assert (car.speed, car.tyre, car.brake) == (60, 8, 1)


def test_brake_max_limits_reduction_to_20():
    "brake wear may become excessive and reach its maximum of 5 points. In this case speed may be reduced by 20 mph only."
    car = car_at(100, brake=5)
    assert car.speed_choices() == [80, 100, 120, 140, 160]
    _refused(car, 60, "brakes at 5: reduce speed by 20 mph at most")
    assert car.set_speed(80) == (0, 0, 0)
    assert (car.speed, car.tyre, car.brake) == (80, 0, 5)


def test_the_tablet_refuses_what_the_dashboard_does_not_offer():
    "In this case speed may be reduced by 20 mph only."
    race = Race(5, ["Ann", "Bob"], 3)
    car = race.cars[0]
    car.speed, car.brake = 100, 5
    logged = len(race.events)
    e = raises(RuleError, race.set_speed, 0, 60)
    assert "brakes at 5" in str(e) and len(race.events) == logged and not car.speed_set
    race.set_speed(0, 80)
    assert car.speed == 80


def test_a_forced_reduction_without_brakes_spins():
    "When a speed reduction of over 20 mph is demanded and there are no brakes left."
    car = moving_car(100, brake=5, tyre=3)
    assert car.force_speed(60) == (0, 0, 1)
    assert car.status == "spun" and car.speed == 0
    assert (car.tyre, car.brake) == (3, 5)


def test_decision_reduction_beyond_remaining_wear_is_refused():
    "docs/rules.md 2: a reduction whose wear would take a gauge past its maximum may not be dialled; forced, it spins."
    car = car_at(100, brake=4)
    assert car.braking_cost(60) == (1, 0, 0)  # 40 mph: 1 brake point, the gauge reaches 5
    assert car.speed_choices()[0] == 60
    _refused(car, 40, "brakes at 4: reduce speed by 40 mph at most")  # 60 mph: 2 brake points, only 1 left
    car2 = car_at(100, tyre=7)
    assert car2.braking_cost(40) == (2, 1, 0)  # 60 mph: tyre reaches 8
    _refused(car2, 20, "tyres at 7: reduce speed by 60 mph at most")  # 80 mph: 2 tyre points, only 1 left
    forced = moving_car(100, tyre=7)
    assert forced.force_speed(20) == (0, 0, 1)
    assert forced.status == "spun" and forced.tyre == 7


def test_decision_reduction_over_100_is_refused():
    "docs/rules.md 1: the chart stops at 100 mph, so a larger reduction may not be dialled; forced, it spins."
    assert braking_cost(120, 0, 0) == (0, 0, 1)
    car = car_at(160)
    assert car.speed_choices()[0] == 60
    _refused(car, 40, "reduce speed by 100 mph at most")
    forced = moving_car(160)
    assert forced.force_speed(40) == (0, 0, 1) and forced.status == "spun"


def test_charts_limit_of_what_the_gauges_pay_for():
    "In this case speed may be reduced by 40 mph only. ... In this case speed may be reduced by 20 mph only."
    assert max_reduction(8, 0) == 40 and braking_cost(60, 8, 0) == (0, 0, 1)
    assert max_reduction(0, 5) == 20 and braking_cost(40, 0, 5) == (0, 0, 1)
    assert max_reduction(0, 0) == 100 and max_reduction(8, 5) == 20
    assert max_reduction(0, 5, FREE_40) == 40  # the variant's free 40 needs no brakes


def test_variant_free_40():
    "Quick reference variant: -40 m.p.h. per turn (normal braking) costs nothing."
    assert braking_cost(40, 0, 0, FREE_40) == (0, 0, 0)
    assert braking_cost(60, 0, 0, FREE_40) == (2, 1, 0)
    assert braking_cost(40, 0, 0) == (1, 0, 0)
