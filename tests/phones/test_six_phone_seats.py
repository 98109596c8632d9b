"""A tablet with no `micropython` anywhere on its PATH hosts six phone seats through a whole Formula 1 race: the
real app in its offscreen window (tests/phones/phone_window.py six_phones, run by a Python that finds no unix port,
tests/companion/test_any_tablet.tablet_env) and six phones, six windows of one headless Chromium, each running the
dashboard's own firmware on its seat's page. Every phone links and is paired to its seat by its token; each car's
first speed is set on its own phone, the rest of the race on the race screen (Lap by Lap, the rulebook's shortest
race, 3 laps); at the finish every phone shows its car finished, its car is the table's, and every page's status
line says it is linked, as it is. Cost: about 60 s on 2 cores (the app, six firmware boots, 18 turns)."""

import subprocess

import pytest

from tests.companion.test_any_tablet import ROOT, tablet_env
from tests.phones.browser import MISSING, Browser
from tests.phones.notes import record, seen
from tests.web.engines import phone_id

pytestmark = [pytest.mark.whole, pytest.mark.browser, pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]
PHONES = 6
LINKED = "Linked to the tablet."


def set_speed_60(page):
    """On the phone at its turn: the speed dial (opened with OK, or already open: the tablet's race screen asks
    for the speed), three steps up, set."""
    page.wait(lambda: "YOUR TURN" in page.shown() or page.shown().startswith("SET SPEED"), timeout=30,
              what="the phone told it is its turn")
    if not page.shown().startswith("SET SPEED"):
        page.press("OK")
    page.press("UP", "UP", "UP", "OK")


def test_a_tablet_without_micropython_hosts_six_phones_through_a_whole_race(tmp_path):
    python, env = tablet_env(tmp_path)
    out = tmp_path / "seen.json"
    proc = subprocess.Popen([python, "-m", "tests.phones.phone_window", "six_phones", str(out)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        got = seen(out, proc, lambda g: "addresses" in g, 90)
        assert got["unix_port"] is False  # the premise: nothing can run a dashboard on this tablet
        addresses = got["addresses"]
        assert len(set(addresses)) == PHONES
        with Browser() as browser:
            pages = [browser.open(address) for address in addresses]
            for seat, page in enumerate(pages):
                page.wait(lambda page=page: page.dash()["linked"], timeout=90, what="phone %d linked" % seat)
            devs = [phone_id(page) for page in pages]
            got = seen(out, proc, lambda g: "pairs" in g, 90)
            assert got["pairs"] == {str(seat): dev for seat, dev in enumerate(devs)}  # each its own seat, by token
            played = set()
            while True:
                got = seen(out, proc, lambda g: g.get("over") or g.get("to_play") not in (None, *played), 120)
                if got.get("over"):
                    break
                seat = got["to_play"]
                set_speed_60(pages[seat])
                played.add(seat)
            assert sorted(got["on_phone"]) == list(range(PHONES)) and got["game_over"]
            assert got["phones_cars"] == got["cars"]  # every phone's car is the table's
            for seat, page in enumerate(pages):
                page.wait(lambda page=page: "FINISHED" in page.shown(), what="phone %d showing its car finished" % seat)
                assert page.text("status") == LINKED and page.dash()["error"] is None
            (tmp_path / (out.name + ".looked")).write_text("")  # the app may quit now
        assert proc.wait(60) == 0
        assert record(out).get("ok") == 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
