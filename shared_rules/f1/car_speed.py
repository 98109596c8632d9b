# Setting the speedometer: at the start of a turn, while waiting blocked, and when blocked on the track.

from shared_rules.errors import RuleError
from shared_rules.f1 import cards
# charts.X rather than importing each name: each name imported is one more entry in this module's dict.
from shared_rules.f1 import charts
from shared_rules.f1.status import RACING, SPUN, PIT
from shared_rules.f1.car_state import CarState


class CarSpeed(CarState):
    """Setting the speedometer."""

    def highest_speed(self, carb=0):
        """The highest speed this car may set now: +60, or the spin restart limit, or a pit start."""
        if carb:
            return charts.CARB_SPEED if charts.CARB_SPEED > self.speed else self.speed
        if self.fixed:
            return self.fixed
        top = self.speed + charts.MAX_INCREASE
        if self.cap and top > self.cap:
            top = self.cap
        return charts.MAX_SPEED if top > charts.MAX_SPEED else top

    def speed_choices(self, carb=0):
        """Every speed the player may dial now, ascending. Reductions that would spin are included:
        the dashboard previews the spin and the player decides."""
        if carb:
            return list(range(self.speed + charts.STEP, self.highest_speed(carb) + 1, charts.STEP))
        if self.fixed:
            return [self.fixed]
        return list(range(0, self.highest_speed() + 1, charts.STEP))

    def braking_cost(self, new_speed):
        """Preview of a speed change: (brake points, tyre points, spins)."""
        return charts.braking_cost(self.speed - new_speed, self.tyre, self.brake, self.rules)

    def set_speed(self, v, card=None):
        """The player's speed for this turn. With card="GC", Good Carburettor lifts the limit to 120.
        Returns the braking cost paid: (brake, tyre, spins)."""
        self._check_my_turn()
        if self.speed_set:
            raise RuleError("speed", "speed already set this turn")
        carb = 0
        if card is not None:
            if card != cards.CARBURETTOR:
                raise RuleError("card", "only Good Carburettor is played with the speed")
            self._check_card_in_hand(card)
            carb = 1
        if not charts.valid_speed(v):
            raise RuleError("speed", "speed must be 0 to 160 in steps of 20")
        if self.fixed and not carb and v != self.fixed:
            raise RuleError("speed", "pit card: starting speed is %d" % self.fixed)
        if carb and v <= self.speed:
            raise RuleError("card", "Good Carburettor is for accelerating")
        if v > self.highest_speed(carb):
            if self.cap and not carb and v <= self.speed + charts.MAX_INCREASE:
                raise RuleError("speed", "after a spin: at most %d" % self.cap)
            raise RuleError("speed", "at most +60 per turn" if not carb else "Good Carburettor: at most 120")
        cost = self.braking_cost(v)
        if carb:
            self.hand.remove(card)
            self.card_used = 1
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
        self._check_my_turn()
        if self.speed_set:
            raise RuleError("speed", "speed already set this turn")
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
        """Blocking: the speedometer brought to the blocker's speed. Returns the braking cost."""
        self._check_my_turn()
        if not charts.valid_speed(v):
            raise RuleError("speed", "speed must be 0 to 160 in steps of 20")
        if not self.speed_set or self.status != RACING:
            raise RuleError("status", "only a moving car is blocked")
        if v > self.speed and v - self.start_speed > charts.MAX_INCREASE:
            raise RuleError("speed", "at most +60 per turn")
        cost = self.braking_cost(v)
        if cost[2]:
            self.spin()  # "placed on the outside of the track opposite the point at which it is standing"
        else:
            self.speed = v
            self._wear(cost[1], cost[0])
        return cost

