"""The saved games list (companion/storage.py), without a window: every game of either kind, newest first, read
afresh at every call; a finished race is finished, a damaged save is listed with its error, a game can be deleted;
and a game opened after another one shows its own table, never the other's. No file name in what is shown."""

import os
import sqlite3

import pytest

from companion import storage
from companion.f1 import view as f1_view
from companion.f5.referee import F5Referee
from companion.f5.view import new_game_path as f5_game_path
from companion.f1.referee import Referee

from tests.companion.test_f1_view import race_to_the_finish


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("F1_COMPANION_DATA", str(tmp_path / "data"))
    return str(tmp_path / "data")


def new_game(names, when, seed=1):
    path = storage.new_game_path()
    ref = Referee.new(path, names, 3, seed=seed)
    ref.close()
    for p in (path, path + "-wal"):
        if os.path.exists(p):
            os.utime(p, (when, when))
    return path


def test_every_saved_game_newest_first_and_fresh_at_every_call(data):
    assert storage.saved_games(data) == []
    old = new_game(["Ann", "Bob"], 1_000_000)
    f5 = f5_game_path(data)
    F5Referee.new(f5, [0, 1, 2], bots=[2], seed=3).close()
    os.utime(f5, (2_000_000, 2_000_000))
    listed = storage.saved_games(data)
    assert [g.path for g in listed] == [f5, old]
    assert listed[0].game == "F5" and listed[1].game == "F1"
    assert sorted(listed[1].players) == ["Ann", "Bob"] and listed[1].round == 1 and not listed[1].finished
    # A new race after those: it is listed at once, on top.
    new = new_game(["Cat", "Dan", "Eve"], 3_000_000)
    listed = storage.saved_games(data)
    assert [g.path for g in listed] == [new, f5, old]
    # Played on: the list reads the change (round and last played), without being told.
    ref = Referee.open(new)
    ref.end_turn()
    ref.end_turn()
    ref.end_turn()
    ref.close()
    top = storage.saved_games(data)[0]
    assert top.path == new and top.round == 2 and top.last_played > 3_000_000


def test_the_list_shows_games_in_words_not_files(data):
    path = new_game(["Ann", "Bob"], 1_000_000)
    text = storage.saved_games(data)[0].text()
    assert text.startswith("Formula 1: ") and "Ann" in text and "round 1, in progress" in text
    assert os.path.basename(path) not in text and ".db" not in text


def test_a_finished_race_is_listed_finished_with_its_rounds(data, tmp_path):
    path = new_game(["Ann", "Bob"], 1_000_000)
    view = f1_view.RaceView(Referee.open(path))
    race_to_the_finish(view, over=1)
    view.ref.close()
    game = storage.saved_games(data)[0]
    assert game.finished and game.round == 3  # three rounds played, not "round 4"
    assert "finished after 3 rounds" in game.text()
    assert storage.game_in_progress() is None  # never offered as "in progress"


def test_a_finished_race_undone_is_in_progress_again(data):
    """A finished race whose last move is undone is "in progress" again, in the list and
    for Resume, after the app is gone; finished again, it is listed finished. Fails on the old main (no undo once
    the race was over)."""
    path = new_game(["Ann", "Bob"], 1_000_000)
    view = f1_view.RaceView(Referee.open(path))
    race_to_the_finish(view, over=1)
    view.ref.close()
    assert storage.saved_games(data)[0].finished
    view = f1_view.RaceView(Referee.open(path))  # opened from the list, to its results: Undo there
    assert view.undo() is not None
    view.ref.close()
    game = storage.saved_games(data)[0]
    assert not game.finished and game.round == 3 and "round 3, in progress" in game.text()
    assert storage.game_in_progress() == (path, None)
    view = f1_view.RaceView(Referee.open(path))
    view.end_turn()
    view.ref.close()
    assert storage.saved_games(data)[0].finished and storage.game_in_progress() is None


def test_a_damaged_save_is_listed_with_its_error_and_the_rest_still_work(data):
    good = new_game(["Ann", "Bob"], 1_000_000)
    bad = new_game(["Cat", "Dan"], 2_000_000)
    db = sqlite3.connect(bad)
    db.execute("UPDATE events SET crc = crc + 1 WHERE seq = 1")
    db.commit()
    db.close()
    junk = os.path.join(storage.games_dir(), "junk.db")
    with open(junk, "wb") as f:
        f.write(b"not a database at all" * 100)
    listed = {g.path: g for g in storage.saved_games(data)}
    assert listed[bad].error == "the game log is damaged at entry 1 (checksum)"
    assert "not a game log" in listed[junk].error and "junk" not in listed[junk].error
    assert "cannot be opened: " in listed[junk].text()
    assert listed[good].error == "" and sorted(listed[good].players) == ["Ann", "Bob"]


def test_delete_a_saved_game(data):
    keep = new_game(["Ann", "Bob"], 1_000_000)
    gone = new_game(["Cat", "Dan"], 2_000_000)
    storage.dashboards_dir(gone)
    assert storage.delete_saved_game(gone)
    assert [g.path for g in storage.saved_games(data)] == [keep]
    assert not os.path.exists(gone) and not os.path.exists(gone[:-3] + ".dash")
    with pytest.raises(ValueError):
        storage.delete_saved_game(os.path.join(data, "settings.json"))  # only saved games


def test_an_older_game_opened_after_a_new_race_shows_its_own_table(data):
    """Met at a table: Resume "opens an older game that then shows the newer game's status line and pit card"."""
    from shared_rules.f1.race import Race

    seed = next(s for s in range(3000) if Race(s, ["Cat", "Dan"], 3).pit_pile[0] == "IGNITION")
    older = new_game(["Ann", "Bob"], 1_000_000)
    newer = new_game(["Cat", "Dan"], 2_000_000, seed=seed)
    view = f1_view.RaceView(Referee.open(newer))
    view.set_speed(40)
    view.pit()
    assert view.pit_card_text() == "Faulty Ignition. Miss two moves."
    view.ref.close()
    listed = storage.saved_games(data)
    assert [g.path for g in listed] == [newer, older]
    again = f1_view.RaceView(Referee.open(listed[1].path))  # the older one, chosen from the list
    assert again.pit_card_text() == "" and again.announcements() == []
    assert "Cat" not in again.status_line() and "Dan" not in again.status_line()
    assert again.status_line().startswith("Round 1. ") and again.race.names[0] in again.status_line()
    again.ref.close()
    resumed = f1_view.RaceView(Referee.open(newer))  # and the newer one comes back as it was left
    assert resumed.pit_card_text() == "Faulty Ignition. Miss two moves."
    resumed.ref.close()
