"""Property tests of the Formula 1 engine: random games, random (often illegal) decisions."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules.errors import RuleError
from shared_rules.f1 import cards, charts
from shared_rules.f1.autoplay import Driver
from shared_rules.f1.race import Race
from shared_rules.rng import Rng

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def check_invariants(race):
    tactic, pit = race.card_count()
    assert tactic == race.per_kind * 5, "tactic cards lost or duplicated"
    assert pit == 16, "pit cards lost or duplicated"
    every = sorted(race.tactic + [c for car in race.cars for c in car.hand])
    assert every == sorted(cards.tactic_deck(race.per_kind))
    held = [cards.SPECIAL_TYRES] * sum(c.special for c in race.cars)
    assert sorted(race.pit_pile + held) == cards.pit_deck()
    for car in race.cars:
        assert charts.valid_speed(car.speed)
        assert 0 <= car.tyre <= charts.TYRE_MAX
        assert 0 <= car.brake <= charts.BRAKE_MAX
        assert 0 <= car.laps_left <= car.laps
        assert (car.laps_left == 0) == (car.status == "finished")


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6), laps=st.integers(3, 4),
       rules=st.integers(0, charts.ALL_VARIANTS), per_kind=st.sampled_from([6, 7]))
def test_random_games_keep_gauges_and_cards_and_replay(seed, players, laps, rules, per_kind):
    race = Race(seed, NAMES[:players], laps, rules, per_kind)
    driver = Driver(race, Rng(seed ^ 0x5A5A))
    turns = 0
    while not race.game_over and turns < 3000:
        driver.play_turn()
        check_invariants(race)
        turns += 1
    assert race.game_over
    assert Race.from_events(race.events).snapshot() == race.snapshot()


EVENT = st.one_of(
    st.builds(lambda v, c: {"t": "speed", "v": v, "card": c}, st.integers(-40, 200),
              st.sampled_from([None, "GC", "FG", "ZZ"])),
    st.builds(lambda v: {"t": "hold", "v": v}, st.integers(0, 100)),
    st.builds(lambda s, sp: {"t": "corner", "safety": s, "special": sp}, st.sampled_from([40, 60, 80, 100, 120, 50]),
              st.integers(0, 1)),
    st.builds(lambda v: {"t": "block", "v": v}, st.sampled_from([0, 20, 40, 60, 80, 100, 140, 30])),
    st.builds(lambda c, cl: {"t": "card", "card": c, "clear": cl}, st.sampled_from(list(cards.TACTIC_KINDS) + ["X"]),
              st.integers(0, 1)),
    st.builds(lambda o: {"t": "lap", "over": o}, st.integers(-1, 25)),
    st.just({"t": "pit"}),
    st.just({"t": "end"}),
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.lists(st.tuples(EVENT, st.integers(-1, 6)), min_size=1, max_size=250))
def test_any_decision_is_applied_whole_or_refused_with_no_change(seed, steps):
    race = Race(seed, NAMES[:4], 3)
    for ev, seat_offset in steps:
        if race.game_over:
            break
        ev = dict(ev, seat=race.seat if seat_offset < 0 else seat_offset)
        before = race.snapshot()
        try:
            race.do(ev)
        except RuleError as e:
            assert str(e) and e.code
            assert race.snapshot() == before, ev
        check_invariants(race)
    assert Race.from_events(race.events).snapshot() == race.snapshot()
