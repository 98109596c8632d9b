"""Rules engine figures: a full turn on MicroPython, and the smallest heap that plays a whole race."""

import os
import re
import statistics
import subprocess
import tempfile
import time

from bench import heap_search
from bench.results import record
from tests import mpy
from tools.mpy_build import compile_package

HERE = os.path.dirname(os.path.abspath(__file__))


def run_mpy(script, libdir, heap_kb):
    env = dict(os.environ, MICROPYPATH=".frozen:" + libdir)
    cmd = [mpy.micropython_path(), "-X", "heapsize=%dK" % heap_kb, os.path.join(HERE, "mpy", script)]
    return subprocess.run(cmd, env=env, capture_output=True, timeout=300)


def game_fits(libdir, heap_kb):
    proc = run_mpy("f1_game.py", libdir, heap_kb)
    return proc.returncode == 0 and b"finished" in proc.stdout


def smallest_heap_kb(libdir, lo=8, hi=512):
    """The smallest heap (KB) that completes the scripted race."""
    return heap_search.smallest_heap_kb(lambda kb: game_fits(libdir, kb), lo, hi)


def cpython_turn_us():
    from shared_rules.f1.race import Race

    race = Race(1, ["a", "b"], 10, keep_log=0)
    times = []
    for _ in range(2000):
        seat = race.seat
        car = race.cars[seat]
        car.speed, car.tyre, car.brake, car.status, car.cap = 160, 0, 0, "racing", 0
        t0 = time.perf_counter()
        race.set_speed(seat, 120)
        race.corner(seat, 100)
        if car.status == "racing":
            race.corner(seat, 100)
        race.end_turn(seat)
        times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def main():
    with tempfile.TemporaryDirectory() as libdir:
        compile_package(os.path.join(mpy.ROOT, "shared_rules"), libdir)
        runs = []
        for _ in range(5):
            out = run_mpy("f1_turn.py", libdir, 256).stdout.decode()
            m = re.search(r"turn_us=(\d+) bare_us=(\d+)", out)
            if not m:
                raise RuntimeError("turn benchmark failed: " + out)
            runs.append((int(m.group(1)), int(m.group(2))))
        heap = smallest_heap_kb(libdir)
    record({
        "rules.turn_us.micropython": statistics.median(r[0] for r in runs),
        "rules.baseline_200_adds_us.micropython": statistics.median(r[1] for r in runs),
        "rules.turn_us.cpython": round(cpython_turn_us(), 1),
        "rules.min_heap_kb": heap,
    })


if __name__ == "__main__":
    main()
