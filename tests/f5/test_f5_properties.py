"""Formula 5 properties over many random games (hypothesis): every card, every car, exact replay.

Each example is a whole game: a setup (seed, which cars have players) and a stream of choices that picks, at
every turn, one legal move, or now and then a random attempt that is usually refused and must change nothing.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.errors import RuleError
from shared_rules.f5 import bot
from shared_rules.f5.cards import ALL_CARDS, CARS, PIT_SIDE, RACE_CARDS, is_pit_card
from shared_rules.f5.game import Game
from shared_rules.rng import Rng
from tests.portable.test_f5_random_games import random_attempt
from tests.portable.test_f5_table import all_cards, check_invariants

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_sets = st.sets(st.integers(min_value=0, max_value=CARS - 1), min_size=1).map(sorted)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def legal_move(game, data):
    """A legal move drawn by hypothesis (so failures shrink to short, simple games)."""
    car = game.to_move()
    if not game.is_player(car):
        return ["drive", car]
    hand = game.hand(car)
    race = [c for c in hand if not is_pit_card(c)]
    if race and not data.draw(st.booleans(), label="pit?"):
        return ["race", car, data.draw(st.sampled_from(race), label="card")]
    played = data.draw(st.sampled_from(hand), label="pit card")
    rest = [c for c in race if c != played]
    discards = data.draw(st.lists(st.sampled_from(rest), unique=True), label="discards") if rest else []
    return ["pit", car, played, discards]


@SETTINGS
@given(seed=seeds, players=player_sets, data=st.data())
def test_cards_cars_and_replay_hold_through_whole_games(seed, players, data):
    game = Game(seed, players)
    check_invariants(game)
    while not game.over:
        game.apply(legal_move(game, data))
        check_invariants(game)  # 76 cards each once; positions a permutation of the five cars
    assert len(all_cards(game)) == ALL_CARDS
    assert game.round == 12 and game.winner() in players
    assert Game.replay(game.events).snapshot() == game.snapshot()
    assert Game.replay(game.events).events == game.events


@SETTINGS
@given(seed=seeds, players=player_sets, moves=seeds)
def test_refused_actions_change_nothing(seed, players, moves):
    rng = Rng(moves)
    game = Game(seed, players)
    refused = 0
    while not game.over:
        event = random_attempt(game, rng)
        before = game.snapshot()
        try:
            game.apply(event)
        except RuleError as e:
            refused += 1
            assert e.code and str(e)
            assert game.snapshot() == before
        else:
            check_invariants(game)
        if not game.over and rng.below(2):
            game.apply(bot.random_event(game, rng))
            check_invariants(game)
    assert refused > 0
    assert Game.replay(game.events).snapshot() == game.snapshot()


@SETTINGS
@given(seed=seeds, players=player_sets)
def test_bots_always_choose_legal_moves(seed, players):
    game = Game(seed, players)
    while not game.over:
        game.apply(bot.choose(game))
    check_invariants(game)
    assert Game.replay(game.events).snapshot() == game.snapshot()


@SETTINGS
@given(seed=seeds, players=player_sets, moves=seeds)
def test_the_public_view_shows_no_secret(seed, players, moves):
    rng = Rng(moves)
    game = Game(seed, players)
    while not game.over:
        game.apply(bot.random_event(game, rng))
        view = game.public()
        for pos in range(CARS):
            real = game.columns[pos]
            shown = view["columns"][pos]
            assert len(shown) == len(real)
            for i in range(len(real)):
                # race cards face up are seen; pit stop cards and face-down race cards show their pit stop side
                assert shown[i] == (real[i] if real[i] < RACE_CARDS else PIT_SIDE)
        assert "hands" not in view and "deck" in view and isinstance(view["deck"], int)
        assert view["speeds"] == [game.speed(car) for car in range(CARS)]
