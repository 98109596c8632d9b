"""The race screen's reading of companion.ui_logic.RaceView's turn model, in one place.

RaceView (branch i13-turn) tells which actions are live, with a token each (the turn and step it was shown
for), the 17 speed options with their costs, and the saved games (companion.storage). Where a RaceView or
storage without that model is running, these functions fall back to what the older presenter knows, so the
screens work either way; once the model is on main every fallback is dead code and goes.
"""

import os
import time
from collections import namedtuple

from companion import storage

ACTIONS = ("speed", "hold", "corner", "block", "pit", "lap", "finish", "card", "end_turn", "undo")
SPEEDS = tuple(range(0, 161, 20))

Action = namedtuple("Action", "live reason token")
SpeedOption = namedtuple("SpeedOption", "v live reason cost spins confirm")
SavedGame = namedtuple("SavedGame", "path game players round last_played finished error")


def actions(view):
    """{name: Action} for every name in ACTIONS."""
    if hasattr(view, "actions"):
        return view.actions()
    car = view.active_car()
    live = car is not None
    reason = "" if live else "the race is over"
    out = {name: Action(live, reason, None) for name in ACTIONS}
    out["speed"] = Action(live and not car.speed_set, "the speed is set" if live else reason, None)
    out["hold"] = Action(bool(view.hold_choices()), "", None)
    return out


def speed_options(view):
    """17 options, one for each speed 0..160 in steps of 20, always in that order."""
    if hasattr(view, "speed_options"):
        return list(view.speed_options())
    offered = set(view.speed_choices())
    return [SpeedOption(v, v in offered, "" if v in offered else "not allowed now", "", False, False) for v in SPEEDS]


def block_options(view):
    """The blocker's speeds, as SpeedOptions over 0..160."""
    if hasattr(view, "block_options"):
        return list(view.block_options())
    car = view.active_car()
    return [SpeedOption(v, car is not None and v != car.speed, "", "", False, False) for v in SPEEDS]


def call(fn, *args, token=None):
    """A doing method with the token its button was drawn with (when the model gives tokens)."""
    return fn(*args) if token is None else fn(*args, token=token)


def status_line(view):
    if hasattr(view, "status_line"):
        return view.status_line()
    race = view.race
    if race.game_over:
        return "The race is over"
    return "Round %d  ·  %d-lap race" % (race.round, race.laps)


def last_roll_text(view):
    if hasattr(view, "last_roll_text"):
        return view.last_roll_text()
    roll = view.last_roll
    return "" if roll is None else "%s: %s" % (roll["row"], roll["outcome"].upper())


def announcements(view):
    return list(view.announcements()) if hasattr(view, "announcements") else []


def over(view):
    return view.over() if hasattr(view, "over") else bool(view.race.game_over)


def saved_games():
    """[SavedGame] newest first (companion.storage.saved_games where it exists)."""
    if hasattr(storage, "saved_games"):
        return list(storage.saved_games(storage.games_dir()))
    from companion.referee.eventlog import LogError
    from companion.referee.referee import Referee

    out = []
    try:
        names = [n for n in os.listdir(storage.games_dir()) if n.endswith(".db")]
    except OSError:
        names = []
    for name in names:
        path = os.path.join(storage.games_dir(), name)
        when = os.path.getmtime(path)
        try:
            ref = Referee.open(path)
        except LogError as e:
            out.append(SavedGame(path, "Formula 1", [], 0, when, False, str(e)))
            continue
        try:
            race = ref.race
            out.append(SavedGame(path, "Formula 1", list(race.names), race.round, when, bool(race.game_over), ""))
        finally:
            ref.close()
    out.sort(key=lambda g: (g.last_played, g.path), reverse=True)
    return out


def delete_saved_game(path):
    if hasattr(storage, "delete_saved_game"):
        return storage.delete_saved_game(path)
    os.remove(path)
    return None


def variant_text(flag, fallback):
    for module in ("companion.ui_logic", "companion.storage"):
        import importlib

        fn = getattr(importlib.import_module(module), "variant_text", None)
        if fn is not None:
            return fn(flag)
    return fallback


def when_text(last_played):
    """A saved game's last play, as a person says it."""
    if isinstance(last_played, (int, float)):
        return time.strftime("%a %d %b, %H:%M", time.localtime(last_played))
    return str(last_played or "")
