"""A whole Formula 5 game for two players played through the real app's window: both dashboards on
the tablet, each turn its player's finger held on the covered screen and its buttons tapped; Back, double taps
on the buttons that change the screen, the app killed (SIGKILL) with a hand open and continued from the setup
to the end and its Results. The scenarios are in tests/companion/whole_games.py."""

import pytest
from tests.companion.test_whole_race_window import halves

pytestmark = [pytest.mark.whole, pytest.mark.window]


def test_a_whole_formula5_game_through_the_window_with_back_double_taps_and_a_kill(tmp_path):
    before, after = halves(tmp_path, "f5_first_half", "f5_second_half", seed=55)
    assert before["choose_twice"] == ["f5setup", "games"]  # Back from Formula 5's setup, nothing asked
    assert before["roles"] == ["dashboard", "dashboard", "none", "none", "none"]
    assert before["start_twice"] == {"screen": "pairing", "games": 1}  # a double tap: one game, its pairing
    assert before["placed"] == {"pairs": {"0": "f5-virtual-1", "1": "f5-virtual-2"}, "places": ["tablet", "tablet"]}
    # Paired before Start: told to wait for it, no turn anyone's; Start gives the first mover its turn
    assert before["waiting"]["held"] is True and before["waiting"]["views"] == {"0": [1, 0], "1": [1, 0]}
    started = before["started"]
    assert started["held"] is False and all(wait == 0 for wait, _turn in started["views"].values())
    assert {car: turn for car, (_wait, turn) in started["views"].items()} == {
        str(c): int(c == started["to_move"]) for c in (0, 1)}
    assert before["back"] == ["f5history", "Leave this Formula 5 game? It stays saved.", "f5table", True]
    # Every move the buttons made was the one its player meant, and no question was left open.
    moves = [e for e in before["log"] + after["log"] if e[0] != "held"]
    assert len(moves) == 24 and all(same and not asked for _car, _kind, same, asked in moves), moves
    # The kill: the same game, from the setup's Continue.
    assert after["resume"][0] == "Continue the Formula 5 game"
    assert after["events_resumed"] == before["events"]
    over = after["over"]
    assert over["over"] is True and sorted(over["positions"]) == [0, 1, 2, 3, 4]
    assert len(after["events"]) == 1 + 12 * 5  # the setup, then twelve rounds of five cars
    winner = over["winner"]
    for car, text in over["dashboards"].items():
        assert text.startswith("RACE OVER") and ("YOU WIN" in text) == (int(car) == winner), (car, text)
    assert after["results"]["screen"] == "f5results" and after["results"]["places"] == 5
    assert after["results"]["headline"].endswith("wins the race")
    asked, screen, closed, resume_off, note = after["left"]
    assert asked.startswith("Leave this Formula 5 game?")  # Back asked (and Back again kept the table)
    assert screen == "games" and closed is True and resume_off is True  # Leave double tapped: left, once
    assert note == "The last Formula 5 game is over: its results are in Saved games"
