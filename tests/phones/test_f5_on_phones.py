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
import time

import pytest

from shared_rules.f5 import bot
from shared_rules.f5.cards import COLOURS, FIRST_PIT, colour
from shared_rules.f5.game import PIT, Game
from tests.firmware.dash import text_rows
from tests.phones.browser import MISSING, Browser
from tests.phones.notes import record, seen

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOTS = os.path.join(ROOT, "screenshots")
SEED = 2026
PLAYERS = [0, 1, 2]  # red and yellow on phones, green a bot; blue and white have no player
KILL_AFTER = 9  # player moves before the app is killed


def start(scenario, out, data):
    env = dict(os.environ, F1_COMPANION_DATA=str(data), PYTHONPATH=ROOT, F1_COMPANION_SEED=str(SEED),
               F1_PHONE_HOST="127.0.0.1", F1_PHONE_PORT="0")
    return subprocess.Popen([sys.executable, "-m", "tests.phones.phone_window", scenario, str(out), SHOTS],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def group(card):
    return COLOURS if card >= FIRST_PIT else colour(card)


def groups(hand):
    return sorted({group(c) for c in hand})


def rows(page):
    got = page.screen()
    return text_rows(got[1]) if got is not None else [""]


def tap_and_see(page, name):
    """Tap, then wait (briefly) for the page to show the frame the tap drew."""
    before = page.dash()["frame"]
    page.tap(name)
    end = time.monotonic() + 2
    while page.dash()["frame"] == before and time.monotonic() < end:
        time.sleep(0.02)


def open_hand(page):
    """From whatever the dashboard shows to its hand, at the player's turn (messages dismissed with OK). A
    message may time out just as OK dismisses it: that OK then opens the hand from the main screen, whose turn
    was not seen; so only a hand opened from YOUR TURN counts, any other is closed again (BACK)."""
    end = time.monotonic() + 30
    from_turn = False
    while True:
        top = rows(page)[0]
        if top.startswith("HAND"):
            if from_turn:
                return
            tap_and_see(page, "BACK")
        elif top.startswith("YOUR TURN"):
            from_turn = True
            tap_and_see(page, "OK")
        elif top.startswith(("WAIT", "RACE OVER")) or not top:
            time.sleep(0.05)
        else:
            from_turn = False
            tap_and_see(page, "OK")  # a message: any button dismisses it
        assert time.monotonic() < end, "no turn on the page: %s" % rows(page)


def steps_for(hand, ev):
    """The player's presses for the engine event ev from the hand screen, each with the screen it is made on,
    and the title the dashboard shows once the move is sent."""
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
    """Make the move on the page as a player does: look at the screen before each press. A view from the tablet
    arriving meanwhile may put the dashboard back on its main screen: nothing was sent yet, start again.
    taken(): the app has the move. The page's title for a sent move may be gone before it is looked at: the
    table's next view replaces it (the last move's RACE OVER at once), and a loaded machine looks late."""
    steps, sent = steps_for(hand, ev)
    for _attempt in range(4):
        if taken():
            return
        open_hand(page)
        for screen, key in steps:
            if not rows(page)[0].startswith(screen):
                break
            tap_and_see(page, key)
        else:
            end = time.monotonic() + 3
            while time.monotonic() < end:
                if rows(page)[0].startswith(sent) or taken():
                    return
                time.sleep(0.03)
    raise AssertionError("the move %s did not go out: %s" % (ev, rows(page)))


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
