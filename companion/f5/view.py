"""What the Formula 5 screens show and do, without Kivy (the screens in companion/f5/screens.py only draw this).

F5Form is the setup: for each of the five cars, who plays it (a dashboard, a bot, or nobody: the car then
plays the top card of the deck). F5Table is the table: the five columns by position, each car's speed, who is
to play, the last turn in words and the overtakes to animate. `card_faces` and `card_layout` lay a column out
as the rulebook does (overlapped, every card visible); `Moves` is the game's public history (what everyone at
the table saw), `Announcer` the queue of what the table is told, each message shown long enough to read, and
`results` the places of a finished game and what decided them. Only public facts are used: no hand is ever
shown on the tablet.
"""

import glob
import os
import time

from shared_rules.errors import RuleError
from shared_rules.f5.cards import CAR_NAMES, CARS, COLOUR_NAMES, PIT_SIDE, colour, is_face_up_race
from shared_rules.f5.game import DRIVE, PIT, Game

from companion import theme
from companion.f5.referee import F5Referee
from companion.eventlog import LogError

ROLES = ("dashboard", "bot", "none")
ROLE_TEXT = {"dashboard": "Player with a dashboard", "bot": "Bot", "none": "No player (plays the deck)"}
LETTERS = "RYGBW"
WHO_TEXT = {"deck": "no player", "bot": "bot", "dashboard": "dashboard", "waiting": "needs a dashboard"}
ROW_WHO = {"deck": "no player", "bot": "bot", "dashboard": "dashboard", "waiting": "no dashboard"}  # under a name
PLACES = ("1st", "2nd", "3rd", "4th", "5th")
MIN_TEXT_PX = 16  # no text under 16 px on the 7-inch 800x480 display, read at arm's length


def font(size, scale):
    """A type-scale size in pixels for this window (companion.theme), never under MIN_TEXT_PX."""
    return max(MIN_TEXT_PX, theme.font(size, scale))


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
                    "who": WHO_TEXT[self.ref.controller(car)],
                    "row_who": ROW_WHO[self.ref.controller(car)],
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
            return "The race is over: %s wins%s" % (t["names"][w], " (best placed player)" if ahead else "")
        car = t["to_move"]
        who = self.ref.controller(car)
        return "Round %d of 12: %s to play (%s)" % (t["round"], t["names"][car], WHO_TEXT[who])

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


# ---- a column as cards ------------------------------------------------------------------------------------

def card_faces(column, counted_colour=None):
    """A column (public entries, first played first) as the cards the tablet draws: for each, its colour's name
    (None for a card pit stop side up, drawn as its back), its letter, and whether it counts in the speed (a
    face-up card of the colour of the last face-up card: the rulebook's count)."""
    last = None
    for e in column:
        if is_face_up_race(e):
            last = colour(e)
    out = []
    for e in column:
        if e == PIT_SIDE or not is_face_up_race(e):
            out.append({"colour": None, "letter": "P", "counts": False})
        else:
            c = colour(e)
            out.append({"colour": COLOUR_NAMES[c], "letter": LETTERS[c], "counts": c == last})
    return out


CARD_RATIO = 0.7  # a card's width to its height, as a playing card
OPEN_STEP = 0.75  # with room to spare, each card shows this much of its width under the next one


def card_layout(n, width, height, least_step):
    """Where n overlapped cards go in a width x height box: (card width, card height, step), the k-th card's
    left edge at k * step. Each card keeps at least `least_step` of itself in view (the rulebook's "overlapped,
    so that all race cards are always visible"): if the box is too narrow for that, the cards get narrower
    before the strips do."""
    ch = max(1.0, height)
    cw = max(ch * CARD_RATIO, least_step / OPEN_STEP)  # a low row's cards get wider: each strip still shows
    cw = max(1.0, min(cw, width))
    if n <= 1:
        return cw, ch, 0.0
    step = min(cw * OPEN_STEP, (width - cw) / (n - 1))
    if step < least_step:
        step = least_step
        cw = max(least_step, min(cw, width - (n - 1) * step))
    return cw, ch, step


