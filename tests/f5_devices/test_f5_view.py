"""What the tablet's Formula 5 screens show, without a window: the setup's roles, the rows by position, the
last turn in words (a pit stop never says which card went face down), the cars to slide after an overtake."""

import pytest

from companion.f5.view import F5Form, F5Table, cards_markup, game_in_progress, new_game_path
from shared_rules.errors import RuleError
from shared_rules.f5.cards import PIT_SIDE


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


def test_table_rows_last_turn_and_slides(tmp_path):
    form = F5Form()
    form.roles = ["bot", "bot", "none", "bot", "none"]
    ref = form.start(new_game_path(str(tmp_path)), seed=12)
    table = F5Table(ref)
    overtakes = pits = 0
    while not ref.game.over:
        old = list(ref.game.order)
        result = ref.auto_move()
        rows = table.rows()
        assert [r["car"] for r in rows] == ref.game.order and [r["pos"] for r in rows] == [0, 1, 2, 3, 4]
        for r in rows:
            assert r["speed"] == ref.game.speed(r["car"]) and r["who"] in ("bot", "no player")
            assert len(r["cards"].split()) == len(r["column"])
        moved = table.moved(old)
        if result["overtaken"]:
            overtakes += 1
            assert moved[result["car"]][1] < moved[result["car"]][0]
            assert "overtakes" in table.last_text()
        else:
            assert moved == {}
        if ref.last["pit"]:
            pits += 1
            assert table.last_text().endswith("makes a pit stop: speed 0")
    assert overtakes and pits
    assert table.status().startswith("The race is over: %s wins" % ref.names()[ref.game.winner()])
    path = ref.log.path
    ref.close()
    assert game_in_progress(str(tmp_path)) is None  # over: nothing to resume
    assert path.endswith(".db")


def test_columns_in_colour():
    assert cards_markup([0, PIT_SIDE]) == "[b][color=d81e1e]R[/color][/b] [color=888888]P[/color]"
