"""Game logs saved by the version before the rules change of docs/rules.md decisions 1, 2 and 8 (a reduction the car
cannot pay for spun it, New Instructions gave a card before any was discarded): such a log no longer replays. The
saved games list says so in one line, naming the move the rules now refuse; opening it is refused and changes
nothing; the other games and a new race are not affected. Without a window: a few SQLite files, well under 1 s."""

import os

import pytest

from companion import storage
from companion.eventlog import EventLog, LogError
from companion.f1.referee import Referee
from shared_rules.f1.race import Race

NAMES = ["Ann", "Bob"]


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("F1_COMPANION_DATA", str(tmp_path / "data"))
    return str(tmp_path / "data")


def _older(path, entry):
    """A decision of the older version, appended to the log as that version wrote it (the event log's own API)."""
    log = EventLog(path)
    try:
        log.append(entry)
    finally:
        log.close()


def _reduction_of_160(path):
    """An old log whose first car brakes from 160 to 0 in round 4: the old rules spun it, ours refuse the speed
    ("reduce speed by 100 mph at most: the chart ends there", decision 1). Returns that car's name."""
    ref = Referee.new(path, NAMES, 3, seed=1)
    for v in (60, 120, 160):  # seat 0 speeds up, seat 1 stays at 0
        ref.set_speed(v)
        ref.end_turn()
        ref.end_turn()
    name = ref.race.names[0]
    ref.close()
    _older(path, {"t": "speed", "seat": 0, "v": 0, "card": None})
    return name


def _new_instructions_first(path):
    """An old log whose first car pits in round 1 and draws New Instructions, and was given an extra card though
    none had been discarded yet (our rules give none then, decision 8). Returns that car's name."""
    ref = Referee.new(path, NAMES, 3, seed=_first_orders_seed())
    ref.set_speed(20)
    name = ref.race.names[0]
    extra = ref.race.tactic[-1]  # what the older version handed out: the bottom of the undealt pile
    ref.close()
    _older(path, {"t": "pit", "seat": 0, "pit": "ORDERS", "drawn": extra})
    return name


def _files(path):
    out = {}
    for p in (path, path + "-wal"):
        if os.path.exists(p):
            with open(p, "rb") as f:
                out[p] = f.read()
    return out


@pytest.mark.parametrize("older, says", [
    (_reduction_of_160, "round 4, %s slows from 160 to 0 mph (now refused: reduce speed by 100 mph at most: "
                        "the chart ends there)"),
    (_new_instructions_first, "round 1, %s takes an extra card with New Instructions before any card was "
                              "discarded (now refused: the discard pile is empty)"),
], ids=["a reduction the car cannot pay", "new instructions before any discard"])
def test_a_log_saved_by_the_older_rules_is_listed_with_the_move_now_refused_and_not_opened(data, older, says):
    good = storage.new_game_path()
    Referee.new(good, ["Cat", "Dan"], 3, seed=2).close()
    old = storage.new_game_path()
    name = older(old)
    expected = "saved by an older version: " + says % name

    listed = {g.path: g for g in storage.saved_games(data)}
    assert listed[old].error == expected
    assert "\n" not in listed[old].text() and expected in listed[old].text()  # one line in the list
    assert listed[old].players == NAMES and listed[old].label() == "OLDER VERSION"  # whose game, and why
    assert listed[good].error == "" and sorted(listed[good].players) == ["Cat", "Dan"]  # the others as before
    assert listed[good].label() == "IN PROGRESS"

    before = _files(old)
    with pytest.raises(LogError) as refused:
        Referee.open(old)  # refused whole: never a game replayed up to the move and opened there
    assert str(refused.value) == expected
    assert _files(old) == before  # and the log is left as it was

    new = storage.new_game_path()  # a new race is possible, and listed
    ref = Referee.new(new, ["Eve", "Fay"], 3, seed=3)
    ref.set_speed(60)
    ref.end_turn()
    ref.close()
    assert storage.saved_game(new, "F1").error == ""
    ref = Referee.open(good)
    assert ref.race.round == 1
    ref.close()


def _first_orders_seed():
    return next(s for s in range(200) if Race(s, NAMES, 3).pit_pile[0] == "ORDERS")


@pytest.mark.parametrize("seed, moves, entry", [
    (1, (), {"t": "speed", "seat": 0, "v": 200, "card": None}),  # no version ever allowed 200 mph
    (_first_orders_seed(), (20,), {"t": "pit", "seat": 0, "pit": "DIRT", "drawn": "QR"}),  # not the seed's card
], ids=["a speed off the dial", "another pit card than the seed's"])
def test_a_move_refused_for_another_reason_is_not_blamed_on_an_older_version(data, seed, moves, entry):
    # A hand edit, say: the log does not replay, where it stops is said, and that is all.
    path = storage.new_game_path()
    ref = Referee.new(path, NAMES, 3, seed=seed)
    for v in moves:
        ref.set_speed(v)
    ref.close()
    _older(path, entry)
    error = storage.saved_game(path, "F1").error
    assert error.startswith("the game log does not replay: round 1, ") and "older version" not in error, error
    assert storage.saved_game(path, "F1").label() == "DAMAGED"
