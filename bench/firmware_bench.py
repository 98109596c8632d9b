"""Dashboard firmware figures, on the `micropython` unix port with the firmware loaded from .mpy files:

- firmware.min_heap_kb: the smallest -X heapsize (KB) with which six virtual dashboards finish the scripted
  10-lap race (tests/firmware/race_script.py); at most 128, as the suite's guard asserts on every run
  (tests/firmware/test_race.py, from source; the tablet-linked race in tests/table). The Pico's own heap figure
  is measured on picosim.
- firmware.button_to_frame_us_p50/_p99: inside the firmware, from the button edge to the frame drawn and
  sent (the press handled, the state frame already written to the link, the changed pages out), measured by
  the firmware with ticks_us and reported on its viewer channel; the save to flash follows. Target p99 <= 2000.
- firmware.button_to_frame_e2e_us_p50/_p99: the same seen from outside: the press line sent on the viewer
  channel to the end of its frame received back (adds two socket hops and the OS scheduler of a shared machine).
- firmware.channel_rtt_us_p50/_p99: that round trip for a line that does nothing (the baseline, same run).
- firmware.heap_used_kb_unix64: the most heap the dashboard holds live mid-race (every 10 turns: a pause,
  in which it collects garbage, then gc.mem_free() on its next redraw), objects counted at 64 bits; a Pico's
  32-bit objects take about half.
"""

import os
import tempfile
import time

from bench import heap_search
from bench.results import record
from tests import mpy
from tests.firmware.dash import VirtualDashboard
from tests.firmware.race_script import run_race
from tools.mpy_build import compile_package

HEAP_KB = 256


def build(out):
    """Compile to .mpy; returns (MICROPYPATH, working directory) that load only those .mpy files. (With
    `micropython -c`, sys.path starts with "" - the working directory - so it must not be the repo.)"""
    for pkg in ("shared_rules", "firmware"):
        compile_package(os.path.join(mpy.ROOT, pkg), out)
    return ".frozen:" + out, out


def race_fits(where, heap_kb):
    with tempfile.TemporaryDirectory() as work:
        try:
            finals, _screens, _stats = run_race(work, heap="%dK" % heap_kb, micropypath=where[0], cwd=where[1])
        except Exception:  # out of memory shows as a dashboard that stops answering
            return False
    return all(c["status"] == "finished" for c in finals)


def smallest_heap_kb(where, lo=16, hi=256):
    return heap_search.smallest_heap_kb(lambda kb: race_fits(where, kb), lo, hi)


def timed(d, line):
    """Microseconds from sending `line` to the end of the frame it caused (or to its ack if no frame)."""
    f0 = d.frames
    t0 = time.perf_counter()
    d.send(line)
    if d.frames > f0:
        with d.cond:
            return (d.frame_time - t0) * 1e6
    return (time.perf_counter() - t0) * 1e6


def press_latencies(where, turns=120):
    """Button presses of real turns: dial, confirm (state frame), menu, end turn; release untimed.
    Returns (inside the firmware, end to end, idle line round trips), each sorted, in microseconds."""
    inside, presses, idle = [], [], []
    free = [HEAP_KB * 1024]
    with tempfile.TemporaryDirectory() as work:
        d = VirtualDashboard(work, dev="bench", micropypath=where[0], cwd=where[1], heap="%dK" % HEAP_KB)
        d.start()
        try:
            for turn in range(turns):
                if turn % 10 == 0:
                    time.sleep(0.4)  # idle: the firmware collects its garbage
                    d.send("Q")
                    free.append(d.state["free"])
                for key in ("OK", "UP", "UP", "DOWN", "OK", "DOWN", "DOWN", "DOWN", "OK"):
                    time.sleep(0.008)  # past the debounce time: the press is taken at once
                    presses.append(timed(d, "P " + key))
                    if d.press_us >= 0:
                        inside.append(d.press_us)

                    time.sleep(0.008)
                    d.send("R " + key)
                    idle.append(timed(d, "N"))
                if d.car()["laps_left"] == 0:
                    break
        finally:
            d.kill()
    press_latencies.min_free = min(free)
    return sorted(inside), sorted(presses), sorted(idle)


def pct(values, p):
    return round(values[min(len(values) - 1, int(len(values) * p / 100))])


def main():
    with tempfile.TemporaryDirectory() as out:
        where = build(out)
        inside, presses, idle = press_latencies(where)
        heap = smallest_heap_kb(where)
    figures = {
        "firmware.min_heap_kb": heap,
        "firmware.button_to_frame_us_p50": pct(inside, 50),
        "firmware.button_to_frame_us_p99": pct(inside, 99),
        "firmware.button_to_frame_e2e_us_p50": pct(presses, 50),
        "firmware.button_to_frame_e2e_us_p99": pct(presses, 99),
        "firmware.channel_rtt_us_p50": pct(idle, 50),
        "firmware.channel_rtt_us_p99": pct(idle, 99),
        "firmware.heap_used_kb_unix64": round((HEAP_KB * 1024 - press_latencies.min_free) / 1024),
    }
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-42s %s" % (k, v))


if __name__ == "__main__":
    main()
