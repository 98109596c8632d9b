"""The whole table under the faults a real night produces: six virtual dashboards (the real firmware on the
`micropython` unix port, each on its own pty) and the tablet's logic play one race twice from one seed, once
clean and once with cables pulled, dashboards and the tablet killed and restarted, a dashboard's save damaged,
garbage and corrupted frames on the lines. Both runs must end in exactly the same game, everywhere.

The race here is the shortest the rules allow (3 laps) on a short stand-in lap (12 spaces), to stay within
the suite's time budget; bench/table_bench.py plays the full 5-lap race the same way (see docs/benchmarks.md).
"""

import pytest
from tests import mpy
from tests.table.table import FAULT_KINDS, run

pytestmark = [pytest.mark.whole]

SEED = 1962
# Every dashboard in tests/mpy.RACE_HEAP: with test_soak.py and tests/firmware/test_race.py, the guard that the whole
# race, linked and standalone, fits there on the unix port (the Pico's own figure is measured on picosim).
RACE = dict(laps=3, lap_spaces=12, dashboard=dict(heap=mpy.RACE_HEAP))


def test_the_same_race_with_and_without_faults_ends_identically(tmp_path):
    clean = run(str(tmp_path / "clean"), SEED, **RACE)
    faulty = run(str(tmp_path / "faulty"), SEED, faults=1, fault_rate=0.05, **RACE)
    c = clean["counts"]
    assert clean["table"]["game_over"] == 1
    # The race used every control: dashboard presses for speeds and cards, the tablet for the rest.
    for what in ("undo", "pits", "blocks", "laps", "carbs", "superb", "cards"):
        assert c[what] >= 1, (what, c)
    assert c["corner_rolls"] >= 5, c
    # Every kind of fault happened at least once in the second run, and cost a press now and then.
    for kind in FAULT_KINDS:
        assert faulty["counts"][kind] >= 1, (kind, faulty["counts"])
    # Same decisions, same dice, same cars: on every dashboard's screen, in its save, on the table, in the log.
    for key in ("dashboards", "saved", "table", "log", "results"):
        assert faulty[key] == clean[key], key
    for r in (clean, faulty):
        assert r["restarted"] == []  # none ran out of memory
        assert r["dashboards"] == r["table"]["cars"] == r["saved"]
        assert r["replayed"] == r["table"]  # the log, reopened, replays to the very same table
