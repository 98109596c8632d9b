"""The app as installed: its wheel's size, and what the seat page's firmware costs an app that starts again.

- install.wheel_kb: the wheel pip builds from the sources (tests/install/wheel.py), in KB.
- tablet.app_first_start_compile_cpu_s / tablet.app_restart_compile_cpu_s: CPU seconds (the process's and its
  children's, mpy-cross) of the seat page's firmware bundle (companion/phones/assets.py firmware_bundle) in a fresh
  process with an empty per-user cache, then in a second fresh process with the cache the first one left: a second
  start of the app.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from bench.results import record  # noqa: E402

START = """
import json, resource, sys
from companion.phones import assets
def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
t = cpu()
assets.firmware_bundle()
print(json.dumps(cpu() - t))
"""


def start_cpu(cache):
    env = dict(os.environ, F1_COMPANION_CACHE=cache, PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-c", START], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    from tests.install.wheel import build_wheel

    with tempfile.TemporaryDirectory(prefix="f1-install-bench-") as work:
        wheel = build_wheel(os.path.join(work, "dist"))
        kb = os.path.getsize(wheel) / 1024
        cache = os.path.join(work, "cache")
        first = start_cpu(cache)
        again = start_cpu(cache)
    figures = {"install.wheel_kb": round(kb, 1), "tablet.app_first_start_compile_cpu_s": round(first, 3),
               "tablet.app_restart_compile_cpu_s": round(again, 3)}
    record(figures)
    print(figures, "load", open("/proc/loadavg").read().strip() if os.path.exists("/proc/loadavg") else "?")


if __name__ == "__main__":
    main()
