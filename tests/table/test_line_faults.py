"""The whole table on a bad night's cable, against the same race on a clean one: three virtual dashboards (the
real firmware on the `micropython` unix port, each behind its fault-injecting relay) and the tablet's logic
(Referee, pyserial Transport, LinkBridge) play one seeded race twice. The second time every line drops,
duplicates, corrupts, truncates, delays and garbles about 1 % of its lines each way, cables are pulled and
put back, and bad bursts mangle a third of the lines for a moment; nothing restarts (the kills and damaged
saves are tests/table/test_table.py's).

Not only the end must be the same: every dashboard must have applied exactly the same commands, as many of
each, a fault costing no sync (at most 10 % more in all, or one in this short race) and no refusal. A sync is the table undoing what a
dashboard holds: one too many is a player's action undone and redone on their screen.

Cost: about 30 s on a quiet machine (7 s clean, 23 s faulty).
"""

from tests.table.table import LINE_FAULTS, run

SEED = 1962
RACE = dict(players=3, laps=3, lap_spaces=12)


def syncs(result):
    return sum(n for (_dev, name), n in result["applied"].items() if name == "sync")


def test_a_faulty_line_costs_no_command_that_a_clean_line_does_not(tmp_path):
    clean = run(str(tmp_path / "clean"), SEED, **RACE)
    faulty = run(str(tmp_path / "faulty"), SEED, faults=1, fault_rate=0.1, fault_kinds=LINE_FAULTS, **RACE)
    assert clean["table"]["game_over"] == 1
    for kind in set(LINE_FAULTS):
        assert faulty["counts"][kind] >= 1, (kind, faulty["counts"])
    for key in ("dashboards", "saved", "table", "log", "results"):
        assert faulty[key] == clean[key], key
    # The same commands applied on every dashboard, as many of each; syncs at most 10 % more.
    for key in set(clean["applied"]) | set(faulty["applied"]):
        if key[1] != "sync":
            assert faulty["applied"].get(key, 0) == clean["applied"].get(key, 0), key
    # This short race has about 7 syncs, too few for 10 % to allow any: one more was seen once on a loaded machine
    # (a replug's timing). The ratio itself is bench/link_faults_bench.py's, over a 91-turn race (link.faulty_syncs_ratio).
    assert syncs(faulty) <= max(syncs(clean) * 1.1, syncs(clean) + 1), (syncs(faulty), syncs(clean))
    # No command refused that the clean run applied.
    for key, n in faulty["refused"].items():
        assert n <= clean["refused"].get(key, 0), (key, faulty["refused"], clean["refused"])
