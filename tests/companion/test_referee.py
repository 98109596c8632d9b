"""The referee's logic, driven without a window: decisions, commands to dashboards, undo, resume, damage."""

import json
import sqlite3

import pytest

from shared_rules.errors import RuleError
from shared_rules.f1.car import Car, apply_command

from companion.eventlog import LogError
from companion.f1.referee import Referee
from companion.f1.track import Track, TrackError

NAMES = ["Ann", "Bob", "Cy"]


class Dashboards:
    """Stand-ins for the dashboards' state: the real shared rules applying the referee's commands."""

    def __init__(self, n):
        self.cars = [Car(3) for _ in range(n)]
        self.applied = set()

    def deliver(self, ref):
        for seat, cid, name, args in ref.take_commands():
            if cid in self.applied:
                continue
            apply_command(self.cars[seat], name, args)
            self.applied.add(cid)

    def agree_with(self, ref):
        return [c.snapshot() for c in self.cars] == [c.snapshot() for c in ref.race.cars]


@pytest.fixture
def game(tmp_path):
    ref = Referee.new(str(tmp_path / "game.db"), NAMES, 3, seed=42)
    dash = Dashboards(3)
    dash.deliver(ref)
    yield ref, dash, str(tmp_path / "game.db")
    ref.close()


def test_new_game_syncs_every_dashboard(game):
    ref, dash, _ = game
    assert dash.agree_with(ref)
    assert ref.race.cars[0].my_turn == 1 and dash.cars[0].my_turn == 1


def test_a_turn_with_corner_pit_and_lap_keeps_dashboards_in_step(game):
    ref, dash, _ = game
    ref.set_speed(60)
    ev = ref.corner(ref.corner_safety(0, 0))  # Corner 1, inner lane: 40
    dash.deliver(ref)
    assert dash.agree_with(ref)
    assert len(ev["dice"]) == 2
    ref.end_turn()
    dash.deliver(ref)
    assert ref.seat == 1 and dash.cars[1].my_turn == 1 and dash.cars[0].my_turn == 0
    ref.set_speed(40)
    ref.lap()
    ref.pit()
    dash.deliver(ref)
    assert dash.agree_with(ref)
    assert dash.cars[1].status == "pit"


def test_dashboard_actions_are_mirrored_and_refusals_resynced(game):
    ref, dash, _ = game
    dash.cars[0].set_speed(60)  # the player on the dashboard
    assert ref.on_dashboard_event(0, "speed", {"v": 60}) is None
    dash.deliver(ref)
    assert dash.agree_with(ref)
    assert ref.take_commands() == []
    dash.cars[0].tyre = 5  # a dashboard that went its own way
    err = ref.on_dashboard_event(0, "speed", {"v": 80})  # already set: refused
    assert isinstance(err, RuleError)
    ref.reconcile(0, dash.cars[0].snapshot())
    dash.deliver(ref)
    assert dash.agree_with(ref)


def test_undo_restores_and_the_same_decision_throws_the_same_dice(game):
    ref, dash, _ = game
    ref.set_speed(60)
    before = ref.race.snapshot()
    first = ref.corner(40)
    ref.undo()
    dash.deliver(ref)
    assert ref.race.snapshot() == before and dash.agree_with(ref)
    again = ref.corner(40)
    assert again["dice"] == first["dice"]
    marks = [(e["t"], live) for e, live in ref.history()]
    assert marks[-3:] == [("corner", False), ("undo", True), ("corner", True)]


def test_kill_and_resume_gives_the_same_game(game):
    ref, dash, path = game
    ref.set_speed(60)
    ref.corner(40)
    ref.end_turn()
    ref.set_speed(60)
    ref.undo()
    ref.pair(1, "dash-b")
    snap = ref.race.snapshot()
    again = Referee.open(path)  # a second process would see exactly this
    assert again.race.snapshot() == snap
    assert again.pairs == {1: "dash-b"}
    assert again.seat_of("dash-b") == 1
    again.close()


def test_corrupt_or_hand_edited_log_is_a_clear_error(game, tmp_path):
    ref, dash, path = game
    ref.set_speed(60)
    ref.corner(40)
    ref.close()
    db = sqlite3.connect(path)
    body, = db.execute("SELECT body FROM events WHERE seq=3").fetchone()
    entry = json.loads(body)
    entry["dice"] = [6, 6] if entry["dice"] != [6, 6] else [1, 1]
    db.execute("UPDATE events SET body=? WHERE seq=3", (json.dumps(entry),))
    db.commit()
    with pytest.raises(LogError, match="damaged at entry 3"):
        Referee.open(path)
    import binascii

    edited = json.dumps(entry)
    db.execute("UPDATE events SET body=?, crc=? WHERE seq=3", (edited, binascii.crc32(edited.encode())))
    db.commit()
    with pytest.raises(LogError, match="does not match its seed"):
        Referee.open(path)
    db.execute("DELETE FROM events WHERE seq=2")
    db.commit()
    db.close()
    with pytest.raises(LogError, match="missing entry 2"):
        Referee.open(path)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(LogError, match="not a game log"):
        Referee.open(str(junk))
    with pytest.raises(LogError, match="no saved game"):
        Referee.open(str(tmp_path / "nothing.db"))


