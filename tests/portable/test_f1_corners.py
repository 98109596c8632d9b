# Corners and the Penalty Chart. Each test quotes the 1962 rulebook sentence it checks.
from shared_rules.errors import RuleError
from shared_rules.f1 import charts
from shared_rules.f1.charts import dice_penalty, corner_case, NO_PENALTY, SPIN, TYRE_1, TYRE_2, TYRE_1_BRAKE_1
from shared_rules.f1.odds import corner_odds, spin_chance
from shared_rules.f1.race import Race
from tests.portable.check import raises

NAMES = ["Ann", "Bob", "Cy"]


def test_at_or_below_safety_speed_is_safe():
    "Corners can be taken safely and without penalty at or below the safety speed on the red band"
    assert corner_case(0, 0) == charts.SAFE
    assert corner_case(-40, 8) == charts.SAFE


def test_20_or_40_over_throws_the_dice():
    "has exceeded the speed limit by 20 mph or 40 mph, the dice must be thrown."
    assert corner_case(20, 0) == charts.ROLL
    assert corner_case(40, 7) == charts.ROLL


def test_60_over_spins_automatically():
    "A car taking a corner at 60 mph or more over the safety speed automatically spins off the track."
    assert corner_case(60, 0) == charts.AUTO_SPIN
    assert corner_case(100, 0) == charts.AUTO_SPIN
    assert corner_odds(60, 0) == [(SPIN, 36)]


def test_any_overspeed_on_worn_tyres_spins():
    "When a red corner band is crossed at any speed over the safety speed, and the tire wear gauge is at its maximum of 8."
    assert corner_case(20, 8) == charts.AUTO_SPIN
    assert spin_chance(20, 8) == 36


def test_penalty_chart_rows_at_plus_20():
    "When Speed Over Safety Speed is +20 and the cell vis-a-vis the number rolled is empty, treat the result as No Penalty."
    expected = {2: NO_PENALTY, 3: SPIN, 4: TYRE_1, 5: TYRE_1, 6: NO_PENALTY, 7: NO_PENALTY, 8: TYRE_1,
                9: NO_PENALTY, 10: NO_PENALTY, 11: SPIN, 12: NO_PENALTY}
    for total in expected:
        d1 = min(6, total - 1)
        d2 = total - d1
        if d1 == d2 and d1 in (3, 4):
            d1, d2 = d1 + 1, d2 - 1
        assert dice_penalty(20, 0, d1, d2) == expected[total], total


def test_penalty_chart_rows_at_plus_40():
    "| 7 | +40 | Tire wear 1; Brake wear 1 |   | 9 | +40 | Tire wear 1; Brake wear 1 |"
    assert dice_penalty(40, 0, 1, 1) == NO_PENALTY
    assert dice_penalty(40, 0, 1, 2) == SPIN
    assert dice_penalty(40, 0, 1, 3) == TYRE_1
    assert dice_penalty(40, 0, 2, 3) == TYRE_1
    assert dice_penalty(40, 0, 1, 6) == TYRE_1_BRAKE_1
    assert dice_penalty(40, 0, 2, 6) == TYRE_1
    assert dice_penalty(40, 0, 3, 6) == TYRE_1_BRAKE_1
    assert dice_penalty(40, 0, 5, 6) == SPIN
    assert dice_penalty(40, 0, 6, 6) == NO_PENALTY


def test_doubles_3_and_4_apart_from_their_sums():
    "3/3 means both dice came up threes; 4/4 means both dice came up fours."
    assert dice_penalty(40, 0, 3, 3) == NO_PENALTY
    assert dice_penalty(40, 0, 2, 4) == TYRE_2  # the other 6
    assert dice_penalty(40, 0, 4, 4) == NO_PENALTY
    assert dice_penalty(40, 0, 2, 6) == TYRE_1  # the other 8


def test_rows_6_and_10_depend_on_tyre_wear():
    "If tire wear is 4 or more, spin off (do not register any tire wear). Otherwise tire wear 2."
    assert dice_penalty(40, 3, 1, 5) == TYRE_2
    assert dice_penalty(40, 4, 1, 5) == SPIN
    assert dice_penalty(40, 3, 5, 5) == TYRE_2
    assert dice_penalty(40, 4, 4, 6) == SPIN


def test_exact_odds_sum_to_36():
    "The faster a corner is taken over the safety speed, the greater the risk of harsh penalties."
    for over in (20, 40):
        for tyre in range(8):
            assert sum(n for _o, n in corner_odds(over, tyre)) == 36
    assert corner_odds(20, 0) == [(NO_PENALTY, 21), (TYRE_1, 11), (SPIN, 4)]
    assert spin_chance(40, 0) == 4
    assert spin_chance(40, 4) == 11  # 3, 11 and the 6s and 10s that are not 3/3


def _race_at(speed, tyre=0, brake=0, seed=7):
    race = Race(seed, NAMES, 3)
    car = race.cars[0]
    car.speed = speed - 20 if speed else 0
    car.tyre = tyre
    car.brake = brake
    race.set_speed(0, speed)
    return race, car


def test_corner_roll_applies_the_chart_row_to_the_car():
    "Any penalty involving tire or brake wear must be shown on the appropriate gauges on the player's dashboard."
    for seed in range(30):
        race, car = _race_at(120, seed=seed)
        ev = race.corner(0, 80)
        d1, d2 = ev["dice"]
        spins, tyre, brake = dice_penalty(40, 0, d1, d2)
        assert ev["pen"] == [spins, tyre, brake]
        if spins:
            assert car.status == "spun" and car.speed == 0 and car.tyre == 0
        else:
            assert (car.tyre, car.brake, car.speed) == (tyre, brake, 120)


def test_safe_corner_throws_nothing():
    "Corners can be taken safely and without penalty at or below the safety speed"
    race, car = _race_at(80)
    ev = race.corner(0, 80)
    assert ev["dice"] == [] and ev["pen"] == [0, 0, 0] and not car.rolled


def test_two_bands_rolled_separately():
    "When a car crosses two red bands over the safety speed during the course of one move, the dice must be thrown twice"
    for seed in range(40):
        race, car = _race_at(100, seed=seed)
        first = race.corner(0, 80)
        if car.status != "racing":
            # docs/rules.md: a spin at the first band ends the move; the second is not reached.
            raises(RuleError, race.corner, 0, 80)
            continue
        tyre_after_first = car.tyre
        second = race.corner(0, 80)
        assert len(first["dice"]) == 2 and len(second["dice"]) == 2
        pen = dice_penalty(20, tyre_after_first, second["dice"][0], second["dice"][1])
        assert second["pen"] == list(pen)
        return
    raise AssertionError("no seed reached the second band")


def test_auto_spin_has_no_other_penalty():
    "In this case there is no other penalty."
    race, car = _race_at(140, tyre=3, brake=2)
    ev = race.corner(0, 80)
    assert ev["dice"] == [] and car.status == "spun"
    assert (car.tyre, car.brake) == (3, 2)


def test_decision_corner_wear_stops_at_maximum():
    "docs/rules.md: corner wear that would pass a gauge's maximum stops at the maximum."
    from tests.portable.f1_helpers import moving_car
    car = moving_car(100, tyre=7, brake=5)
    car.penalty(0, 1, 1)
    assert (car.tyre, car.brake) == (8, 5)


def test_bad_safety_speed_refused():
    "The speeds shown on the red bands of each corner are the safety speeds."
    race, car = _race_at(100)
    before = race.snapshot()
    raises(RuleError, race.corner, 0, 50)
    raises(RuleError, race.corner, 0, "80")
    assert race.snapshot() == before
