"""The tablet's Formula 5 logic without a window: secret hands only ever go to their own dashboard, the bots
and the cars without a player are played by the tablet, the log resumes the same game, and a dashboard's
stale or illegal move is refused and answered with its view."""

import json

import pytest

from companion.f5.referee import F5Referee
from companion.eventlog import LogError
from shared_rules.errors import RuleError
from shared_rules.f5 import bot
from shared_rules.f5.cards import FACE_DOWN, PIT_SIDE
from shared_rules.f5.game import PIT, Game


def dashboards_play(ref):
    """Every dashboard player plays the simple bot's move, as its dashboard would send it."""
    car = ref.game.to_move()
    ev = bot.choose(ref.game)
    args = {"card": ev[2], "k": len(ref.game.events)}
    if ev[0] == PIT:
        args["d"] = ev[3]
    assert ref.on_dashboard_event(car, "f5pit" if ev[0] == PIT else "f5race", args) is None


def play_out(ref):
    while not ref.game.over:
        if ref.auto_move() is None:
            dashboards_play(ref)


def test_secret_hands_never_in_the_public_view(tmp_path):
    ref = F5Referee.new(str(tmp_path / "g.db"), [0, 1, 2], bots=[1, 2], seed=7)
    ref.pair(0, "dash-a")
    seen_views = []
    while not ref.game.over:
        table = ref.table()
        text = json.dumps(table)
        assert "hand" not in text.replace("hand_sizes", "")
        for col in table["columns"]:
            assert all(e < FACE_DOWN for e in col)  # a card played for a pit stop shows its back only
        assert table["columns"] == [[e if e < FACE_DOWN and e < 70 else PIT_SIDE for e in c] for c in ref.game.columns]
        for car, _cid, name, args in ref.take_commands():
            assert name == "f5" and car == 0  # only the paired player's dashboard hears of a hand: its own
            assert args["hand"] == ref.game.hand(0) or args["k"] < len(ref.game.events)
            seen_views.append(args)
        if ref.auto_move() is None:
            dashboards_play(ref)
    assert seen_views and seen_views[0]["deal"] == 1
    assert ref.table()["winner"] in (0, 1, 2)


def test_bots_and_cars_without_a_player_are_played_by_the_tablet(tmp_path):
    ref = F5Referee.new(str(tmp_path / "g.db"), [3], bots=[3], seed=3)
    n = 0
    while ref.auto_move() is not None:
        n += 1
    assert ref.game.over and n == 12 * 5  # "the game ends" when the hands run out: 12 rounds of five turns
    assert ref.game.winner() == 3
    assert ref.controller(0) == "deck" and ref.controller(3) == "bot"


def test_a_player_without_dashboard_holds_the_game(tmp_path):
    ref = F5Referee.new(str(tmp_path / "g.db"), [0, 4], bots=[4], seed=11)
    while ref.auto_move() is not None:
        pass
    assert not ref.game.over and ref.game.to_move() == 0 and ref.controller(0) == "waiting"
    ref.pair(0, "d0")
    assert ref.controller(0) == "dashboard"
    (car, _cid, name, view), *_ = ref.take_commands()
    assert car == 0 and view["turn"] == 1 and view["hand"] == ref.game.hand(0)


def test_stale_and_illegal_moves_refused_and_the_view_sent_again(tmp_path):
    ref = F5Referee.new(str(tmp_path / "g.db"), [0, 1, 2, 3, 4], seed=5)
    for car in range(5):
        ref.pair(car, "d%d" % car)
    ref.take_commands()
    car = ref.game.to_move()
    before = ref.game.snapshot()
    k = len(ref.game.events)
    card = ref.game.hand(car)[0]
    other = next(c for c in range(5) if c != car)
    for seat, name, args in [
        (car, "f5race", {"card": card, "k": k - 1}),  # an earlier turn's move, late
        (other, "f5race", {"card": ref.game.hand(other)[0], "k": k}),  # not this car's turn
        (car, "f5race", {"card": 99, "k": k}),  # not a card in the hand
        (car, "f5pit", {"card": card, "d": [card], "k": k}),  # discarding the card played
        (car, "f5dance", {"k": k}),
    ]:
        assert ref.on_dashboard_event(seat, name, args) is not None
        assert ref.game.snapshot() == before
        cmds = ref.take_commands()
        assert [(c, n) for c, _, n, _ in cmds] == [(seat, "f5")] and cmds[0][3]["hand"] == ref.game.hand(seat)
    assert ref.on_dashboard_event(car, "f5race", {"card": card, "k": k}) is None
    assert ref.on_dashboard_event(car, "f5race", {"card": card, "k": k}) is not None  # the same event again


