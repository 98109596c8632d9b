"""The turn model: where the turn stands (its phase) and which actions the rules allow now.

The race screen is a view of this: it shows live exactly the actions offered here, and every action it sends
back carries the token it was shown with. A token names the game, the turn (round and seat) and the step (how
many decisions the log holds), so a second tap, a tap from a screen that was about to change, or a tap for a turn
that has ended is refused with a sentence and changes nothing.

Nothing here is a second copy of the rules: whether an action is allowed, and what a speed costs, is found by
trying it on a copy of the race or of the car (shared_rules/f1). The model only adds what a table needs on top:
a band is rolled for once a move, the race is over when it is over (only Undo stays live then, so that a wrong
last move can be taken back), a car at 0 mph does not move, and End turn with no speed set means "same speed" (or
is unavailable when the rules want a speed).
"""

import copy
from collections import namedtuple

from shared_rules.errors import RuleError
from shared_rules.f1 import cards, charts
from shared_rules.f1.status import FINISHED, PIT, RACING, SPUN

# The turn and step an action was shown for. `step` counts the log's decisions and undos, so it only grows.
Token = namedtuple("Token", "game round seat step")

# What the screen may ask for, by name.
ACTIONS = ("speed", "hold", "corner", "block", "pit", "lap", "finish", "card", "end_turn", "undo")

# Where a turn stands.
PHASES = ("speed", "move", "corners", "pit", "finish", "end", "over")

# The log entry each action writes ("lap" and "finish" both count the line).
EVENT_OF = {"speed": "speed", "hold": "hold", "corner": "corner", "block": "block", "pit": "pit", "lap": "lap",
            "finish": "lap", "card": "card", "end_turn": "end", "undo": "undo"}

SPEEDS = tuple(range(0, charts.MAX_SPEED + 1, charts.STEP))  # the speedometer: 0 to 160, always in this order

OVER = "the race is over"
STILL = "at 0 mph the car does not move"


class Action:
    """One action as the screen shows it: live or not (and why not), and the token to send back with it."""

    __slots__ = ("name", "live", "reason", "token")

    def __init__(self, name, live, reason, token):
        self.name = name
        self.live = bool(live)
        self.reason = "" if live else reason
        self.token = token

    def __repr__(self):
        return "Action(%s, %s%s)" % (self.name, "live" if self.live else "off", "" if self.live else ": " + self.reason)


class SpeedOption:
    """One speed on the picker: v, live (and the reason if not), its cost before the tap ("brake 1",
    "brake 2 tyre 1", "SPIN" or ""), whether it spins, and whether the tap must be confirmed (a spin)."""

    __slots__ = ("v", "live", "reason", "cost", "spins", "confirm", "note")

    def __init__(self, v, live, reason="", cost="", spins=0, confirm=False, note=""):
        self.v = v
        self.live = bool(live)
        self.reason = "" if live else reason
        self.cost = cost
        self.spins = spins
        self.confirm = confirm
        self.note = note  # a word more, e.g. "optional" for a blocked car's raise

    def __iter__(self):  # (v, live, reason, cost, spins, confirm), as a tuple would unpack
        return iter((self.v, self.live, self.reason, self.cost, self.spins, self.confirm))

    def __eq__(self, other):
        return isinstance(other, SpeedOption) and tuple(self) + (self.note,) == tuple(other) + (other.note,)

    def __repr__(self):
        return "SpeedOption(%d, %s, %r, %r)" % (self.v, "live" if self.live else "off", self.reason or self.note,
                                                self.cost)


class Stale(RuleError):
    """An action sent with a token that is no longer the table's: nothing was done."""

    def __init__(self, message):
        super().__init__("stale", message)


def cost_text(cost):
    """(brake, tyre, spins) as the picker shows it before the tap."""
    brake, tyre, spins = cost
    if spins:
        return "SPIN"
    parts = []
    if brake:
        parts.append("brake %d" % brake)
    if tyre:
        parts.append("tyre %d" % tyre)
    return " ".join(parts)


# ---- the current turn, read from the log -------------------------------------------------------------------

def this_turn(ref):
    """The decisions in force since the current turn began (the last "end" in the stack), oldest first."""
    out = []
    for ev in reversed(ref.stack):
        if ev.get("t") == "end":
            break
        out.append(ev)
    out.reverse()
    return out


def bands_taken(ref):
    """The (corner, band) pairs already rolled for in this move."""
    taken = set()
    for ev in this_turn(ref):
        where = ev.get("where")
        if ev.get("t") == "corner" and isinstance(where, list) and len(where) >= 2:
            taken.add((where[0], where[1]))
    return taken


def band_taken_reason(track, corner, band):
    """Why a band already rolled for in this move cannot be rolled for again (the screen shows it)."""
    name = track.corners[corner][0]
    if len(track.corners[corner][1]) > 1:
        return "%s band %d is already rolled for: choose the next band" % (name, band + 1)
    return "%s is already rolled for in this move" % name


def moves_on(ref):
    """True if the car can move this turn: a speed above 0, or extra spaces from a tactic card."""
    car = ref.race.cars[ref.race.seat]
    return car.speed > 0 or any(ev.get("t") == "card" and ev.get("spaces") for ev in this_turn(ref))


