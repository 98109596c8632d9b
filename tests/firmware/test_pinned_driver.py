"""The OLED driver ships inside the app at a pinned version with its licence, so no flash needs the internet:
micropython-lib's ssd1306.py, unchanged below its header, at the commit PIN.json names (the same commit as the
copy in ../shared/picosim/drivers, where that is present), and compiles for the Pico."""

import hashlib
import json
import os
import subprocess

import pytest

from companion.flashing.flash import PINNED_DRIVER, driver_file
from companion.flashing.mpy_build import mpy_cross

DRIVERS = os.path.dirname(PINNED_DRIVER)
SHARED = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(DRIVERS)))), "shared",
                      "picosim", "drivers")


def pin():
    with open(os.path.join(DRIVERS, "PIN.json")) as f:
        return json.load(f)


def body():
    with open(PINNED_DRIVER, "rb") as f:
        lines = f.read().split(b"\n")
    return lines[:pin()["header_lines"]], b"\n".join(lines[pin()["header_lines"]:])


def test_the_driver_is_micropython_libs_at_the_pinned_commit_with_its_licence():
    header, code = body()
    assert hashlib.sha256(code).hexdigest() == pin()["sha256"]
    assert pin()["commit"].encode() in b"\n".join(header) and b"MIT" in b"\n".join(header)
    with open(os.path.join(DRIVERS, "LICENSE-micropython-lib.txt")) as f:
        assert "Permission is hereby granted, free of charge" in f.read()
    assert driver_file(None) == PINNED_DRIVER  # what a flash with no --index copies


@pytest.mark.skipif(not os.path.isdir(SHARED), reason="../shared/picosim/drivers is absent (the session's copy)")
def test_the_pin_is_the_sessions_copy():
    with open(os.path.join(SHARED, "REVISION")) as f:
        assert pin()["commit"] in f.read()
    with open(os.path.join(SHARED, "ssd1306.py"), "rb") as f:
        assert f.read() == body()[1]


def test_it_compiles_for_the_pico(tmp_path):
    out = tmp_path / "ssd1306.mpy"
    subprocess.run([mpy_cross(), "-O3", "-o", str(out), "-s", "ssd1306.py", PINNED_DRIVER], check=True)
    assert out.read_bytes()[:1] == b"M"
