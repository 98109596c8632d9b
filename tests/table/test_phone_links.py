"""The whole table with every player on a phone, its link a WebSocket (tests/table/phone_table.py: the real firmware
behind aiohttp's WebSocket client, the tablet's phones server, Transport, LinkBridge and Referee), one seeded
race played clean and then under a phone's faults: connections broken at random instants (often right after a
press or a decision, its frames in flight), phones gone from the Wi-Fi without a word and back on a new
connection, pages reloaded, the tablet app killed and started again.

Nothing lost, nothing applied twice: every dashboard, its save, the table, the log and the results end exactly
as in the clean race. With the Wi-Fi's faults alone (nothing restarts) every dashboard applies exactly the
commands of the clean race, as many of each, syncs included (why no slack: tests/table/test_line_faults.py).

Cost: about 45 s (the clean race 6 s, each faulty one 15 to 20 s).
"""

import pytest

from tests.table.phone_table import LINK_FAULTS, PHONE_FAULTS, run

pytestmark = [pytest.mark.whole]

SEED = 1962
RACE = dict(players=3, laps=3, lap_spaces=12)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    out = run(str(tmp_path_factory.mktemp("clean")), SEED, **RACE)
    assert out["table"]["game_over"] == 1
    return out


def _same_end(clean, faulty, kinds):
    for kind in set(kinds):
        assert faulty["counts"][kind] >= 1, (kind, faulty["counts"])
    for key in ("dashboards", "saved", "table", "log", "results"):
        assert faulty[key] == clean[key], key
    for r in (clean, faulty):
        assert r["restarted"] == []
        assert r["dashboards"] == r["table"]["cars"] == r["saved"]
        assert r["replayed"] == r["table"]
    for key, n in faulty["refused"].items():  # no command refused that the clean race applied
        assert n <= clean["refused"].get(key, 0), (key, faulty["refused"], clean["refused"])


def test_broken_and_silent_connections_cost_no_command(clean, tmp_path):
    faulty = run(str(tmp_path), SEED, faults=1, fault_rate=0.1, fault_kinds=LINK_FAULTS, **RACE)
    _same_end(clean, faulty, LINK_FAULTS)
    why = "faulty: %s\nclean: %s" % (faulty["sync_log"], clean["sync_log"])
    for key in set(clean["applied"]) | set(faulty["applied"]):
        assert faulty["applied"].get(key, 0) == clean["applied"].get(key, 0), (key, why)


def test_reloaded_pages_and_a_restarted_tablet_end_as_the_clean_race(clean, tmp_path):
    faulty = run(str(tmp_path), SEED, faults=1, fault_rate=0.1, fault_kinds=PHONE_FAULTS, **RACE)
    _same_end(clean, faulty, PHONE_FAULTS)
