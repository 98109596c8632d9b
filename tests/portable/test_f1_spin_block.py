# Spinning off and blocking. Each test quotes the 1962 rulebook sentence it checks.
from shared_rules.errors import RuleError
from shared_rules.f1.charts import RESTART_80
from tests.portable.check import raises
from tests.portable.f1_helpers import car_at, moving_car


def _spun(rules=0, tyre=2, brake=1):
    car = moving_car(120, tyre=tyre, brake=brake, rules=rules)
    car.penalty(1, 0, 0)
    car.end_turn()
    car.start_turn()
    return car


def test_spin_sets_speed_to_zero_gauges_unchanged():
    "The speedometer is set to zero but the tire wear and brake wear gauges are not altered."
    car = moving_car(120, tyre=2, brake=1)
    car.penalty(1, 0, 0)
    assert (car.speed, car.tyre, car.brake, car.status) == (0, 2, 1, "spun")


def test_restart_after_spin_up_to_60():
    "on the next turn the car can proceed normally at any speed up to 60 mph."
    car = _spun()
    assert car.speed_choices() == [0, 20, 40, 60]
    raises(RuleError, car.set_speed, 80)
    car.set_speed(40)  # decision: any speed up to 60, not exactly 60
    assert car.status == "racing" and car.speed == 40


def test_variant_restart_at_80():
    "Quick reference variant: on the next turn the car can proceed normally at any speed up to 80 m.p.h."
    car = _spun(RESTART_80)
    assert car.speed == 20  # "it re-enters the track ... at a speed of 20 m.p.h."
    assert car.speed_choices()[-1] == 80
    assert _spun().speed_choices()[-1] == 60


def test_blocked_in_spin_point_may_set_60_without_moving():
    "the player may bring his speedometer up to 60 mph, although he may be unable to move"
    car = _spun()
    car.hold(60)
    assert car.speed == 60 and car.status == "spun"
    car.end_turn()
    car.start_turn()
    "and on his next turn he can move off at any speed up to 120 mph."
    assert car.speed_choices()[-1] == 120
    car.set_speed(120)
    assert car.status == "racing"


def test_hold_only_in_pit_or_spin_point():
    "If a car is blocked in the pit or in a Spin Off Point"
    car = car_at(60)
    raises(RuleError, car.hold, 60)
    car2 = _spun()
    raises(RuleError, car2.hold, 80)
    assert car2.speed == 0


def test_blocked_car_reduces_to_blockers_speed_with_chart_penalty():
    "If the car blocking you is travelling at a lower speed than your own car you must reduce the speed"
    car = moving_car(120)
    assert car.force_speed(60) == (2, 1, 0)
    assert (car.speed, car.brake, car.tyre) == (60, 2, 1)


def test_blocked_reduction_of_20_is_free():
    "If you reduce your speed by more than 20 mph, any penalty of brake or tire wear must be indicated"
    car = moving_car(80)
    car.force_speed(60)
    assert (car.speed, car.brake, car.tyre) == (60, 0, 0)


def test_blocked_car_that_cannot_brake_spins_outside():
    "When a blocked car spins off as a result of being forced to brake too hard ... The speedometer is reset to zero."
    car = moving_car(120, tyre=8, brake=2)
    assert car.force_speed(60) == (0, 0, 1)
    assert car.status == "spun" and car.speed == 0 and (car.tyre, car.brake) == (8, 2)


def test_optional_increase_to_blockers_speed_within_60():
    "you may, if you wish, increase speed to that of the blocking car, providing the increase is not more than 60 mph"
    car = car_at(40)
    car.set_speed(60)
    car.force_speed(100)  # +60 from the 40 the turn began with
    assert car.speed == 100
    car2 = car_at(40)
    car2.set_speed(60)
    raises(RuleError, car2.force_speed, 120)
    assert car2.speed == 60
