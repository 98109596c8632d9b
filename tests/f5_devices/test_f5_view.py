"""What the tablet's Formula 5 screens show, without a window: the setup's roles, the rows by position, each
move in words (a pit stop never says which card went face down), the cars to slide after an overtake; a column
laid out as overlapped cards, the queue of messages to the table, the history and the results."""

import pytest

from companion.f5.view import (
    Announcer,
    F5Form,
    F5Table,
    Moves,
    card_faces,
    card_layout,
    game_in_progress,
    history_rounds,
    move_text,
    new_game_path,
    results,
)
from shared_rules.errors import RuleError
from shared_rules.f5.cards import COLOUR_NAMES, FACE_DOWN, PIT_SIDE


def test_setup_roles(tmp_path):
    form = F5Form()
    assert form.players() == [0, 1, 2, 3, 4] and form.bots() == [1, 2, 3, 4]  # solo: one dashboard, bots
    assert form.cycle(0) == "bot" and form.cycle(0) == "none" and form.cycle(0) == "dashboard"
    for car in range(1, 5):
        form.cycle(car)  # bot -> none
    form.cycle(0)
    form.cycle(0)
    with pytest.raises(RuleError):
        form.start(str(tmp_path / "g.db"), seed=1)  # nobody plays


def test_table_rows_moves_in_words_and_slides(tmp_path):
    form = F5Form()
    form.roles = ["bot", "bot", "none", "bot", "none"]
    ref = form.start(new_game_path(str(tmp_path)), seed=12)
    table = F5Table(ref)
    moves = Moves(ref)
    overtakes = pits = 0
    while not ref.game.over:
        old = list(ref.game.order)
        hands = [ref.game.hand(c) for c in range(5)]
        result = ref.auto_move()
        rows = table.rows()
        assert [r["car"] for r in rows] == ref.game.order and [r["pos"] for r in rows] == [0, 1, 2, 3, 4]
        for r in rows:
            assert r["speed"] == ref.game.speed(r["car"]) and r["who"] in ("bot", "no player")
        moved = table.moved(old)
        (move,) = moves.update()
        text = move_text(move, ref.names())
        assert text.startswith(ref.names()[result["car"]])
        if result["overtaken"]:
            overtakes += 1
            assert moved[result["car"]][1] < moved[result["car"]][0]
            assert "overtakes" in text or "passes" in text
        else:
            assert moved == {}
        if ref.last["pit"]:
            pits += 1
            played = ref.game.events[-1][2]  # a pit stop card, or a race card face down: secret either way
            assert " pit stop (speed 0) and " in text and not any(c in text for c in COLOUR_NAMES)
            assert played in hands[result["car"]]
    assert overtakes and pits
    assert table.status().startswith("The race is over: %s wins" % ref.names()[ref.game.winner()])
    path = ref.log.path
    ref.close()
    assert game_in_progress(str(tmp_path)) is None  # over: nothing to resume
    assert path.endswith(".db")


def test_a_column_as_cards():
    # red, yellow, a stop's back, red: the speed counts the reds (the colour of the last face-up card)
    faces = card_faces([0, 14, PIT_SIDE, 1])
    assert [f["colour"] for f in faces] == ["red", "yellow", None, "red"]
    assert [f["letter"] for f in faces] == ["R", "Y", "P", "R"]
    assert [f["counts"] for f in faces] == [True, False, False, True]
    assert card_faces([3 + FACE_DOWN])[0]["colour"] is None  # never the face of a card played face down


@pytest.mark.parametrize("n", [1, 2, 5, 13])
@pytest.mark.parametrize("width,height", [(290, 40), (200, 40), (800, 120), (60, 20)])
def test_every_card_keeps_a_strip_in_view(n, width, height):
    least = 17
    cw, ch, step = card_layout(n, width, height, least)
    assert ch == height and cw >= least
    if n > 1:
        assert step >= least  # "overlapped, so that all race cards are always visible"
        assert step <= cw  # overlapped, or at most side by side
    if (n - 1) * least + least <= width:
        assert (n - 1) * step + cw <= width + 1e-6  # all of them inside the box when they can be


def test_messages_wait_their_turn():
    a = Announcer()
    a.push("Blue overtakes Red: speed 3 beats 2", 3.0, "news", 3)
    a.push("Red plays yellow: speed 1", 1.5, "plain", 0)
    assert a.tick(0.02)[0].startswith("Blue overtakes") and a.busy()
    assert a.tick(2.9) is None  # the overtake stays up its 3 s: the next move waits
    assert a.tick(0.2)[0].startswith("Red plays") and a.busy()
    assert a.tick(1.6) is None and not a.busy()  # the last one stays up until another comes
    assert a.current[0].startswith("Red plays")
    for k in range(10):  # a burst: the table is told the latest ones, not 30 s late
        a.push("move %d" % k, 3.0, "news")
    assert len(a.waiting) == Announcer.MAX_WAITING and a.waiting[-1][0] == "move 9"


def test_history_and_results(tmp_path):
    form = F5Form()
    form.roles = ["none", "bot", "none", "bot", "none"]
    ref = form.start(new_game_path(str(tmp_path)), seed=3)
    while not ref.game.over:
        ref.auto_move()
    moves = Moves(ref)
    moves.update()
    assert [m["n"] for m in moves.moves] == list(range(1, len(ref.game.events)))  # every move, once
    rounds = history_rounds(moves.moves, ref.names())
    assert [r for r, _lines in rounds] == list(range(12, 0, -1))  # the latest round first
    assert sum(len(lines) for _r, lines in rounds) == len(ref.game.events) - 1
    head, rule, rows = results(ref, moves.moves)
    winner = ref.names()[ref.game.winner()]
    assert head == "%s wins the race" % winner and rule.startswith("The best placed player wins.")
    assert [r["car"] for r in rows] == ref.game.order and [r["place"] for r in rows] == [1, 2, 3, 4, 5]
    players = [r for r in rows if r["player_place"] is not None]
    assert [r["player_place"] for r in players] == [1, 2] and players[0]["name"] == winner
    assert all(r["who"] in ("bot", "no player") for r in rows)
    for r in rows:  # what decided each place: the last overtake the car made or suffered
        assert r["why"].startswith(("1st", "2nd", "3rd", "4th", "5th")) and "since round" in r["why"], r
