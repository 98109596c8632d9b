"""The table tests' shared fixture."""

import pytest

from tests.table.table import Table


@pytest.fixture
def table(tmp_path):
    """A two-car table (seed 7, 3 laps of 12 spaces), open and in step: for the tests that stage one moment of a
    race by hand (test_one_truth.py, test_late_notes.py)."""
    t = Table(str(tmp_path), 7, players=2, laps=3, lap_spaces=12, timeout=20.0)
    try:
        t.open()
        yield t
    finally:
        t.close()
