"""The dashboard's heap with a tablet at the table, on the `micropython` unix port with the firmware loaded from
.mpy files exactly as bench/firmware_bench.py builds them:

- table.min_heap_kb: the smallest -X heapsize (KB, in 2 KB steps) with which the six dashboards of the
  whole-table clean race (tests/table/table.py: the tablet's referee, transport and link bridge driving six
  virtual dashboards over their links, seed 1962) finish that race with the same result as with ample heap:
  the race over, every dashboard showing the table's car, the same cars and results on the table, and no
  dashboard restarted on the way (out of memory, the firmware's main.py starts the app again, and its viewer
  channel goes quiet). firmware.min_heap_kb is the same search for a standalone race (no tablet), which
  never loads or exercises the tablet link; this one is what a dashboard WITH a tablet needs.
- table.min_heap_laps: the laps of the race searched with: 3, the shortest the rules allow, on the full
  stand-in lap. It gives the same figure as the full 5-lap clean race of bench/table_bench.py (116 KB both,
  measured at 71175dc), because what a dashboard holds stops growing early: the ring of the last 64 command
  ids it keeps is full after about a lap (about 135 commands reach each dashboard in 3 laps), the first
  failure below the figure comes at turn 123 of 546, and what grows with the laps after that is the tablet's
  game log, not the dashboard. Searching 48..128 KB took 195 s instead of 275 s; over the 48..160 KB used
  here, 235 s: an ample reference race and seven races of about 24 s, where each one that does not fit
  plays on until its dashboards stop answering and then waits out the table's 30 s settle timeout.
"""

import tempfile
import time

from bench import heap_search
from bench.firmware_bench import build
from bench.results import record
from tests.table.table import Table

SEED = 1962
LAPS = 3  # the same figure as the 5-lap race, in two thirds of the time (see above)
AMPLE_KB = 256  # the reference race: the heap bench/table_bench.py gives the dashboards
LO_KB, HI_KB, STEP_KB = 48, 160, 2
SAME = ("dashboards", "table", "results")


class HeapTable(Table):
    def result(self):
        restarted = self.restarted()  # before Table.result() power-cycles every dashboard
        if restarted:
            raise RuntimeError("dashboards %s restarted or died during the race" % ", ".join(restarted))
        return super().result()


def table_race(where, heap_kb, laps=LAPS):
    """The clean table race with every dashboard in `heap_kb` KB; its Table.result(), or None if it failed."""
    with tempfile.TemporaryDirectory() as work:
        table = HeapTable(work, SEED, laps=laps, dashboard=dict(heap="%dK" % heap_kb, micropypath=where[0],
                                                                cwd=where[1]))
        try:
            table.open()
            return table.play()
        except Exception as e:  # out of memory shows as a dashboard that stops answering (a timeout) or restarts
            table_race.failure = "%s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0])
            return None
        finally:
            table.close()


def same_race(out, ample):
    return (out is not None and out["table"]["game_over"] == 1 and out["dashboards"] == out["table"]["cars"]
            and all(out[k] == ample[k] for k in SAME))


def smallest_heap_kb(where, laps=LAPS, lo=LO_KB, hi=HI_KB, log=print):
    """Binary search in STEP_KB steps over lo..hi; the reference result comes from a race in AMPLE_KB."""
    ample = table_race(where, AMPLE_KB, laps)
    if ample is None or not same_race(ample, ample):
        raise RuntimeError("the table race does not finish even with %d KB" % AMPLE_KB)

    def fits(steps):
        t0 = time.monotonic()
        table_race.failure = "a different race"
        ok = same_race(table_race(where, steps * STEP_KB, laps), ample)
        log("  table race, %d laps, %d KB: %s (%.0f s)" % (laps, steps * STEP_KB, "fits" if ok else
                                                         "fails, " + table_race.failure, time.monotonic() - t0))
        return ok

    return heap_search.smallest_heap_kb(fits, lo // STEP_KB, hi // STEP_KB) * STEP_KB


def main():
    with tempfile.TemporaryDirectory() as out:
        heap = smallest_heap_kb(build(out))
    figures = {"table.min_heap_kb": heap, "table.min_heap_laps": LAPS}
    record(figures)
    print(figures, flush=True)


if __name__ == "__main__":
    main()
