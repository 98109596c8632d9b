"""A car whose dashboard stopped answering says so on the race screen, small beside the car, in the pairing screen's
words (companion/link_words.py); a car plainly linked says nothing there. The real app in a real window (SDL
offscreen), two dashboards on the tablet's screen, one of them killed mid-race (tests/companion/race_link_words_window.py)."""

import json
import os
import subprocess
import sys

import pytest

from companion import link_words

pytestmark = [pytest.mark.window]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_only_a_link_that_is_not_plainly_linked_is_said_beside_the_car():
    assert link_words.beside_the_car("Wi-Fi: linked") == ""
    assert link_words.beside_the_car("this tablet: linked") == ""
    for line in ("USB: linked, 2 sent again", "phone: slow: 2 commands waiting, 4 sent again", "Wi-Fi: silent",
                 "USB: lost, last heard 25 s ago", "USB: linked, last answer 12 s ago"):
        assert link_words.beside_the_car(line) == line


def test_a_car_whose_dashboard_stopped_answering_says_so_on_the_race_screen(tmp_path):
    out, shots = tmp_path / "out.json", tmp_path / "shots"
    env = dict(os.environ, F1_COMPANION_DATA=str(tmp_path / "data"), PYTHONPATH=ROOT, F1_COMPANION_SEED="5",
               F1_PHONE_HOST="127.0.0.1", F1_PHONE_PORT="0")
    proc = subprocess.run([sys.executable, "-m", "tests.companion.race_link_words_window", str(out), str(shots)],
                          cwd=ROOT, env=env, capture_output=True, timeout=240)
    assert out.exists(), proc.stderr.decode(errors="replace")[-3000:]
    seen = json.loads(out.read_text())
    assert "error" not in seen, seen["error"]
    assert seen["before"] == ["", ""], seen  # both plainly linked: nothing said
    first, second = seen["after"]
    assert first == "", seen  # the other car still plainly linked
    assert second.startswith("this tablet: ") and ("lost" in second or "silent" in second), seen
    assert os.path.exists(str(shots / "race-link-lost.png"))