def same_speed(race):
    """The decision a move action makes for a car with no speed set this turn: it keeps its speed (as End turn
    does), or None where it cannot (its speed is set already, or the rules want a new one)."""
    car = race.cars[race.seat]
    if car.speed_set or same_speed_reason(car):
        return None
    return {"t": "speed", "seat": race.seat, "v": car.speed, "card": None, "same": 1}


def moving_race(race):
    """The race as a move action finds it: with the same speed kept if none is set (a copy), else the race."""
    keep = same_speed(race)
    if keep is None:
        return race
    moved = race_copy(race, seat_only=True)
    moved.do(keep)
    return moved


def phase(ref):
    race = ref.race
    if race.game_over or race.seat < 0:
        return "over"
    car = race.cars[race.seat]
    if not car.speed_set:
        return "speed"
    done = [ev.get("t") for ev in this_turn(ref)]
    if car.status == PIT:
        return "pit" if "pit" in done else "end"
    if car.status == FINISHED:
        return "finish"
    if car.status != RACING:
        return "end"  # spun off (or out): nothing left but to end the turn
    if "corner" in done or "block" in done:
        return "corners"
    return "move"


# ---- trying an action on copies ---------------------------------------------------------------------------

def race_copy(race, seat_only=False):
    """A copy of the race to try a decision on. Not copy.deepcopy (3 ms, the log and setup included): each
    attribute copied one level, the cars and the dice by _object_copy; the log left out. (Not Car.copy: it goes
    through a snapshot checked field by field, and the table tries six decisions a step on six cars each.)
    A decision tried on it never touches the race.

    seat_only: only the car whose turn it is is copied, the others are the race's own. For trying any decision
    but "end": the rules give a decision its own car only (shared_rules/f1/race_events.py), and only the end of a
    turn, starting the next, touches another car. (Six cars copied for each of the six tries of a step were most
    of the turn model's cost on a tap.)

    (Nor the copy module at all: CPython's free lists reuse the memory of the dicts it made for the game log's
    new entries, and tracemalloc then counts the log's growth against copy.py, which tests/table/test_soak.py
    reads as the tablet's machinery growing.)"""
    out = object.__new__(type(race))
    for name, value in vars(race).items():
        kind = type(value)
        if kind is list:
            value = list(value)  # of strings, numbers and tuples, but the cars (below)
        elif kind is dict:
            value = dict(value)
        elif kind not in (int, bool, str, tuple, type(None)):
            value = _object_copy(value)
        setattr(out, name, value)
    if seat_only:
        out.cars[race.seat] = _object_copy(race.cars[race.seat])
    else:
        out.cars = [_object_copy(car) for car in race.cars]
    out.events = []
    out.keep_log = 0
    return out


def _object_copy(value):
    """A copy of an object of plain attributes (a car: integers, its status and its hand; the dice: one integer)."""
    if not hasattr(value, "__dict__"):
        return copy.deepcopy(value)
    out = object.__new__(type(value))
    out.__dict__ = {k: (list(v) if isinstance(v, list) else v) for k, v in vars(value).items()}
    return out


def _try(race, ev):
    """'' if the rules accept the decision (never "end") on a copy of the race, else their reason."""
    try:
        race_copy(race, seat_only=ev.get("t") != "end").do(dict(ev, seat=race.seat))
    except RuleError as e:
        return str(e)
    return ""


def _each_speed(over, offer):
    """Every speed of the speedometer, in order, as offer(v) makes its SpeedOption (trying v on a copy of the car):
    a speed the rules refuse (RuleError) is unavailable with their reason; every one is once the race is over."""
    out = []
    for v in SPEEDS:
        if over:
            out.append(SpeedOption(v, False, OVER))
            continue
        try:
            out.append(offer(v))
        except RuleError as e:
            out.append(SpeedOption(v, False, str(e)))
    return out


def _priced(v, cost, note=""):
    """A live speed with its cost (brake, tyre, spins) shown before the tap; a spin asks to confirm."""
    return SpeedOption(v, True, "", cost_text(cost), cost[2], bool(cost[2]), note)


def speed_options(car, over=False):
    """The picker: every speed of the speedometer, in order, each tried on a copy of the car."""
    return _each_speed(over, lambda v: _priced(v, _object_copy(car).set_speed(v)))


def hold_options(car, over=False):
    """Blocked in the pit or on a spin-off point: each speed tried as a wait on a copy of the car."""

    def offer(v):
        _object_copy(car).hold(v)
        return SpeedOption(v, True)

    return _each_speed(over, offer)


def block_options(car, over=False, still=False):
    """A blocked car: each speed tried on a copy of the car. A slower blocker's speed is forced (with its
    braking cost, or a spin); a faster one's is an optional raise, within the turn's +60."""

    def offer(v):
        if car.speed_set and still:
            return SpeedOption(v, False, STILL)
        if v == car.speed:
            return SpeedOption(v, False, "the blocker's speed must differ from yours")
        return _priced(v, _object_copy(car).force_speed(v), "optional" if v > car.speed else "")

    return _each_speed(over, offer)


