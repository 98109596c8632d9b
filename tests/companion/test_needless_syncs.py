"""A sync is the table undoing what a dashboard holds: sent only when the two really differ, and once. Here the
referee alone, its commands applied to a Car as a dashboard applies them (shared_rules.f1.car.apply_command)."""

from companion.referee.referee import Referee
from shared_rules.f1 import cards
from shared_rules.f1.car import Car, apply_command
from shared_rules.f1.race import Race


def _dashboard(ref, seat):
    """A car that has applied every command the referee queued for `seat`; returns (car, their names)."""
    car = Car(ref.race.laps, ref.race.rules)
    return car, _follow(ref, car, seat)


def _game(tmp_path, seed=1):
    ref = Referee.new(str(tmp_path / "g.db"), ["Ann", "Bob"], 3, seed=seed)
    ref.pair(0, "d1")
    car, _ = _dashboard(ref, 0)
    return ref, car


def _follow(ref, car, seat=0):
    names = []
    for s, _cid, name, args in ref.take_commands():
        if s == seat:
            apply_command(car, name, args)
            names.append(name)
    return names


def test_a_rolled_corner_costs_no_sync(tmp_path):
    ref, car = _game(tmp_path)
    try:
        car.set_speed(40)  # the player, on the dashboard; then its event
        assert ref.on_dashboard_event(0, "speed", {"v": 40}, ("d1", "e1")) is None
        assert _follow(ref, car) == []
        ev = ref.corner(20)  # 20 over: the dice
        assert ev["dice"]
        assert _follow(ref, car) == ["pen"]  # the penalty says the dice were thrown: no sync for "rolled"
        assert car.snapshot() == ref.race.cars[0].snapshot() and car.rolled == 1
    finally:
        ref.close()


def test_a_corner_taken_on_superb_driving_costs_no_sync(tmp_path):
    seed = next(s for s in range(1, 200) if cards.SUPERB in Race(s, ["A", "B"], 3).cars[0].hand)
    ref, car = _game(tmp_path, seed)
    try:
        car.set_speed(40)
        assert ref.on_dashboard_event(0, "speed", {"v": 40}, ("d1", "e1")) is None
        car.play_card(cards.SUPERB)
        assert ref.on_dashboard_event(0, "card", {"card": cards.SUPERB}, ("d1", "e2")) is None
        assert _follow(ref, car) == []
        ev = ref.corner(0)  # 40 over, waived by Superb Driving, which is spent
        assert not ev["dice"] and ev["pen"] == [0, 0, 0]
        assert _follow(ref, car) == ["pen"]
        assert car.snapshot() == ref.race.cars[0].snapshot() and car.superb == 0
    finally:
        ref.close()


def test_the_same_wrong_state_twice_queues_one_sync(tmp_path):
    ref, car = _game(tmp_path)
    try:
        wrong = dict(car.snapshot(), tyre=3)
        assert ref.reconcile(0, wrong) == 1
        assert ref.reconcile(0, wrong) == 0  # a sync is on its way already: its ack brings the state after it
        assert [c[2] for c in ref.take_commands()] == ["sync"]
    finally:
        ref.close()
