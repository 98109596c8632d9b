"""A whole race at a table with every kind of link (tests/wifi/race.py): three Pico W dashboards playing without a
cable (the dashboard app, its buttons pressed by their players), one USB dashboard and two phones, played clean and
then through the faults of each link (the Wi-Fi relay's cuts, stalls and black holes, a phone's broken and silent
sockets, a pulled cable and mangled frames), the table's Wi-Fi dropped for 20 s mid-race, and the tablet killed and
started again on another port, where every Wi-Fi dashboard finds it by its beacon alone.

Nothing lost, nothing doubled: every dashboard, its save, the table, the log and the results end exactly as in the
clean race, and every dashboard applied each command (syncs aside) exactly as many times.

Cost: most of it is the 20 s drop, the point of the test (the clean race about 10 s; load-dependent)."""

import pytest

from tests.wifi.race import RACE_KINDS, lost_and_doubled, run

pytestmark = [pytest.mark.whole]

SEED = 1962
RACE = dict(players=6, laps=3, lap_spaces=8)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    out = run(str(tmp_path_factory.mktemp("clean")), SEED, **RACE)
    assert out["table"]["game_over"] == 1
    return out


def test_every_link_through_its_faults_a_wifi_drop_and_a_moved_tablet_ends_as_the_clean_race(clean, tmp_path):
    faulty = run(str(tmp_path), SEED, faults=1, fault_rate=0.15, **RACE)
    assert faulty["dropped"] and faulty["counts"]["wifi_drop"] == 1, faulty["counts"]
    assert faulty["moved"] is not None and faulty["moved"][0] != faulty["moved"][1], faulty["moved"]
    for kind in set(RACE_KINDS):
        assert faulty["counts"][kind] >= 1, (kind, faulty["counts"])
    assert min(faulty["proxy"].values()) >= 1, faulty["proxy"]  # the Wi-Fi's cuts, stalls and black holes, each
    for key in ("dashboards", "saved", "table", "log", "results"):
        assert faulty[key] == clean[key], key
    for r in (clean, faulty):
        assert r["counts"]["wifi_choices"] >= 6, r["counts"]  # speeds and cards chosen on the Pico Ws themselves
        assert r["restarted"] == []
        assert r["dashboards"] == r["table"]["cars"] == r["saved"]
        assert r["replayed"] == r["table"]
    differ = {k: (clean["applied"].get(k, 0), faulty["applied"].get(k, 0))
              for k in set(clean["applied"]) | set(faulty["applied"])
              if k[1] != "sync" and clean["applied"].get(k, 0) != faulty["applied"].get(k, 0)}
    assert lost_and_doubled(clean, faulty) == (0, 0), (differ, faulty["fault_log"], faulty["sync_log"][-12:])
    assert None not in faulty["relinked_s"], faulty["relinked_s"]  # each Wi-Fi dashboard back after the drop
