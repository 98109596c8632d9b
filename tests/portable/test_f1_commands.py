# Commands the tablet sends to a dashboard: applied through the same rules, refused without change.
from shared_rules.errors import RuleError
from shared_rules.f1.car import Car, apply_command
from tests.portable.check import raises
from tests.portable.f1_helpers import car_at, moving_car


def test_turn_commands():
    "The player with the yellow car always moves first."
    car = Car(3)
    assert apply_command(car, "turn", {"on": 1}) == 1 and car.my_turn == 1
    apply_command(car, "turn", {"on": 0})
    assert car.my_turn == 0


def test_penalty_command_applies_corner_outcome():
    "Any penalty involving tire or brake wear must be shown on the appropriate gauges"
    car = moving_car(100)
    apply_command(car, "pen", {"tyre": 1, "brake": 1, "spin": 0, "dice": 34})
    assert (car.tyre, car.brake) == (1, 1)
    apply_command(car, "pen", {"tyre": 0, "brake": 0, "spin": 1, "dice": 12})
    assert car.status == "spun" and car.speed == 0


def test_deal_take_lap_pit_speed():
    "Players do not draw additional Tactic Cards during the game except when instructed to do so by a Pit Card."
    car = moving_car(120)
    apply_command(car, "deal", {"card": "QR"})
    assert car.hand == ["QR"]
    apply_command(car, "take", {"card": "QR"})
    assert car.hand == []
    apply_command(car, "speed", {"v": 80})
    assert (car.speed, car.brake) == (80, 1)
    apply_command(car, "lap", {})
    assert car.laps_left == 2
    apply_command(car, "pit", {"card": "GOOD80"})
    assert car.status == "pit" and car.fixed == 80 and car.laps_left == 2


def test_sync_replaces_state():
    "Set all other dials on the dashboards at zero."
    car = moving_car(120, tyre=3)
    fresh = Car(5).snapshot()
    apply_command(car, "sync", fresh)
    assert car.snapshot() == fresh


def test_bad_commands_change_nothing():
    "an impossible speed, a card not in the hand, an action out of turn: refused, nothing changed"
    car = car_at(60, hand=["FG"])
    before = car.snapshot()
    bad = (
        ("fly", {}),
        ("pen", {"tyre": 9}),
        ("pen", {"tyre": "1"}),
        ("pen", {"spin": 2}),
        ("speed", {"v": 70}),
        ("speed", {"v": 80}),  # not moving yet
        ("deal", {"card": "XX"}),
        ("take", {"card": "QR"}),
        ("pit", {"card": "NOPE"}),
        ("pit", {"card": "QUICK"}),  # speed not set
        ("sync", {"speed": 500}),
        ("sync", dict(before, speed=170)),
        ("sync", dict(before, hand=["ZZ"])),
        ("sync", dict(before, status="flying")),
        ("sync", dict(before, laps_left=9)),
        ("turn", {"on": 7}),
        ("turn", []),
    )
    for name, args in bad:
        raises(RuleError, apply_command, car, name, args)
        assert car.snapshot() == before, name


def test_snapshot_round_trip():
    "The equipment consists of ... six dashboards."
    car = moving_car(100, tyre=2, brake=1, hand=["SD", "GC"])
    again = Car.from_snapshot(car.snapshot())
    assert again.snapshot() == car.snapshot()
