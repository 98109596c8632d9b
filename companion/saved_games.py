"""The Saved games screen, both games': every game saved, newest first; Continue one, see a finished one's
results, delete one (asked first).

Its look is companion/saved_games.kv; SavedGames, held by the app as app.saved, fills it from the data folder
(companion/storage.py) and opens a game in the game it belongs to.
"""

import os
import time

from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion import storage

KV = os.path.join(os.path.dirname(__file__), "saved_games.kv")


class SavedGamesScreen(Screen):
    pass


class SavedGameRow(BoxLayout):
    """One saved game on the Saved games screen (laid out in saved_games.kv)."""

    path = StringProperty("")
    players = StringProperty("")
    detail = StringProperty("")
    state = StringProperty("")
    finished = BooleanProperty(False)
    error = StringProperty("")


def add_screen(sm):
    """The Saved games screen, into the app's ScreenManager (its kv rules loaded first, after the theme's)."""
    if KV not in Builder.files:
        Builder.load_file(KV)
    sm.add_widget(SavedGamesScreen(name="saved"))


def when_text(last_played):
    """A saved game's last play, as a person says it."""
    return time.strftime("%a %d %b, %H:%M", time.localtime(last_played)) if last_played else "?"


def detail_text(g):
    """What a saved game's row says under its players: how far it got, or how it ended, and when."""
    if g.error:
        return "Cannot be opened: %s" % g.error
    if g.finished and g.game == "F5" and g.players:
        # the row says how it ended, in the order they finished (Open shows its results)
        return "%s won  ·  then %s  ·  last played %s" % (
            g.players[0], ", ".join(g.players[1:]) or "nobody", when_text(g.last_played))
    if g.finished:
        return "%d rounds  ·  last played %s" % (g.round, when_text(g.last_played))
    return "round %d  ·  last played %s" % (g.round, when_text(g.last_played))


class SavedGames:
    """The Saved games screen's logic: the list read, a game opened in its own game, a game deleted."""

    def __init__(self, app):
        self.app = app
        self.games = []  # storage.SavedGame, newest first: the list last read (the game choice's too)

    def _ids(self):
        return self.app.screen("saved").ids

    def fill(self):
        ids = self._ids()
        games = storage.saved_games()
        self.games = games
        ids.games.clear_widgets()
        ids.saved_message.text = "" if games else "No saved games yet: every race is saved as it is played."
        for g in games:
            players = ("Formula 5: " if g.game == "F5" else "") + (", ".join(g.players) or "players unknown")
            row = SavedGameRow(path=g.path, players=players, detail=detail_text(g), state=g.label(),
                               finished=bool(g.finished), error=g.error or "")
            ids.games.add_widget(row)

    def open(self, path):
        """Continue a game in progress; a finished one opens to its results, never as in progress."""
        app = self.app
        game = next((g for g in self.games if g.path == path), None)
        if game is None or game.error:
            return
        if game.game == "F5":
            app.f5_open()
            if app.f5 is not None and game.finished:
                app.f5.open_results(path)  # its places and what decided them (companion/f5/screens.py)
            elif app.f5 is not None:
                app.f5.saved_path = path
                app.f5.resume()
            return
        if not game.finished:
            app.nav.clear()
            app.f1.resume(path)
            return
        if app.f1.open_file(path, self._ids().saved_message):
            app.show("results")

    def ask_delete(self, path):
        game = next((g for g in self.games if g.path == path), None)
        who = ", ".join(game.players) if game is not None and game.players else "this game"
        self.app.confirm("Delete the saved game of %s? It cannot be brought back." % who,
                         lambda: self.delete(path), yes="Delete")

    def delete(self, path):
        msg = self._ids().saved_message
        try:
            storage.delete_saved_game(path)
        except OSError as e:
            msg.text = "Could not delete it: %s" % e
            return
        self.fill()
        msg.text = "Deleted."
