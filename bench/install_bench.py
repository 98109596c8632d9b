"""The app as installed: its wheel's size, and what the seat page's firmware costs an app that starts again.

- install.wheel_kb: the wheel pip builds from the sources (tests/install/wheel.py), in KB.
- install.dashboard_install_s: wall seconds for the INSTALLED app (that wheel in a fresh venv, run from a folder
  that is not the checkout) to set up a Pico from the pairing screen's code path (companion/pico_setup.py: probe,
  "Install the dashboard", the files built and written in one mpremote session) on a blank emulated Pico (picosim,
  --speed 0), from the set-up's start to "done"; install.dashboard_install_load1 is the 1-minute load average at its end
  (2 cores shared). Missing picosim: the figure is left out and notes.json says why.
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
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from bench.results import note, record  # noqa: E402

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


def dashboard_install(wheel, work):
    """{"install.dashboard_install_s", "install.dashboard_install_load1"}, or {} (and a note) without picosim."""
    from tests.install.setup_run import SetupRun
    from tests.install.wheel import install
    from tests.pico import picosim

    reason = picosim.missing()
    if reason:
        note("install", "install.dashboard_install_s not measured: %s" % reason)
        return {}
    bin_dir = install(wheel, os.path.join(work, "venv"))
    folder = os.path.join(work, "somewhere")
    os.makedirs(folder)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("F1_", "PYTHON", "KIVY_"))}
    with picosim.Pico(flash=None, speed=0) as pico:
        started = time.monotonic()
        run = SetupRun(bin_dir, env, folder, pico.tty)
        entries = run.finish(900)
        wall = time.monotonic() - started
    if not entries or not entries[-1] or entries[-1]["state"] != "done":
        raise SystemExit("the dashboard's install did not finish: %r" % (entries[-1:],))
    note("install", "")
    return {"install.dashboard_install_s": round(wall, 1), "install.dashboard_install_load1": load1()}


def load1():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


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
        figures.update(dashboard_install(wheel, work))
    record(figures)
    print(figures, "load", open("/proc/loadavg").read().strip() if os.path.exists("/proc/loadavg") else "?")


if __name__ == "__main__":
    main()
