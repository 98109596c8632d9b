import os

import pytest

from tests import mpy
from tests.firmware.dash import VirtualDashboard
from tools.mpy_build import compile_package


@pytest.fixture
def dash(tmp_path):
    """A fresh virtual dashboard (the real firmware on the micropython unix port); killed after the test."""
    started = []

    def make(dev="dash1", **kw):
        d = VirtualDashboard(str(tmp_path), dev=dev, **kw)
        started.append(d)
        return d

    yield make
    for d in started:
        d.kill()


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """The firmware and shared_rules compiled to .mpy as `make flash` copies them; the directory."""
    out = str(tmp_path_factory.mktemp("mpy"))
    for pkg in ("shared_rules", "firmware"):
        compile_package(os.path.join(mpy.ROOT, pkg), out)
    return out