def test_refused_decisions_change_nothing_and_log_nothing(game):
    ref, dash, _ = game
    n = len(ref.entries)
    snap = ref.race.snapshot()
    for bad in (lambda: ref.set_speed(100), lambda: ref.corner(50), lambda: ref.pit(), lambda: ref.undo()):
        with pytest.raises(RuleError):
            bad()
    assert len(ref.entries) == n and ref.race.snapshot() == snap


def test_default_track_and_bad_track_files(tmp_path):
    track = Track.load()
    assert [len(b[0]) for _n, b in track.corners] == [3, 3, 2, 2, 4, 2]
    assert track.safety(0, 0, 0) == 40 and track.safety(5, 0, 1) == 120
    assert track.safety(4, 0, 3) == 80
    bad = tmp_path / "t.json"
    for text, words in (("{", "not valid JSON"), ('{"corners": []}', "1 to 12 corners"),
                        ('{"corners": [{"name": "C", "bands": [[50]]}]}', "steps of 20")):
        bad.write_text(text)
        with pytest.raises(TrackError, match=words):
            Track.load(str(bad))


def test_series_for_charts(game):
    ref, dash, _ = game
    for _ in range(6):
        ref.set_speed(min(ref.race.cars[ref.seat].speed + 20, 160))
        ref.end_turn()
    pts = ref.series()
    assert [len(p) for p in pts] == [2, 2, 2]
    assert pts[0][0][1] == 20 and pts[0][1][1] == 40


class RefereeAsRace:
    """Lets the scripted driver play through the referee, as the tablet's buttons would."""

    def __init__(self, ref):
        self.ref = ref

    def __getattr__(self, name):
        return getattr(self.ref.race, name)

    def set_speed(self, seat, v, card=None):
        return self.ref.set_speed(v, card)

    def hold(self, seat, v):
        return self.ref.hold(v)

    def corner(self, seat, safety, special=0):
        return self.ref.corner(safety, special)

    def block(self, seat, v):
        return self.ref.block(v)

    def play_card(self, seat, code, clear=1):
        return self.ref.play_card(code, clear)

    def lap(self, seat, over=0):
        if self.ref.race.cars[seat].laps_left == 1:
            return self.ref.finish(over)  # the table's Finish, with the spaces past the line
        return self.ref.lap()  # the table's Lap: spaces past the line only count at the finish

    def pit(self, seat):
        return self.ref.pit()

    def end_turn(self, seat):
        return self.ref.end_turn()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_races_keep_every_dashboard_in_step(tmp_path, seed):
    from shared_rules.f1.autoplay import Driver
    from shared_rules.rng import Rng

    ref = Referee.new(str(tmp_path / "g.db"), ["A", "B", "C", "D"], 3, seed=seed)
    dash = Dashboards(4)
    driver = Driver(RefereeAsRace(ref), Rng(seed))
    turns = 0
    while not ref.race.game_over and turns < 2000:
        driver.play_turn()
        dash.deliver(ref)
        assert dash.agree_with(ref)
        if turns % 97 == 5 and not ref.race.game_over:
            undone = ref.undo()  # the end of that turn, taken back and done again
            dash.deliver(ref)
            assert undone["t"] == "end" and dash.agree_with(ref)
            ref.end_turn()
            dash.deliver(ref)
            assert dash.agree_with(ref)
        turns += 1
    assert ref.race.game_over
    again = Referee.open(str(tmp_path / "g.db"))
    assert again.race.snapshot() == ref.race.snapshot()
    ref.close()
    again.close()


def test_undo_after_the_finish_puts_the_race_back_in_play_across_a_restart(game):
    """A wrong last Finish is taken back after the race: it could not be taken back once the race was over. Now Undo
    stays live (only Undo), it is an "undo" entry in the log like any other, and the dashboards follow. Fails on the
    old main: undo was refused with "the race is over"."""
    ref, dash, path = game
    while not ref.race.game_over:
        car = ref.race.cars[ref.seat]
        if not car.speed_set:
            ref.set_speed(40)
        (ref.finish if car.laps_left == 1 else ref.lap)(3 if car.laps_left == 1 else 0)
        ref.end_turn()
    dash.deliver(ref)
    last = ref.stack[-2]  # the last car over the line; the turn it ended closed the race
    seat = last["seat"]
    assert dash.cars[seat].status == "finished" and dash.agree_with(ref)
    assert [n for n, a in ref.actions().items() if a.live] == ["undo"]
    with pytest.raises(RuleError, match="the race is over"):
        ref.set_speed(40)
    assert ref.undo()["t"] == "end"
    dash.deliver(ref)
    assert not ref.race.game_over and ref.seat == seat and ref.phase() == "finish" and dash.agree_with(ref)
    # Killed here and opened again: the log says the same.
    again = Referee.open(path)
    assert again.race.snapshot() == ref.race.snapshot() and again.phase() == "finish"
    assert again.undo() == last  # the finish itself, taken back
    car = again.race.cars[seat]
    assert car.status == "racing" and car.laps_left == 1 and again.race.over[seat] == -1
    dash.deliver(again)
    assert dash.cars[seat].status == "racing" and dash.agree_with(again)  # the dashboard leaves FINISHED
    again.finish(1)  # the right spaces this time
    again.end_turn()
    assert again.race.game_over and again.race.over[seat] == 1
    dash.deliver(again)
    assert dash.agree_with(again)
    again.close()
