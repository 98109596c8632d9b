# Seating, turn order, laps, finishing and replay. Each test quotes the 1962 rulebook sentence it checks.
from shared_rules.errors import RuleError
from shared_rules.rng import Rng
from shared_rules.f1 import charts
from shared_rules.f1.autoplay import play_game
from shared_rules.f1.race import Race, roll_for_seats, COLOURS
from tests.portable.check import raises

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def test_highest_roll_takes_yellow_then_clockwise():
    "Each player rolls the dice and the player with the highest number takes the yellow car"
    for seed in range(20):
        first, throws = roll_for_seats(Rng(seed), 6)
        last = throws[-1]
        assert last[first] == max(last)
        assert [t for t in last if t == max(last)] == [last[first]]
        race = Race(seed, NAMES, 3)
        "The player on his left takes the appropriately coloured car for space 2 and so on."
        assert race.names == NAMES[first:] + NAMES[:first]
        assert race.colours[0] == "yellow"


def test_yellow_moves_first_then_clockwise():
    "The player with the yellow car always moves first."
    race = Race(1, NAMES[:3], 3)
    order = []
    for _ in range(6):
        order.append(race.seat)
        race.set_speed(race.seat, 20)
        race.end_turn(race.seat)
    assert order == [0, 1, 2, 0, 1, 2]
    assert race.round == 3
    assert COLOURS == ("yellow", "orange", "green", "red", "black", "blue")


def test_out_of_turn_refused():
    "After the first player has moved his car his turn ends and the player to his left plays in the same manner."
    race = Race(1, NAMES[:3], 3)
    before = race.snapshot()
    raises(RuleError, race.set_speed, 1, 20)
    raises(RuleError, race.end_turn, 2)
    raises(RuleError, race.do, {"t": "fly", "seat": 0})
    raises(RuleError, race.do, {"t": "speed", "seat": True, "v": 20})
    assert race.snapshot() == before


def test_laps_between_3_and_10():
    "A minimum of three laps must be raced for all factors of the game to come into play, but as many as ten laps"
    raises(RuleError, Race, 1, NAMES, 2)
    raises(RuleError, Race, 1, NAMES, 11)
    raises(RuleError, Race, 1, ["solo"], 3)
    raises(RuleError, Race, 1, NAMES + ["Gus"], 3)
    assert Race(1, NAMES, 10).cars[0].laps_left == 10


def test_lap_indicator_counts_down():
    "The lap indicator on each dashboard acts as a record of laps left to be travelled."
    race = Race(2, NAMES[:2], 3)
    race.set_speed(0, 60)
    race.lap(0)
    assert race.cars[0].laps_left == 2
    raises(RuleError, race.lap, 0)  # once per turn


def _finish(race, seat, over):
    car = race.cars[seat]
    car.laps_left = 1
    race.set_speed(seat, min(car.speed + 60, 160))
    race.lap(seat, over)


def test_equal_turns_then_furthest_over_the_line_wins():
    "Play continues until the last player has taken his turn. The car which is then furthest over the chequered line is the winner."
    race = Race(3, NAMES[:3], 3)
    _finish(race, 0, 1)
    assert race.cars[0].status == "finished" and not race.game_over
    race.end_turn(0)
    _finish(race, 1, 3)
    race.end_turn(1)
    race.set_speed(2, 20)
    race.end_turn(2)
    assert race.game_over
    assert race.winners() == [1]
    assert race.results()[0] == (1, 1)
    raises(RuleError, race.set_speed, 0, 20)


def test_decision_tie_at_the_finish_goes_to_speed_then_dead_heat():
    "If more than one car crosses on the same number of turns, the winner is the one furthest over."
    race = Race(3, NAMES[:3], 3)
    _finish(race, 0, 2)
    race.end_turn(0)
    _finish(race, 1, 2)
    race.end_turn(1)
    race.set_speed(2, 20)
    race.end_turn(2)
    speeds = (race.cars[0].speed, race.cars[1].speed)
    if speeds[0] == speeds[1]:
        assert race.winners() == [0, 1]
    else:
        assert race.winners() == [0 if speeds[0] > speeds[1] else 1]


def test_move_card_after_finishing_counts_past_the_line():
    "Fast Gear Change — Move two spaces forward. Use at the end of any turn"
    race = Race(3, NAMES[:2], 3)
    race.cars[0].hand[0] = "FG"
    race.tactic.append(race.tactic.pop(0))
    _finish(race, 0, 1)
    race.play_card(0, "FG")
    assert race.over[0] == 3


def test_missed_moves_are_skipped_in_turn_order():
    "Dirt in Carburettors. Miss one move."
    race = Race(9, NAMES[:2], 3)
    race.pit_pile.remove("DIRT")
    race.pit_pile.insert(0, "DIRT")
    race.set_speed(0, 60)
    race.pit(0)
    race.end_turn(0)
    race.set_speed(1, 60)
    race.end_turn(1)
    assert race.seat == 1 and race.skipped == [(2, 0)]
    race.set_speed(1, 60)
    race.end_turn(1)
    assert race.seat == 0


def test_replay_rebuilds_the_same_state():
    "The dice are used only for determining penalties."
    for seed in range(3):
        race = Race(seed, NAMES, 3)
        play_game(race, Rng(seed + 99))
        again = Race.from_events(race.events)
        assert again.snapshot() == race.snapshot()
        assert race.game_over and race.card_count() == (35, 16)


def test_tampered_log_is_refused():
    "When calling at the pits a player must always draw a Pit Card"
    race = Race(5, NAMES, 3)
    race.set_speed(0, 60)
    ev = race.corner(0, 20)
    events = [dict(e) for e in race.events]
    events[-1]["dice"] = [6, 6] if ev["dice"] != [6, 6] else [1, 1]
    raises(RuleError, Race.from_events, events)
    raises(RuleError, Race.from_events, [])
    raises(RuleError, Race.from_events, [{"t": "end"}])


def test_variant_worn_out_car_is_out():
    "Quick reference variant: A car is out of the race if its dashboard indicators show it is fully damaged"
    race = Race(5, NAMES[:2], 3, rules=charts.WORN_OUT)
    car = race.cars[0]
    car.tyre, car.brake = 7, 5
    race.set_speed(0, 60)
    car.penalty(0, 1, 0)
    assert car.status == "out"
    race.end_turn(0)
    race.set_speed(1, 20)
    race.end_turn(1)
    assert race.seat == 1  # the car that is out no longer plays


def test_variant_redraw_replaces_used_card():
    "Quick reference variant: Once used, it is discarded face-up and a new card is drawn."
    race = Race(5, NAMES[:2], 3, rules=charts.REDRAW)
    car = race.cars[0]
    race.set_speed(0, 60)
    code = [c for c in car.hand if c in ("FG", "QR", "SS")]
    if code:
        ev = race.play_card(0, code[0])
        assert len(car.hand) == 5 and "drawn" in ev
        assert race.card_count() == (35, 16)
