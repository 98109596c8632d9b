# One car's dashboard: the gauges a player owns and every rule that moves them.
# The Pico dashboard runs this for its own car; the tablet runs the same code for its mirror of each car,
# so the two can never disagree on a rule. Every method checks everything before it changes anything.

from shared_rules.errors import RuleError
from shared_rules.f1 import cards, charts
from shared_rules.f1.car_state import CarState, MAX_LAPS  # noqa: F401  (MAX_LAPS re-exported)
from shared_rules.f1.status import RACING, SPUN, PIT, FINISHED, OUT, STATUSES  # noqa: F401  (re-exported)

try:
    from micropython import const
except ImportError:  # CPython: const(x) is just the int x
    const = int

_MAX_INCREASE = const(60)  # "+60 per turn"
_CARB_SPEED = const(120)  # Good Carburettor: "Accelerate immediately up to 120 mph"
_SPIN_RESTART = const(60)  # "on the next turn the car can proceed normally at any speed up to 60 mph"


class Car(CarState):
    """One car. Its state, snapshot, turns and tactic cards are in CarState; the speed and table rules here."""

    def copy(self):
        return Car.from_snapshot(self.snapshot())

    # ---- setting the speedometer: at the start of a turn, while waiting blocked, when blocked ----

    def highest_speed(self, carb=0):
        """The highest speed the player may dial now: +60 (up to 160), or the restart limit after a spin, or a pit
        card's starting speed; with Good Carburettor 120 (or the present speed, if higher: then nothing)."""
        if carb:
            return max(_CARB_SPEED, self.speed)
        if self.fixed:
            return self.fixed
        top = min(self.speed + _MAX_INCREASE, charts.MAX_SPEED)
        if self.cap and top > self.cap:
            top = self.cap
        return top

    def lowest_speed(self, carb=0):
        """The lowest speed the player may dial now: as far down as the wear gauges can pay for, or a pit card's
        starting speed; with Good Carburettor, 20 above the present speed."""
        if carb:
            return self.speed + charts.STEP
        if self.fixed:
            return self.fixed
        return max(0, self.speed - charts.max_reduction(self.tyre, self.brake, self.rules))

    def speed_choices(self, carb=0):
        """Every speed the player may dial now, ascending. set_speed refuses any other and says why."""
        return list(range(self.lowest_speed(carb), self.highest_speed(carb) + 1, charts.STEP))

    def braking_cost(self, new_speed):
        """Preview of a speed change: (brake points, tyre points, spins)."""
        return charts.braking_cost(self.speed - new_speed, self.tyre, self.brake, self.rules)

    def set_speed(self, v, card=None):
        """The player's speed for this turn. With card="GC", Good Carburettor lifts the limit to 120.
        Returns the braking cost paid, as braking_cost gives it (its spins is 0: such a reduction is refused)."""
        self._check_can_set_speed()
        carb = 0
        if card is not None:
            if card != cards.CARBURETTOR:
                raise RuleError("card", "only Good Carburettor is played with the speed")
            self.check_card(card)
            carb = 1
        if not charts.valid_speed(v):
            raise RuleError("speed", "speed must be 0 to 160 in steps of 20")
        if self.fixed and not carb and v != self.fixed:
            raise RuleError("speed", "pit card: starting speed is %d" % self.fixed)
        if carb and v <= self.speed:
            raise RuleError("card", "Good Carburettor is for accelerating")
        if v > self.highest_speed(carb):
            if carb:
                raise RuleError("speed", "Good Carburettor: at most 120")
            if self.cap and v <= self.speed + _MAX_INCREASE:
                raise RuleError("speed", "after a spin: at most %d" % self.cap)
            raise RuleError("speed", "at most +60 per turn")
        self._check_reduction(v)
        cost = self.braking_cost(v)
        if carb:
            self.use_card(card)
        self.start_speed = self.speed
        self.speed_set = 1
        self.fixed = 0
        self.cap = 0
        self.speed = v
        self.penalty(0, cost[1], cost[0])  # the braking cost is paid like a corner penalty
        if v and (self.status == SPUN or self.status == PIT):
            self.status = RACING  # moving off the spin-off point or out of the pit
        return cost

    def _check_can_set_speed(self):
        self._check_my_turn()
        if self.speed_set:
            raise RuleError("speed", "speed already set this turn")

    def _check_reduction(self, v):
        """A reduction the car cannot pay for is not a speed the player may dial: "tire wear ... reach its maximum
        of 8 points. In this case speed may be reduced by 40 mph only" (the same for brakes at 5, 20 mph)."""
        most = charts.max_reduction(self.tyre, self.brake, self.rules)
        if self.speed - v <= most:
            return
        if most == charts.CHART_END:
            raise RuleError("speed", "reduce speed by 100 mph at most: the chart ends there")
        if charts.max_reduction(0, self.brake, self.rules) == most:
            raise RuleError("speed", "brakes at %d: reduce speed by %d mph at most" % (self.brake, most))
        raise RuleError("speed", "tyres at %d: reduce speed by %d mph at most" % (self.tyre, most))

    def hold(self, v):
        """Blocked in the pit or on a spin-off point: dial up to 60 without moving."""
        self._check_can_set_speed()
        if self.status != SPUN and self.status != PIT:
            raise RuleError("status", "only a car in the pit or spun off can wait")
        if not charts.valid_speed(v) or v < self.speed or v > charts.HOLD_SPEED:
            raise RuleError("speed", "waiting: speed up to 60")
        self.start_speed = self.speed
        self.speed = v
        self.speed_set = 1
        self.fixed = 0
        self.cap = 0

    def force_speed(self, v):
        """Blocking: the speedometer brought to the blocker's speed. Returns the braking cost. A reduction forced on
        the car that it cannot pay for spins it: "when a speed reduction of over 20 mph is demanded and there are no
        brakes left" (and beyond the chart, or wear past a gauge's maximum: docs/rules.md, decisions 1 and 2)."""
        self._check_my_turn()
        if not charts.valid_speed(v):
            raise RuleError("speed", "speed must be 0 to 160 in steps of 20")
        if not self.speed_set or self.status != RACING:
            raise RuleError("status", "only a moving car is blocked")
        if v > self.speed and v - self.start_speed > _MAX_INCREASE:
            raise RuleError("speed", "at most +60 per turn")
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
            raise RuleError("penalty", "impossible penalty")
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


# ---- commands the tablet sends to a dashboard, applied through the car's own rules ------------------------


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
