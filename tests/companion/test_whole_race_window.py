"""A whole Formula 1 race played through the real app's window (SDL offscreen) by touches on its
widgets, as a table of three plays it: Back where people press it, double taps on the buttons that change the
screen under the finger, the app killed (SIGKILL) in the middle of a turn and continued, the race finished.
The scenarios are in tests/companion/whole_games.py."""

import pytest
import json
import os
import signal
import subprocess
import sys
from tests.wait import poll

pytestmark = [pytest.mark.whole, pytest.mark.window]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def start(scenario, out, data, seed):
    env = dict(os.environ, F1_COMPANION_DATA=str(data), PYTHONPATH=ROOT, F1_COMPANION_SEED=str(seed),
               F1_PHONE_HOST="127.0.0.1", F1_PHONE_PORT="0")  # the phones' server on a free loopback port
    return subprocess.Popen([sys.executable, "-m", "tests.companion.whole_games", scenario, str(out),
                             os.path.join(os.path.dirname(str(out)), "shots")],  # in the test's own tmp_path
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def seen_of(out, proc):
    assert out.exists(), proc.stderr.read().decode(errors="replace")[-3000:] if proc.poll() is not None else ""
    seen = json.loads(out.read_text())
    assert "error" not in seen, seen["error"]
    return seen


def halves(tmp_path, first, second, seed, timeout=150):
    """The first scenario until it says it is ready, then SIGKILL (no goodbye); the second on the same data."""
    data = tmp_path / "data"
    out = tmp_path / (first + ".json")
    proc = start(first, out, data, seed)
    try:
        poll(lambda: out.exists() or proc.poll() is not None, timeout)  # it said it is ready, or it ended
        before = seen_of(out, proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    # the killed app's virtual dashboards die with it (they are its children)
    poll(lambda: not any(alive(pid) for pid in before["children"]), 10)
    assert not any(alive(pid) for pid in before["children"])
    out = tmp_path / (second + ".json")
    proc = start(second, out, data, seed)
    try:
        proc.wait(timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
    return before, seen_of(out, proc)


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_a_whole_race_through_the_window_with_back_double_taps_and_a_kill(tmp_path):
    before, after = halves(tmp_path, "race_first_half", "race_second_half", seed=7)
    # The game choice: Back asks to quit and Back again is no; the fewest laps the rules allow (3).
    assert before["setup_back"][0].startswith("Quit the companion?") and before["setup_back"][1:] == ["games", True]
    assert before["laps"] == "3"
    # Roll for seats and start, double tapped: one game, the pairing screen (the second tap pressed Race, which
    # lay under the finger, and the race began without its pairing).
    assert before["start_twice"] == {"screen": "pairing", "games": 1, "pairs": 0}
    # "Show it on this tablet instead", double tapped: on the tablet (the second tap pressed "Use a phone").
    assert before["virtual_twice"] == {"screen": "pairing", "pairs": {"0": "virtual-1"}}
    assert before["pairing_back"][:2] == ["setup", "games"] and before["pairing_back"][2].startswith("Ann, Bob, Cy")
    assert before["continued"] == {"screen": "race", "games": 1, "pairs": 1}  # Ann's; the phones' come when linked
    # Every double tap acted once: one roll per corner, one End turn per turn, the turn to the next player.
    log = before["log"] + after["log"]
    for entry in log:
        if entry[0] == "corner":
            assert entry[2] == 1, entry
        elif entry[0] == "finish":  # finished, and the speed key under the finger left as it was
            assert entry[2:] == [0, entry[3], True, 0] and entry[3] >= 1, entry
        elif entry[0] == "end":
            assert entry[3] == 1 and entry[2] in ((entry[1] + 1) % 3, -1), entry
    assert before["race_back"] == ["Leave the race? It stays saved: continue it from Saved games.", "race",
                                   "history", "results"]  # double tapped, each stayed (its Back lay there)
    assert before["back_while_rolling"][1:] == ["race", True]  # Back during the roll asked; Back again: no
    # The kill: the same race, the same dashboards, continued from the setup.
    assert after["resume_note"].startswith("Ann, Bob, Cy  ·  round 3")
    assert after["table"] == before["table"] and after["pairs"] == before["pairs"]
    # To the end: everyone finished; the last End turn (double tapped) opened Results and did nothing more.
    over = after["over"]
    assert over["game_over"] == 1 and over["laps_left"] == [0, 0, 0] and sorted(over["over"]) == [1, 2, 3]
    assert over["undos"] == 0 and over["screen"] == "results" and over["shows"] == "FINISHED"
    last = log[-1]
    assert last[0] == "end" and last[4:] == ["results", None, 0]
    results = after["results"]
    assert [r[0] for r in results] == [1, 2, 3] and sorted(r[1] for r in results) == ["Ann", "Bob", "Cy"]
    assert all(r[3].startswith("finished, ") for r in results)
    assert "finished, 1 space over the line" in [r[3] for r in results]  # one space, not "1 spaces"
    assert after["results_back"] == ["race", "RACE OVER"]
    asked, screen, resume_off, note = after["left"]
    assert asked.startswith("Leave the race?") and screen == "games" and resume_off is True
    assert note == "The last race is over: its results are in Saved games"
