"""The saved-games list reads every game on a thread of its own, so it can open a game's log the instant the
game is being created. Both connections then set the new log up; neither may fail for it. On the old code the
list's thread wrote the log's format row between the new game's check and its insert, and the new race failed
to start ("is not a game log (UNIQUE constraint failed: meta.key)"): once in some 150 starts under load, and in
a real-window test that started races straight after going back to the setup screen. Without a window, < 1 s."""

import sqlite3

from companion import eventlog, storage
from companion.eventlog import EventLog
from companion.f1.referee import Referee

_connect = sqlite3.connect


class _ListArrivesThen:
    """A connection that, just before it writes the log's format row, lets another EventLog open the same file,
    as the saved-games thread does at that instant."""

    def __init__(self, path, **kw):
        self.db = _connect(path, **kw)
        self.path = path
        self.done = False

    def execute(self, sql, *args):
        if not self.done and sql.startswith("INSERT") and "meta" in sql:
            self.done = True
            other = EventLog(self.path)  # the list's thread, in full, between this connection's steps
            other.close()
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_new_game_starts_while_the_saved_games_list_opens_it(tmp_path, monkeypatch):
    monkeypatch.setenv("F1_COMPANION_DATA", str(tmp_path / "data"))
    path = storage.new_game_path()
    made = []

    def connect(p, **kw):  # the new game's own connection arrives first; the list's is a plain one
        made.append(p)
        return _ListArrivesThen(p, **kw) if len(made) == 1 else _connect(p, **kw)

    monkeypatch.setattr(eventlog.sqlite3, "connect", connect)
    ref = Referee.new(path, ["Ann", "Bob"], 3, seed=1)
    ref.set_speed(40)
    ref.end_turn()
    ref.close()
    monkeypatch.setattr(eventlog.sqlite3, "connect", _connect)
    again = Referee.open(path)
    assert again.race.round == 1 and again.race.seat == 1
    again.close()
