"""The real app in a real window (SDL's offscreen driver), played by touching its widgets: setup, pairing,
a turn with a corner roll, a pit stop, an undo, laps to the finish, results and history; and a kill in the
middle of a race, a restart, and the same game on the tablet and on every dashboard.

Each run has an app of its own, driven by tests/companion/appdriver.py: `run` plays it in the app process this
pytest process shares between its tests (a new app in it each time), `start` in a process of its own (the tests
that kill it).
Screenshots go to the test's own tmp_path (shots/), for a person to look at after a run (pytest keeps the last
three runs' folders) and checked to be written by this run."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from companion import theme
from tests.companion.app_host import played
from tests.wait import poll

pytestmark = [pytest.mark.window]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def shots_of(out):
    """The folder a scenario writes its screenshots to: beside its OUT.json, in the test's own tmp_path."""
    return os.path.join(os.path.dirname(str(out)), "shots")


def stale_screenshots(folder, names, since):
    """The screenshots among `names` (without .png) that this run did not write in `folder` (missing, older than
    `since`, a time.time(), or too small to be a picture of a screen)."""
    stale = []
    for name in names:
        path = os.path.join(folder, name + ".png")
        if not os.path.exists(path) or os.path.getmtime(path) < since or os.path.getsize(path) <= 10000:
            stale.append(name)
    return stale


