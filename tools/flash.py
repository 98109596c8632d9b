"""Flash a dashboard: `python tools/flash.py [--port /dev/ttyACM0]` (or `make flash PORT=/dev/ttyACM0`).

With mpremote, in one session: install the `ssd1306` driver from micropython-lib with mip, remove the old
firmware's modules (never the saved state, /state.json), copy shared_rules and firmware compiled to .mpy with
mpy-cross, copy the tiny boot file firmware/main.py to /main.py, and hard-reset the board so it starts.
`--resume` joins a board without the soft reset mpremote normally does first (how the tests drive the
`micropython` unix port on a pty); `--index` points mip at another package index (a URL or a local folder).
"""

import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from tools.mpy_build import compile_package  # noqa: E402

PACKAGES = ("shared_rules", "firmware")
BOOT = os.path.join(ROOT, "firmware", "main.py")

# Runs on the board: delete the .py/.mpy files of a previous flash so none can shadow the new ones.
CLEAN = """
import os
def _clean(d):
    try:
        names = [e[0] for e in os.ilistdir(d)]
    except OSError:
        return
    for n in names:
        p = d + '/' + n
        if n.endswith('.py') or n.endswith('.mpy'):
            os.remove(p)
        elif '.' not in n:
            _clean(p)
for _d in %r:
    _clean(_d)
for _d in %r:
    try:
        os.mkdir(_d)
    except OSError:
        pass  # already there
"""

VERIFY = "import os\nif os.stat('main.py')[6] != %d:\n    raise OSError('main.py incomplete')"


def mpremote():
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    return here if os.path.exists(here) else (shutil.which("mpremote") or "mpremote")


def build(out):
    """Compile the packages into `out`; returns the list of package folders made."""
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    made = []
    for pkg in PACKAGES:
        compile_package(os.path.join(ROOT, pkg), out)
        made.append(os.path.join(out, pkg))
    return made


def command(port, resume, index, mip, reset, out):
    cmd = [mpremote(), "connect", port]
    if resume:
        cmd.append("resume")
    if mip:
        cmd += ["mip", "install"]
        if index:
            cmd += ["--index", index]
        cmd += ["ssd1306", "+"]
    # Folder by folder, file by file: mpremote's `cp -r` misplaces a folder that already exists on the board.
    folders = []
    for pkg in PACKAGES:
        for folder, _dirs, files in sorted(os.walk(os.path.join(out, pkg))):
            rel = os.path.relpath(folder, out).replace(os.sep, "/")
            mpys = sorted(os.path.join(folder, f) for f in files if f.endswith(".mpy"))
            if mpys:
                folders.append((rel, mpys))
    cmd += ["exec", CLEAN % (list(PACKAGES), [rel for rel, _ in folders]), "+"]
    for rel, mpys in folders:
        cmd += ["fs", "cp"] + mpys + [":" + rel + "/", "+"]
    cmd += ["fs", "cp", BOOT, ":main.py"]
    # One more round trip that checks the boot file's size: mpremote can leave after its last copy before the
    # board has it whole (seen on the unix port: an empty main.py), and a reset must never catch it half-written.
    cmd += ["+", "exec", VERIFY % os.path.getsize(BOOT)]
    if reset:
        cmd += ["+", "reset"]
    return cmd


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", default="auto", help="serial port of the Pico (default: mpremote's auto)")
    ap.add_argument("--resume", action="store_true", help="no soft reset on connecting")
    ap.add_argument("--index", help="mip package index (default: micropython-lib's)")
    ap.add_argument("--no-mip", action="store_true", help="do not install ssd1306 (already on the board)")
    ap.add_argument("--no-reset", action="store_true", help="leave the board running as it is")
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "flash"), help="where the .mpy files go")
    a = ap.parse_args(argv)
    build(a.build)
    cmd = command(a.port, a.resume, a.index, not a.no_mip, not a.no_reset, a.build)
    print(" ".join(c if " " not in c and "\n" not in c else "'...'" for c in cmd))
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
