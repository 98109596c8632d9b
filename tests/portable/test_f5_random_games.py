# Formula 5 properties over random games, on both runtimes (the hypothesis version is tests/f5/).
# Random legal moves mixed with random, mostly illegal, attempts; after every step the invariants hold.

from shared_rules.errors import RuleError
from shared_rules.f5 import bot
from shared_rules.f5.game import Game
from shared_rules.rng import Rng
from tests.portable.test_f5_table import check_invariants

PLAYER_SETS = ([0, 1, 2, 3, 4], [2], [0, 4], [1, 2, 3], [0, 1, 3, 4])


def random_attempt(game, rng):
    """Any event at all: a random kind, car, card and discards (it may happen to be legal)."""
    kind = ("race", "pit", "drive", "fly")[rng.below(4)]
    car = rng.below(7) - 1
    if kind == "drive":
        return [kind, car]
    if kind == "race":
        return [kind, car, rng.below(80) - 2]
    return [kind, car, rng.below(80) - 2, [rng.below(78) for _ in range(rng.below(3))]]


def play_random_game(seed, players, attempts=True):
    rng = Rng(seed * 7919 + 1)
    game = Game(seed, players)
    check_invariants(game)
    while not game.over:
        if attempts and rng.below(3) == 0:
            event = random_attempt(game, rng)
            before = game.snapshot()
            try:
                game.apply(event)
            except RuleError:
                assert game.snapshot() == before, "a refused action changes nothing"
        else:
            game.apply(bot.random_event(game, rng))
        check_invariants(game)
    return game


def test_random_games_keep_every_card_and_car_and_replay_exactly():
    # all 76 cards always accounted for; positions always a permutation of the five cars;
    # replaying the event log rebuilds the same game, rng state included
    for seed in range(10):
        game = play_random_game(seed, PLAYER_SETS[seed % len(PLAYER_SETS)])
        assert game.round == 12 and game.winner() in PLAYER_SETS[seed % len(PLAYER_SETS)]
        again = Game.replay(game.events)
        assert again.snapshot() == game.snapshot()


def test_replay_matches_at_every_step():
    game = Game(99, [0, 3])
    rng = Rng(5)
    while not game.over:
        game.apply(bot.random_event(game, rng))
        assert Game.replay(game.events).snapshot() == game.snapshot()


def test_replay_refuses_a_tampered_log():
    game = play_random_game(3, [0, 1, 2, 3, 4], attempts=False)
    events = [list(e) for e in game.events]
    events[2], events[3] = events[3], events[2]  # two turns of a round swapped: the wrong car to move
    try:
        Game.replay(events)
    except RuleError as e:
        assert e.code == "not_your_turn"
    else:
        raise AssertionError("a tampered log replayed")


def test_these_games_use_the_reshuffle_and_every_kind_of_event():
    # the random games above would prove little if they never pit, never reshuffle or never overtake
    kinds = []
    reshuffles = 0
    overtakes = 0
    for seed in range(6):
        rng = Rng(seed)
        game = Game(seed, [0, 1, 2, 3] if seed % 2 else [0, 1, 2, 3, 4])
        while not game.over:
            result = game.apply(bot.random_event(game, rng))
            kind = game.events[-1][0]
            if kind not in kinds:
                kinds.append(kind)
            reshuffles += result["reshuffles"]
            overtakes += len(result["overtaken"])
    assert sorted(kinds) == ["drive", "pit", "race"]
    assert reshuffles > 0 and overtakes > 0
