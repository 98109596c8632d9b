"""`make flash` / tools/flash.py onto the emulated Pico, offline: the driver from a folder (the session's image,
../shared/picosim/drivers) or from a local mip index; only the modules the Pico runs reach the board; with no
network and no INDEX, `make flash` installs the driver shipped with the app (pinned, no internet needed); an online
index that cannot be reached stops it before it touches the board, and it says what to do.
Costs about 20 s wall in all after the session's flash (load 4; a re-flash copies only what changed)."""

import os
import subprocess
import sys

from companion.flashing.flash import PINNED_DRIVER
from companion.flashing.mpy_build import mpy_cross
from tests.pico import picosim
from tools.pico_manifest import pico_modules


def pico_files():
    """The module files a flashed board holds: firmware/manifest.py's modules as .mpy, the boot file, the driver."""
    return sorted(["main.py", "lib/ssd1306.mpy"] + [target[:-3] + ".mpy" for target, _src in pico_modules()])


def modules(files):
    return sorted(f for f in files if f.endswith((".py", ".mpy")))


def test_the_board_holds_exactly_the_modules_the_pico_runs(pico):
    board = pico()  # flashed with tools/flash.py --index ../shared/picosim/drivers (a folder holding ssd1306.py)
    files = board.files()
    assert modules(files) == pico_files()
    assert "firmware/app.mpy" in files and "shared_rules/link/codec.mpy" in files
    assert not [f for f in files if "board_host" in f or "link_main" in f or "manifest" in f]


def test_reflash_offline_from_a_local_mip_index_copies_only_what_changed(pico, tmp_path):
    index = picosim.mip_index(str(tmp_path / "index"))  # micropython-lib's layout: package/6/ssd1306, file/..
    board = pico(speed=0)  # a dashboard flashed before (the session's image)...
    rm = board.mpremote("rm", ":lib/ssd1306.mpy", timeout=60)
    assert rm.returncode == 0, rm.stdout + rm.stderr  # ...whose driver mip must now bring from the index
    done = picosim.flash(board, "--index", index, "--build", str(tmp_path / "build"), "--no-reset")
    assert done.returncode == 0, done.stdout
    assert "Installing ssd1306 (latest) from %s" % index in done.stdout
    assert "Up to date: firmware/app.mpy" in done.stdout  # unchanged modules stay
    assert modules(board.files()) == pico_files()
    with open(os.path.join(index, "src", "ssd1306.mpy"), "rb") as f:
        driver = f.read()
    board.saveflash(str(tmp_path / "image.bin"))
    with open(tmp_path / "image.bin", "rb") as f:
        assert driver in f.read()  # the index's own .mpy, byte for byte (littlefs keeps a small file whole)


def _no_network():
    dead = "http://127.0.0.1:9"  # nothing listens there: no way out, as on a table with no internet
    return dict(os.environ, https_proxy=dead, HTTPS_PROXY=dead, http_proxy=dead, HTTP_PROXY=dead, no_proxy="",
                NO_PROXY="")


def test_make_flash_with_no_network_and_no_index_installs_the_driver_shipped_with_the_app(pico, tmp_path):
    board = pico(flash=None, speed=0)  # MicroPython, nothing else
    # -o: the venv is there already (CI's make test made it); never rebuild it from a test
    done = subprocess.run(["make", "-s", "-o", ".venv/.installed", "flash", "PORT=" + board.tty], cwd=picosim.ROOT,
                          env=_no_network(), capture_output=True, text=True, timeout=600)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "flashing/drivers/ssd1306.py" in out and "Installing ssd1306 (latest)" not in out, out  # pinned, not mip
    # The board was reset into the dashboard (its REPL is the game link now): its flash is read from the image.
    pinned = tmp_path / "ssd1306.mpy"
    subprocess.run([mpy_cross(), "-O3", "-o", str(pinned), "-s", "ssd1306.py", PINNED_DRIVER], check=True)
    board.saveflash(str(tmp_path / "image.bin"))
    with open(tmp_path / "image.bin", "rb") as f:
        assert pinned.read_bytes() in f.read()  # the pinned driver, compiled, byte for byte


def test_make_flash_from_an_unreachable_online_index_explains_and_leaves_the_board_alone(pico):
    board = pico(flash=None, speed=0)
    before = board.files()
    done = subprocess.run(["make", "-s", "-o", ".venv/.installed", "flash", "PORT=" + board.tty,
                           "INDEX=https://micropython.org/pi/v2"], cwd=picosim.ROOT, env=_no_network(),
                          capture_output=True, text=True, timeout=120)
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    assert "internet" in out and "make flash INDEX=DIR" in out and "ssd1306.py" in out, out
    assert "Nothing was copied to the board" in out, out
    assert board.files() == before


def test_make_flash_passes_its_port_and_index_on():
    done = subprocess.run(["make", "-n", "-o", ".venv/.installed", "flash", "PORT=/dev/ttyACM3", "INDEX=/media/d"],
                          cwd=picosim.ROOT, capture_output=True, text=True, timeout=60)
    assert "tools/flash.py --port /dev/ttyACM3 --index /media/d" in done.stdout, done.stdout


def test_an_index_folder_without_the_driver_is_refused_before_anything_is_built(tmp_path):
    done = subprocess.run([sys.executable, os.path.join(picosim.ROOT, "tools", "flash.py"), "--port", "/dev/null",
                           "--index", str(tmp_path), "--build", str(tmp_path / "build")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "holds neither ssd1306.py nor a mip index" in done.stderr, done.stderr
    assert not os.path.exists(tmp_path / "build")
