"""The benchmark plumbing, and the heap claim the rules benchmark makes, as behaviour."""

import json
import os
import tempfile

import pytest

from bench import results
from bench.rules_bench import game_fits
from tests import mpy
from tools.mpy_build import compile_package


def test_record_merges_flat_numbers_atomically(tmp_path):
    path = str(tmp_path / "results.json")
    results.record({"a.x": 1}, path)
    results.record({"b.y": 2.5}, path)
    assert json.load(open(path)) == {"a.x": 1, "b.y": 2.5}
    with pytest.raises(ValueError):
        results.record({"c": "fast"}, path)
    with pytest.raises(ValueError):
        results.record({"c": {"nested": 1}}, path)
    assert json.load(open(path)) == {"a.x": 1, "b.y": 2.5}
    assert not os.path.exists(path + ".tmp")


def test_corrupt_results_file_is_replaced_not_crashed_on(tmp_path):
    path = str(tmp_path / "results.json")
    with open(path, "w") as f:
        f.write("{not json")
    assert results.record({"a": 1}, path) == {"a": 1}


def test_compiled_rules_play_a_six_player_race_in_128k():
    "rules.min_heap_kb's search: a scripted 6-player, 3-lap game from .mpy files fits in 128 KB of heap."
    with tempfile.TemporaryDirectory() as libdir:
        compile_package(os.path.join(mpy.ROOT, "shared_rules"), libdir)
        assert game_fits(libdir, 128)
        assert not game_fits(libdir, 16)  # the check can fail: far too small a heap does not finish
