"""The race screen draws a frame only for what a player can see change (the real app in a real window, SDL offscreen:
tests/companion/race_screen_redraws.py). Each frame is the whole window drawn again, some 20 ms of a software
renderer (Mesa's llvmpipe: the tests' window, a tablet or a Pi without its GPU driver)."""

import os

import pytest

from tests.companion.app_host import played

pytestmark = [pytest.mark.window]


def test_the_race_screen_left_alone_draws_no_frame_for_link_words_changed_where_they_are_cut_out(tmp_path):
    out = tmp_path / "race_screen_redraws.json"
    env = dict(os.environ, F1_COMPANION_DATA=str(tmp_path / "data"))
    env.pop("F1_COMPANION_SEED", None)
    seen = played("tests.companion.race_screen_redraws:link_words_in_their_middle", out, None, env, timeout=180)
    assert seen["shortened"], seen  # the words are too long for the car's panel: cut in their middle
    # Left alone while the words changed where they are cut out (the age of the last answer, each second): the same
    # texture, no frame drawn
    assert seen["middle"]["text"].startswith("phone: linked, last answer 38 s ago"), seen
    assert seen["middle"]["same_texture"] and seen["middle"]["flips"] == 0, seen
    # New words that differ in view: drawn
    assert seen["end"]["text"].startswith("Wi-Fi: "), seen
    assert not seen["end"]["same_texture"] and seen["end"]["flips"] >= 1, seen
