"""A whole Formula 5 game on a table without a single Pico: the two players hold their hands on phone pages
(Debian's headless Chromium), the real app runs the table in its offscreen window; it is killed in the middle
and resumed, the pages come back by themselves; the game ends exactly as the engine plays it alone from the
same seed with every player choosing as the simple bot, and no dashboard was ever drawn on the tablet (its
widget tree, every screen). Cost: one app run and a restart, one browser, ~25-45 s on 2 cores."""

import json
import os
import signal
import subprocess
import sys

import pytest

from shared_rules.f5 import bot
from shared_rules.f5.game import Game
from tests.phones.browser import MISSING, Browser
from tests.phones.notes import record, seen
from tests.phones.player import play, rows

pytestmark = [pytest.mark.slow, pytest.mark.whole, pytest.mark.browser, pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = 2026
PLAYERS = [0, 1, 2]  # red and yellow on phones, green a bot; blue and white have no player
KILL_AFTER = 9  # player moves before the app is killed


def start(scenario, out, data):
    env = dict(os.environ, F1_COMPANION_DATA=str(data), PYTHONPATH=ROOT, F1_COMPANION_SEED=str(SEED),
               F1_PHONE_HOST="127.0.0.1", F1_PHONE_PORT="0")
    shots = os.path.join(os.path.dirname(str(out)), "shots")  # in the test's own tmp_path
    return subprocess.Popen([sys.executable, "-m", "tests.phones.phone_window", scenario, str(out), shots],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def test_a_whole_formula5_game_on_phone_pages_with_a_restart(tmp_path):
    alone = Game(SEED, PLAYERS)
    while not alone.over:
        alone.apply(bot.choose(alone))
    data = tmp_path / "data"
    out = tmp_path / "first.json"
    proc = start("f5_phones", out, data)
    try:
        with Browser() as browser:
            got = seen(out, proc, lambda g: "urls" in g)
            assert not any(t.startswith("Pico ") for t in got["pairing"])  # no Pico: both players get a code
            assert sum(t.startswith("http://127.0.0.1:") for t in got["pairing"]) == 2
            urls = got["urls"]
            pages = {int(car): browser.open(url) for car, url in urls.items()}
            moves = 0
            for i, ev in enumerate(alone.events[1:]):  # events[0] is the setup
                car = ev[1]
                if car not in pages:
                    continue  # the tablet plays the bot and the cars without a player
                if moves == KILL_AFTER:
                    # the app waits for this player's move, nothing in flight: killed like a crash
                    seen(out, proc, lambda g, i=i, car=car: g.get("events") == i + 1 and g.get("to_move") == car
                         and g.get("pending") == 0)
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(10)
                    first = json.loads(out.read_text())
                    out = tmp_path / "resumed.json"
                    proc = start("f5_resume", out, data)
                    assert seen(out, proc, lambda g: "resumed" in g)["urls"] == urls  # same port, same tokens
                hand = Game.replay(alone.events[: i + 1]).hand(car)
                play(pages[car], hand, ev, lambda i=i, out=out: record(out).get("events", 0) > i + 1)
                moves += 1
            final = seen(out, proc, lambda g: g.get("over") == 1, timeout=60)
            for page in pages.values():
                page.wait(lambda page=page: "RACE OVER" in " ".join(rows(page)) or "Position" in " ".join(rows(page)),
                          what="the race over on the phone")
            (tmp_path / (out.name + ".looked")).write_text("")  # the app may quit now
        assert moves == 24
        assert final["all_events"] == [list(e) for e in alone.events]
        # no dashboard ever on the tablet's screen, in either run, and no hand in its texts
        assert first["oleds"] == 0 and final["oleds"] == 0
        assert not any("HAND" in t or "CARDS" in t for t in final["texts"])
    finally:
        if proc.poll() is None:
            proc.kill()
