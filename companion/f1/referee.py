"""The referee: one Formula 1 game on the tablet, its log, undo, and the commands for the dashboards.

Everything the table decides goes through here: it is checked by the shared rules, written to the
append-only log, and turned into commands for the dashboards. The Kivy screens only call these methods.

Undo appends an "undo" entry; the game is the log with undone decisions left out, replayed. Because the
dice come from the game's seed in event order, taking the same decision again after an undo throws the
same dice: an undo fixes a mistake, it is no way to throw again.
"""

from shared_rules.errors import RuleError
from shared_rules.f1 import cards, charts
from shared_rules.f1.car import Car, apply_command
from shared_rules.f1.odds import corner_odds
from shared_rules.f1.race import Race
from shared_rules.f1.replay import replay_one
from shared_rules.link import schema

from companion.f1 import turn
from companion.eventlog import LogError
from companion.f1.track import Track, TrackError
from companion.referee_base import SeatedReferee

GAME = "f1"


def _not_replayed(race, ev, nothing_returned, e):
    """Why the log stops replaying at decision `ev` (refused by the rules with `e`; `race` as it stood, or None if
    its setup failed), one line for the saved games list. Two rules changed (docs/rules.md decisions 1, 2 and 8):
    a log saved before holds moves the rules now refuse, said as such; anything else is damage or a hand edit."""
    if race is None:
        return "the game log does not replay: %s" % e
    car, who = race.cars[race.seat], "round %d, %s" % (race.round, race.names[race.seat])
    v = ev.get("v")
    if ev.get("t") == "speed" and e.code == "speed" and isinstance(v, int) \
            and car.speed - v > charts.max_reduction(car.tyre, car.brake, race.rules):
        return "saved by an older version: %s slows from %d to %d mph (now refused: %s)" % (who, car.speed, v, e)
    if ev.get("t") == "pit" and e.code == "log" and ev.get("drawn") and nothing_returned \
            and race.pit_pile[-1] == ev.get("pit") and cards.PIT_CARDS[ev["pit"]][2]:  # that card drawn again
        return ("saved by an older version: %s takes an extra card with New Instructions before any card was "
                "discarded (now refused: the discard pile is empty)" % who)
    return "the game log does not replay: %s, %s" % (who, e)