def start(scenario, out, data, seed=None):
    env = dict(os.environ, F1_COMPANION_DATA=str(data), PYTHONPATH=ROOT)
    if seed is not None:
        env["F1_COMPANION_SEED"] = str(seed)
    return subprocess.Popen([sys.executable, "-m", "tests.companion.appdriver", scenario, str(out), shots_of(out)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def run(scenario, tmp_path, data, seed=None, timeout=90):
    """`scenario` played to its end in this pytest process's shared app process (tests/companion/app_host.py),
    with an app of its own, as `start` would run it in a process of its own."""
    out = tmp_path / (scenario + ".json")
    env = dict(os.environ, F1_COMPANION_DATA=str(data))
    if seed is not None:
        env["F1_COMPANION_SEED"] = str(seed)
    else:
        env.pop("F1_COMPANION_SEED", None)
    return played(scenario, out, shots_of(out), env, timeout=timeout)


def test_a_screenshot_left_by_an_earlier_run_does_not_count(tmp_path):
    since = time.time()
    old = tmp_path / "1-setup.png"
    old.write_bytes(b"\x89PNG" + bytes(20000))  # a picture an earlier run left
    os.utime(old, (since - 60, since - 60))
    (tmp_path / "2-pairing.png").write_bytes(b"\x89PNG" + bytes(20000))  # written by this run
    assert stale_screenshots(str(tmp_path), ["1-setup", "2-pairing", "3-race-corner"], since) == [
        "1-setup", "3-race-corner"]


def test_setup_pairing_corner_pit_undo_finish_results_history(tmp_path):
    since = time.time() - 1  # (file times may be rounded down to the second)
    seen = run("tour", tmp_path, tmp_path / "data", seed=7)
    assert seen["roll"].endswith("Yellow moves first, then clockwise.")
    assert seen["speed_from_dashboard"] == 60  # set with the virtual dashboard's buttons
    assert "no penalty: 21/36 (58%)" in seen["odds"]  # the advisor, before the roll
    assert seen["rolling"] == 1  # the dice animation ran
    assert seen["sound_s"] > 0.5  # with its rattle (SDL's dummy audio driver here)
    assert seen["track"].startswith("Track: ")
    roll = seen["last_roll"]
    assert seen["dice_faces"] == roll["dice"] and len(roll["dice"]) == 2
    assert seen["chart_row"] == seen["last_roll_text"] and seen["last_roll_text"].startswith("Corner 1: threw ")
    assert seen["dashboard_after_roll"] == seen["before_undo"]  # the result reached the dashboard
    assert seen["after_undo"]["rolled"] == 0 and seen["undo_message"].startswith("Undone: ")
    assert seen["pit_status"] == "pit" and " in the pit: " in seen["pit_message"]
    assert seen["pit_card"] == "PIT CARD: " + seen["pit_message"].split(" in the pit: ")[1]
    assert seen["game_over"] == 1
    assert seen["results"][0][0] == 1 and "finished, 2 spaces over the line" in seen["results"][0][3]
    history = seen["history"].splitlines()
    assert any("(undone)" in line for line in history) and "UNDO" in history
    assert 10 <= seen["history_shown"] <= len(history)  # drawn as rows, only those on screen
    assert seen["results_screen"] == {"heading": "Results", "charts": [2, 2, 2], "legend": 2}
    over = seen["race_over"]  # fails on the old main: "Round 7 ... FINISHED" and every race button live
    assert over["live"] == ["undo"] and over["results_button"] is False  # only Undo, for a wrong last move
    assert over["round"] == "%d rounds  ·  3-lap race" % over["rounds"] and over["turn"] == "RACE OVER"
    assert seen["setup_after_finish"] == [True, "The last race is over: its results are in Saved games"]
    assert seen["saved_after_finish"] == [["Ann, Bob", "FINISHED"]]  # never offered as in progress
    assert seen["reopened"] == ["Results", "Back"] and seen["reopened_back"] == "saved"
    names = ("1-setup", "2-pairing", "3-race-corner", "4-race-pit", "5-results", "6-history")
    assert stale_screenshots(shots_of(tmp_path / "tour.json"), names, since) == []


def test_superb_driving_played_on_a_dashboard_asks_the_table(tmp_path):
    from shared_rules.f1.race import Race

    seed = next(s for s in range(2000) if "SD" in Race(s, ["Ann", "Bob"], 3).cars[0].hand)
    seen = run("superb", tmp_path, tmp_path / "data", seed=seed)
    assert seen["question"][0].endswith("plays Superb Driving. Is the track clear?")
    assert seen["question"][1:] == ["Clear", "Not clear"]
    assert seen["hand_has_sd"] and seen["dashboard_hand_has_sd"]
    assert seen["message"].endswith("the track is not clear; Superb Driving back in the hand")


def test_a_damaged_saved_game_is_named_not_resumed(tmp_path, monkeypatch):
    import sqlite3

    from companion import storage
    from companion.f1.referee import Referee

    data = tmp_path / "data"
    monkeypatch.setenv("F1_COMPANION_DATA", str(data))
    path = storage.new_game_path()
    ref = Referee.new(path, ["Ann", "Bob"], 3, seed=1)
    ref.set_speed(60)
    ref.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body = replace(body, '60', '80') WHERE seq = 2")  # hand-edited
    db.commit()
    db.close()
    seen = run("damaged", tmp_path, data)
    assert seen["resume_disabled"] is True
    assert seen["note"] == "The last game cannot be resumed: the game log is damaged at entry 2 (checksum)"
    players, state, detail, off = seen["saved_rows"][0]  # the list shows it, with its error, and cannot open it
    assert state == "DAMAGED" and detail.startswith("Cannot be opened: ") and "damaged" in detail and off is True
    assert seen["new_game"] != os.path.basename(path)
    assert seen["pairing_back"] == ["setup", True]  # fails on the old main: the pairing screen had no Back
    assert seen["f5_pairing_back"] == ["f5setup", True, False]  # its game saved, offered to resume
    assert os.path.exists(path)  # nothing is deleted


def killed(scenario, tmp_path, data, seed=None, timeout=60):
    """Run `scenario` until it has saved what it saw (then it waits), and kill the app: SIGKILL, no goodbye."""
    out = tmp_path / (scenario + ".json")
    proc = start(scenario, out, data, seed)
    try:
        poll(lambda: out.exists() or proc.poll() is not None, timeout)  # it saved what it saw, or it ended
        assert out.exists(), proc.stderr.read().decode(errors="replace")[-3000:] if proc.poll() is not None else ""
        before = json.loads(out.read_text())
        assert "error" not in before, before["error"]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
    finally:
        if proc.poll() is None:
            proc.kill()
    return before


def test_kill_mid_race_then_resume_the_same_game_everywhere(tmp_path):
    data = tmp_path / "data"
    before = killed("play_then_idle", tmp_path, data)  # mid-turn
    # Its virtual dashboards die with it (they are the app's children) ...
    poll(lambda: not any(os.path.exists("/proc/%d" % pid) for pid in before["children"]), 5)  # gone, or zombies
    for pid in before["children"]:
        try:
            with open("/proc/%d/stat" % pid) as f:
                assert f.read().split()[2] == "Z", "dashboard %d outlived the app" % pid
        except FileNotFoundError:
            pass
    # ... and come back with the app, from their own saved state, resynchronised by the table.
    after = run("resume", tmp_path, data)
    assert after["table"] == before["table"]
    assert after["pairs"] == before["pairs"]
    for seat, dev in after["pairs"].items():
        assert after["dashboards"][dev] == after["table"]["cars"][int(seat)]


def test_people_tap_twice_tap_late_press_back_and_peek(tmp_path):
    """Fails on the old main: a double tap ended Bob's turn too, a stale tap played the next turn, Escape
    quit, there was no Saved games screen, the OLED was drawn at 1.56x and the hand shown to all."""
    seen = run("people", tmp_path, tmp_path / "data", seed=7)
    assert seen["setup_back_asks"].startswith("Quit the companion? Every race stays saved.")
    assert seen["setup_back_twice"] == ["games", True]  # Back on the question answers no: nothing quits
    assert seen["back_from_setup"] == ["setup", "games"]  # Formula 1's setup: back to the game choice
    assert len(seen["variants"]) == 4 and not any("_" in t for t in seen["variants"])  # words, not FREE_40
    assert seen["new_turn_table"] == {"dice": [0, 0], "chart_row": ""}  # Ann's dice went with her turn
    assert seen["back_from_f5setup"] == ["f5setup", "games", True]
    assert seen["saved_empty"].startswith("No saved games yet") and seen["saved_back"] == "games"
    for name in ("pairing", "history", "results"):
        assert seen["back_from_" + name] == [name, "race"]
    assert seen["keys"] == seen["keys_turn2"]  # every speed in its place, turn after turn
    assert [v for v, _x, _y in seen["keys"]] == list(range(0, 161, 20))
    assert seen["keys_off"]  # unavailable speeds are shown, off
    assert seen["double_tap"]["seat"] == 1 and seen["double_tap"]["ends"] == 1
    assert seen["stale_tap"]["seat"] == 0 and seen["stale_tap"]["ends"] == 2
    assert "already done" in seen["stale_tap"]["message"]
    assert seen["rolling"] == 1
    assert seen["during_roll"]["corners"] == 1 and seen["during_roll"]["seat"] == 0
    assert seen["during_roll"]["message"] == "The dice are rolling"
    assert seen["after_roll"]["corners"] == 1 and seen["after_roll"]["corner_off"] is True
    assert seen["after_roll"]["chart_row"].startswith("Corner 6: threw ")
    assert seen["oled"]["faults"] == [] and seen["oled"]["scale"] >= 2 and seen["oled"]["lit"] > 100
    assert seen["oled"]["same"] is True
    assert seen["peek"]["covered_faults"] == 1  # the hand is not on the shared screen ...
    assert seen["peek"]["peeking"] is True and seen["peek"]["peek_faults"] == []  # ... unless held
    assert seen["released"] == {"peeking": False, "hidden": True}
    block = seen["block"]  # fails on the old main: the picker opened with no speed, and a faster blocker was refused
    assert block["before"] != "set the speed first" and block["title"].startswith("Blocked")  # 40 kept
    assert [60, True, "optional"] in block["keys"] and [40, False, ""] in block["keys"]
    assert seen["blocked"]["speed"] == 60 and seen["blocked"]["picker"] == "speed"
    assert "keeps the same speed, 40. " in seen["blocked"]["message"]
    assert seen["costs"][1][:2] == [20, "brake 4 tyre 3"]  # Ann at 120: what braking costs, before the tap
    spins_at = seen["spin_keys"][0][0] if seen["spin_keys"] else 100  # (100: a key told it spins, see people())
    assert seen["spin_asks"].startswith("%d mph: the car spins" % spins_at)
    assert seen["spin_no"] == [0, True]  # Back on the question: no speed set
    assert seen["race_back_asks"].startswith("Leave the race?") and seen["race_back_no"] == "race"
    assert seen["continue"].startswith("Ann, Bob")
    assert seen["saved_rows"][0][:2] == ["Ann, Bob", "IN PROGRESS"]
    assert seen["delete_asks"].startswith("Delete the saved game of Ann, Bob?")
    assert seen["after_delete"] == [] and seen["saved_back_again"] == "games"


def test_every_car_in_view_at_three_sizes(tmp_path):
    """2, 4 and 6 cars at 1280x800, 1920x1200 and 800x480: every panel on screen, every name inside its box, the
    nine speed keys there; shots/race-<n>p-<w>x<h>.png in tmp_path for a person to look at (~30 s)."""
    seen = run("sizes", tmp_path, tmp_path / "data", seed=3, timeout=150)
    assert _black_car_holds(seen["black_car"]), seen["black_car"]
    for key, fit in seen["fits"].items():
        assert fit["in_view"] and fit["names_fit"] and fit["keys"] == 9, (key, fit)
        # No text under 16 px (7-8 px at 800x480 on the old main), none cut or out of its box,
        # and every button a touch target (the corners were 22-27 px wide, at every size)
        assert fit["faults"] == [], (key, fit["faults"][:3])
        # the corners and lanes at least a finger (about 9 mm: 48 px on the 7-inch display) each way
        assert fit["choices"] and all(w >= theme.TOUCH_MIN_PX and h >= theme.TOUCH_MIN_PX
                                      for _t, w, h in fit["choices"]), (key, fit["choices"])
        # the figures read across the table far larger than the 16 px floor (about 26 px speeds, 55 px dice
        # faces at 800x480 before)
        figures = fit["figures"]
        assert min(figures["speed"], figures["laps"], figures["turn"]) >= theme.FIGURE_MIN_PX, (key, figures)
        if figures["thrown"]:  # (the dice wait blank, smaller, while the odds before a roll want the room)
            assert figures["die"] >= theme.DICE_MIN_PX and figures["die_digit"] >= theme.FIGURE_MIN_PX * 1.5, (key, figures)
        assert fit["cars"] == int(key.split("-")[1])
        if fit["cars"] == 6:
            assert fit["long_name"] == [True]  # ellipsised inside its colour box, not overflowing
            assert fit["dashboards"] == 6  # every virtual dashboard reachable (the old screen showed two)
            # Names were cut to about 7 letters ("Maxim...", "Christ...", "Playe..."), the six
            # tabs then alike. Whole up to 12 letters at 1280x800; shortened, still told apart everywhere.
            for where, names in fit["names"].items():
                shown = [s for _t, s in names]
                assert len(set(shown)) == len(shown), (key, where, shown)
                if key.startswith("1280x800") and where in ("cars", "tabs"):
                    assert [s for t, s in names if len(t) <= 12] == [t for t, s in names if len(t) <= 12], (where, names)


def _apart(a, b):
    return sum(abs(x - y) for x, y in zip(a, b, strict=True))


def _black_car_holds(black):
    """The black car's box has an outline that stands out from both its black and the dark
    panel around it (the old main drew none: the box's edge was the panel's colour)."""
    return _apart(black["edge"], black["outside"]) > 90 and _apart(black["edge"], black["inside"]) > 90


def test_a_wrong_last_finish_is_undone_from_the_results(tmp_path):
    """Once the last car had finished, nothing could be taken back. Fails on the old main:
    Results had no Undo and the race screen's was off. Double taps on Undo and on its question's Yes undo once
    (~25 s: a 3-lap race for two, with their virtual dashboards)."""
    seen = run("undo_over", tmp_path, tmp_path / "data", seed=7, timeout=150)
    over = seen["over"]
    assert over["live"] == ["undo"] and over["undos"] == 0 and over["shows"] == "FINISHED" and over["over"] == 2
    assert over["button"] == ["Undo the last move", True, 1]
    asked = seen["asked"]
    assert len(asked["questions"]) == 1 and asked["undos"] == 0 and asked["screen"] == "results"
    assert asked["questions"][0].startswith("Undo the last move (") and "end of turn" in asked["questions"][0]
    back = seen["back"]
    assert back["screen"] == "race" and back["undos"] == 1 and back["over"] == 0 and back["phase"] == "finish"
    assert back["message"].startswith("Undone: ") and back["message"].endswith(": end of turn")
    assert back["live"] == ["end", "undo"] and back["turn"] != "RACE OVER"
    done = seen["finish_undone"]
    assert done["undos"] == 2 and done["laps_left"] == 1 and done["status"] == "racing" and done["over"] == -1
    assert done["message"].endswith("crossed the line, 2 over") and done["finish_live"] is True
    assert done["shows"] == "YOUR" and done["phase"] in ("move", "corners")  # the dashboard is back in the race
    assert seen["again"] == {"over": 5, "game_over": 1, "shows": "FINISHED"}
    # (And a label's new text of the same size gets a new texture: llvmpipe stalls on rewriting one in use.)
    assert seen["new_texture"] == [True, True]


def test_every_other_formula1_screen_fits_at_three_sizes(tmp_path):
    """Text readable on the game choice, the setup (six players), history and saved games at 1280x800, 1920x1200
    and 800x480: no text under 16 px, none cut or shortened (names aside), none outside its box. Fails on the old
    main (7-10 px text at 800x480)."""
    seen = run("screens_fit", tmp_path, tmp_path / "data", seed=3, timeout=150)
    assert len(seen["fits"]) == 12 and {k: v for k, v in seen["fits"].items() if v} == {}



def test_the_race_screen_left_alone_reads_nothing_again_and_its_finish_keys_are_made_once(tmp_path):
    out = tmp_path / "race_screen_work.json"
    env = dict(os.environ, F1_COMPANION_DATA=str(tmp_path / "data"))
    env.pop("F1_COMPANION_SEED", None)
    seen = played("tests.companion.race_screen_work:finishes", out, None, env, timeout=180)
    # A second with nothing new: the app's Clock polled the links some 30 times; the cars' rows are read again only
    # for what came (a poll with news reads them for the panels and for the face shown: twice), not on every poll
    news = seen["quiet_news"] + seen["quiet_decisions"]
    assert seen["quiet_rows"] <= 2 * news, seen
    # Both cars crossed the line on the finish picker: the same nine keys both times (nine new buttons at every
    # finish cost the tablet more than the frame that shows them), each with the turn's token
    assert seen["game_over"] and len(seen["finish_keys"]) == 2, seen
    first, second = seen["finish_keys"]
    assert sorted(text for _id, text, _token in first) == [str(n) for n in range(9)]
    assert all(token for _id, _text, token in first + second)
    assert [key_id for key_id, _t, _k in first] == [key_id for key_id, _t, _k in second]
