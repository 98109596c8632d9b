"""What the Formula 5 screens show and do, without Kivy (the screens in companion/f5/screens.py only draw this).

F5Form is the setup: for each of the five cars, who plays it (a dashboard, a bot, or nobody: the car then
plays the top card of the deck). F5Table is the table: the five columns by position, each car's speed, who is
to play, the last turn in words and the overtakes to animate. Only the engine's public view is used: no hand
is ever shown on the tablet.
"""

import glob
import os
import time

from shared_rules.errors import RuleError
from shared_rules.f5.cards import CAR_NAMES, CARS, PIT_SIDE, colour

from companion import theme
from companion.f5.referee import F5Referee
from companion.eventlog import LogError

ROLES = ("dashboard", "bot", "none")
ROLE_TEXT = {"dashboard": "Player with a dashboard", "bot": "Bot", "none": "No player (plays the deck)"}
LETTERS = "RYGBW"
WHO_TEXT = {"deck": "no player", "bot": "bot", "dashboard": "dashboard", "waiting": "needs a dashboard"}


def games_dir(data_dir):
    path = os.path.join(data_dir, "f5-games")
    os.makedirs(path, exist_ok=True)
    return path


def new_game_path(data_dir):
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = os.path.join(games_dir(data_dir), "f5-%s.db" % stamp)
    n = 1
    while os.path.exists(path):
        n += 1
        path = os.path.join(games_dir(data_dir), "f5-%s-%d.db" % (stamp, n))
    return path


def game_in_progress(data_dir):
    """(path, None) for the newest Formula 5 game if it is not over, (path, message) if it cannot be opened."""
    paths = glob.glob(os.path.join(games_dir(data_dir), "*.db"))
    if not paths:
        return None
    path = max(paths, key=lambda p: (os.path.getctime(p), p))
    try:
        ref = F5Referee.open(path)
    except LogError as e:
        return path, str(e)
    try:
        over = ref.game.over
    finally:
        ref.close()
    return None if over else (path, None)


class F5Form:
    """The Formula 5 setup: a solo player keeps one dashboard and fills the other seats with bots."""

    def __init__(self):
        self.roles = ["dashboard", "bot", "bot", "bot", "bot"]
        self.names = None  # the cars' names (None: their colours)

    def cycle(self, car):
        self.roles[car] = ROLES[(ROLES.index(self.roles[car]) + 1) % len(ROLES)]
        return self.roles[car]

    def players(self):
        return [c for c in range(CARS) if self.roles[c] != "none"]

    def bots(self):
        return [c for c in range(CARS) if self.roles[c] == "bot"]

    def start(self, path, seed=None):
        """A new game saved at `path`. RuleError with the message to show (e.g. nobody plays)."""
        if not self.players():
            raise RuleError("bad_setup", "At least one car needs a player (a dashboard or a bot)")
        return F5Referee.new(path, self.players(), bots=self.bots(), names=self.names, seed=seed)


def entry_text(entry):
    """A column card as the table shows it: its colour's letter, or P for a card played pit stop side up."""
    return "P" if entry == PIT_SIDE else LETTERS[colour(entry)]


def cards_markup(column):
    """A column for a Kivy label with markup: each card's letter in its colour, a card's back in grey."""
    out = []
    for e in column:
        if e == PIT_SIDE:
            out.append("[color=888888]P[/color]")
        else:
            r, g, b, _a = theme.CAR_RGBA[CAR_NAMES[colour(e)]]
            out.append(
                "[b][color=%02x%02x%02x]%s[/color][/b]" % (int(r * 255), int(g * 255), int(b * 255), LETTERS[colour(e)])
            )
    return " ".join(out)


class F5Table:
    def __init__(self, ref):
        self.ref = ref

    def rows(self):
        """One per position, 1st first: the car, its column (as the table sees it), its speed, who plays it."""
        t = self.ref.table()
        out = []
        for pos in range(CARS):
            car = t["order"][pos]
            out.append(
                {
                    "pos": pos,
                    "car": car,
                    "name": t["names"][car],
                    "colour": CAR_NAMES[car],
                    "speed": t["speeds"][car],
                    "stopped": t["stopped"][car],
                    "column": list(t["columns"][pos]),
                    "cards": " ".join(entry_text(e) for e in t["columns"][pos]),
                    "markup": cards_markup(t["columns"][pos]),
                    "who": WHO_TEXT[self.ref.controller(car)],
                    "hand": t["hand_sizes"][car],
                    "to_move": t["to_move"] == car,
                }
            )
        return out

    def status(self):
        t = self.ref.table()
        if t["over"]:
            w = t["winner"]
            ahead = t["order"].index(w) > 0  # a car without a player finished ahead: it cannot win
            return "The race is over: %s wins%s" % (t["names"][w], " (the best placed player)" if ahead else "")
        car = t["to_move"]
        who = self.ref.controller(car)
        return "Round %d of 12: %s to play (%s)" % (t["round"], t["names"][car], WHO_TEXT[who])

    def last_text(self):
        """The last turn in words (public: a pit stop never says which card went face down)."""
        last = self.ref.last
        if not last:
            return ""
        names = self.ref.names()
        who = names[last["car"]]
        if last["pit"]:
            return "%s makes a pit stop: speed 0" % who
        text = "%s plays: speed %d" % (who, last["speed"])
        if last["overtaken"]:
            text += ", overtakes " + " and ".join(names[c] for c in last["overtaken"])
        return text

    def moved(self, old_order):
        """Cars whose place changed since `old_order`: {car: (old position, new position)}, for the animation."""
        order = self.ref.game.order
        return {
            car: (old_order.index(car), order.index(car)) for car in order if old_order.index(car) != order.index(car)
        }


def saved_text(path):
    """The game in progress as the setup screen names it: its round and when it was last played (no file name)."""
    try:
        ref = F5Referee.open(path)
    except LogError as e:
        return str(e)
    try:
        t = ref.table()
        players = len(ref.players or [])
    finally:
        ref.close()
    return "%d players, round %d of 12, last played %s" % (
        players, t["round"], time.strftime("%d %b %H:%M", time.localtime(os.path.getmtime(path))))
