"""What the screens show and do, in plain Python: tests drive these without a window.

The Kivy screens (companion/companion.kv, companion/app.py) only bind widgets to these presenters. Every
action returns a short message for the table; a refused action changes nothing (the referee guarantees it).
"""

from shared_rules.errors import RuleError
from shared_rules.f1 import cards, charts
from shared_rules.f1.cards import card_text
from shared_rules.f1.race import COLOURS, MAX_LAPS, MAX_PLAYERS, MIN_LAPS, MIN_PLAYERS
from shared_rules.f1.status import FINISHED, OUT, PIT, SPUN

from companion.referee.referee import Referee
from companion.referee.track import Track, TrackError

# Car colours on screen (RGBA), and a text colour readable on each.
RGBA = {
    "yellow": (0.98, 0.82, 0.10, 1),
    "orange": (0.98, 0.50, 0.08, 1),
    "green": (0.15, 0.65, 0.25, 1),
    "red": (0.85, 0.12, 0.12, 1),
    "black": (0.08, 0.08, 0.08, 1),
    "blue": (0.15, 0.35, 0.90, 1),
}
INK = {"yellow": (0, 0, 0, 1), "orange": (0, 0, 0, 1), "green": (1, 1, 1, 1), "red": (1, 1, 1, 1),
       "black": (1, 1, 1, 1), "blue": (1, 1, 1, 1)}
VARIANTS = (
    (charts.FREE_40, "FREE_40", "Braking 40 mph is free"),
    (charts.RESTART_80, "RESTART_80", "Spun cars restart up to 80"),
    (charts.REDRAW, "REDRAW", "Used tactic card is redrawn"),
    (charts.WORN_OUT, "WORN_OUT", "Fully worn car is out"),
)
STATUS_TEXT = {SPUN: "SPUN OFF", PIT: "IN PIT", FINISHED: "FINISHED", OUT: "OUT"}


class SetupForm:
    """The setup screen: 2 to 6 players in table order, laps, ruleset and variants, track."""

    def __init__(self):
        self.count = 3
        self.names = ["Player %d" % (i + 1) for i in range(MAX_PLAYERS)]
        self.laps = 3
        self.rules = 0
        self.track_path = None  # None: the 1962 board (companion/tracks/1962.json)

    def track_files(self):
        """The 1962 board first, then any other track file shipped or put in the data folder's tracks/."""
        import glob
        import os

        from companion.referee.track import DEFAULT
        from companion.storage import data_dir

        found = sorted(glob.glob(os.path.join(os.path.dirname(DEFAULT), "*.json")))
        found += sorted(glob.glob(os.path.join(data_dir(), "tracks", "*.json")))
        return [DEFAULT] + [f for f in found if f != DEFAULT]

    def next_track(self):
        """Move on to the next track file; returns its name, or the reason it cannot be used."""
        files = self.track_files()
        current = self.track_path or files[0]
        i = files.index(current) if current in files else -1
        self.track_path = files[(i + 1) % len(files)]
        try:
            return Track.load(self.track_path).name
        except TrackError as e:
            return str(e)

    def set_count(self, n):
        self.count = max(MIN_PLAYERS, min(MAX_PLAYERS, n))

    def set_laps(self, n):
        self.laps = max(MIN_LAPS, min(MAX_LAPS, n))

    def toggle(self, flag, on):
        self.rules = (self.rules | flag) if on else (self.rules & ~flag)

    def players(self):
        return [n.strip() for n in self.names[: self.count]]

    def start(self, path, seed=None):
        """A new game saved at `path`. Raises RuleError or TrackError with the message to show."""
        track = Track.load(self.track_path) if self.track_path else Track.load()
        return Referee.new(path, self.players(), self.laps, rules=self.rules, track=track, seed=seed)


def seat_roll(race):
    """[(colour, name, throws)] in seat order: each player's throws in the roll for the yellow car."""
    table = race.setup["names"]
    n = len(table)
    first = 0
    for f in range(n):
        if all(table[(f + i) % n] == race.names[i] for i in range(n)):
            first = f
            break
    out = []
    for seat in range(n):
        idx = (first + seat) % n
        out.append((race.colours[seat], race.names[seat], [r[idx] for r in race.seat_throws if r[idx]]))
    return out