def same_speed_reason(car):
    """'' if the car may end its turn keeping the speed it has, else why it must set one."""
    try:
        _object_copy(car).set_speed(car.speed)
    except RuleError as e:
        return "set the speed first: %s" % e
    return ""


# ---- the offer ------------------------------------------------------------------------------------------------

def actions(ref):
    """{name: Action} for every name in ACTIONS, as the rules stand now."""
    token = ref.token()
    race = ref.race
    if phase(ref) == "over":
        # Every race action is off; Undo stays live: a wrong last Finish is taken back and the race goes on.
        offer = {name: Action(name, False, OVER, token) for name in ACTIONS}
        offer["undo"] = Action("undo", bool(ref.stack), "nothing to undo", token)
        return offer
    car = race.cars[race.seat]
    # A move action without a new speed keeps the speed the car has (said once on the screen), as End turn does:
    # the move actions are tried on the race with that decision made.
    moving_in = moving_race(race)
    mover = moving_in.cars[race.seat]
    still_moving = mover.speed_set and not (mover.speed > 0 or moves_on(ref))
    halt = STILL if car.speed_set else "set the speed first"  # at 0 mph with no speed set: 0 kept moves nowhere
    reasons = {}
    # Setting the speedometer.
    if car.speed_set:
        reasons["speed"] = "speed already set this turn"
    else:
        reasons["speed"] = "" if any(o.live for o in speed_options(car)) else "no speed can be set now"
    if car.speed_set:
        reasons["hold"] = "speed already set this turn"
    elif car.status not in (SPUN, PIT):
        reasons["hold"] = "only a car in the pit or spun off can wait"
    else:
        reasons["hold"] = "" if any(o.live for o in hold_options(car)) else "waiting: speed up to 60"
    # During the move.
    moving = _try(moving_in, {"t": "corner", "safety": charts.MAX_SPEED})  # set the speed first / not on the track
    reasons["corner"] = moving or (halt if still_moving else "")
    if not mover.speed_set:
        reasons["block"] = "set the speed first"
    else:
        reasons["block"] = "" if any(o.live for o in block_options(mover, still=still_moving)) else (
            halt if still_moving else "only a moving car is blocked")
    reasons["pit"] = _try(moving_in, {"t": "pit"}) or (halt if still_moving else "")
    line = _try(moving_in, {"t": "lap", "over": 0}) or (halt if still_moving else "")
    last = car.laps_left == 1
    reasons["lap"] = line or ("last lap: that is the finish" if last else "")
    reasons["finish"] = line or ("" if last else "not the last lap yet")
    reasons["card"] = _card_reason(race, car)
    reasons["end_turn"] = "" if car.speed_set else same_speed_reason(car)
    reasons["undo"] = "" if ref.stack else "nothing to undo"
    return {name: Action(name, not reasons[name], reasons[name], token) for name in ACTIONS}


def _card_reason(race, car):
    """'' if a tactic card in the hand may be played now from the table (Good Carburettor goes with the speed,
    on the dashboard), else why not."""
    playable = [c for c in car.hand if c != cards.CARBURETTOR]
    if not playable:
        return "no tactic card to play now"
    reason = ""
    for code in playable:
        reason = _try(race, {"t": "card", "card": code, "clear": 1})
        if not reason:
            return ""
    return reason


def stale_reason(ref, token, name):
    """Why an action sent with `token` is refused, or '' if the token is the table's own."""
    now = ref.token()
    if token == now:
        return ""
    if not isinstance(token, tuple) or len(token) != 4 or token[0] != now.game:
        return "that screen was of another game: nothing changed"
    token = Token(*token)
    since = ref.steps[token.step:] if isinstance(token.step, int) and 0 <= token.step <= now.step else None
    if since is None:
        return "that screen was out of date: nothing changed"
    if token.seat == -1 and now.seat != -1:  # shown once the race was over, and it is back in play since
        if EVENT_OF.get(name) in since:
            return "already done"
        return "the race is back in play: nothing changed, look again"
    if (token.round, token.seat) != (now.round, now.seat):
        who = ref.race.names[token.seat] if isinstance(token.seat, int) and 0 <= token.seat < len(
            ref.race.names) else "that"
        return "already done: %s's turn has ended" % who
    if EVENT_OF.get(name) in since:
        return "already done"
    return "the table changed since (%s): nothing done, look again" % ", ".join(
        SINCE_WORDS.get(t, str(t)) for t in since)


# What happened since a stale screen was drawn, in words.
SINCE_WORDS = {"speed": "a speed set", "hold": "a wait", "corner": "a band rolled for", "block": "a block",
               "card": "a tactic card", "lap": "the line crossed", "pit": "a pit stop", "end": "a turn ended",
               "undo": "an undo"}


def check(ref, name, token, offer=None):
    """Raise Stale or RuleError (nothing changes) unless `name` may be done now with this token."""
    if token is not None:
        reason = stale_reason(ref, token, name)
        if reason:
            raise Stale(reason)
    a = (offer or actions(ref))[name]
    if not a.live:
        raise RuleError(name, a.reason)