class Referee(SeatedReferee):
    """Formula 1's referee; its log, seats, outbox and taken events are SeatedReferee's (companion/referee_base.py)."""

    GAME = GAME  # which game this referee plays (Formula 1): the link bridge asks, never guesses
    TITLE = "Formula 1"  # its name in messages

    def __init__(self, log, entries):
        """Use Referee.new or Referee.open (which checks that the log is a Formula 1 game's)."""
        super().__init__(log, entries)
        first = entries[0]
        try:
            self.track = Track.from_data(first.get("track"), "the game's track")
        except TrackError as e:
            raise LogError(str(e))
        self.setup = first.get("setup")
        self.stack = []  # the decisions in force: undone ones are left out
        self.steps = []  # the type of every decision and undo in the log, in order: a token's step is an index
        self._offer = None  # (step, {name: Action}): the turn model's offer, worked out once a step
        for entry in entries[1:]:
            self._take(entry)
        self.race = self._rebuild()
        # What each dashboard will hold once it has applied every command sent so far.
        self.believed = [c.copy() for c in self.race.cars]

    # ---- opening and creating -------------------------------------------------------------------

    @classmethod
    def new(cls, path, names, laps, rules=0, per_kind=cards.PER_KIND, track=None, seed=None):
        seed = cls._new_seed(path, seed)
        race = Race(seed, names, laps, rules, per_kind)  # checks the setup before anything is written
        track = track or Track.load()
        ref = cls._create(path, track=track.to_data(), setup=race.setup)
        for seat in range(len(race.cars)):
            ref._queue(seat, "sync", ref.race.cars[seat].snapshot())
        return ref

    # ---- the log ----------------------------------------------------------------------------------

    def _take(self, entry):
        t = entry.get("t")
        if t != "pair":
            self.steps.append(t)
        if t == "undo":
            if not self.stack:
                raise LogError("the game log undoes more than was done")
            self.stack.pop()
        elif t == "pair":
            self._take_pair(entry)
        else:
            self.stack.append(entry)

    def _rebuild(self):
        race, ev, nothing_returned = None, {}, True
        try:
            race = Race.from_events([self.setup])
            for ev in self.stack:
                nothing_returned = not race.discarded
                replay_one(race, ev)
            return race
        except RuleError as e:
            raise LogError(_not_replayed(race, ev, nothing_returned, e))
        except (TypeError, ValueError, KeyError, AttributeError) as e:
            raise LogError("the game log is not a game these rules allow (%s)" % e)

    def _record(self, entry, taken=None):
        seq = self.log.append(entry, taken)  # the event's id in the same transaction: both kept, or neither
        self.entries.append(entry)
        self._take(entry)
        if taken is not None:
            self.taken.added(taken)
        return seq

    # ---- reading the table ------------------------------------------------------------------------

    @property
    def seat(self):
        return self.race.seat

    def names(self):
        return list(self.race.names)

    def corner_safety(self, corner, lane, band=0):
        return self.track.safety(corner, band, lane)

    def odds(self, safety, special=0):
        """The risk advisor: every outcome for the current car at this safety speed, with its throws of 36."""
        car = self.race.cars[self.race.seat]
        use_special = special and car.special and 0 < car.speed - safety <= 40
        return corner_odds(car.speed - safety, car.tyre, car.superb and not use_special, use_special)

    def history(self):
        """Every entry of the log, oldest first, as (entry, in force?) — undone ones are kept, marked."""
        out = []
        undone = 0
        for entry in reversed(self.entries[1:]):
            t = entry.get("t")
            if t == "undo":
                undone += 1
                out.append((entry, True))
            elif t == "pair":
                out.append((entry, True))
            elif undone:
                undone -= 1
                out.append((entry, False))
            else:
                out.append((entry, True))
        out.reverse()
        return out

    def history_rounds(self):
        """history() with the round each entry was made in: [(entry, in force?, round)]. The decisions in force
        are replayed from the setup to know it; an undone one was made in the round the race was in then."""
        race = Race.from_events([self.setup])
        out = []
        for entry, live in self.history():
            out.append((entry, live, race.round))
            if live and entry.get("t") not in ("undo", "pair"):
                replay_one(race, entry)
        return out

    def series(self):
        """For the result charts: per seat, a (round, speed, tyre, brake) point for each turn it played: the
        round the turn was played in (the last car's End turn starts the next round: read before it), the speed
        it moved at (a spin or the pit drops the speedometer to 0 after), the gauges at its end."""
        race = Race.from_events([self.setup])
        points = [[] for _ in race.cars]
        moved_at = {}
        for ev in self.stack:
            seat = ev.get("seat")
            played_in = race.round
            replay_one(race, ev)
            if ev.get("t") in ("speed", "hold", "block") and isinstance(ev.get("v"), int):
                moved_at[seat] = ev["v"]
            if ev.get("t") == "end" and isinstance(seat, int):
                c = race.cars[seat]
                points[seat].append((played_in, moved_at.pop(seat, c.speed), c.tyre, c.brake))
        return points

    # ---- decisions ----------------------------------------------------------------------------------

    def _act(self, ev, source_seat=None, taken=None):
        """Apply a decision to the table, log it (with the dashboard event that made it, if any), and queue
        what the dashboards must be told."""
        seat = self.race.seat
        visited_from = seat
        if source_seat is not None and (self.race.game_over or source_seat != seat):
            # A dashboard's event for a turn that has ended (the table ended it first, or a late resend).
            raise turn.Stale("the race is over: nothing changed" if self.race.game_over
                             else "already done: that turn has ended")
        self.race.do(ev)  # RuleError: refused, nothing changed, nothing logged
        try:
            self._record(ev, taken)
        except LogError:
            self.race = self._rebuild()  # the log is the truth: what it lacks did not happen
            raise
        self._tell(ev, seat, visited_from, source_seat)
        return ev

    # The table's own decisions. Each is checked against the turn model first (companion/f1/turn.py):
    # token=None means "now" (tests, scripts); a token from the screen that is no longer the table's is refused
    # with turn.Stale, and an action the model withholds with its reason. Either way nothing changes.

    def token(self):
        """The turn and step the table is at: the screen shows its actions with it and sends it back."""
        race = self.race
        return turn.Token(self.game_id, race.round, race.seat, len(self.steps))

    def actions(self):
        """{name: turn.Action}: what the rules allow now (worked out once a step)."""
        step = len(self.steps)
        if self._offer is None or self._offer[0] != step:
            self._offer = (step, turn.actions(self))
        return self._offer[1]

    def phase(self):
        return turn.phase(self)

    def _check(self, name, token):
        turn.check(self, name, token, self.actions())

    def set_speed(self, v, card=None, token=None):
        if card is None:
            self._check("speed", token)
        elif token is not None and turn.stale_reason(self, token, "speed"):
            raise turn.Stale(turn.stale_reason(self, token, "speed"))
        return self._act({"t": "speed", "seat": self.race.seat, "v": v, "card": card})

    def hold(self, v, token=None):
        self._check("hold", token)
        return self._act({"t": "hold", "seat": self.race.seat, "v": v})

    def corner(self, safety, special=0, token=None, where=None):
        """A band crossed: `where` = (corner, band, lane) on the track, so that a band is rolled for once a move."""
        self._check("corner", token)
        ev = {"t": "corner", "seat": self.race.seat, "safety": safety, "special": special}
        if where is not None:
            where = [int(x) for x in where]
            if len(where) < 2 or not 0 <= where[0] < len(self.track.corners) \
                    or not 0 <= where[1] < len(self.track.corners[where[0]][1]):
                raise RuleError("corner", "no such corner or band")
            if (where[0], where[1]) in turn.bands_taken(self):
                raise RuleError("corner", turn.band_taken_reason(self.track, where[0], where[1]))
            ev["where"] = where  # kept in the log beside the decision; the rules do not read it
        same = self._keep_speed()
        ev["mph"] = self.race.cars[self.race.seat].speed  # the speed the band was taken at (for the words)
        return self._said_same(self._act(ev), same)

    def block(self, v, token=None):
        self._check("block", token)
        same = self._keep_speed()
        return self._said_same(self._act({"t": "block", "seat": self.race.seat, "v": v}), same)

    def _keep_speed(self):
        """A move action (a band, a block, the pit, the line) with no speed set this turn: the car keeps its
        speed, logged as its speed decision first, as End turn does. Returns the speed kept, or None. (The
        action was checked on the race with that decision made: turn.actions.)"""
        keep = turn.same_speed(self.race)
        if keep is None:
            return None
        self._act(dict(keep))
        return keep["v"]

    @staticmethod
    def _said_same(ev, same):
        return ev if same is None else dict(ev, same=same)

    def play_card(self, code, clear=1, token=None):
        self._check("card", token)
        return self._act({"t": "card", "seat": self.race.seat, "card": code, "clear": clear})

    def lap(self, over=0, token=None):
        """The car crossed the line, not on its last lap (that is finish()); spaces past the line count only there."""
        self._check("lap", token)
        same = self._keep_speed()
        return self._said_same(self._act({"t": "lap", "seat": self.race.seat, "over": over}), same)

    def finish(self, over=0, token=None):
        """The car crossed the line on its last lap, `over` spaces past it."""
        self._check("finish", token)
        same = self._keep_speed()
        return self._said_same(self._act({"t": "lap", "seat": self.race.seat, "over": over}), same)

    def pit(self, token=None):
        self._check("pit", token)
        same = self._keep_speed()
        return self._said_same(self._act({"t": "pit", "seat": self.race.seat}), same)

    def end_turn(self, token=None):
        """End the turn. With no speed set, the car keeps its speed: that is logged as a speed decision of its own
        (the returned event then has "same": the speed kept)."""
        self._check("end_turn", token)
        car = self.race.cars[self.race.seat]
        same = None
        if not car.speed_set:
            same = car.speed
            self._act({"t": "speed", "seat": self.race.seat, "v": same, "card": None, "same": 1})
        ev = self._act({"t": "end", "seat": self.race.seat})
        if same is not None:
            ev = dict(ev, same=same)
        return ev

    def undo(self, token=None):
        """Take back the last decision in force. Returns it."""
        self._check("undo", token)
        last = self.stack[-1]
        self._record({"t": "undo"})
        self.race = self._rebuild()
        self._resync_all()
        return last

    # ---- seats (pair() and seat_of() are SeatedReferee's) --------------------------------------------

    def _pair_refused(self, seat):
        if not isinstance(seat, int) or not 0 <= seat < len(self.race.cars):
            return RuleError("pair", "no such seat")
        return None

    def _paired(self, seat):
        self.believed[seat] = Car(self.race.laps, self.race.rules)  # unknown: make the next check sync
        self._resync_all()

    # ---- what the dashboards send -------------------------------------------------------------------

    def on_dashboard_event(self, seat, name, args, taken=None):
        """A player acted on a dashboard (it has already applied it there). Mirror it on the table; if the
        table refuses, push the table's state back to that dashboard. Returns the error or None.

        taken=(dashboard id, event id): the event is taken once per game, across restarts: one taken already
        (before a crash that ate its ack) changes nothing and returns None."""
        if self._taken_before(taken):
            return None
        why = schema.event_problem(name, args)  # (the link checked it already; a caller of its own may not have)
        if why is None and name not in _DASHBOARD_EVENTS:
            why = "unknown dashboard event"
        if why is not None:
            self._resync_seat(seat)
            self._refused(taken)
            return RuleError("event", why)
        ev = _DASHBOARD_EVENTS[name]
        decision = {"t": ev, "seat": seat}
        for k in ("v", "card", "over", "clear"):
            if k in args:
                decision[k] = args[k]
        try:
            self._act(decision, source_seat=seat, taken=taken)
        except RuleError as e:
            self._resync_seat(seat)
            self._refused(taken)
            return e
        return None

    def reconcile(self, seat, snapshot):
        """A dashboard showed its whole state (hello, or state frame with nothing in flight): if it is not
        what the table holds, the table's state goes back to it, once. Returns 1 if a sync was queued.

        Commands still queued for that seat mean the snapshot is older than what they will make: nothing to
        compare yet (their acks bring the state after them)."""
        if self._queued_for(seat):
            return 0
        if snapshot == self.race.cars[seat].snapshot():
            self.believed[seat] = self.race.cars[seat].copy()
            return 0
        try:
            if schema.snapshot_problem(snapshot) is not None:  # one the rules could not even read
                raise RuleError("snapshot", "unreadable")
            self.believed[seat] = Car.from_snapshot(snapshot)
        except RuleError:
            self.believed[seat] = Car(self.race.laps, self.race.rules)
        return self._resync_seat(seat)

    # ---- commands (queued by SeatedReferee._queue, taken by take_commands) ------------------------------

    def _tell(self, ev, seat, visited_from, source_seat):
        t = ev["t"]
        cmds = []  # (seat, name, args)
        if source_seat is not None:
            _mirror_own_action(self.believed[seat], ev)
        if t == "corner":
            pen = ev["pen"]
            dice = ev["dice"][0] * 10 + ev["dice"][1] if ev["dice"] else 0
            args = {"spin": pen[0], "tyre": pen[1], "brake": pen[2], "dice": dice}
            if ev.get("case") == charts.WAIVED:  # what the corner spent goes with its penalty: no sync for it
                args["special" if ev.get("special") else "superb"] = 0
            cmds.append((seat, "pen", args))
        elif t == "block":
            cmds.append((seat, "speed", {"v": ev["v"]}))
        elif t == "lap" and source_seat is None:
            cmds.append((seat, "lap", {}))
        elif t == "pit":
            cmds.append((seat, "pit", {"card": ev["pit"]}))
        if ev.get("drawn") and t in ("pit", "card", "speed"):
            cmds.append((seat, "deal", {"card": ev["drawn"]}))
        if t == "end":
            if source_seat is None:
                cmds.append((seat, "turn", {"on": 0}))
            if not self.race.game_over:
                n = len(self.race.cars)
                s = (visited_from + 1) % n
                for _ in range(n * 12):
                    cmds.append((s, "turn", {"on": 1}))
                    if s == self.race.seat:
                        break
                    s = (s + 1) % n
        for s, name, args in cmds:
            try:
                apply_command(self.believed[s], name, args)
                self._queue(s, name, args)
            except RuleError:
                pass  # the dashboard would refuse it: the check below sends the whole state instead
        for s in range(len(self.race.cars)):
            self._resync_seat(s)

    def _resync_seat(self, seat):
        truth = self.race.cars[seat]
        if self.believed[seat].snapshot() == truth.snapshot():
            return 0
        self._queue(seat, "sync", truth.snapshot())
        self.believed[seat] = truth.copy()
        return 1

    def _resync_all(self):
        for s in range(len(self.race.cars)):
            self._resync_seat(s)


# Dashboard event name -> table decision.
_DASHBOARD_EVENTS = {"speed": "speed", "hold": "hold", "card": "card", "lap": "lap", "end": "end"}


def _mirror_own_action(car, ev):
    """The dashboard applied its own action already: do the same to what we believe it holds."""
    t = ev["t"]
    try:
        if t == "speed":
            car.set_speed(ev["v"], ev.get("card"))
        elif t == "hold":
            car.hold(ev["v"])
        elif t == "card":
            car.play_card(ev["card"])
        elif t == "lap":
            car.lap()
        elif t == "end":
            car.end_turn()
    except RuleError:
        pass  # it disagrees with what we thought: the resync check sends the table's state
