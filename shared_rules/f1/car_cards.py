# Playing tactic cards from the hand.

from shared_rules.errors import RuleError
from shared_rules.f1 import cards
from shared_rules.f1.status import RACING, FINISHED
from shared_rules.f1.car_state import CarState

MAX_HAND = 40


class CarCards(CarState):
    """Playing and receiving tactic cards."""

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
        if timing == cards.AT_END and self.status != RACING and self.status != FINISHED:
            raise RuleError("card", "not when spun off or in the pit")
        if timing == cards.DURING and self.status != RACING:
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


