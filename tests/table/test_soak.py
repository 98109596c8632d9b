"""A short soak: a long race in compressed time (two dashboards, 10 laps, nobody pausing to think). After the
warm-up (rings of handled ids filling to their fixed size), each dashboard's free heap right after a collection
stays flat, and the tablet's heap, its game log left out, does not grow.
bench/table_bench.py runs the long soak with six dashboards (table.soak_* in docs/benchmarks.md)."""

import pytest
import tracemalloc

from tests import mpy
from tests.table.table import growth, heap_drift, run

pytestmark = [pytest.mark.slow, pytest.mark.whole]

WARM = 160  # turns: the tablet keeps the last 64 event ids per dashboard, the firmware the last 64 commands


def test_heap_stays_flat_through_a_long_race(tmp_path):
    try:
        # In tests/mpy.RACE_HEAP each: the whole 10-lap linked race fits there on the unix port. The tablet's
        # allocations are traced from the warm-up's end, where its growth is measured (tracing doubles its time).
        out = run(str(tmp_path), 11, players=2, laps=10, lap_spaces=48, heap_every=12, dashboard=dict(heap=mpy.RACE_HEAP),
                  trace_from=WARM)
    finally:
        tracemalloc.stop()
    assert out["table"]["game_over"] == 1 and out["restarted"] == []
    late = [t for t in out["sample_turns"] if t > WARM]
    assert len(late) >= 10, out["sample_turns"]
    for dev, free in out["heap"].items():
        assert len(free) == len(out["sample_turns"]), dev  # every dashboard reported gc.mem_free() each time
    drift = heap_drift(out, WARM)
    assert all(d >= -2048 for d in drift.values()), (drift, out["heap"])
    assert growth(out, "log_kb", WARM) > 0  # the game went on (and its log with it)...
    assert growth(out, "machinery", WARM) <= 16, out["machinery"]  # ...but nothing else on the tablet grew
