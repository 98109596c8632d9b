# One car's dashboard: the gauges a player owns and every rule that moves them.
# The Pico dashboard runs this for its own car; the tablet runs the same code for its mirror of each car,
# so the two can never disagree on a rule. Every method checks everything before it changes anything.

from shared_rules.errors import RuleError, text
from shared_rules.f1 import cards, charts
from shared_rules.f1.car_state import CarState, RACING, SPUN, PIT, FINISHED, OUT
from shared_rules.f1.car_state import MAX_LAPS, STATUSES  # noqa: F401  (re-exported)

try:
    from micropython import const  # _UNDERSCORE constants vanish at compile time: no name, no dict entry
except ImportError:  # CPython: const(x) is just the int x
    const = int

# The longer messages, one a line, numbered by the names below (see errors.text): a string constant of its own
# would be a heap object of ~70 bytes on a Pico, a line here costs its length.
_TEXTS = """\
speed already set this turn
only Good Carburettor is played with the speed
speed must be 0 to 160 in steps of 20
pit card: starting speed is %d
Good Carburettor is for accelerating
after a spin: at most %d
at most +60 per turn
Good Carburettor: at most 120
only a car in the pit or spun off can wait
waiting: speed up to 60
only a moving car is blocked
impossible penalty
no laps left
lap already counted this turn
drive into the pit during a move
last lap: no pit stop
unknown pit card
arguments must be a mapping
card not in hand
unknown command
"""
_SPEED_SET = const(0)
_CARB_ONLY = const(1)
_SPEED_RANGE = const(2)
_PIT_START = const(3)
_CARB_UP = const(4)
_SPIN_CAP = const(5)
_PLUS_60 = const(6)
_CARB_120 = const(7)
_WAIT_WHERE = const(8)
_WAIT_SPEED = const(9)
_BLOCK_MOVING = const(10)
_BAD_PENALTY = const(11)
_NO_LAPS = const(12)
_LAP_COUNTED = const(13)
_PIT_DURING_MOVE = const(14)
_LAST_LAP = const(15)
_UNKNOWN_PIT = const(16)
_ARGS_NOT_DICT = const(17)
_NOT_IN_HAND = const(18)
_UNKNOWN_COMMAND = const(19)


_MAX_INCREASE = const(60)  # "+60 per turn"
_CARB_SPEED = const(120)  # Good Carburettor: "Accelerate immediately up to 120 mph"
_SPIN_RESTART = const(60)  # "on the next turn the car can proceed normally at any speed up to 60 mph"


