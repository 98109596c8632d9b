"""Where Back leads, for the whole app: the shell's screens (game choice, saved games, pairing) and both games'.

Each screen that can be opened from several places remembers the one it was opened from; Back from it returns
there, and from that one to where it was opened from, and so on: one back stack, read through the screens. The
screens that always lead to the same place (the race, a game's setup) need no entry: the app's back() knows them."""


class BackStack:
    def __init__(self):
        self._came_from = {}  # screen -> the screen Back from it returns to

    def opened(self, screen, came_from):
        """`screen` is being shown over `came_from` (showing a screen again over itself changes nothing)."""
        if came_from != screen:
            self._came_from[screen] = came_from

    def back_from(self, screen, default=None):
        """The screen Back from `screen` returns to (`default` if it was never opened from another)."""
        return self._came_from.get(screen, default)

    def forget(self, *screens):
        """Those screens were closed with their game: Back from them leads to their defaults again."""
        for screen in screens:
            self._came_from.pop(screen, None)

    def clear(self):
        """A game closed: every screen's way back starts again."""
        self._came_from.clear()
