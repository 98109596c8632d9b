# The gauges and turn flags of one car, where it stands in the race, its hand of tactic cards, its turns and its
# snapshot (the saved file and the wire): what a car is. What the rules do to it is in car.py (Car(CarState)).

from shared_rules.errors import RuleError
from shared_rules.f1 import cards, charts
from shared_rules.f1.status import RACING, FINISHED, OUT, STATUSES

try:
    from micropython import const
except ImportError:  # CPython: const(x) is just the int x
    const = int

MAX_LAPS = const(10)
_MAX_HAND = const(40)

# The snapshot's integer fields and the highest value of each (the lowest is 0; laps, at least 1, is checked apart).
_INT_FIELDS = (
    ("laps", MAX_LAPS),
    ("laps_left", MAX_LAPS),
    ("speed", charts.MAX_SPEED),
    ("tyre", charts.TYRE_MAX),
    ("brake", charts.BRAKE_MAX),
    ("miss", 9),
    ("cap", charts.MAX_SPEED),
    ("fixed", charts.MAX_SPEED),
    ("special", 1),
    ("rules", charts.ALL_VARIANTS),
    ("my_turn", 1),
    ("speed_set", 1),
    ("rolled", 1),
    ("card_used", 1),
    ("superb", 1),
    ("lap_done", 1),
    ("start_speed", charts.MAX_SPEED),
)


class CarState:
    def __init__(self, laps=3, rules=0):
        if not isinstance(laps, int) or not 1 <= laps <= MAX_LAPS:
            raise RuleError("laps", "laps must be 1 to %d" % MAX_LAPS)
        if not isinstance(rules, int) or rules & ~charts.ALL_VARIANTS:
            raise RuleError("rules", "unknown rules variant")
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
        for name, _highest in _INT_FIELDS:
            d[name] = getattr(self, name)
        return d

    @classmethod
    def from_snapshot(cls, d):
        """Rebuild a car from a snapshot, refusing anything a real dashboard could never show."""
        if not isinstance(d, dict):
            raise RuleError("snapshot", "snapshot must be a mapping")
        bad = _first_fault(d)
        if bad:
            raise RuleError("snapshot", "bad %s in snapshot" % bad)
        car = cls(d["laps"], d["rules"])
        for name, _highest in _INT_FIELDS:
            setattr(car, name, d[name])
        car.status = d["status"]
        car.hand = list(d["hand"])
        return car

    def replace_with(self, other):
        for name, _highest in _INT_FIELDS:
            setattr(self, name, getattr(other, name))
        self.status = other.status
        self.hand = list(other.hand)

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

    def _check_my_turn(self):
        # A car that finishes or drops out during its turn still ends that turn itself.
        if not self.my_turn:
            raise RuleError("turn", "not your turn")

    def end_turn(self):
        self._check_my_turn()
        self.my_turn = 0
        self.superb = 0

    # ---- tactic cards ---------------------------------------------------------------------------

    def check_card(self, code):
        """Raises RuleError if the card cannot be played now (Good Carburettor goes with set_speed)."""
        self._check_my_turn()
        if code not in cards.TACTIC_TIMING:
            raise RuleError("card", "unknown card")
        if code not in self.hand:
            raise RuleError("card", "card not in hand")
        if self.card_used:
            raise RuleError("card", "one tactic card per turn")
        if self.rolled:
            raise RuleError("card", "no card after a penalty roll")
        timing = cards.TACTIC_TIMING[code]
        if timing == cards.AT_START:
            if self.speed_set:
                raise RuleError("card", "only at the start of a turn")
            return
        if not self.speed_set:
            raise RuleError("card", "set your speed first")
        # Left: the end-of-turn cards (also for a car that has just finished) and Superb Driving (racing only).
        if self.status != RACING and (timing == cards.DURING or self.status != FINISHED):
            raise RuleError("card", "not when spun off or in the pit")

    def play_card(self, code):
        """Play a move card (extra spaces, returned) or Superb Driving (armed for the next corner)."""
        if code == cards.CARBURETTOR:
            raise RuleError("card", "Good Carburettor is played with the speed")
        self.check_card(code)
        self.use_card(code)
        if code == cards.SUPERB:
            self.superb = 1
            return 0
        return cards.EXTRA_SPACES[code]

    def use_card(self, code):
        """The card, checked playable, leaves the hand: this turn's one card."""
        self.hand.remove(code)
        self.card_used = 1

    def take_card(self, code):
        if code not in cards.TACTIC_TIMING:
            raise RuleError("card", "unknown card")
        if len(self.hand) >= _MAX_HAND:
            raise RuleError("card", "hand is full")
        self.hand.append(code)


def _first_fault(d):
    """The name of the first field of snapshot d that no dashboard could show, or None if there is none."""
    for name, highest in _INT_FIELDS:
        v = d.get(name)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= highest:
            return name
        if highest == charts.MAX_SPEED and v % charts.STEP:
            return name  # the fields that go up to MAX_SPEED are speeds: they move in steps of 20
    # (rules in 0..ALL_VARIANTS has no unknown variant bit.)
    if d["laps"] < 1 or d["laps_left"] > d["laps"]:
        return "laps"
    if d.get("status") not in STATUSES:
        return "status"
    hand = d.get("hand")
    if not isinstance(hand, list) or len(hand) > _MAX_HAND:
        return "hand"
    for code in hand:
        if code not in cards.TACTIC_TIMING:
            return "card"
    return None
