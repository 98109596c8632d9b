"""The window draws as a screen would (companion/renderer.py), in a real (offscreen SDL) window."""

import sys

import pytest

from tests.companion.test_app_window import run

pytestmark = [pytest.mark.window]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc/self/statm")
def test_taps_on_the_race_screen_do_not_grow_the_app_and_nothing_is_multisampled(tmp_path):
    # Before: SDL's offscreen window never flushed a frame, so Mesa kept every frame's drawing, and each label
    # texture it used, queued: about 11 MB more at every tap until Mesa released some, 67 MB over these taps.
    seen = run("taps_in_place", tmp_path, tmp_path / "data", timeout=150)
    assert seen["grew_mb"] < 15, seen["grew_mb"]
    # Axis-aligned rectangles, text and smooth shapes only: multisampling would smooth nothing, and doubled
    # a software renderer's work.
    assert seen["samples"] == 0
