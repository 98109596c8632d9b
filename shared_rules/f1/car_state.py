# The gauges and turn flags of one car, the two things that happen to them everywhere (wear and spins), and its
# hand of tactic cards. (Cards were a module of their own; one module less saves a Pico ~0.4 KB of heap.)

from shared_rules.errors import RuleError
from shared_rules.f1 import cards
# charts.X rather than importing each name: each name imported is one more entry in this module's dict.
from shared_rules.f1 import charts
from shared_rules.f1.status import RACING, SPUN, OUT, FINISHED

MAX_LAPS = 10
MAX_HAND = 40


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

    def _check_my_turn(self):
        # A car that finishes or drops out during its turn still ends that turn itself.
        if not self.my_turn:
            raise RuleError("turn", "not your turn")

    # ---- what the table does to the car ----------------------------------------------------------


    def _wear(self, tyre, brake):
        # A corner penalty that would pass a gauge's maximum stops at it (see docs/rules.md).
        self.tyre = min(charts.TYRE_MAX, self.tyre + tyre)
        self.brake = min(charts.BRAKE_MAX, self.brake + brake)
        if self.rules & charts.WORN_OUT and self.tyre == charts.TYRE_MAX and self.brake == charts.BRAKE_MAX:
            self.status = OUT
            self.speed = 0

    def spin(self):
        """Spun off: speed to zero, gauges unchanged, next turn at most 60."""
        # Variant: the car "re-enters the track ... at a speed of 20", so it may then reach 80.
        self.speed = charts.STEP if self.rules & charts.RESTART_80 else 0
        self.status = SPUN
        self.superb = 0
        self.cap = 80 if self.rules & charts.RESTART_80 else charts.SPIN_RESTART

    # ---- tactic cards ---------------------------------------------------------------------------

    def _check_card_in_hand(self, code):
        if code not in cards.TACTIC_TIMING:
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
        # Left: the end-of-turn cards (also for a car that has just finished) and Superb Driving (racing only).
        if self.status != RACING and (timing == cards.DURING or self.status != FINISHED):
            raise RuleError("card", "not when spun off or in the pit")

    def play_card(self, code):
        """Play a move card (extra spaces, returned) or Superb Driving (armed for the next corner)."""
        if code == cards.CARBURETTOR:
            raise RuleError("card", "Good Carburettor is played with the speed")
        self.check_card(code)
        self.hand.remove(code)
        self.card_used = 1
        if code == cards.SUPERB:
            self.superb = 1
            return 0
        return cards.EXTRA_SPACES[code]

    def take_card(self, code):
        if code not in cards.TACTIC_TIMING:
            raise RuleError("card", "unknown card")
        if len(self.hand) >= MAX_HAND:
            raise RuleError("card", "hand is full")
        self.hand.append(code)
