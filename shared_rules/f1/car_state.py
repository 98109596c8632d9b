# The gauges and turn flags of one car, where it stands in the race, its hand of tactic cards, its turns and its
# snapshot (the saved file and the wire). The speed and table rules are in car.py. (Two modules, not one: a Pico
# given .py files compiles each module in one go, and the whole car does not compile in 64 KB.)

from shared_rules.errors import RuleError, text
from shared_rules.f1 import cards, charts

try:
    from micropython import const  # _UNDERSCORE constants vanish at compile time: no name, no dict entry
except ImportError:  # CPython: const(x) is just the int x
    const = int

# Where a car stands in the race (re-exported by status.py: defined here, the dashboard loads one module less).
RACING = "racing"
SPUN = "spun"  # on a spin-off point (or beside the track after a forced braking spin)
PIT = "pit"
FINISHED = "finished"
OUT = "out"  # only with the WORN_OUT variant
STATUSES = (RACING, SPUN, PIT, FINISHED, OUT)

MAX_LAPS = const(10)
_MAX_HAND = const(40)

# The longer messages, one a line, numbered by the names below (see errors.text): a string constant of its own
# would be a heap object of ~70 bytes on a Pico, a line here costs its length.
_TEXTS = """\
laps must be 1 to %d
unknown rules variant
snapshot must be a mapping
bad %s in snapshot
turn already started
not your turn
unknown card
card not in hand
one tactic card per turn
no card after a penalty roll
only at the start of a turn
set your speed first
not when spun off or in the pit
Good Carburettor is played with the speed
hand is full
"""
_LAPS_RANGE = const(0)
_UNKNOWN_VARIANT = const(1)
_SNAPSHOT_NOT_DICT = const(2)
_BAD_SNAPSHOT = const(3)
_TURN_STARTED = const(4)
_NOT_YOUR_TURN = const(5)
_UNKNOWN_CARD = const(6)
_NOT_IN_HAND = const(7)
_ONE_CARD = const(8)
_AFTER_ROLL = const(9)
_AT_START_ONLY = const(10)
_SPEED_FIRST = const(11)
_NOT_SPUN_OR_PIT = const(12)
_CARB_WITH_SPEED = const(13)
_HAND_FULL = const(14)


# Snapshot keys holding plain integers, and the highest value of each (the lowest is 0; laps, at least 1, is
# checked apart). A tuple of names and a bytes of limits: seventeen (name, low, high) tuples cost ~1 KB more.
_INT_FIELDS = ("laps", "laps_left", "speed", "tyre", "brake", "miss", "cap", "fixed", "special", "rules", "my_turn",
               "speed_set", "rolled", "card_used", "superb", "lap_done", "start_speed")
_INT_MAX = bytes((MAX_LAPS, MAX_LAPS, charts.MAX_SPEED, charts.TYRE_MAX, charts.BRAKE_MAX, 9, charts.MAX_SPEED,
                  charts.MAX_SPEED, 1, charts.ALL_VARIANTS, 1, 1, 1, 1, 1, 1, charts.MAX_SPEED))