class Car(CarState):
    """One car. Its state, snapshot, turns and tactic cards are in CarState; the speed and table rules here."""

    def copy(self):
        return Car.from_snapshot(self.snapshot())

    # ---- setting the speedometer: at the start of a turn, while waiting blocked, when blocked ----

    def speed_choices(self, carb=0):
        """Every speed the player may dial now, ascending: up to +60, or the spin restart limit, or a pit start's
        one speed; with Good Carburettor, any higher speed up to 120. Reductions that would spin are included:
        the dashboard previews the spin and the player decides."""
        if carb:
            return list(range(self.speed + charts.STEP, max(_CARB_SPEED, self.speed) + 1, charts.STEP))
        if self.fixed:
            return [self.fixed]
        top = self.speed + _MAX_INCREASE
        if self.cap and top > self.cap:
            top = self.cap
        return list(range(0, min(top, charts.MAX_SPEED) + 1, charts.STEP))

    def braking_cost(self, new_speed):
        """Preview of a speed change: (brake points, tyre points, spins)."""
        return charts.braking_cost(self.speed - new_speed, self.tyre, self.brake, self.rules)

    def set_speed(self, v, card=None):
        """The player's speed for this turn. With card="GC", Good Carburettor lifts the limit to 120.
        Returns the braking cost paid: (brake, tyre, spins)."""
        self._check_my_turn()
        if self.speed_set:
            raise RuleError("speed", text(_TEXTS, _SPEED_SET))
        carb = 0
        if card is not None:
            if card != cards.CARBURETTOR:
                raise RuleError("card", text(_TEXTS, _CARB_ONLY))
            self.check_card(card)
            carb = 1
        if not charts.valid_speed(v):
            raise RuleError("speed", text(_TEXTS, _SPEED_RANGE))
        if self.fixed and not carb and v != self.fixed:
            raise RuleError("speed", text(_TEXTS, _PIT_START) % self.fixed)
        if carb and v <= self.speed:
            raise RuleError("card", text(_TEXTS, _CARB_UP))
        if v not in self.speed_choices(carb):
            if self.cap and not carb and v <= self.speed + _MAX_INCREASE:
                raise RuleError("speed", text(_TEXTS, _SPIN_CAP) % self.cap)
            raise RuleError("speed", text(_TEXTS, _PLUS_60 if not carb else _CARB_120))
        cost = self.braking_cost(v)
        if carb:
            self.hand.remove(card)
            self.card_used = 1
        self.start_speed = self.speed
        self.speed_set = 1
        self.fixed = 0
        self.cap = 0
        # The braking cost is paid like a corner penalty.
        if cost[2]:
            self.penalty(1, 0, 0)
        else:
            self.speed = v
            self.penalty(0, cost[1], cost[0])
            if v and (self.status == SPUN or self.status == PIT):
                self.status = RACING  # moving off the spin-off point or out of the pit
        return cost

    def hold(self, v):
        """Blocked in the pit or on a spin-off point: dial up to 60 without moving."""
        self._check_my_turn()
        if self.speed_set:
            raise RuleError("speed", text(_TEXTS, _SPEED_SET))
        if self.status != SPUN and self.status != PIT:
            raise RuleError("status", text(_TEXTS, _WAIT_WHERE))
        if not charts.valid_speed(v) or v < self.speed or v > charts.HOLD_SPEED:
            raise RuleError("speed", text(_TEXTS, _WAIT_SPEED))
        self.start_speed = self.speed
        self.speed = v
        self.speed_set = 1
        self.fixed = 0
        self.cap = 0

    def force_speed(self, v):
        """Blocking: the speedometer brought to the blocker's speed. Returns the braking cost."""
        self._check_my_turn()
        if not charts.valid_speed(v):
            raise RuleError("speed", text(_TEXTS, _SPEED_RANGE))
        if not self.speed_set or self.status != RACING:
            raise RuleError("status", text(_TEXTS, _BLOCK_MOVING))
        if v > self.speed and v - self.start_speed > _MAX_INCREASE:
            raise RuleError("speed", text(_TEXTS, _PLUS_60))
        cost = self.braking_cost(v)
        if cost[2]:
            self.penalty(1, 0, 0)  # "placed on the outside of the track opposite the point at which it is standing"
        else:
            self.speed = v
            self.penalty(0, cost[1], cost[0])
        return cost

    # ---- what the table does to the car ---------------------------------------------------------

    def penalty(self, spins, tyre, brake):
        """A corner or blocking outcome resolved by the table (and the braking cost of a speed change)."""
        if spins not in (0, 1) or not 0 <= tyre <= charts.TYRE_MAX or not 0 <= brake <= charts.BRAKE_MAX:
            raise RuleError("penalty", text(_TEXTS, _BAD_PENALTY))
        self._check_my_turn()
        rules = self.rules
        if spins:
            # Spun off: speed to zero, gauges unchanged, next turn at most 60.
            # Variant: the car "re-enters the track ... at a speed of 20", so it may then reach 80.
            self.speed = charts.STEP if rules & charts.RESTART_80 else 0
            self.status = SPUN
            self.superb = 0
            self.cap = 80 if rules & charts.RESTART_80 else _SPIN_RESTART
            return
        # A corner penalty that would pass a gauge's maximum stops at it (see docs/rules.md).
        self.tyre = min(charts.TYRE_MAX, self.tyre + tyre)
        self.brake = min(charts.BRAKE_MAX, self.brake + brake)
        if rules & charts.WORN_OUT and self.tyre == charts.TYRE_MAX and self.brake == charts.BRAKE_MAX:
            self.status = OUT
            self.speed = 0

    def lap(self):
        """The car landed on or crossed the finish line."""
        self._check_my_turn()
        if self.laps_left <= 0:
            raise RuleError("lap", text(_TEXTS, _NO_LAPS))
        if self.lap_done:
            raise RuleError("lap", text(_TEXTS, _LAP_COUNTED))
        self.laps_left -= 1
        self.lap_done = 1
        if self.laps_left == 0:
            self.status = FINISHED
        return self.laps_left

    def check_pit(self):
        self._check_my_turn()
        if self.status != RACING or not self.speed_set:
            raise RuleError("pit", text(_TEXTS, _PIT_DURING_MOVE))
        if self.laps_left - (0 if self.lap_done else 1) < 1:
            raise RuleError("pit", text(_TEXTS, _LAST_LAP))

    def pit(self, code):
        """Into the pit at the end of a lap: every dial but the laps back to zero, then the pit card."""
        if code not in cards.PIT_CARDS:
            raise RuleError("pit", text(_TEXTS, _UNKNOWN_PIT))
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
        raise RuleError("args", text(_TEXTS, _ARGS_NOT_DICT))
    if name == "turn":
        if _int_arg(args, "on", 0, 1):
            return car.start_turn()
        return car.end_turn()
    if name == "pen":
        # What the corner did besides the gauges, so the dashboard need not be sent its whole state for it:
        # dice thrown (no tactic card after them), and Superb Driving or Special Tyres spent ("superb"/"special"
        # 0; absent: unchanged).
        rolled = _int_arg(args, "dice", 0, 66)
        superb = _int_arg(args, "superb", 0, 1) if "superb" in args else car.superb
        special = _int_arg(args, "special", 0, 1) if "special" in args else car.special
        car.penalty(
            _int_arg(args, "spin", 0, 1),
            _int_arg(args, "tyre", 0, charts.TYRE_MAX),
            _int_arg(args, "brake", 0, charts.BRAKE_MAX),
        )
        if rolled:
            car.rolled = 1
        car.superb = min(car.superb, superb)  # only ever spent here (a spin has spent it already)
        car.special = min(car.special, special)
        return None
    if name == "speed":
        return car.force_speed(_int_arg(args, "v", 0, charts.MAX_SPEED))
    if name == "deal":
        return car.take_card(args.get("card"))
    if name == "take":
        code = args.get("card")
        if code not in car.hand:
            raise RuleError("card", text(_TEXTS, _NOT_IN_HAND))
        car.hand.remove(code)
        return None
    if name == "lap":
        return car.lap()
    if name == "pit":
        return car.pit(args.get("card"))
    if name == "sync":
        car.replace_with(type(car).from_snapshot(args))
        return None
    raise RuleError("command", text(_TEXTS, _UNKNOWN_COMMAND))
