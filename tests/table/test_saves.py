"""Save files and logs that were truncated, corrupted or edited by hand: a clear error and never a wrong game.

Already covered elsewhere (not repeated here): a dashboard save with a bad checksum or a half-written temp
file (tests/firmware/test_power_loss.py); a tablet log entry with a bad checksum, an edited dice throw with
its checksum recomputed, a missing entry, a file that is not SQLite at all (tests/companion/test_referee.py).
Here: what is left, on the tablet's log and on the dashboards' saves, and the table as a whole: a dashboard
whose save lies (even with a good checksum) is brought back to the table's truth.
"""

import binascii
import json
import os
import shutil
import sqlite3

import pytest

from companion.eventlog import LogError
from companion.f1.referee import Referee
from firmware import restore
from firmware.ondemand import store
from tests.table.table import Table

NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture
def log(tmp_path):
    """A closed game log with a few real decisions, a corner roll and an undo in it."""
    path = str(tmp_path / "game.db")
    ref = Referee.new(path, NAMES, 3, seed=8)
    ref.set_speed(60)
    ref.corner(40)
    ref.end_turn()
    ref.set_speed(40)
    ref.undo()
    ref.set_speed(20)
    ref.end_turn()
    snapshot = ref.race.snapshot()
    ref.close()
    return path, snapshot


def _rows(path):
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, body, crc FROM events ORDER BY seq").fetchall()
    db.close()
    return rows


def _rewrite(path, seq, entry):
    """A hand edit done properly: the entry changed and its checksum recomputed."""
    body = json.dumps(entry)
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body=?, crc=? WHERE seq=?", (body, binascii.crc32(body.encode()), seq))
    db.commit()
    db.close()


def _refused_and_unchanged(path, match):
    before = open(path, "rb").read()
    with pytest.raises(LogError, match=match):
        Referee.open(path)
    assert open(path, "rb").read() == before  # a log that cannot be trusted is never written to


def test_the_untouched_log_reopens_to_the_same_game(log):
    path, snapshot = log
    ref = Referee.open(path)
    assert ref.race.snapshot() == snapshot
    ref.close()


