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

import json
import subprocess
import time

import pytest

from shared_rules.f5 import bot
from shared_rules.f5.cards import COLOURS, FIRST_PIT, colour
from shared_rules.f5.game import PIT, Game
from tests.companion.test_any_tablet import ROOT, tablet_env
from tests.companion.test_phone_race import press
from tests.firmware.dash import text_rows
from tests.phones.browser import Browser
from tests.web.engines import MISSING
from tests.web.test_seat_page import boot

pytestmark = pytest.mark.skipif(MISSING["chromium"] is not None, reason=MISSING["chromium"] or "")

SEED = 2026
PLAYERS = [0, 1]  # red and yellow, on phones (tests/companion/phone_race.F5_PLAYERS)


def record(out):
    try:
        return json.loads(out.read_text())
    except (OSError, ValueError):
        return {}


def seen(out, proc, pred, timeout=90):
    end = time.monotonic() + timeout
    while True:
        got = record(out)
        assert "error" not in got, got["error"]
        if pred(got):
            return got
        assert proc.poll() is None, proc.stderr.read().decode(errors="replace")[-3000:]
        assert time.monotonic() < end, "the app did not get there: %s" % {k: got.get(k) for k in ("events", "steps")}
        time.sleep(0.05)


# ---- a player with the hand on the phone ------------------------------------------------------------------------

def group(card):
    return COLOURS if card >= FIRST_PIT else colour(card)


def groups(hand):
    return sorted({group(c) for c in hand})


def rows(page):
    got = page.screen()
    return text_rows(got[1]) if got is not None else [""]


def open_hand(page):
    """From whatever the dashboard shows to its hand, at the player's turn (messages dismissed with OK). A message
    may time out just as OK dismisses it: that OK then opens the hand from the main screen, whose turn was not seen;
    so only a hand opened from YOUR TURN counts, any other is closed again (BACK)."""
    end = time.monotonic() + 60
    from_turn = False
    while True:
        top = rows(page)[0]
        if top.startswith("HAND"):
            if from_turn:
                return
            press(page, "BACK")
        elif top.startswith("YOUR TURN"):
            from_turn = True
            press(page, "OK")
        elif top.startswith(("WAIT", "RACE OVER")) or not top:
            time.sleep(0.05)
        else:
            from_turn = False
            press(page, "OK")  # a message: any button dismisses it
        assert time.monotonic() < end, "no turn on the page: %s" % rows(page)


def steps_for(hand, ev):
    """The presses for the engine's move ev from the hand screen, each with the screen it is made on, and the title
    the dashboard shows once the move is sent."""
    hand_rows = [g for g in groups(hand) if g < COLOURS] + [COLOURS]
    if ev[0] != PIT:
        return [("HAND", "DOWN")] * hand_rows.index(colour(ev[2])) + [("HAND", "OK")], "PLAYED"
    steps = [("HAND", "DOWN")] * (len(hand_rows) - 1) + [("HAND", "OK")]  # PIT STOP
    pit_rows = list(reversed(groups(hand)))
    steps += [("PIT", "DOWN")] * pit_rows.index(group(ev[2])) + [("PIT", "OK")]
    for g in groups([c for c in hand if c != ev[2] and c < FIRST_PIT]):
        steps += [("DISCARD", "OK")] * len([c for c in ev[3] if colour(c) == g]) + [("DISCARD", "DOWN")]
    return steps + [("DISCARD", "OK")], "PIT STOP"  # CONFIRM PIT


def play(page, hand, ev, taken):
    """The move made on the phone, each press on the screen it is meant for; a view from the tablet arriving
    meanwhile may put the dashboard back on its main screen (nothing sent yet): then again from the hand."""
    steps, sent = steps_for(hand, ev)
    for _attempt in range(4):
        if taken():
            return
        open_hand(page)
        for screen, key in steps:
            if not rows(page)[0].startswith(screen):
                break
            press(page, key)
        else:
            end = time.monotonic() + 5
            while time.monotonic() < end:
                if rows(page)[0].startswith(sent) or taken():
                    return
                time.sleep(0.03)
    raise AssertionError("the move %s did not go out: %s" % (ev, rows(page)))


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
            urls = seen(out, proc, lambda g: "addresses" in g)["addresses"]
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
            final = seen(out, proc, lambda g: g.get("over") == 1)
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
