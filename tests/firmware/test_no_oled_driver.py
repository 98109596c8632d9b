"""The dashboard drives its SSD1306 itself (firmware/board_pico.py sends the panel's set-up), so no OLED driver is
loaded, shipped, frozen or flashed: nothing to fetch from micropython-lib, no internet at the table, and no 3 KB of
heap and 39 interned names on a Pico for a module used once."""

import os
import re
import subprocess
import sys

from companion.flashing import flash
from tests import mpy
from tools.pico_manifest import pico_modules

ROOT = mpy.ROOT
IMPORT = re.compile(r"^\s*(import|from)\s+ssd1306\b", re.M)


def test_no_module_the_pico_runs_imports_an_oled_driver():
    for target, src in pico_modules():
        with open(src) as f:
            assert not IMPORT.search(f.read()), target


def test_a_flash_writes_nothing_outside_the_dashboards_folders(tmp_path):
    folders = flash.build(str(tmp_path / "build"))
    paths = [path for path, _local in flash.plan(folders, str(tmp_path / "build"))]
    assert "main.py" in paths and "firmware/app.mpy" in paths
    assert [p for p in paths if p != "main.py" and not p.startswith(flash.PACKAGES)] == []


def test_the_old_driver_options_are_refused_in_words_before_anything_is_built(tmp_path):
    # `--index` and `--no-mip` chose the driver; a person typing them from an old note is told they are gone
    for old in (["--index", str(tmp_path)], ["--no-mip"]):
        done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "flash.py"), "--port", "/dev/null",
                               "--build", str(tmp_path / "build")] + old, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "unrecognized arguments: %s" % old[0] in done.stderr, done.stderr
        assert not os.path.exists(tmp_path / "build")
