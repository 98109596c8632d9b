"""Both games' referees extend one SeatedReferee (companion/referee_base.py): seats, outbox, command ids, taken
events and the log's opening are written once, and behave the same in Formula 1 and Formula 5."""

import ast
import os

import pytest

from shared_rules.errors import RuleError

from companion import referee_base
from companion.eventlog import LogError
from companion.f1.referee import Referee
from companion.f5.referee import F5Referee
from companion.referee_base import SeatedReferee

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFEREES = {Referee: "companion/f1/referee.py", F5Referee: "companion/f5/referee.py"}

# What the base holds: a referee that defines one of these again has grown its own copy back.
SHARED = {"open", "close", "pair", "seat_of", "take_commands", "_queue", "_queued_for", "_create", "_new_seed",
          "_take_pair", "_taken_before", "_refused"}
# ... and the names and calls of that machinery, which a referee's own source never needs.
OWN_COPY = ("_cmd_count", "_boot", "self.outbox =", "self.pairs =", "self.taken =", "EventLog(", "TakenEvents(",
            "open_saved(", "os.urandom", "binascii", "os.path.exists")


def f1(tmp_path, name="f1.db"):
    return Referee.new(str(tmp_path / name), ["Ann", "Bob", "Cy"], 3, seed=7)


def f5(tmp_path, name="f5.db"):
    return F5Referee.new(str(tmp_path / name), [0, 1, 2], seed=7)


@pytest.mark.parametrize("cls", list(REFEREES))
def test_the_referees_extend_the_base_and_define_none_of_it_again(cls):
    assert issubclass(cls, SeatedReferee)
    assert SHARED.isdisjoint(vars(cls)), sorted(SHARED & set(vars(cls)))
    source = open(os.path.join(ROOT, REFEREES[cls])).read()
    assert [w for w in OWN_COPY if w in source] == []
    # no function of its own that counts commands or makes ids (an assignment to self.outbox, say)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            assert node.attr not in ("outbox", "pairs", "taken", "game_id", "log", "entries"), node.attr


@pytest.mark.parametrize("make", [f1, f5])
def test_command_ids_are_unique_within_a_run_and_across_runs(tmp_path, make):
    ref = make(tmp_path)
    ref.pair(0, "dash-a")
    ref.pair(1, "dash-b")
    first = [cid for _s, cid, _n, _a in ref.take_commands()]
    path = ref.log.path
    ref.close()
    again = type(ref).open(path)
    again.pair(0, "dash-a")  # the same seat and dashboard after a restart: its commands get new ids
    second = [cid for _s, cid, _n, _a in again.take_commands()]
    again.close()
    assert first and second
    assert len(set(first + second)) == len(first + second)
    assert all(cid.startswith(ref.game_id + ".") for cid in first + second)


@pytest.mark.parametrize("make", [f1, f5])
def test_a_dashboard_holds_one_seat_and_pairs_are_kept_in_the_log(tmp_path, make):
    ref = make(tmp_path)
    ref.take_commands()  # a new Formula 1 race queues every car's sync
    ref.pair(0, "dash-a")
    ref.pair(1, "dash-a")  # moved: seat 0 is freed first
    assert ref.pairs == {1: "dash-a"} and ref.seat_of("dash-a") == 1 and ref.seat_of("dash-z") is None
    assert ref._queued_for(1) and not ref._queued_for(2)
    ref.take_commands()
    assert ref.outbox == [] and not ref._queued_for(1)
    ref.pair(1, None)
    assert ref.pairs == {}
    ref.pair(2, "dash-b")
    path = ref.log.path
    ref.close()
    again = type(ref).open(path)
    assert again.pairs == {2: "dash-b"}
    again.close()


@pytest.mark.parametrize("make", [f1, f5])
def test_each_game_refuses_a_seat_it_does_not_have(tmp_path, make):
    ref = make(tmp_path)
    for seat in (9, "0", None):
        with pytest.raises(RuleError):
            ref.pair(seat, "dash-a")
    assert ref.pairs == {} and [e for e in ref.entries if e.get("t") == "pair"] == []
    ref.close()


@pytest.mark.parametrize("make", [f1, f5])
def test_a_log_opens_only_as_its_own_game_and_is_never_written_over(tmp_path, make):
    ref = make(tmp_path, "game.db")
    other = F5Referee if isinstance(ref, Referee) else Referee
    path = ref.log.path
    ref.close()
    with pytest.raises(LogError, match="is not a %s game log" % other.TITLE):
        other.open(path)
    with pytest.raises(LogError, match="already holds a game"):
        make(tmp_path, "game.db")
    with pytest.raises(LogError, match="no saved game"):
        type(ref).open(str(tmp_path / "none.db"))


@pytest.mark.parametrize("make", [f1, f5])
def test_a_dashboard_event_is_taken_once_across_restarts_even_when_refused(tmp_path, make):
    ref = make(tmp_path)
    ref.pair(0, "dash-a")
    ref.take_commands()
    # An event the rules refuse: Formula 1's End turn from a seat not to play, a Formula 5 move for another turn
    seat, name = (1, "end") if isinstance(ref, Referee) else (0, "f5race")
    assert ref.on_dashboard_event(seat, name, {"k": -1}, taken=("dash-a", "e1")) is not None
    assert ref._taken_before(("dash-a", "e1")) and not ref._taken_before(("dash-a", "e2"))
    path = ref.log.path
    ref.close()
    again = type(ref).open(path)
    assert again._taken_before(("dash-a", "e1")) and not again._taken_before(None)
    assert again.on_dashboard_event(seat, name, {"k": -1}, taken=("dash-a", "e1")) is None  # taken: nothing
    assert again.outbox == []
    again.close()


def test_ids_are_short_and_random():
    ids = {referee_base.new_id() for _ in range(50)}
    assert len(ids) == 50 and all(len(i) == 8 for i in ids)