def seat_roll_text(race):
    lines = []
    for colour, name, throws in seat_roll(race):
        lines.append("%s  %s  threw %s" % (colour.upper(), name, ", then ".join(str(t) for t in throws)))
    lines.append("Yellow moves first, then clockwise.")
    return "\n".join(lines)


def outcome_text(pen):
    spin, tyre, brake = pen
    if spin:
        return "SPIN"
    if tyre and brake:
        return "tyre +%d, brake +%d" % (tyre, brake)
    if tyre:
        return "tyre +%d" % tyre
    if brake:
        return "brake +%d" % brake
    return "no penalty"


def chart_row(over, dice):
    """The Penalty Chart row and column that a throw used, in words."""
    d1, d2 = dice
    total = d1 + d2
    if d1 == d2 and d1 in (3, 4):
        row = "%d/%d" % (d1, d2)
    elif total in (2, 12):
        row = "2, 12, 3/3, 4/4"
    elif total in (3, 11):
        row = "3, 11"
    elif total in (4, 5, 8):
        row = "4, 5, 8"
    elif total in (6, 10):
        row = "6, 10"
    else:
        row = "7, 9"
    return "Penalty Chart row %s, column +%d" % (row, 20 if over <= charts.STEP else 40)


class RaceView:
    """The race screen's presenter over one Referee (and its link bridge, for the link status)."""

    def __init__(self, ref, bridge=None):
        self.ref = ref
        self.bridge = bridge
        self.corner = 0
        self.lane = 0
        self.band = 0
        self.last_roll = None  # {"dice", "pen", "title", "row", "seat"} of the latest corner
        self.last_pit = None  # (name, pit card text)
        self.message = ""
        self.special = 0  # use the special tyres (pit card) on the next band
        self.answered = set()  # decisions (by position) whose "is the track clear?" has been answered

    # ---- reading ------------------------------------------------------------------------------
    @property
    def race(self):
        return self.ref.race

    def rows(self):
        """Every car in turn order, with what the table may see (never the hand's cards)."""
        race = self.race
        out = []
        for seat, car in enumerate(race.cars):
            colour = race.colours[seat]
            dev, link = self.bridge.link_of(seat) if self.bridge is not None else (None, "none")
            misses = sum(1 for _r, s in race.skipped if s == seat)
            status = STATUS_TEXT.get(car.status, "")
            if car.miss:
                status = ("%s  MISS %d" % (status, car.miss)).strip()
            out.append({
                "seat": seat, "name": race.names[seat], "colour": colour, "rgba": RGBA[colour], "ink": INK[colour],
                "speed": car.speed, "tyre": car.tyre, "brake": car.brake, "laps_left": car.laps_left,
                "cards": len(car.hand), "status": status, "missed": misses,
                "active": int(seat == race.seat and not race.game_over), "dev": dev, "link": link,
            })
        return out

    def active(self):
        race = self.race
        if race.game_over or race.seat < 0:
            return None
        return race.seat

    def active_car(self):
        seat = self.active()
        return None if seat is None else self.race.cars[seat]

    def corner_names(self):
        return [name for name, _bands in self.ref.track.corners]

    def lanes(self):
        """Safety speeds of the chosen corner's band, inner to outer."""
        return list(self.ref.track.corners[self.corner][1][self.band])

    def bands(self):
        return len(self.ref.track.corners[self.corner][1])

    def pick(self, corner=None, lane=None, band=None):
        if corner is not None and 0 <= corner < len(self.ref.track.corners):
            self.corner, self.band, self.lane = corner, 0, 0
        if band is not None and 0 <= band < self.bands():
            self.band = band
            self.lane = min(self.lane, len(self.lanes()) - 1)
        if lane is not None and 0 <= lane < len(self.lanes()):
            self.lane = lane

    def safety(self):
        return self.ref.corner_safety(self.corner, self.lane, self.band)

    def use_special(self):
        """1 if the player chose to use the car's special tyres on this band (and it has them)."""
        car = self.active_car()
        return 1 if self.special and car is not None and car.special else 0

    def odds(self, special=None):
        """The risk advisor: [(outcome text, throws of 36, percent)] for the chosen band, before the roll."""
        car = self.active_car()
        if car is None:
            return []
        if special is None:
            special = self.use_special()
        return [(outcome_text(pen), n, (100 * n + 18) // 36) for pen, n in self.ref.odds(self.safety(), special)]

    def odds_text(self, special=None):
        car = self.active_car()
        if car is None:
            return ""
        safety = self.safety()
        over = car.speed - safety
        head = "%d mph at a %d band: " % (car.speed, safety)
        if over <= 0:
            head += "safe"
        else:
            head += "%d over, tyres %d" % (over, car.tyre)
        return head + "\n" + "\n".join("%s: %d/36 (%d%%)" % o for o in self.odds(special))

    def hold_choices(self):
        """Blocked in the pit or on a spin-off point: the speeds the car may dial while waiting."""
        car = self.active_car()
        if car is None or car.speed_set or car.status not in (SPUN, PIT):
            return []
        return [v for v in range(0, charts.HOLD_SPEED + 1, charts.STEP) if v >= car.speed]

    def speed_choices(self):
        car = self.active_car()
        if car is None or car.speed_set:
            return []
        try:
            return list(car.speed_choices(0))
        except RuleError:
            return []

    def history_lines(self):
        return [history_text(self.race.names, e) + ("" if live else "   (undone)") for e, live in self.ref.history()]

    def results(self):
        """[(place, name, colour, text)] from first to last."""
        race = self.race
        out = []
        for place, seat in race.results():
            car = race.cars[seat]
            if car.status == FINISHED:
                text = "finished, %d spaces over the line" % max(race.over[seat], 0)
            elif car.status == OUT:
                text = "out of the race"
            else:
                text = "%d lap%s to go" % (car.laps_left, "" if car.laps_left == 1 else "s")
            out.append((place, race.names[seat], race.colours[seat], text))
        return out

    # ---- doing ---------------------------------------------------------------------------------
    def _do(self, fn, done_text):
        try:
            ev = fn()
        except (RuleError, TrackError) as e:
            self.message = str(e)
            return None
        self.message = done_text(ev) if callable(done_text) else done_text
        if self.bridge is not None:
            self.bridge.push()
        return ev

    def _who(self):
        seat = self.active()
        return self.race.names[seat] if seat is not None else ""

    def set_speed(self, v):
        return self._do(lambda: self.ref.set_speed(v), "%s: speed %d" % (self._who(), v))

    def superb_question(self):
        """Superb Driving works "providing the track is clear": when a dashboard has just played it, the table
        must say whether it is. Returns the player's name while the question is open, else None."""
        stack = self.ref.stack
        last = stack[-1] if stack else None
        if not last or last.get("t") != "card" or last.get("card") != cards.SUPERB or len(stack) in self.answered:
            return None
        seat = last.get("seat")
        return self.race.names[seat] if isinstance(seat, int) else "?"

    def answer_superb(self, clear):
        """Clear: the card stands. Not clear: it cannot be played, so it is taken back into the hand."""
        who = self.superb_question()
        if who is None:
            return None
        if clear:
            self.answered.add(len(self.ref.stack))
            self.message = "%s: Superb Driving for the next corner" % who
            return 1
        ev = self._do(self.ref.undo, "")
        if ev is not None:
            self.message = "%s: the track is not clear; Superb Driving back in the hand" % who
        return ev

    def hold(self, v):
        return self._do(lambda: self.ref.hold(v), "%s waits, blocked, at %d" % (self._who(), v))

    def roll_corner(self, special=None):
        if special is None:
            special = self.use_special()
        car = self.active_car()
        if car is None:
            self.message = "the race is over"
            return None
        seat, speed, who = self.active(), car.speed, self._who()
        safety = self.safety()
        ev = self._do(lambda: self.ref.corner(safety, special), "")
        if ev is None:
            return None
        over = speed - safety
        dice, pen = ev["dice"], ev["pen"]
        if ev["case"] == charts.SAFE:
            row = "Safe: %d mph at a %d band" % (speed, safety)
        elif ev["case"] == charts.WAIVED:
            row = "Covered by %s" % ("special tyres" if special else "Superb Driving")
        elif ev["case"] == charts.AUTO_SPIN:
            row = "%d over%s: the car spins" % (over, " on worn tyres" if over < 60 else "")
        else:
            row = chart_row(over, dice)
        title = "%d + %d" % tuple(dice) if dice else "no throw"
        self.last_roll = {"dice": dice, "pen": pen, "title": title, "row": row, "seat": seat,
                          "outcome": outcome_text(pen)}
        self.message = "%s, %s: %s" % (who, self.corner_names()[self.corner], outcome_text(pen))
        self.special = 0
        return ev

    def block(self, v):
        return self._do(lambda: self.ref.block(v), lambda ev: "%s blocked: speed %d%s" % (
            self._who(), v, ", spun" if ev["pen"][0] else ""))

    def pit(self):
        who = self._who()
        ev = self._do(self.ref.pit, "")
        if ev is not None:
            text = card_text(ev["pit"])
            self.last_pit = (who, text)
            self.message = "%s in the pit: %s" % (who, text)
        return ev

    def lap(self, over=0):
        car = self.active_car()
        final = car is not None and car.laps_left == 1
        who = self._who()
        ev = self._do(lambda: self.ref.lap(over), "")
        if ev is not None:
            self.message = ("%s FINISHED, %d spaces over the line" % (who, over)) if final else (
                "%s: lap, %d to go" % (who, self.race.cars[ev["seat"]].laps_left))
        return ev

    def end_turn(self):
        who = self._who()
        ev = self._do(self.ref.end_turn, "")
        if ev is not None:
            nxt = self.active()
            self.message = "%s's turn ended. %s" % (
                who, ("Next: %s" % self.race.names[nxt]) if nxt is not None else "The race is over.")
        return ev

    def undo(self):
        def go():
            return self.ref.undo()

        ev = self._do(go, lambda ev: "Undone: %s" % history_text(self.race.names, ev))
        if ev is not None:
            self.last_roll = None
        return ev


def history_text(names, e):
    t = e.get("t")
    seat = e.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    if t == "speed":
        return "%s: speed %s%s" % (who, e.get("v"), " (Good Carburettor)" if e.get("card") else "")
    if t == "hold":
        return "%s: waits at %s" % (who, e.get("v"))
    if t == "corner":
        dice = e.get("dice") or []
        thrown = ("dice %d+%d, " % (dice[0], dice[1])) if len(dice) == 2 else ""
        return "%s: band at %s, %s%s" % (who, e.get("safety"), thrown, outcome_text(e.get("pen", (0, 0, 0))))
    if t == "block":
        return "%s: blocked, speed %s%s" % (who, e.get("v"), ", spun" if (e.get("pen") or [0])[0] else "")
    if t == "card":
        return "%s: played %s" % (who, card_text(e.get("card")) or e.get("card"))
    if t == "lap":
        return "%s: crossed the line%s" % (who, (", %s over" % e["over"]) if e.get("over") else "")
    if t == "pit":
        return "%s: pit, %s" % (who, card_text(e.get("pit")) or "?")
    if t == "end":
        return "%s: end of turn" % who
    if t == "undo":
        return "UNDO"
    if t == "pair":
        return "dashboard %s -> %s" % (e.get("dev") or "none", who)
    return str(t)


def chart_series(ref):
    """Per seat, (name, colour, [(turn, speed, tyre, brake)]) for the result charts."""
    race = ref.race
    return [(race.names[s], race.colours[s], pts) for s, pts in enumerate(ref.series())]


__all__ = ["COLOURS", "RaceView", "SetupForm", "chart_series", "history_text", "seat_roll_text"]
