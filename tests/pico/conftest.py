"""Fixtures for tests on the emulated Pico (tests/pico/picosim.py). Skipped, with the reason, where picosim or
node is missing or picosim is not set up (../shared/picosim/setup.sh)."""

import shutil

import pytest

from tests.pico import picosim

FLASHED = "flashed"  # pico()'s default: a copy of the session's flashed image


@pytest.fixture(scope="session")
def picosim_here():
    reason = picosim.missing()
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="session")
def flashed_image(picosim_here, request, tmp_path_factory):
    """The path of a Pico flash image holding the dashboard as tools/flash.py flashes it (made once per run:
    about 25 s; xdist's workers share it). Copy it before starting a Pico from it."""
    base = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):  # an xdist worker
        base = base.parent  # shared by the workers of this run
    return picosim.flashed_image(str(base / "pico-flashed"))


@pytest.fixture
def pico(picosim_here, request, tmp_path):
    """Starts emulated Picos: pico() from a copy of the flashed dashboard; pico(flash=None) blank;
    pico(flash=PATH) from a copy of PATH; speed and extra_args go to picosim. All stopped after the test."""
    started = []

    def start(flash=FLASHED, speed=1, extra_args=()):
        if flash == FLASHED:
            flash = request.getfixturevalue("flashed_image")
        if flash is not None:
            copy = str(tmp_path / ("flash%d.bin" % len(started)))
            shutil.copyfile(flash, copy)
            flash = copy
        p = picosim.Pico(flash=flash, speed=speed, extra_args=extra_args)
        started.append(p)
        return p.start()

    yield start
    for p in started:
        p.stop()
