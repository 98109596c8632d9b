"""A whole Formula 5 game on phones that run the firmware, against the real app on a tablet without `micropython`:
the app in its real (offscreen) window (tests/companion/phone_race.py, scenario f5), red and yellow players each
on a Chromium page on their seat's address (one browser, a window per phone), green, blue and white without a
player (the tablet moves those cars as the rules say). Each player looks at the hand on the phone and plays it as a
person does, screen by screen.

The game ends exactly as the engine plays it alone from the same seed with each player choosing as the simple bot,
and no hand was ever in the tablet's widget tree: every screen's widgets looked through all along the game, no card
face that was in a hand at that moment, no dashboard drawn, no hand's words.

Cost: about 45 s (one app start, two phones booted, 24 moves on their buttons).
"""

import subprocess

import pytest

from shared_rules.f5 import bot
from shared_rules.f5.game import Game
from tests.companion.test_any_tablet import ROOT, tablet_env
from tests.phones.browser import Browser
from tests.phones.notes import record, seen
from tests.phones.player import play, rows
from tests.web.engines import MISSING
from tests.web.test_seat_page import boot

pytestmark = [pytest.mark.whole, pytest.mark.browser, pytest.mark.window, pytest.mark.skipif(MISSING["chromium"] is not None, reason=MISSING["chromium"] or "")]

SEED = 2026
PLAYERS = [0, 1]  # red and yellow, on phones (tests/companion/phone_race.F5_PLAYERS)


def test_a_whole_formula5_game_on_firmware_pages_no_hand_on_the_tablet(tmp_path):
    alone = Game(SEED, PLAYERS)
    while not alone.over:
        alone.apply(bot.choose(alone))
    python, env = tablet_env(tmp_path)
    env["F1_COMPANION_SEED"] = str(SEED)
    out = tmp_path / "f5.json"
    proc = subprocess.Popen([python, "-m", "tests.companion.phone_race", "f5", str(out)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        with Browser() as browser:
            urls = seen(out, proc, lambda g: "addresses" in g, 90)["addresses"]
            pages = {int(car): browser.open(url) for car, url in urls.items()}
            assert sorted(pages) == PLAYERS
            for page in pages.values():
                boot(page)
            moves = 0
            for i, ev in enumerate(alone.events[1:]):  # events[0] is the setup
                if ev[1] not in pages:
                    continue  # a car without a player: the tablet moves it
                page = pages[ev[1]]
                hand = Game.replay(alone.events[: i + 1]).hand(ev[1])
                play(page, hand, ev, lambda i=i: record(out).get("events", 0) > i + 1)
                moves += 1
            final = seen(out, proc, lambda g: g.get("over") == 1, 90)
            for page in pages.values():
                page.wait(lambda page=page: "RACE OVER" in " ".join(rows(page)) or "Position" in " ".join(rows(page)),
                          what="the race over on the phone")
                assert page.dash()["error"] is None and not page.dash()["taken"]
            (tmp_path / (out.name + ".looked")).write_text("")  # the app may quit now
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert moves == 24
    assert final["all_events"] == [list(e) for e in alone.events]  # every move once, as the players chose
    # no hand ever on the tablet: no card face that was in a hand, no dashboard drawn, no hand's words
    assert final["looks"] > moves and final["shown"] > 0  # looked all along, at a table of cards
    assert final["faces"] == [] and final["oleds"] == 0
    assert not any("HAND" in t or "CARDS" in t for t in final["texts"])