def test_the_log_resumes_the_same_game(tmp_path):
    path = str(tmp_path / "g.db")
    ref = F5Referee.new(path, [1, 2], bots=[2], seed=99)
    ref.pair(1, "dash-1")
    for _ in range(23):
        if ref.auto_move() is None:
            dashboards_play(ref)
    snap = ref.game.snapshot()
    ref.close()
    again = F5Referee.open(path)
    assert again.game.snapshot() == snap and again.pairs == {1: "dash-1"} and again.bots == [2]
    play_out(again)
    again.close()
    whole = Game.replay(F5Referee.open(path).game.events)
    assert whole.over and whole.snapshot()["events"][:24] == snap["events"]


def test_a_dashboard_restarted_without_its_view_gets_it_again(tmp_path):
    ref = F5Referee.new(str(tmp_path / "g.db"), [0], seed=1)
    ref.pair(0, "d")
    ((_, _, _, view),) = ref.take_commands()
    assert ref.reconcile(0, {"game": "f5", "k": view["k"], "n": 12}) == 0
    assert ref.reconcile(0, {"speed": 0, "tyre": 0}) == 1  # a Formula 1 snapshot: it lost its hand
    assert ref.take_commands()[0][3]["hand"] == ref.game.hand(0)


def test_bad_setups_write_nothing(tmp_path):
    path = tmp_path / "g.db"
    with pytest.raises(RuleError):
        F5Referee.new(str(path), [], seed=1)
    with pytest.raises(RuleError):
        F5Referee.new(str(path), [0], bots=[1], seed=1)
    assert not path.exists()
    with pytest.raises(LogError):
        F5Referee.open(str(path))
    f1 = tmp_path / "f1.db"
    from companion.eventlog import EventLog

    EventLog(str(f1)).append({"t": "game", "game": "f1"})
    with pytest.raises(LogError):
        F5Referee.open(str(f1))


def test_face_down_card_is_not_visible(tmp_path):
    ref = F5Referee.new(str(tmp_path / "g.db"), [0, 1, 2, 3, 4], bots=[0, 1, 2, 3, 4], seed=2)
    car = ref.game.to_move()
    race = [c for c in ref.game.hand(car) if c < 70]
    ref.bots.remove(car)
    ref.pair(car, "d")
    ref.on_dashboard_event(car, "f5pit", {"card": race[0], "d": [], "k": len(ref.game.events)})
    assert ref.table()["columns"][ref.game.position(car)][-1] == PIT_SIDE
    assert race[0] not in [e for col in ref.table()["columns"] for e in col]
    assert ref.game.events[-1] == [PIT, car, race[0], []]


def test_a_dashboard_paired_before_the_start_waits_and_its_move_is_not_the_games(tmp_path):
    """On the pairing screen a phone or Pico is paired and gets its hand, but no turn: its view says the game waits
    for the table's Start, and a move it sends meanwhile is refused (its view sent again), never applied later."""
    ref = F5Referee.new(str(tmp_path / "g.db"), [0, 1, 2, 3, 4], seed=7)  # every car a player's
    first = ref.game.to_move()
    ref.hold()  # the table on its pairing screen
    ref.pair(first, "dash-a")
    views = [args for car, _cid, name, args in ref.take_commands() if car == first and name == "f5"]
    assert views and views[-1]["turn"] == 0 and views[-1]["wait"] == 1 and views[-1]["hand"] == ref.game.hand(first)
    assert not ref.tablet_plays()
    card = ref.game.hand(first)[0]
    refused = ref.on_dashboard_event(first, "f5race", {"card": card, "k": len(ref.game.events)})
    assert isinstance(refused, RuleError) and refused.code == "not_started"
    assert len(ref.game.events) == 1  # the setup only: nothing played
    again = [args for car, _cid, name, args in ref.take_commands() if car == first and name == "f5"]
    assert again and again[-1]["wait"] == 1 and again[-1]["turn"] == 0
    ref.start()  # the table's Start
    assert len(ref.game.events) == 1  # nothing sent before it is applied at the start
    started = [args for car, _cid, name, args in ref.take_commands() if car == first and name == "f5"]
    assert started and started[-1]["turn"] == 1 and "wait" not in started[-1]
    assert ref.on_dashboard_event(first, "f5race", {"card": card, "k": len(ref.game.events)}) is None
    assert len(ref.game.events) == 2
