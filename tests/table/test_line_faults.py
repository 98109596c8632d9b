"""The whole table on a bad night's cable, against the same race on a clean one: three virtual dashboards (the
real firmware on the `micropython` unix port, each behind its fault-injecting relay) and the tablet's logic
(Referee, pyserial Transport, LinkBridge) play one seeded race twice. The second time every line drops,
duplicates, corrupts, truncates, delays and garbles about 1 % of its lines each way, cables are pulled and
put back, and bad bursts mangle a third of the lines for a moment; nothing restarts (the kills and damaged
saves are tests/table/test_table.py's).

Not only the end must be the same: every dashboard must have applied exactly the same commands, as many of
each, syncs included, and no command may be refused that the clean run applied. A sync is the table undoing
what a dashboard holds: one too many is a player's action undone and redone on their screen.

Why exactly as many syncs, with no slack: the clean race's syncs are the table's own doing (the new game's
cars, the pairing, each undo), and the faulty race makes the same decisions. A fault on these lines changes
when a message arrives, or whether it must be sent again, never what a dashboard holds once its messages are
through: a frame that fails its checksum is dropped and resent, a repeat is recognised, a player's event
carries the state it made, a replugged dashboard's hello says how many events it still holds, and the bridge
compares a dashboard's state with the table only when every command it sent has been answered and every event
taken, as the notes tell it (tests/table/test_late_notes.py). A fault that did leave a dashboard holding a
state the table never heard of (a press made while the dashboard could not hear the tablet, say) would need a
sync; none of these can, so a sync more is a defect of the link, however loaded the machine. Once, with a
slack of one sync, this test failed 9 against 7 under two full suites side by side: the bridge compared a
state its transport had already seen replaced, the answer's notes still on their way. When the count differs
the message shows why each sync was queued (Table.sync_log: turn, seat, who asked, the fields that differed,
the last fault), both runs.

Cost: about 30 s on a quiet machine (7 s clean, 23 s faulty).
"""

import pytest
from tests.table.table import LINE_FAULTS, run

pytestmark = [pytest.mark.whole]

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
    # The same commands applied on every dashboard, as many of each, syncs included.
    why = "syncs %d faulty, %d clean\nfaulty: %s\nclean: %s" % (
        syncs(faulty), syncs(clean), faulty["sync_log"], clean["sync_log"])
    for key in set(clean["applied"]) | set(faulty["applied"]):
        assert faulty["applied"].get(key, 0) == clean["applied"].get(key, 0), (key, why)
    # No command refused that the clean run applied.
    for key, n in faulty["refused"].items():
        assert n <= clean["refused"].get(key, 0), (key, faulty["refused"], clean["refused"])
