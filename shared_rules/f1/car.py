# One car's dashboard: the gauges a player owns and every rule that moves them.
# The Pico dashboard runs this for its own car; the tablet runs the same code for its mirror of each car,
# so the two can never disagree on a rule. Every method checks everything before it changes anything.

from shared_rules.errors import RuleError
from shared_rules.f1 import cards
from shared_rules.f1.charts import (
    BRAKE_MAX,
    MAX_SPEED,
    STEP,
    TYRE_MAX,
    ALL_VARIANTS,
)

from shared_rules.f1.status import RACING, SPUN, PIT, FINISHED, OUT, STATUSES  # noqa: F401  (re-exported)
from shared_rules.f1.car_speed import CarSpeed
from shared_rules.f1.car_state import MAX_HAND, MAX_LAPS


# Snapshot keys holding plain integers, and the highest value of each (the lowest is 0; laps, at least 1, is
# checked apart). Two flat tuples: seventeen (name, low, high) tuples cost about 1 KB more of a Pico's heap.
_INT_FIELDS = ("laps", "laps_left", "speed", "tyre", "brake", "miss", "cap", "fixed", "special", "rules", "my_turn",
               "speed_set", "rolled", "card_used", "superb", "lap_done", "start_speed")
_INT_MAX = (MAX_LAPS, MAX_LAPS, MAX_SPEED, TYRE_MAX, BRAKE_MAX, 9, MAX_SPEED, MAX_SPEED, 1, ALL_VARIANTS, 1, 1, 1, 1, 1,
            1, MAX_SPEED)


class Car(CarSpeed):
    """One car. Its state, wear and tactic cards are in CarState, speed rules in CarSpeed:
    small modules, because a Pico compiles each one in its own little heap."""

    # ---- snapshot -------------------------------------------------------------------------------

    def snapshot(self):
        d = {"status": self.status, "hand": list(self.hand)}
        for name in _INT_FIELDS:
            d[name] = getattr(self, name)
        return d

    @classmethod
    def from_snapshot(cls, d):
        """Rebuild a car from a snapshot, refusing anything a real dashboard could never show."""
        if not isinstance(d, dict):
            raise RuleError("snapshot", "snapshot must be a mapping")
        hand = d.get("hand")
        bad = None  # the first thing wrong, named in one message (one message string costs less heap than five)
        for i, name in enumerate(_INT_FIELDS):
            v = d.get(name)
            hi = _INT_MAX[i]
            # The fields that go up to MAX_SPEED are the speeds: they also move in steps of 20.
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= hi or hi == MAX_SPEED and v % STEP:
                bad = name
                break
        else:
            # (rules in 0..ALL_VARIANTS has no unknown variant bit.)
            if not 1 <= d["laps"] or d["laps_left"] > d["laps"]:
                bad = "laps"
            elif d.get("status") not in STATUSES:
                bad = "status"
            elif not isinstance(hand, list) or len(hand) > MAX_HAND:
                bad = "hand"
            else:
                for c in hand:
                    if c not in cards.TACTIC_TIMING:
                        bad = "card"
        if bad:
            raise RuleError("snapshot", "bad %s in snapshot" % bad)
        car = cls(d["laps"], d["rules"])
        for name in _INT_FIELDS:
            setattr(car, name, d[name])
        car.status = d["status"]
        car.hand = list(d["hand"])  # checked above (pyright cannot follow the for-else)
        return car

    def copy(self):
        return Car.from_snapshot(self.snapshot())

    def replace_with(self, other):
        for name in _INT_FIELDS:
            setattr(self, name, getattr(other, name))
        self.status = other.status
        self.hand = list(other.hand)

    # ---- speed at the start of a turn -----------------------------------------------------------

    def penalty(self, spins, tyre, brake):
        """A corner or blocking outcome resolved by the table."""
        if spins not in (0, 1) or not 0 <= tyre <= TYRE_MAX or not 0 <= brake <= BRAKE_MAX:
            raise RuleError("penalty", "impossible penalty")
        self._check_my_turn()
        if spins:
            self.spin()
        else:
            self._wear(tyre, brake)

    def lap(self):
        """The car landed on or crossed the finish line."""
        self._check_my_turn()
        if self.laps_left <= 0:
            raise RuleError("lap", "no laps left")
        if self.lap_done:
            raise RuleError("lap", "lap already counted this turn")
        self.laps_left -= 1
        self.lap_done = 1
        if self.laps_left == 0:
            self.status = FINISHED
        return self.laps_left

    def check_pit(self):
        self._check_my_turn()
        if self.status != RACING or not self.speed_set:
            raise RuleError("pit", "drive into the pit during a move")
        if self.laps_left - (0 if self.lap_done else 1) < 1:
            raise RuleError("pit", "last lap: no pit stop")

    def pit(self, code):
        """Into the pit at the end of a lap: every dial but the laps back to zero, then the pit card."""
        if code not in cards.PIT_CARDS:
            raise RuleError("pit", "unknown pit card")
        self.check_pit()
        miss, start, _extra, special, _text = cards.PIT_CARDS[code]
        if not self.lap_done:
            self.laps_left -= 1  # the pit stop ends the lap (see docs/rules.md)
            self.lap_done = 1
        self.speed = 0
        self.tyre = 0
        self.brake = 0
        self.cap = 0
        self.superb = 0
        self.status = PIT
        self.miss = miss
        self.fixed = start
        self.special = special

    # ---- turns ----------------------------------------------------------------------------------

    def start_turn(self):
        """Returns 1 if the car plays this turn, 0 if it misses it (pit card) or cannot move."""
        if self.my_turn:
            raise RuleError("turn", "turn already started")
        if self.status == FINISHED or self.status == OUT:
            return 0
        self.speed_set = 0
        self.rolled = 0
        self.card_used = 0
        self.superb = 0
        self.lap_done = 0
        self.start_speed = self.speed
        if self.miss:
            self.miss -= 1
            return 0
        self.my_turn = 1
        return 1

    def end_turn(self):
        self._check_my_turn()
        self.my_turn = 0
        self.superb = 0


# ---- commands the tablet sends to a dashboard, applied through the car's own rules ------------------------
# (Here rather than in a module of their own: a module costs a Pico ~0.4 KB of heap and three qstrs.)


def _int_arg(args, key, lo, hi):
    v = args.get(key, 0)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RuleError("args", "bad %s" % key)
    return v


def apply_command(car, name, args):
    """Apply one command from the tablet. Refused commands raise RuleError and change nothing."""
    if not isinstance(args, dict):
        raise RuleError("args", "arguments must be a mapping")
    if name == "turn":
        if _int_arg(args, "on", 0, 1):
            return car.start_turn()
        return car.end_turn()
    if name == "pen":
        _int_arg(args, "dice", 0, 66)
        return car.penalty(
            _int_arg(args, "spin", 0, 1), _int_arg(args, "tyre", 0, TYRE_MAX), _int_arg(args, "brake", 0, BRAKE_MAX)
        )
    if name == "speed":
        return car.force_speed(_int_arg(args, "v", 0, MAX_SPEED))
    if name == "deal":
        return car.take_card(args.get("card"))
    if name == "take":
        code = args.get("card")
        if code not in car.hand:
            raise RuleError("card", "card not in hand")
        car.hand.remove(code)
        return None
    if name == "lap":
        return car.lap()
    if name == "pit":
        return car.pit(args.get("card"))
    if name == "sync":
        car.replace_with(type(car).from_snapshot(args))
        return None
    raise RuleError("command", "unknown command")
