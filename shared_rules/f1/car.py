# One car's dashboard: the gauges a player owns and every rule that moves them.
# The Pico dashboard runs this for its own car; the tablet runs the same code for its mirror of each car,
# so the two can never disagree on a rule. Every method checks everything before it changes anything.

from shared_rules.errors import RuleError
from shared_rules.f1 import cards
from shared_rules.f1.charts import (
    BRAKE_MAX,
    CARB_SPEED,
    HOLD_SPEED,
    MAX_INCREASE,
    MAX_SPEED,
    RESTART_80,
    SPIN_RESTART,
    STEP,
    TYRE_MAX,
    WORN_OUT,
    ALL_VARIANTS,
    braking_cost,
    valid_speed,
)

RACING = "racing"
SPUN = "spun"  # on a spin-off point (or beside the track after a forced braking spin)
PIT = "pit"
FINISHED = "finished"
OUT = "out"  # only with the WORN_OUT variant
STATUSES = (RACING, SPUN, PIT, FINISHED, OUT)

MAX_LAPS = 10
MAX_HAND = 40

# Snapshot keys holding plain integers, with their allowed ranges (inclusive).
_INT_FIELDS = (
    ("laps", 1, MAX_LAPS),
    ("laps_left", 0, MAX_LAPS),
    ("speed", 0, MAX_SPEED),
    ("tyre", 0, TYRE_MAX),
    ("brake", 0, BRAKE_MAX),
    ("miss", 0, 9),
    ("cap", 0, MAX_SPEED),
    ("fixed", 0, MAX_SPEED),
    ("special", 0, 1),
    ("rules", 0, ALL_VARIANTS),
    ("my_turn", 0, 1),
    ("speed_set", 0, 1),
    ("rolled", 0, 1),
    ("card_used", 0, 1),
    ("superb", 0, 1),
    ("lap_done", 0, 1),
    ("start_speed", 0, MAX_SPEED),
)