# ---- what the table saw: the moves, in words --------------------------------------------------------------

def _names_list(names, cars):
    names = [names[c] for c in cars]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class Moves:
    """The game's public history: each move as the table saw it, made by replaying the log's events on a copy
    of the game (only what was played face up, speeds, places and how many cards a pit stop changed are kept;
    never a hand, a drawn card or a card played face down)."""

    def __init__(self, ref):
        self.ref = ref
        self.moves = []
        self._game = None

    def update(self):
        """The moves made since the last call (the log only grows), in order."""
        events = self.ref.game.events
        if self._game is None:
            self._game = Game.replay(events[:1])
        new = []
        while len(self._game.events) < len(events):
            new.append(self._apply(events[len(self._game.events)]))
        self.moves.extend(new)
        return new

    def _apply(self, event):
        g = self._game
        car = event[1]
        before = [g.speed(c) for c in range(CARS)]
        stopped = list(g.stopped)
        pos_before = g.position(car)
        rnd = g.round
        result = g.apply(event)
        kind = event[0]
        move = {
            "n": len(g.events) - 1,
            "round": rnd,
            "car": car,
            "kind": kind,
            "colour": None if kind == PIT else COLOUR_NAMES[colour(result["card"])],
            "speed": result["speed"],
            "overtaken": list(result["overtaken"]),
            "beaten": [before[c] for c in result["overtaken"]],
            "in_pits": [stopped[c] for c in result["overtaken"]],
            "changed": len(event[3]) if kind == PIT else 0,
            "from": pos_before,
            "to": g.position(car),
            "ahead": None,  # not passed: the car still ahead, and its speed (a race side turn)
            "ahead_speed": None,
            "round_over": result["round_over"],
            "over": result["over"],
        }
        if kind != PIT and not result["overtaken"] and pos_before > 0:
            ahead = g.order[pos_before - 1]
            move["ahead"], move["ahead_speed"] = ahead, before[ahead]
        return move


def move_text(move, names):
    """A move in words, as the table is told it: "Blue overtakes Red: speed 3 beats 2"."""
    text = _move_words(move, names)
    return text + "; the race is over" if move["over"] else text


def _move_words(move, names):
    who = names[move["car"]]
    if move["kind"] == PIT:
        n = move["changed"]
        changed = "keeps its hand" if n == 0 else "changes %d card%s" % (n, "" if n == 1 else "s")
        return "%s makes a pit stop (speed 0) and %s" % (who, changed)
    played = "%s plays %s" % (who, move["colour"])
    if move["kind"] == DRIVE:
        played = "%s (no player) draws %s" % (who, move["colour"])
    passed = move["overtaken"]
    if passed and all(move["in_pits"]):
        return "%s: speed %d, passes %s in the pits" % (played, move["speed"], _names_list(names, passed))
    if passed:
        return "%s overtakes %s: speed %d beats %d" % (who, names[passed[0]], move["speed"], move["beaten"][0])
    if move["ahead"] is None:
        return "%s: speed %d, still leads" % (played, move["speed"])
    return "%s: speed %d, not more than %s's %d" % (played, move["speed"], names[move["ahead"]],
                                                   move["ahead_speed"])


def is_news(move):
    """An overtake, a pit stop or the end: the table is told these long enough to read them."""
    return bool(move["overtaken"]) or move["kind"] == PIT or move["over"]


def history_rounds(moves, names):
    """The history screen's lines: [(round, [(car, text, news)])], the latest round first (its latest move
    first), so the newest is where the eye lands."""
    rounds = {}
    for m in moves:
        rounds.setdefault(m["round"], []).append((m["car"], move_text(m, names), is_news(m)))
    return [(r, list(reversed(rounds[r]))) for r in sorted(rounds, reverse=True)]


