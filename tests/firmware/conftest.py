import pytest

from tests.firmware.dash import VirtualDashboard


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