class Car:
    def __init__(self, laps=3, rules=0):
        if not isinstance(laps, int) or not 1 <= laps <= MAX_LAPS:
            raise RuleError("laps", "laps must be 1 to %d" % MAX_LAPS)
        if not isinstance(rules, int) or rules & ~ALL_VARIANTS:
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
        for name, _lo, _hi in _INT_FIELDS:
            d[name] = getattr(self, name)
        return d

    @classmethod
    def from_snapshot(cls, d):
        """Rebuild a car from a snapshot, refusing anything a real dashboard could never show."""
        if not isinstance(d, dict):
            raise RuleError("snapshot", "snapshot must be a mapping")
        for name, lo, hi in _INT_FIELDS:
            v = d.get(name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise RuleError("snapshot", "bad %s in snapshot" % name)
        for name in ("speed", "cap", "fixed", "start_speed"):
            if d[name] % STEP:
                raise RuleError("snapshot", "bad %s in snapshot" % name)
        if d["laps_left"] > d["laps"] or d["rules"] & ~ALL_VARIANTS:
            raise RuleError("snapshot", "bad laps in snapshot")
        if d.get("status") not in STATUSES:
            raise RuleError("snapshot", "bad status in snapshot")
        hand = d.get("hand")
        if not isinstance(hand, list) or len(hand) > MAX_HAND:
            raise RuleError("snapshot", "bad hand in snapshot")
        for c in hand:
            if not cards.is_tactic(c):
                raise RuleError("snapshot", "bad card in snapshot")
        car = cls(d["laps"], d["rules"])
        for name, _lo, _hi in _INT_FIELDS:
            setattr(car, name, d[name])
        car.status = d["status"]
        car.hand = list(hand)
        return car

    def copy(self):
        return Car.from_snapshot(self.snapshot())

    def replace_with(self, other):
        for name, _lo, _hi in _INT_FIELDS:
            setattr(self, name, getattr(other, name))
        self.status = other.status
        self.hand = list(other.hand)

    # ---- speed at the start of a turn -----------------------------------------------------------

    def _check_my_turn(self):
        # A car that finishes or drops out during its turn still ends that turn itself.
        if not self.my_turn:
            raise RuleError("turn", "not your turn")

    def _check_can_set_speed(self):
        self._check_my_turn()
        if self.speed_set:
            raise RuleError("speed", "speed already set this turn")

    def highest_speed(self, carb=0):
        """The highest speed this car may set now: +60, or the spin restart limit, or a pit start."""
        if carb:
            return CARB_SPEED if CARB_SPEED > self.speed else self.speed
        if self.fixed:
            return self.fixed
        top = self.speed + MAX_INCREASE
        if self.cap and top > self.cap:
            top = self.cap
        return MAX_SPEED if top > MAX_SPEED else top

    def speed_choices(self, carb=0):
        """Every speed the player may dial now, ascending. Reductions that would spin are included:
        the dashboard previews the spin and the player decides."""
        if carb:
            return list(range(self.speed + STEP, self.highest_speed(carb) + 1, STEP))
        if self.fixed:
            return [self.fixed]
        return list(range(0, self.highest_speed() + 1, STEP))

    def braking_cost(self, new_speed):
        """Preview of a speed change: (brake points, tyre points, spins)."""
        return braking_cost(self.speed - new_speed, self.tyre, self.brake, self.rules)

    def _check_speed(self, v, carb):
        if not valid_speed(v):
            raise RuleError("speed", "speed must be 0 to 160 in steps of 20")
        if self.fixed and not carb and v != self.fixed:
            raise RuleError("speed", "pit card: starting speed is %d" % self.fixed)
        if carb and v <= self.speed:
            raise RuleError("card", "Good Carburettor is for accelerating")
        if v > self.highest_speed(carb):
            if self.cap and not carb and v <= self.speed + MAX_INCREASE:
                raise RuleError("speed", "after a spin: at most %d" % self.cap)
            raise RuleError("speed", "at most +60 per turn" if not carb else "Good Carburettor: at most 120")

    def set_speed(self, v, card=None):
        """The player's speed for this turn. With card="GC", Good Carburettor lifts the limit to 120.
        Returns the braking cost paid: (brake, tyre, spins)."""
        self._check_can_set_speed()
        carb = 0
        if card is not None:
            if card != cards.CARBURETTOR:
                raise RuleError("card", "only Good Carburettor is played with the speed")
            self._check_card_in_hand(card)
            carb = 1
        self._check_speed(v, carb)
        cost = self.braking_cost(v)
        if carb:
            self._use_card(card)
        self.start_speed = self.speed
        self.speed_set = 1
        self.fixed = 0
        self.cap = 0
        if cost[2]:
            self.spin()
        else:
            self.speed = v
            self._wear(cost[1], cost[0])
            if v and (self.status == SPUN or self.status == PIT):
                self.status = RACING  # moving off the spin-off point or out of the pit
        return cost

    def hold(self, v):
        """Blocked in the pit or on a spin-off point: dial up to 60 without moving."""
        self._check_can_set_speed()
        if self.status != SPUN and self.status != PIT:
            raise RuleError("status", "only a car in the pit or spun off can wait")
        if not valid_speed(v) or v < self.speed or v > HOLD_SPEED:
            raise RuleError("speed", "waiting: speed up to 60")
        self.start_speed = self.speed
        self.speed = v
        self.speed_set = 1
        self.fixed = 0
        self.cap = 0

    # ---- what the table does to the car ----------------------------------------------------------

    def _wear(self, tyre, brake):
        # A corner penalty that would pass a gauge's maximum stops at it (see docs/rules.md).
        self.tyre = min(TYRE_MAX, self.tyre + tyre)
        self.brake = min(BRAKE_MAX, self.brake + brake)
        if self.rules & WORN_OUT and self.tyre == TYRE_MAX and self.brake == BRAKE_MAX:
            self.status = OUT
            self.speed = 0

    def spin(self):
        """Spun off: speed to zero, gauges unchanged, next turn at most 60."""
        # Variant: the car "re-enters the track ... at a speed of 20", so it may then reach 80.
        self.speed = STEP if self.rules & RESTART_80 else 0
        self.status = SPUN
        self.superb = 0
        self.cap = 80 if self.rules & RESTART_80 else SPIN_RESTART

    def penalty(self, spins, tyre, brake):
        """A corner or blocking outcome resolved by the table."""
        if spins not in (0, 1) or not 0 <= tyre <= TYRE_MAX or not 0 <= brake <= BRAKE_MAX:
            raise RuleError("penalty", "impossible penalty")
        self._check_my_turn()
        if spins:
            self.spin()
        else:
            self._wear(tyre, brake)

    def force_speed(self, v):
        """Blocking: the speedometer brought to the blocker's speed. Returns the braking cost."""
        self._check_my_turn()
        if not valid_speed(v):
            raise RuleError("speed", "speed must be 0 to 160 in steps of 20")
        if not self.speed_set or self.status != RACING:
            raise RuleError("status", "only a moving car is blocked")
        if v > self.speed and v - self.start_speed > MAX_INCREASE:
            raise RuleError("speed", "at most +60 per turn")
        cost = self.braking_cost(v)
        if cost[2]:
            self.spin()  # "placed on the outside of the track opposite the point at which it is standing"
        else:
            self.speed = v
            self._wear(cost[1], cost[0])
        return cost

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
        if not cards.is_pit(code):
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

    # ---- tactic cards ---------------------------------------------------------------------------

    def _check_card_in_hand(self, code):
        if not cards.is_tactic(code):
            raise RuleError("card", "unknown card")
        if code not in self.hand:
            raise RuleError("card", "card not in hand")
        if self.card_used:
            raise RuleError("card", "one tactic card per turn")
        if self.rolled:
            raise RuleError("card", "no card after a penalty roll")

    def check_card(self, code):
        """Raises RuleError if the card cannot be played now (Good Carburettor goes with set_speed)."""
        self._check_my_turn()
        self._check_card_in_hand(code)
        timing = cards.TACTIC_TIMING[code]
        if timing == cards.AT_START:
            if self.speed_set:
                raise RuleError("card", "only at the start of a turn")
            return
        if not self.speed_set:
            raise RuleError("card", "set your speed first")
        if timing == cards.AT_END and self.status != RACING and self.status != FINISHED:
            raise RuleError("card", "not when spun off or in the pit")
        if timing == cards.DURING and self.status != RACING:
            raise RuleError("card", "not when spun off or in the pit")

    def play_card(self, code):
        """Play a move card (extra spaces, returned) or Superb Driving (armed for the next corner)."""
        if code == cards.CARBURETTOR:
            raise RuleError("card", "Good Carburettor is played with the speed")
        self.check_card(code)
        self._use_card(code)
        if code == cards.SUPERB:
            self.superb = 1
            return 0
        return cards.EXTRA_SPACES[code]

    def _use_card(self, code):
        self.hand.remove(code)
        self.card_used = 1

    def take_card(self, code):
        if not cards.is_tactic(code):
            raise RuleError("card", "unknown card")
        if len(self.hand) >= MAX_HAND:
            raise RuleError("card", "hand is full")
        self.hand.append(code)


# ---- commands from the tablet ---------------------------------------------------------------------


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
        car.replace_with(Car.from_snapshot(args))
        return None
    raise RuleError("command", "unknown command")
