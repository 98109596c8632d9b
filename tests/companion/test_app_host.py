"""The app process the window tests share (tests/companion/app_host.py): an app made after others finds what a
first app finds (no window, Clock or settings left by the one before), the F1_ settings and the window size are
each run's own, and a failed scenario is named and leaves nothing to the next test (a new process)."""

import os

import pytest

from tests.companion.app_host import app_host, played

pytestmark = [pytest.mark.window]


def look(tmp_path, name, **settings):
    folder = tmp_path / name
    folder.mkdir()
    env = {k: v for k, v in os.environ.items() if k.startswith("F1_") and k != "F1_COMPANION_SEED"}
    env.update(F1_COMPANION_DATA=str(folder / "data"), **settings)
    return played("fresh_look", folder / "out.json", None, env)["look"]


def test_an_app_made_after_others_starts_as_the_first_did(tmp_path):
    first = look(tmp_path, "first")
    from shared_rules.f1.race import Race

    seed = next(s for s in range(2000) if "SD" in Race(s, ["Ann", "Bob"], 3).cars[0].hand)  # as superb wants
    env = dict(os.environ, F1_COMPANION_DATA=str(tmp_path / "race" / "data"), F1_COMPANION_SEED=str(seed),
               F1_PHONE_PORT="0")
    played("superb", tmp_path / "race" / "out.json", None, env)  # an app that played, saved and paired
    again = look(tmp_path, "again", F1_WINDOW="800x480")
    assert again["pid"] == first["pid"]  # the same process: what this test is about
    assert again["window"] == [800, 480] and first["window"] == [1280, 800]
    assert again["data"] == str(tmp_path / "again" / "data") and again["saved"] == first["saved"] == 0
    assert "F1_PHONE_PORT" not in again["settings"] and "F1_COMPANION_SEED" not in again["settings"]
    for key in ("screen", "window_children", "size_observers", "clock_events"):
        assert again[key] == first[key], (key, first, again)


def test_a_failed_scenario_is_named_and_the_next_test_gets_a_new_process(tmp_path):
    before = look(tmp_path, "before")
    env = dict(os.environ, F1_COMPANION_DATA=str(tmp_path / "failed"))
    with pytest.raises(AssertionError, match="(?s)scenario .fails_on_purpose.*planted failure"):
        played("fails_on_purpose", tmp_path / "failed.json", None, env)
    assert app_host().proc is None  # ended with its failure
    after = look(tmp_path, "after")
    assert after["pid"] != before["pid"]
    assert {k: v for k, v in after.items() if k not in ("pid", "data")} == {
        k: v for k, v in before.items() if k not in ("pid", "data")}
