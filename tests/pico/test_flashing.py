"""`make flash` / tools/flash.py onto the emulated Pico: only the modules the Pico runs reach the board (no OLED
driver: the dashboard drives the panel itself); a re-flash removes the driver an earlier flash left in /lib and copies
only what changed; with no network at all, `make flash` flashes a blank Pico (nothing is fetched).
Costs about 20 s wall in all after the session's flash (load 4; a re-flash copies only what changed)."""

import os
import subprocess

from tests.pico import picosim
from tools.pico_manifest import pico_modules


def pico_files():
    """The module files a flashed board holds: firmware/manifest.py's modules as .mpy and the boot file."""
    return sorted(["main.py"] + [target[:-3] + ".mpy" for target, _src in pico_modules()])


def modules(files):
    return sorted(f for f in files if f.endswith((".py", ".mpy")))


def test_the_board_holds_exactly_the_modules_the_pico_runs(pico):
    board = pico()  # flashed with tools/flash.py (the session's image)
    files = board.files()
    assert modules(files) == pico_files()
    assert "firmware/app.mpy" in files and "shared_rules/link/codec.mpy" in files
    assert not [f for f in files if "board_host" in f or "link_main" in f or "manifest" in f]


def test_a_reflash_removes_an_earlier_flashs_driver_and_copies_only_what_changed(pico, tmp_path):
    board = pico(speed=0)  # a dashboard flashed before (the session's image)...
    old = tmp_path / "ssd1306.mpy"
    old.write_bytes(b"M\x06 an earlier flash's OLED driver")
    put = board.mpremote("cp", str(old), ":lib/ssd1306.mpy", timeout=60)
    assert put.returncode == 0, put.stdout + put.stderr  # ...which also holds the driver earlier versions copied
    assert "lib/ssd1306.mpy" in board.files()
    done = picosim.flash(board, "--build", str(tmp_path / "build"), "--no-reset")
    assert done.returncode == 0, done.stdout
    assert "Up to date: firmware/app.mpy" in done.stdout  # unchanged modules stay
    assert modules(board.files()) == pico_files()  # the driver is gone


def _no_network():
    dead = "http://127.0.0.1:9"  # nothing listens there: no way out, as on a table with no internet
    return dict(os.environ, https_proxy=dead, HTTPS_PROXY=dead, http_proxy=dead, HTTP_PROXY=dead, no_proxy="",
                NO_PROXY="")


def test_make_flash_with_no_network_flashes_a_blank_pico(pico, tmp_path):
    board = pico(flash=None, speed=0)  # MicroPython, nothing else
    # -o: the venv is there already (CI's make test made it); never rebuild it from a test
    done = subprocess.run(["make", "-s", "-o", ".venv/.installed", "flash", "PORT=" + board.tty], cwd=picosim.ROOT,
                          env=_no_network(), capture_output=True, text=True, timeout=600)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "mip" not in out and "ssd1306" not in out, out  # nothing fetched, no driver
    # The board was reset into the dashboard (its REPL is the game link now): its flash is read from the image.
    board.saveflash(str(tmp_path / "image.bin"))
    with open(tmp_path / "image.bin", "rb") as f:
        image = f.read()
    assert b"import firmware.main\n" in image and b"formula1-companion" in image  # the boot file, the version file


def test_make_flash_passes_its_port_on():
    done = subprocess.run(["make", "-n", "-o", ".venv/.installed", "flash", "PORT=/dev/ttyACM3"],
                          cwd=picosim.ROOT, capture_output=True, text=True, timeout=60)
    assert "tools/flash.py --port /dev/ttyACM3" in done.stdout, done.stdout