def test_a_truncated_log_file_is_refused_at_every_cut(log, tmp_path):
    path, snapshot = log
    raw = open(path, "rb").read()
    assert not os.path.exists(path + "-wal") or os.path.getsize(path + "-wal") == 0  # all in the main file
    cuts = sorted({1, 100, 4096, len(raw) // 2, len(raw) - 4096, len(raw) - 1} | set(range(512, len(raw), 1531)))
    for cut in cuts:
        part = str(tmp_path / ("cut%d.db" % cut))
        with open(part, "wb") as f:
            f.write(raw[:cut])
        try:
            ref = Referee.open(part)
        except LogError as e:
            assert str(e)  # a message for the table, naming the file or the entry
            continue
        # SQLite may still read a cut file; then it must be the whole game, never a shorter one.
        assert ref.race.snapshot() == snapshot, cut
        ref.close()


def test_a_hand_edited_decision_that_the_rules_refuse(log):
    path, _ = log
    seq, body, _crc = _rows(path)[1]
    entry = json.loads(body)
    assert entry["t"] == "speed"
    entry["v"] = 200  # no speedometer reads 200
    _rewrite(path, seq, entry)
    _refused_and_unchanged(path, "does not replay")


def test_a_decision_moved_to_another_car(log):
    path, _ = log
    seq, body, _crc = _rows(path)[1]
    entry = json.loads(body)
    entry["seat"] = 2  # the third car never had the first turn
    _rewrite(path, seq, entry)
    _refused_and_unchanged(path, "does not replay")


def test_entries_swapped_with_their_checksums(log):
    path, _ = log
    rows = _rows(path)
    db = sqlite3.connect(path)
    (s1, b1, c1), (s2, b2, c2) = rows[1], rows[2]  # the speed and the corner: corner before speed
    db.execute("UPDATE events SET body=?, crc=? WHERE seq=?", (b2, c2, s1))
    db.execute("UPDATE events SET body=?, crc=? WHERE seq=?", (b1, c1, s2))
    db.commit()
    db.close()
    _refused_and_unchanged(path, "does not replay")


def test_an_undo_with_nothing_before_it(log):
    path, _ = log
    seq, body, _crc = _rows(path)[1]
    _rewrite(path, seq, {"t": "undo"})
    _refused_and_unchanged(path, "undoes more than was done")


def test_an_edited_game_header_and_track(log, tmp_path):
    path, _ = log
    seq, body, _crc = _rows(path)[0]
    header = json.loads(body)
    other = str(tmp_path / "other.db")
    shutil.copy(path, other)
    _rewrite(other, seq, dict(header, game="f5"))
    _refused_and_unchanged(other, "not a Formula 1 game log")
    track = header["track"]
    track["corners"][0]["bands"] = [[40, "fast"]]
    _rewrite(path, seq, header)
    with pytest.raises(LogError):
        Referee.open(path)


def test_a_log_from_another_version(log):
    path, _ = log
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='99' WHERE key='format'")
    db.commit()
    db.close()
    _refused_and_unchanged(path, "another version")


def _resave(path, edit):
    """A dashboard save edited by hand, its checksum recomputed (store.encode), as a determined player would."""
    with open(path, "rb") as f:
        data = restore.decode(f.read())
    edit(data)
    with open(path, "wb") as f:
        f.write(store.encode(data))


def test_dashboard_saves_that_lie_or_are_damaged_never_beat_the_table(tmp_path):
    table = Table(str(tmp_path), 7, players=3, laps=3, lap_spaces=12).open()
    try:
        for _ in range(5):
            table.play_turn()
        table.settle()
        truth = [table.car(i).snapshot() for i in range(3)]
        liar, cut, wrong = table.seats
        assert table.pump(lambda: all(os.path.exists(s.dash.state_path) for s in table.seats), 5)
        for s in table.seats:
            s.unplug()  # cables out: what a dashboard restores, it shows before the tablet can correct it
            s.kill()
        # A legal-looking car, checksum and all: faster, unworn, a hand of Superb Driving (and the journal of
        # commands since that save deleted, so that nothing at boot corrects it).
        _resave(liar.dash.state_path, lambda d: d["car"].update(speed=160, tyre=0, brake=0, hand=["SD"] * 5))
        if os.path.exists(liar.dash.state_path + ".journal"):
            os.remove(liar.dash.state_path + ".journal")
        raw = open(cut.dash.state_path, "rb").read()
        with open(cut.dash.state_path, "wb") as f:
            f.write(raw[: len(raw) // 2])  # truncated
        # A car no dashboard could hold (tyre wear 9 of 8), checksum recomputed; and a save with a part missing.
        _resave(wrong.dash.state_path, lambda d: d["car"].update(tyre=9))
        for s in table.seats:
            s.start()
        assert liar.dash.car()["speed"] == 160  # a good checksum: the dashboard cannot tell...
        for s in (cut, wrong):
            assert s.dash.rows()[0] == "SAVE DAMAGED", s.dash.screen()
            assert s.dash.car()["speed"] == 0 and s.dash.car()["hand"] == []  # defaults, not the damaged data
            assert os.path.exists(s.dash.state_path + ".bad")  # kept for inspection
        for s in table.seats:
            s.plug()
        table.settle()  # ...the table can: everyone is brought back to what the table holds
        assert [s.dash.car() for s in table.seats] == truth
        assert table.pump(lambda: os.path.exists(wrong.dash.state_path), 5)
        wrong.unplug()
        wrong.kill()
        _resave(wrong.dash.state_path, lambda d: d.pop("done"))
        wrong.start()
        assert wrong.dash.rows()[0] == "SAVE DAMAGED"
        wrong.plug()
        table.settle()
        for _ in range(3):
            table.play_turn()  # and the race goes on
        table.settle()
        assert [s.dash.car() for s in table.seats] == [table.car(i).snapshot() for i in range(3)]
    finally:
        table.close()
