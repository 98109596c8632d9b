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


def test_only_a_link_that_is_not_linked_is_said_beside_the_car_in_a_few_words():
    for linked in ("Wi-Fi: linked", "this tablet: linked", "USB: linked, 2 sent again",
                   "USB: linked, last answer 12 s ago", "phone: linked, last answer 40 s ago, 3 sent again"):
        assert link_words.beside_the_car(linked) == "", linked
    # which way and what is wrong, short enough for a car's panel at every size and steady (no age ticking in it)
    assert link_words.beside_the_car("phone: slow: 2 commands waiting, 4 sent again") == "phone: slow"
    assert link_words.beside_the_car("Wi-Fi: silent") == "Wi-Fi: silent"
    assert link_words.beside_the_car("USB: lost, last heard 25 s ago") == "USB: lost"
    assert link_words.beside_the_car("this tablet: lost") == "this tablet: lost"
    for status in ("connected", "silent", "lost"):
        for info in (None, {"heard_ms": 25000}, {"waited_ms": 3000, "waiting": 2, "resends": 4}):
            line = link_words.beside_the_car(link_words.words(status, info, "phone-seat-token"))
            assert len(line) <= len("this tablet: silent"), line


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
