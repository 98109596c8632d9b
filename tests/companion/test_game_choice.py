"""The game choice (companion/game_choice.py): the first screen and where leaving either game lands, with
Continue for the game played last, Formula 1 or Formula 5.

Continue's words are tested without a window; leaving Formula 5 and a kill during it in the real app, in a real
(offscreen) window, over two runs (tests/companion/appdriver.py)."""

import pytest
from companion.game_choice import continue_offer
from companion.storage import SavedGame
from tests.companion.test_app_window import killed, run

pytestmark = [pytest.mark.window]


def game(kind, finished=False, error="", players=("Ann", "Bob")):
    return SavedGame("/data/games/%s.db" % kind, kind, list(players), 4, 1_700_000_000, finished, error)


def test_continue_offers_the_game_played_last_whichever_game_it_is():
    words, note, path = continue_offer([game("F5"), game("F1")])
    assert (words, path) == ("Continue the Formula 5 game", "/data/games/F5.db")
    assert note.startswith("Formula 5: Ann, Bob  ·  round 4  ·  ")
    words, note, path = continue_offer([game("F1"), game("F5")])
    assert (words, path) == ("Continue the last race", "/data/games/F1.db") and note.startswith("Ann, Bob  ·  ")
    assert "F1.db" not in note and "F5" not in note  # words, not files


def test_nothing_to_continue_says_why():
    assert continue_offer([]) == ("Continue the last race", "", None)
    assert continue_offer([game("F5", finished=True), game("F1")]) == (
        "Continue the Formula 5 game", "The last Formula 5 game is over: its results are in Saved games", None)
    assert continue_offer([game("F1", finished=True)])[1:] == (
        "The last race is over: its results are in Saved games", None)
    assert continue_offer([game("F1", error="damaged at entry 2")])[1:] == (
        "The last game cannot be resumed: damaged at entry 2", None)


def test_leaving_formula5_lands_on_the_game_choice_and_a_kill_during_it_is_continued_at_first_sight(tmp_path):
    """Leaving Formula 5 landed on Formula 1's setup, and after a kill the app opened there too ("The last race
    is over", Continue dimmed). Now: Back on the Formula 5 table, Leave: the game choice, Continue offering that
    game; continued and killed (SIGKILL): the app opens on the game choice, Continue offering Formula 5 without
    a tap, and it goes on from where it was. (About 40 s.)"""
    data = tmp_path / "data"
    before = killed("f5_left_then_killed", tmp_path, data, seed=5, timeout=90)  # mid-game
    assert before["leave_asks"].startswith("Leave this Formula 5 game?")
    left = before["left"]
    assert left["screen"] == "games" and left["f5"] is False  # not Formula 1's setup
    assert left["resume"] == "Continue the Formula 5 game" and left["note"].startswith("Formula 5: ")
    after = run("first_sight", tmp_path, data, timeout=90)
    first = after["first"]
    assert first["screen"] == "games" and first["now"] == "games"  # opened on the game choice, nothing tapped
    assert first["resume"] == ["Continue the Formula 5 game", True] and first["note"].startswith("Formula 5: ")
    assert after["resumed"]["screen"] == "f5table" and after["resumed"]["events"] >= before["events"]