class CarState:
    def __init__(self, laps=3, rules=0):
        if not isinstance(laps, int) or not 1 <= laps <= MAX_LAPS:
            raise RuleError("laps", text(_TEXTS, _LAPS_RANGE) % MAX_LAPS)
        if not isinstance(rules, int) or rules & ~charts.ALL_VARIANTS:
            raise RuleError("rules", text(_TEXTS, _UNKNOWN_VARIANT))
        self.laps = laps
        self.laps_left = laps
        self.rules = rules
        self.speed = 0
        self.tyre = 0
        self.brake = 0
        self.status = RACING
        self.miss = 0  # moves still to miss (pit cards)
        self.cap = 0  # highest speed allowed at the next setting after a spin (0: no such limit)
        self.fixed = 0  # starting speed imposed by a pit card for the first move out (0: none)
        self.special = 0  # Special Tyres held: one bend at up to 40 over without penalty
        self.hand = []
        # This turn's progress.
        self.my_turn = 0
        self.speed_set = 0
        self.rolled = 0  # dice thrown for a penalty: no tactic card after that
        self.card_used = 0
        self.superb = 0  # Superb Driving played, waiting for its corner
        self.lap_done = 0  # the line was crossed this turn (a pit stop then does not count it again)
        self.start_speed = 0  # the speedometer when this turn began (the block's +60 is measured from it)

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
            raise RuleError("snapshot", text(_TEXTS, _SNAPSHOT_NOT_DICT))
        hand = d.get("hand")
        bad = None  # the first thing wrong, named in one message (one message string costs less heap than five)
        for i, name in enumerate(_INT_FIELDS):
            v = d.get(name)
            hi = _INT_MAX[i]
            # The fields that go up to MAX_SPEED are the speeds: they also move in steps of 20.
            if (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= hi
                    or hi == charts.MAX_SPEED and v % charts.STEP):
                bad = name
                break
        else:
            # (rules in 0..ALL_VARIANTS has no unknown variant bit.)
            if not 1 <= d["laps"] or d["laps_left"] > d["laps"]:
                bad = "laps"
            elif d.get("status") not in STATUSES:
                bad = "status"
            elif not isinstance(hand, list) or len(hand) > _MAX_HAND:
                bad = "hand"
            else:
                for c in hand:
                    if c not in cards.TACTIC_TIMING:
                        bad = "card"
        if bad:
            raise RuleError("snapshot", text(_TEXTS, _BAD_SNAPSHOT) % bad)
        car = cls(d["laps"], d["rules"])
        for name in _INT_FIELDS:
            setattr(car, name, d[name])
        car.status = d["status"]
        car.hand = list(d["hand"])  # checked above (pyright cannot follow the for-else)
        return car

    def replace_with(self, other):
        for name in _INT_FIELDS:
            setattr(self, name, getattr(other, name))
        self.status = other.status
        self.hand = list(other.hand)

    # ---- turns ----------------------------------------------------------------------------------

    def start_turn(self):
        """Returns 1 if the car plays this turn, 0 if it misses it (pit card) or cannot move."""
        if self.my_turn:
            raise RuleError("turn", text(_TEXTS, _TURN_STARTED))
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

    def _check_my_turn(self):
        # A car that finishes or drops out during its turn still ends that turn itself.
        if not self.my_turn:
            raise RuleError("turn", text(_TEXTS, _NOT_YOUR_TURN))

    def end_turn(self):
        self._check_my_turn()
        self.my_turn = 0
        self.superb = 0

    # ---- tactic cards ---------------------------------------------------------------------------

    def check_card(self, code):
        """Raises RuleError if the card cannot be played now (Good Carburettor goes with set_speed)."""
        self._check_my_turn()
        if code not in cards.TACTIC_TIMING:
            raise RuleError("card", text(_TEXTS, _UNKNOWN_CARD))
        if code not in self.hand:
            raise RuleError("card", text(_TEXTS, _NOT_IN_HAND))
        if self.card_used:
            raise RuleError("card", text(_TEXTS, _ONE_CARD))
        if self.rolled:
            raise RuleError("card", text(_TEXTS, _AFTER_ROLL))
        timing = cards.TACTIC_TIMING[code]
        if timing == cards.AT_START:
            if self.speed_set:
                raise RuleError("card", text(_TEXTS, _AT_START_ONLY))
            return
        if not self.speed_set:
            raise RuleError("card", text(_TEXTS, _SPEED_FIRST))
        # Left: the end-of-turn cards (also for a car that has just finished) and Superb Driving (racing only).
        if self.status != RACING and (timing == cards.DURING or self.status != FINISHED):
            raise RuleError("card", text(_TEXTS, _NOT_SPUN_OR_PIT))

    def play_card(self, code):
        """Play a move card (extra spaces, returned) or Superb Driving (armed for the next corner)."""
        if code == cards.CARBURETTOR:
            raise RuleError("card", text(_TEXTS, _CARB_WITH_SPEED))
        self.check_card(code)
        self.hand.remove(code)
        self.card_used = 1
        if code == cards.SUPERB:
            self.superb = 1
            return 0
        return cards.EXTRA_SPACES[code]

    def take_card(self, code):
        if code not in cards.TACTIC_TIMING:
            raise RuleError("card", text(_TEXTS, _UNKNOWN_CARD))
        if len(self.hand) >= _MAX_HAND:
            raise RuleError("card", text(_TEXTS, _HAND_FULL))
        self.hand.append(code)

