import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# A table's beacon (companion/dashboards_wifi.py) goes to the LAN's broadcast address by default: in tests, to
# loopback only, whatever app a test starts (its children inherit this). A test that names its own targets wins.
os.environ.setdefault("F1_BEACON_TO", "127.0.0.1:8766")

# The tiers (markers registered in pyproject.toml): `make check` runs what has none of them, `make test` everything.
# The longest start first, so that the run does not end on one long test started last (`make test` hands the
# workers one test at a time, in this order): a whole race or game, then the emulated Pico, then a browser or the
# app's window, then the other slow ones; within each, those also marked slow (the longest of all) first.
_FIRST = ("whole", "picosim", "browser", "window", "slow")


def _start_rank(item):
    rank = next((i for i, name in enumerate(_FIRST) if item.get_closest_marker(name)), len(_FIRST))
    return rank, item.get_closest_marker("slow") is None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "picosim_here" in item.fixturenames:  # every test on the emulated Pico asks for it (tests/pico/conftest.py)
            item.add_marker("picosim")
    items.sort(key=_start_rank)  # stable: within a rank, the files' own order
