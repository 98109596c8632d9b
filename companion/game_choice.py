"""The game choice: the first screen, and where leaving either game lands (Formula 1, Formula 5, Saved games).

Neither game sits on the other's setup: each game's setup is a screen of its own, opened from here. Continue
offers the game played last, whichever game it is, when it is still in progress: after a kill the app opens
here and the game in play is one tap away. Its look is companion/game_choice.kv; GameChoice, held by the app as
app.choice, reads the saved games (off the UI thread) and fills Continue.
"""

import os
import threading

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from companion import storage
from companion.saved_games import when_text

KV = os.path.join(os.path.dirname(__file__), "game_choice.kv")
NAME = "games"  # the screen's name
NOTHING_YET = "Nothing to continue yet: no game played here"  # beside Continue, dimmed, on a fresh install


class GameChoiceScreen(Screen):
    pass


def add_screen(sm):
    """The game choice, into the app's ScreenManager (its kv rules loaded first, after the theme's)."""
    if KV not in Builder.files:
        Builder.load_file(KV)
    sm.add_widget(GameChoiceScreen(name=NAME))


def continue_offer(found):
    """What Continue offers for the saved games `found` (newest first): (button words, note, path or None)."""
    if not found:
        return "Continue the last race", "", None
    newest = found[0]  # of either game: after a kill, the game played last is the one to continue
    f5 = newest.game == "F5"
    words = "Continue the Formula 5 game" if f5 else "Continue the last race"
    if newest.error:
        return words, "The last game cannot be resumed: %s" % newest.error, None
    if newest.finished:
        return words, "The last %s is over: its results are in Saved games" % (
            "Formula 5 game" if f5 else "race"), None
    note = "%s%s  ·  round %d  ·  %s" % (
        "Formula 5: " if f5 else "", ", ".join(newest.players), newest.round, when_text(newest.last_played))
    return words, note, newest.path


class GameChoice:
    """The game choice's logic: the saved games looked up, Continue filled and followed."""

    def __init__(self, app):
        self.app = app
        self.path = None  # the game Continue opens (None: nothing to continue)

    def look(self):
        """Read the saved games off the UI thread (SQLite reads), then fill Continue."""
        def look():
            found = storage.saved_games()  # both games'
            Clock.schedule_once(lambda _dt: self.found(found), 0)

        threading.Thread(target=look, daemon=True).start()

    def found(self, found):
        """Continue: the newest game if it is still in progress; Saved games says how many there are."""
        self.app.saved.games = found
        ids = self.app.screen(NAME).ids
        ids.saved.text = "Saved games (%d)" % len(found) if found else "Saved games"
        ids.resume.text, ids.resume_note.text, self.path = continue_offer(found)
        ids.resume.disabled = self.path is None
        if not found:  # dimmed: say why
            ids.resume_note.text = NOTHING_YET

    def resume(self):
        """Continue: the game played last, in its own game (Formula 1's race, or Formula 5's table)."""
        if self.path is not None:
            self.app.saved.open(self.path)
