"""Where Back leads (companion/navigation.py), without a window: one back stack for the shell and both games."""

from companion.navigation import BackStack


def test_back_returns_to_the_screen_each_was_opened_from_down_the_chain():
    nav = BackStack()
    nav.opened("saved", "games")  # Saved games from the game choice
    nav.opened("results", "saved")  # a finished race's results from there
    nav.opened("history", "results")  # its history from the results
    assert [nav.back_from(s) for s in ("history", "results", "saved")] == ["results", "saved", "games"]


def test_a_screen_shown_over_itself_keeps_its_way_back():
    nav = BackStack()
    nav.opened("history", "race")
    nav.opened("history", "history")  # History tapped again on History
    assert nav.back_from("history") == "race"


def test_a_screen_never_opened_from_another_leads_to_its_default():
    nav = BackStack()
    assert nav.back_from("f5results", "f5table") == "f5table" and nav.back_from("results") is None


def test_both_games_and_the_shell_share_it_and_a_closed_game_forgets_its_screens():
    nav = BackStack()
    nav.opened("saved", "games")
    nav.opened("f5results", "saved")  # a finished Formula 5 game's results, from Saved games
    nav.opened("f5history", "f5results")
    nav.forget("f5history", "f5results")  # that game closed, another opened
    assert nav.back_from("f5results", "f5table") == "f5table" and nav.back_from("f5history", "f5table") == "f5table"
    assert nav.back_from("saved") == "games"  # the shell's own way back is kept
    nav.clear()  # a race left: every way back starts again
    assert nav.back_from("saved") is None
