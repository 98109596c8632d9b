"""A whole scripted 10-lap race for six players, each on a virtual dashboard driven through its buttons."""

import pytest
from tests import mpy
from tests.firmware.race_script import run_race

pytestmark = [pytest.mark.whole]


def test_ten_lap_six_player_race(tmp_path):
    finals, screens, stats = run_race(str(tmp_path), players=6, laps=10, heap=mpy.RACE_HEAP)
    for car, rows in zip(finals, screens, strict=True):
        assert car["status"] == "finished" and car["laps_left"] == 0, car
        assert rows[0].startswith("FINISHED"), rows
        assert rows[0].endswith("LAPS 0")
        assert rows[7] == "OK:NEW RACE"  # what a finished car can do (it offered "OK:START TURN")
    # the race really exercised the dashboard: dice, cards, a pit stop each, laps
    assert stats["laps"] + stats["pits"] == 6 * 10
    assert stats["pits"] >= 4 and stats["dice"] > 10 and stats["cards"] > 5, stats
