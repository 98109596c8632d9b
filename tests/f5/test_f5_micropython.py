"""The Formula 5 engine on the real MicroPython unix port: it fits a small heap and plays the same games."""

from shared_rules.f5 import bot
from shared_rules.f5.game import Game
from shared_rules.rng import Rng
from tests import mpy

GAMES = ((1, [0, 1, 2, 3, 4]), (2, [3]), (3, [0, 2]), (40, [1, 2, 4]))

# The same script on both runtimes: random legal games, printed so that dict order plays no part.
SCRIPT = """
from shared_rules.f5 import bot
from shared_rules.f5.game import Game
from shared_rules.rng import Rng
for seed, players in %r:
    game = Game(seed, players)
    rng = Rng(seed + 1)
    while not game.over:
        game.apply(bot.random_event(game, rng) if seed %% 2 else bot.choose(game))
    print(repr(sorted(game.snapshot().items())))
"""


def expected_lines():
    lines = []
    for seed, players in GAMES:
        game = Game(seed, players)
        rng = Rng(seed + 1)
        while not game.over:
            game.apply(bot.random_event(game, rng) if seed % 2 else bot.choose(game))
        lines.append(repr(sorted(game.snapshot().items())))
    return lines


def test_the_engine_imports_in_a_64k_heap():
    code = "import gc\nimport shared_rules.f5.game, shared_rules.f5.bot\ngc.collect()\nprint('free', gc.mem_free())"
    proc = mpy.run(["-c", code], heap="64K")
    out = proc.stdout.decode() + proc.stderr.decode()
    assert proc.returncode == 0, out
    assert out.startswith("free ") and int(out.split()[1]) > 16 * 1024, out


def test_whole_games_run_in_a_64k_heap():
    code = (
        "from shared_rules.f5 import bot\nfrom shared_rules.f5.game import Game\n"
        "for seed in range(3):\n    game = Game(seed, [0, 1, 2, 3, 4])\n"
        "    while not game.over:\n        game.apply(bot.choose(game))\n"
        "    print(game.winner())\n"
    )
    proc = mpy.run(["-c", code], heap="64K")
    out = proc.stdout.decode() + proc.stderr.decode()
    assert proc.returncode == 0, out
    assert out.split() == [str(_winner(seed)) for seed in range(3)]


def _winner(seed):
    game = Game(seed, [0, 1, 2, 3, 4])
    while not game.over:
        game.apply(bot.choose(game))
    return game.winner()


def test_both_runtimes_play_identical_games():
    proc = mpy.run(["-c", SCRIPT % (GAMES,)], heap="256K")
    out = proc.stdout.decode() + proc.stderr.decode()
    assert proc.returncode == 0, out
    assert out.strip().splitlines() == expected_lines()
