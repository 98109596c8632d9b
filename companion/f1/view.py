"""What the screens show and do, in plain Python: tests drive these without a window.

The Kivy screens (companion/f1/screens.py and f1.kv; setup and pairing in companion/app.py) only bind widgets
to these presenters. Every action returns a short message for the table; a refused action changes nothing (the
referee guarantees it).

The race screen is a view of the turn model (companion/f1/turn.py): RaceView.actions() says which actions
are live now and gives each the token to send back, so that a double tap or a tap from a stale screen is
refused ("already done") instead of acting twice. The words are in companion/f1/race_words.py.
"""

from shared_rules.errors import RuleError
from shared_rules.f1 import cards, charts
from shared_rules.f1.cards import card_text
from shared_rules.f1.race import COLOURS, MAX_LAPS, MAX_PLAYERS, MIN_LAPS, MIN_PLAYERS
from shared_rules.f1.status import FINISHED, OUT, SPUN

from companion import theme
from companion.f1 import race_words
from companion.f1.race_words import variant_text  # noqa: F401  (the screens' name for a variant's words)
from companion.f1 import turn
from companion.f1.referee import Referee
from companion.f1.track import Track, TrackError

# The variants for the setup screen: (flag, short title, the sentence a player would say), no code names.
VARIANTS = tuple((flag, race_words.variant_title(flag), race_words.variant_text(flag))
                 for flag in (charts.FREE_40, charts.RESTART_80, charts.REDRAW, charts.WORN_OUT))
STATUS_TEXT = race_words.STATUS_WORDS
SpeedOption = turn.SpeedOption
Action = turn.Action


class SetupForm:
    """The setup screen: 2 to 6 players in table order, laps, ruleset and variants, track."""

    def __init__(self):
        self.count = 3
        self.names = ["Player %d" % (i + 1) for i in range(MAX_PLAYERS)]
        self.laps = 3
        self.rules = 0
        self.track_path = None  # None: the 1962 board (companion/f1/tracks/1962.json)

    def track_files(self):
        """The 1962 board first, then any other track file shipped or put in the data folder's tracks/."""
        import glob
        import os

        from companion.f1.track import DEFAULT
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
            return _track_words(e, self.track_path)

    def set_count(self, n):
        self.count = max(MIN_PLAYERS, min(MAX_PLAYERS, n))

    def set_laps(self, n):
        self.laps = max(MIN_LAPS, min(MAX_LAPS, n))

    def toggle(self, flag, on):
        self.rules = (self.rules | flag) if on else (self.rules & ~flag)

    def players(self):
        return [n.strip() for n in self.names[: self.count]]

    def summary(self):
        """The setup in words: "3 players, 5 laps. The 1962 rules, and: ..." (no code names, no file names)."""
        return "%d players, %d laps. %s" % (self.count, self.laps, race_words.rules_text(self.rules))

    def start(self, path, seed=None):
        """A new game saved at `path`. Raises RuleError or TrackError with the message to show."""
        try:
            track = Track.load(self.track_path) if self.track_path else Track.load()
        except TrackError as e:
            raise TrackError(_track_words(e, self.track_path))
        return Referee.new(path, self.players(), self.laps, rules=self.rules, track=track, seed=seed)

    # The table's names, count and laps, kept for the next time the app opens (the same friends play again).
    REMEMBERED = "setup.json"

    def remember(self, folder=None):
        """Keep names, count and laps (atomically: a crash leaves the old file or the new one, never half)."""
        import json
        import os

        from companion.storage import data_dir, write_atomic

        path = os.path.join(folder or data_dir(), self.REMEMBERED)
        try:
            write_atomic(path, json.dumps({"names": self.names, "count": self.count, "laps": self.laps}))
        except OSError:
            pass  # only a convenience: the game itself is saved elsewhere

    def recall(self, folder=None):
        """The names, count and laps kept by remember(), if any (a missing or unreadable file: the defaults)."""
        import json
        import os

        from companion.storage import data_dir

        try:
            with open(os.path.join(folder or data_dir(), self.REMEMBERED)) as f:
                kept = json.load(f)
            names = [str(n) for n in kept["names"]][:MAX_PLAYERS]
            count, laps = int(kept["count"]), int(kept["laps"])
        except (OSError, ValueError, KeyError, TypeError):
            return self
        self.names[: len(names)] = names
        self.set_count(count)
        self.set_laps(laps)
        return self


