"""The whole table (tests/table/table.py): six virtual dashboards, the real firmware on the `micropython` unix
port each on its own pty, and the tablet's logic (referee, pyserial transport, link bridge).

- table.identical: 1 when the full 5-lap, 6-player race played again from the same seed under faults (cables
  pulled and replugged, dashboards and the tablet killed and restarted, a dashboard's save damaged, garbage
  and corrupted frames on the lines) ends with every dashboard, every save, the table and its log exactly as
  in the clean run. table.faults: faults injected; table.fault_kinds: kinds among them (of 6);
  table.press_retries: presses the players had to make again; table.race_turns; table.clean_s and
  table.faulty_s: how long each run took (the clean run is the same-run baseline).
- The soak, a long race in compressed time (10 laps, six dashboards, nobody pausing to think), sampled every
  SOAK_EVERY turns after the warm-up: table.soak_heap_drift_b: the worst dashboard's lowest free heap (right
  after a collection it is asked for) in the later half minus that in the earlier half; target >= -2048 (flat).
  table.soak_heap_free_min_kb: the lowest such free heap (unix port, 256 KB heap, 64-bit objects).
  table.soak_tablet_growth_kb: the tablet's Python heap with its game log left out, later-half peak minus
  earlier-half peak; target <= 16. table.soak_log_growth_kb: the log's own growth over the same turns
  (its JSON text; the baseline for what may grow). table.soak_tablet_rss_growth_kb: the process's resident
  memory, the same way (reported; the allocator's arenas make it coarse).
"""

import os
import sys
import tempfile
import time
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.results import record  # noqa: E402
from tests.table.table import FAULT_KINDS, growth, heap_drift, run  # noqa: E402

SEED = 1962
LAPS = 5
SOAK_LAPS = 10
SOAK_EVERY = 20
SOAK_WARM = 400  # turns: rings of the last 64 ids (commands on each dashboard, events on the tablet) fill up
SAME = ("dashboards", "saved", "table", "log", "results")


def race():
    with tempfile.TemporaryDirectory() as work:
        t0 = time.monotonic()
        clean = run(os.path.join(work, "clean"), SEED, laps=LAPS)
        t1 = time.monotonic()
        faulty = run(os.path.join(work, "faulty"), SEED, laps=LAPS, faults=1, fault_rate=0.05)
        t2 = time.monotonic()
    same = all(clean[k] == faulty[k] for k in SAME) and clean["dashboards"] == clean["table"]["cars"]
    counts = faulty["counts"]
    return {
        "table.identical": int(same and clean["table"]["game_over"] == 1),
        "table.faults": sum(counts[k] for k in set(FAULT_KINDS)),
        "table.fault_kinds": sum(1 for k in set(FAULT_KINDS) if counts[k]),
        "table.press_retries": counts["retries"],
        "table.race_turns": clean["counts"]["turns"],
        "table.race_laps": LAPS,
        "table.clean_s": round(t1 - t0, 1),
        "table.faulty_s": round(t2 - t1, 1),
    }


def soak():
    tracemalloc.start(1)
    try:
        with tempfile.TemporaryDirectory() as work:
            out = run(work, SEED + 1, laps=SOAK_LAPS, heap_every=SOAK_EVERY)
    finally:
        tracemalloc.stop()
    drift = heap_drift(out, SOAK_WARM)
    late_free = [v for free in out["heap"].values() for v, t in zip(free, out["sample_turns"], strict=True)
                 if t > SOAK_WARM]
    return {
        "table.soak_turns": out["counts"]["turns"],
        "table.soak_heap_drift_b": min(drift.values()),
        "table.soak_heap_free_min_kb": min(late_free) // 1024,
        "table.soak_tablet_growth_kb": growth(out, "machinery", SOAK_WARM),
        "table.soak_log_growth_kb": growth(out, "log_kb", SOAK_WARM),
        "table.soak_tablet_rss_growth_kb": growth(out, "rss", SOAK_WARM),
    }


def main():
    figures = race()
    record(figures)
    print(figures, flush=True)
    figures = soak()
    record(figures)
    print(figures, flush=True)


if __name__ == "__main__":
    main()