# ---- what the table is told, one message at a time --------------------------------------------------------

class Announcer:
    """Messages to the table, queued: each stays up for its own time before the next replaces it (an overtake
    is not wiped by the next car's turn). So that a burst of moves (a resumed link delivering several) cannot
    make the table lag far behind, at most MAX_WAITING messages wait, the oldest dropped first: the history
    keeps every move."""

    MAX_WAITING = 6

    def __init__(self):
        self.current = None  # (text, hold seconds, tone, car)
        self.shown_for = 0.0
        self.waiting = []

    def push(self, text, hold, tone="plain", car=None):
        self.waiting.append((text, hold, tone, car))
        del self.waiting[:-self.MAX_WAITING]

    def tick(self, dt):
        """Time passes; returns the message just put up (or None when the shown one stays)."""
        self.shown_for += dt
        if self.waiting and (self.current is None or self.shown_for >= self.current[1]):
            self.current = self.waiting.pop(0)
            self.shown_for = 0.0
            return self.current
        return None

    def busy(self):
        """A message still waits, or the one shown has not had its time."""
        return bool(self.waiting) or (self.current is not None and self.shown_for < self.current[1])

    def clear(self):
        self.current, self.shown_for, self.waiting = None, 0.0, []


# ---- a finished game's results ----------------------------------------------------------------------------

def results(ref, moves):
    """The places of a finished game (or the standings so far) and what decided each: the headline, the rule
    that decided the winner, and one dict a car, 1st first. "The player whose car is in the better position
    (among players) at the end of the game wins"; cars without a player take a place on the track but no
    place among the players. A place was decided by the last overtake the car made or suffered."""
    t = ref.table()
    names = t["names"]
    order = t["order"]
    players = [c for c in order if t["players"][c]]
    start = Game.replay(ref.game.events[:1]).order
    rows = []
    for pos, car in enumerate(order):
        who = ref.controller(car)
        last = None
        for m in moves:
            if m["car"] == car and m["overtaken"] or car in m["overtaken"]:
                last = m
        if last is None:
            why = "%s from the start" % PLACES[pos] if start.index(car) == pos else "%s" % PLACES[pos]
        elif last["car"] == car:
            passed = _names_list(names, last["overtaken"])
            how = ("in the pits" if all(last["in_pits"])
                   else "%d beats %d" % (last["speed"], last["beaten"][0]))
            why = "%s since round %d: passed %s (%s)" % (PLACES[pos], last["round"], passed, how)
        else:
            k = last["overtaken"].index(car)
            how = "in the pits" if last["in_pits"][k] else "%d beat %d" % (last["speed"], last["beaten"][k])
            why = "%s since round %d: passed by %s (%s)" % (PLACES[pos], last["round"], names[last["car"]], how)
        pit_stops = sum(1 for m in moves if m["car"] == car and m["kind"] == PIT)
        overtakes = sum(len(m["overtaken"]) for m in moves if m["car"] == car)
        rows.append({
            "place": pos + 1,
            "car": car,
            "name": names[car],
            "colour": CAR_NAMES[car],
            "who": WHO_TEXT[who] if who != "waiting" else "player",
            "player_place": players.index(car) + 1 if car in players else None,
            "why": why,
            "tally": "%d overtake%s, %d pit stop%s" % (overtakes, "" if overtakes == 1 else "s",
                                                     pit_stops, "" if pit_stops == 1 else "s"),
        })
    rule = "The best placed player wins."
    if t["over"]:
        w = t["winner"]
        head = "%s wins the race" % names[w]
        ahead = order[:order.index(w)]
        if ahead:
            rule += " %s, ahead, %s no player." % (_names_list(names, ahead), "has" if len(ahead) == 1 else "have")
    else:
        head = "Round %d of 12: the standings so far" % t["round"]
    return head, rule, rows