def _track_words(error, path):
    """A track file's error with the track named as the player named it, not as a file: "Club: 1 to 12 corners"."""
    import os

    if not path:
        return str(error)
    name = os.path.splitext(os.path.basename(path))[0]
    return str(error).replace(path, name).replace(os.path.basename(path), name)


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
    """A penalty as the race screen shows it: race_words' words, a spin in capitals ("SPIN")."""
    return "SPIN" if pen[0] else race_words.outcome_words(pen)


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
    """The race screen's presenter over one Referee (and its link bridge, for the link status).

    Reading: rows(), phase(), actions(), speed_options(), hold_options(), block_options(), status_line(),
    last_roll_text(), pit_card_text(), announcements(), over(), results(), tie_notes().
    Doing: set_speed, hold, roll_corner, block, play_card, pit, lap, end_turn, undo, each with token=None: the
    token of the action as it was shown (view.actions()[name].token); a stale one changes nothing and sets
    view.message to "already done" (or why it is out of date). None means "now" (a dashboard, a test).
    Every doing method returns the logged event, or None if refused (view.message then says why).
    """

    def __init__(self, ref, bridge=None):
        self.ref = ref
        self.bridge = bridge
        self.corner = 0
        self.lane = 0
        self.band = 0
        self.last_roll = None  # {"dice", "pen", "title", "row", "seat", "outcome", "token"} of the latest corner
        self.last_pit = None  # (name, pit card text) of the latest pit stop
        self.message = ""
        self.special = 0  # use the special tyres (pit card) on the next band
        self.answered = set()  # decisions (by position) whose "is the track clear?" has been answered
        self._picked = (None, {})  # (token, {picker: options}): see _memo

    # ---- reading ------------------------------------------------------------------------------
    @property
    def race(self):
        return self.ref.race

    def rows(self):
        """Every car in turn order, with what the table may see (never the hand's cards). Names are whole: the
        screen shortens them to fit."""
        race = self.race
        out = []
        for seat, car in enumerate(race.cars):
            colour = race.colours[seat]
            dev, link = self.bridge.link_of(seat) if self.bridge is not None else (None, "none")
            misses = sum(1 for _r, s in race.skipped if s == seat)
            out.append({
                "seat": seat, "name": race.names[seat], "colour": colour,
                "rgba": theme.CAR_RGBA[colour], "ink": theme.CAR_INK[colour],
                "speed": car.speed, "tyre": car.tyre, "brake": car.brake, "laps_left": car.laps_left,
                "cards": len(car.hand), "status": race_words.status_words(car), "missed": misses,
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

    def over(self):
        """True once the race is over: every race action is then unavailable but Undo (a wrong last move is taken
        back, and the race is back in play), and the results stand."""
        return bool(self.race.game_over)

    def rounds(self):
        """The round being played, or once the race is over the number of rounds it had."""
        race = self.race
        return race.round - 1 if race.game_over else race.round

    def heading(self):
        """The race's top line: "Round 3 of a 5-lap race", or once over "Race over after 6 rounds"."""
        race = self.race
        if race.game_over:
            n = self.rounds()
            return "Race over after %d round%s" % (n, "" if n == 1 else "s")
        return "Round %d of a %d-lap race" % (race.round, race.laps)

    def phase(self):
        """Where the turn stands: "speed", "move", "corners", "pit", "finish", "end", or "over"."""
        return self.ref.phase()

    def token(self):
        return self.ref.token()

    def actions(self):
        """{name: Action(live, reason, token)} for "speed", "hold", "corner", "block", "pit", "lap", "finish",
        "card", "end_turn", "undo": exactly what the referee accepts now. "corner" is for the band chosen with
        pick(). "card" tells whether the hand holds a card the rules allow now: keep it off the shared screen
        (the hand is secret; cards are played on the dashboards)."""
        offer = dict(self.ref.actions())
        corner = offer["corner"]
        if corner.live and (self.corner, self.band) in turn.bands_taken(self.ref):
            offer["corner"] = Action("corner", False, turn.band_taken_reason(self.ref.track, self.corner, self.band),
                                     corner.token)
        waiting = self._superb_waits()
        if waiting:
            for name in ("corner", "end_turn"):
                if offer[name].live:
                    offer[name] = Action(name, False, waiting, offer[name].token)
        return offer

    def _superb_waits(self):
        """While the table has not said whether the track is clear for a Superb Driving just played, the corner
        it is for (and the end of the turn, which would spend it) wait for the answer."""
        who = self.superb_question()
        return "" if who is None else "first: is the track clear for %s's Superb Driving?" % who

    def _refused_here(self, name, token):
        """The view's own refusals (after a stale token's): the band already rolled for, the open question."""
        if token is not None and turn.stale_reason(self.ref, token, name):
            return ""  # the referee says why
        a = self.actions()[name]
        return "" if a.live or self.ref.actions()[name].live is False else a.reason

    def speed_options(self):
        """The speed picker: always the speedometer's speeds 0 to 160 in steps of 20, in that order, each a
        SpeedOption(v, live, reason, cost, spins, confirm). The cost is what the tap would cost ("brake 2 tyre 1",
        "SPIN", or "" for nothing); a speed that spins the car has confirm=True. Worked out by trying each speed
        on a copy of the car, so the picker follows the rules. (Good Carburettor is played on the dashboard.)"""
        car = self.active_car()
        if car is None:
            return turn.speed_options(None, over=True)
        return self._memo("speed", lambda: turn.speed_options(car))

    def hold_options(self):
        """A car blocked in the pit or on a spin-off point: the speeds it may dial while waiting (all 9 places)."""
        car = self.active_car()
        if car is None:
            return turn.hold_options(None, over=True)
        return self._memo("hold", lambda: turn.hold_options(car))

    def block_options(self):
        """A blocked car: the blocker's speeds it may be brought to, all 9 places; a slower blocker's speed is
        forced (cost shown, or SPIN), a faster one's is the optional raise (note "optional"), within +60."""
        car = self.active_car()
        if car is None:
            return turn.block_options(None, over=True)
        # With no speed set, a block keeps the speed the car has first (turn.same_speed): offered from there.
        mover = turn.moving_race(self.race).cars[self.race.seat]
        return self._memo("block", lambda: turn.block_options(
            mover, still=mover.speed_set and not (mover.speed > 0 or turn.moves_on(self.ref))))

    def _memo(self, name, work):
        """The pickers are worked out once a step (the screen may ask every frame): a new decision, a new list."""
        token = self.ref.token()
        if self._picked[0] != token:
            self._picked = (token, {})
        found = self._picked[1]
        if name not in found:
            found[name] = work()
        return list(found[name])

    def corner_names(self):
        return [name for name, _bands in self.ref.track.corners]

    def lanes(self):
        """Safety speeds of the chosen corner's band, inner to outer."""
        return list(self.ref.track.corners[self.corner][1][self.band])

    def bands(self):
        return len(self.ref.track.corners[self.corner][1])

    def pick(self, corner=None, lane=None, band=None):
        """Choose the band to roll for. Choosing a corner whose first band is already rolled for this move goes to
        its next band (the car crossing two bands of one corner)."""
        if corner is not None and 0 <= corner < len(self.ref.track.corners):
            self.corner, self.band, self.lane = corner, 0, 0
            taken = turn.bands_taken(self.ref)
            while (corner, self.band) in taken and self.band + 1 < self.bands():
                self.band += 1
        if band is not None and 0 <= band < self.bands():
            self.band = band
            self.lane = min(self.lane, len(self.lanes()) - 1)
        if lane is not None and 0 <= lane < len(self.lanes()):
            self.lane = lane

    def bands_taken(self):
        """[(corner, band)] already rolled for in this move."""
        return sorted(turn.bands_taken(self.ref))

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
        # SPIN first, then no penalty: the two lines a player weighs; then the other costs, likeliest first.
        ranked = sorted(self.ref.odds(self.safety(), special), key=lambda o: (not o[0][0], o[0] != (0, 0, 0), -o[1]))
        return [(outcome_text(pen), n, (100 * n + 18) // 36) for pen, n in ranked]

    def odds_text(self, special=None, compact=False):
        """The advisor's words: the band, then every outcome (SPIN first), and what a card played changed.
        compact: two outcomes a line, without the percentages (a short screen)."""
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
        if special is None:
            special = self.use_special()
        lines = [head]
        if over > 0 and special and 0 < over <= 40:
            lines.append("Special tyres: this band without penalty")
        elif over > 0 and car.superb:
            lines.append("Superb Driving: this corner at any speed")
        odds = self.odds(special)
        if compact:
            shown = ["%s %d/36" % (text, n) for text, n, _p in odds]
            return "\n".join(lines + ["  ·  ".join(shown[i:i + 2]) for i in range(0, len(shown), 2)])
        return "\n".join(lines + ["%s: %d/36 (%d%%)" % o for o in odds])

    def hold_choices(self):
        """Blocked in the pit or on a spin-off point: the speeds the car may dial while waiting."""
        return [o.v for o in self.hold_options() if o.live]

    def speed_choices(self):
        """The speeds the picker offers live now (see speed_options for all of them)."""
        return [o.v for o in self.speed_options() if o.live]

    def history_lines(self):
        """The log in words, oldest first, with "ROUND n" where each round starts (undone moves kept, marked)."""
        lines, heading = [], None
        for e, live, rnd in self.ref.history_rounds():
            if e.get("t") != "pair" and rnd != heading:
                lines.append("ROUND %d" % rnd)
                heading = rnd
            lines.append(history_text(self.race.names, e) + ("" if live else "   (undone)"))
        return lines

    # ---- what just happened ------------------------------------------------------------------
    def _turn_events(self):
        return turn.this_turn(self.ref) if not self.race.game_over else []

    def last_roll_text(self):
        """The latest band of this turn in words ("Corner 4: threw 1 + 2. 3 or 11 at +40: spin"); "" once the
        turn has changed (a new player's turn starts with a clear table) or the roll was undone."""
        for ev in reversed(self._turn_events()):
            if ev.get("t") == "corner":
                where = ev.get("where")
                names = self.corner_names()
                name = names[where[0]] if isinstance(where, list) and where and 0 <= where[0] < len(names) else ""
                return race_words.corner_words(ev, name)
        return ""

    def last_dice(self):
        """This turn's latest dice ([] if none thrown, or the turn has changed)."""
        for ev in reversed(self._turn_events()):
            if ev.get("t") == "corner":
                return list(ev.get("dice") or [])
        return []

    def pit_card_text(self):
        """The pit card drawn this turn, or "" (a new turn clears it)."""
        for ev in reversed(self._turn_events()):
            if ev.get("t") == "pit":
                return card_text(ev.get("pit"))
        return ""

    def announcements(self):
        """What just happened, in words, oldest first: moves missed since the last turn, and this turn's tactic
        cards (from a dashboard too), pit cards and speeds kept."""
        race = self.race
        names = race.names
        out = []
        if not race.game_over:
            for seat in self._missed_since_last_turn():
                out.append(race_words.missed_words(names[seat], race.cars[seat].miss))
        for ev in self._turn_events():
            who = names[ev["seat"]] if isinstance(ev.get("seat"), int) else "?"
            t = ev.get("t")
            if t == "card" or (t == "speed" and ev.get("card")):
                out.append(race_words.card_words(who, ev))
            elif t == "pit":
                out.append(race_words.pit_words(who, ev))
        return out

    def _missed_since_last_turn(self):
        """Seats whose moves were missed between the previous turn played and this one."""
        race = self.race
        prev = None
        for ev in reversed(self.ref.stack):
            if ev.get("t") == "end":
                prev = ev.get("seat")
                break
        if not isinstance(prev, int):
            return []
        prev_round = race.round if prev < race.seat else race.round - 1
        return [s for r, s in race.skipped if (prev_round, prev) < (r, s) < (race.round, race.seat)]

    def status_line(self):
        """What the table reads now: what just happened, then whose turn it is and what is left to do."""
        return " ".join(["%s." % a for a in self.announcements()] + [self._now_text()])

    def _now_text(self):
        race = self.race
        if race.game_over:
            return self._over_text()
        seat = race.seat
        car = race.cars[seat]
        who = "%s (%s)" % (race.names[seat], race.colours[seat])
        head = "Round %d. " % race.round
        ph = self.phase()
        if ph == "speed":
            limit = ""
            if car.fixed:
                limit = ": pit card, starting speed %d" % car.fixed
            elif car.cap:
                limit = ": after the spin, up to %d" % car.cap
            if car.speed and not limit and turn.same_speed(race) is not None:  # a move keeps it (see turn.actions)
                return head + "%s to play: a new speed, or move on at %d." % (who, car.speed)
            return head + "%s to play: set the speed (%d now%s)." % (who, car.speed, limit)
        if ph == "move":
            return head + "%s at %d mph: move the car." % (who, car.speed)
        if ph == "corners":
            return head + "%s at %d mph: the next band, the line, or End turn." % (who, car.speed)
        if ph == "pit":
            return head + "%s in the pit: End turn." % who
        if ph == "finish":
            return head + "%s has finished: End turn (the round is played out)." % who
        if car.status == SPUN:
            return head + "%s spun off: End turn." % who
        return head + "%s waits at %d: End turn." % (who, car.speed)

    def _over_text(self):
        race = self.race
        n = self.rounds()
        winners = [race.names[s] for s in race.winners()]
        if not winners:
            return "Race over after %d round%s." % (n, "" if n == 1 else "s")
        if len(winners) == 1:
            return "Race over after %d rounds: %s wins." % (n, winners[0])
        return "Race over after %d rounds: a dead heat, %s." % (n, race_words._and(winners))

    def results(self):
        """[(place, name, colour, text)] from first to last; a tied car's text says how the tie was broken."""
        race = self.race
        out = []
        order = race.results()
        for place, seat in order:
            car = race.cars[seat]
            if car.status == FINISHED:
                text = "finished, %s over the line" % spaces(max(race.over[seat], 0))
                level = [s for _p, s in order if s != seat and race.cars[s].status == FINISHED
                         and race.over[s] == race.over[seat]]
                if level:
                    faster = [race.names[s] for s in level if race.cars[s].speed < car.speed]
                    same = [race.names[s] for s in level if race.cars[s].speed == car.speed]
                    text += " at %d mph" % car.speed
                    if same:
                        text += "; dead heat with %s" % race_words._and(same)
                    elif faster:
                        text += "; ahead of %s on speed" % race_words._and(faster)
                    else:
                        text += "; behind on speed"
            elif car.status == OUT:
                text = "out of the race"
            else:
                text = "%d lap%s to go" % (car.laps_left, "" if car.laps_left == 1 else "s")
            out.append((place, race.names[seat], race.colours[seat], text))
        return out

    def tie_notes(self):
        """How ties were broken, one sentence each ([] if there was none): see docs/rules.md, decision 10."""
        return race_words.tie_notes(self.race)

    # ---- doing ---------------------------------------------------------------------------------
    def _do(self, fn, done_text):
        try:
            ev = fn()
        except (RuleError, TrackError) as e:
            self.message = str(e)
            return None
        self.message = done_text(ev) if callable(done_text) else done_text
        if self.bridge is not None:
            self.bridge.push_soon()
        return ev

    def _who(self):
        seat = self.active()
        return self.race.names[seat] if seat is not None else ""

    def set_speed(self, v, token=None):
        """Set this turn's speed (a speed whose option says SPIN spins the car: the screen confirms it first)."""
        who, seat = self._who(), self.active()
        was = self.race.cars[seat].speed if seat is not None else 0
        spins = any(o.v == v and o.live and o.spins for o in self.speed_options())

        def done(_ev):
            if spins:
                return "%s: braking from %d to %d is more than the car can pay: spun off" % (who, was, v)
            return "%s: speed %d" % (who, v)

        return self._do(lambda: self.ref.set_speed(v, token=token), done)

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

    def hold(self, v, token=None):
        return self._do(lambda: self.ref.hold(v, token=token), "%s waits, blocked, at %d" % (self._who(), v))

    def roll_corner(self, special=None, token=None):
        """Roll for the band chosen with pick() (once a move: the same band again is refused)."""
        if special is None:
            special = self.use_special()
        car = self.active_car()
        if car is None:
            self.message = "the race is over"
            return None
        held = self._refused_here("corner", token)
        if held:
            self.message = held
            return None
        seat, speed, who = self.active(), car.speed, self._who()
        safety = self.safety()
        where = (self.corner, self.band, self.lane)
        ev = self._do(lambda: self.ref.corner(safety, special, token=token, where=where), "")
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
                          "outcome": outcome_text(pen), "words": self.last_roll_text()}
        self.message = _kept(ev, who) + "%s, %s: %s" % (who, self.corner_names()[self.corner], outcome_text(pen))
        self.special = 0
        return ev

    def block(self, v, token=None):
        return self._do(lambda: self.ref.block(v, token=token), lambda ev: "%s%s blocked: speed %d%s" % (
            _kept(ev, self._who()), self._who(), v, ", spun" if ev["pen"][0] else ""))

    def play_card(self, code, clear=1, token=None):
        """A tactic card played from the table (Superb Driving with `clear` already answered)."""
        who = self._who()
        ev = self._do(lambda: self.ref.play_card(code, clear, token=token), lambda ev: race_words.card_words(who, ev))
        if ev is not None and code == cards.SUPERB:
            self.answered.add(len(self.ref.stack))  # the table has said the track is clear
        return ev

    def pit(self, token=None):
        who = self._who()
        ev = self._do(lambda: self.ref.pit(token=token), "")
        if ev is not None:
            text = card_text(ev["pit"])
            self.last_pit = (who, text)
            self.message = _kept(ev, who) + "%s in the pit: %s" % (who, text)
        return ev

    def lap(self, over=0, token=None):
        """The car crossed the line, not on its last lap (that is finish()). With spaces past the line given, it
        is the finish: finish(over)."""
        if over:
            return self.finish(over, token)
        return self._line(self.ref.lap, over, token)

    def finish(self, over=0, token=None):
        """The car crossed the line on its last lap, `over` spaces past it (the tie-break, see results())."""
        return self._line(self.ref.finish, over, token)

    def _line(self, fn, over, token):
        car = self.active_car()
        final = car is not None and car.laps_left == 1
        who = self._who()
        ev = self._do(lambda: fn(over, token=token), "")
        if ev is not None:
            self.message = _kept(ev, who) + (("%s FINISHED, %s over the line" % (who, spaces(over))) if final else (
                "%s: lap, %d to go" % (who, self.race.cars[ev["seat"]].laps_left)))
        return ev

    def end_turn(self, token=None):
        """End the turn. With no speed set the car keeps its speed, and the message says so."""
        who = self._who()
        held = self._refused_here("end_turn", token)
        if held:
            self.message = held
            return None
        ev = self._do(lambda: self.ref.end_turn(token=token), "")
        if ev is not None:
            nxt = self.active()
            self.message = "%s%s's turn ended. %s" % (
                _kept(ev, who), who, ("Next: %s" % self.race.names[nxt]) if nxt is not None else self._over_text())
            self.last_roll = None
            self.last_pit = None
        return ev

    def undo(self, token=None):
        ev = self._do(lambda: self.ref.undo(token=token),
                      lambda ev: "Undone: %s" % history_text(self.race.names, ev))
        if ev is not None:
            self.last_roll = None
        return ev


def short_cost(text):
    """A speed key's cost where the key is narrow (the 7-inch screen): "brake 2 tyre 1" -> "B2 T1"."""
    return text.replace("brake ", "B").replace("tyre ", "T").replace("optional", "opt")


def spaces(n):
    """A count of spaces as it is said: "1 space", "3 spaces"."""
    return "%d space%s" % (n, "" if n == 1 else "s")


def _kept(ev, who):
    """The words for a move action that kept the car's speed (none was set this turn): said once, first."""
    return ("%s keeps the same speed, %d. " % (who, ev["same"])) if ev.get("same") is not None else ""


def history_text(names, e):
    t = e.get("t")
    seat = e.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    if t == "speed":
        extra = " (Good Carburettor)" if e.get("card") else " (same speed)" if e.get("same") else ""
        return "%s: speed %s%s" % (who, e.get("v"), extra)
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


__all__ = ["COLOURS", "Action", "RaceView", "SetupForm", "SpeedOption", "chart_series", "history_text",
           "seat_roll_text", "variant_text"]
