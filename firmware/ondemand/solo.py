# Standalone play (no tablet): the few things the table would do for this one car, done on the dashboard
# with its own dice. Every rule comes from shared_rules; this only strings the calls together the way the
# table does (shared_rules.f1.race), minus the shared piles a single dashboard cannot have.
# Imported on first use (App.solo): a tablet game never loads it.
import os
import time

from shared_rules.errors import RuleError
from shared_rules.f1 import car as f1car
from shared_rules.f1 import cards, charts
from shared_rules.rng import Rng

try:
    _rng = Rng(int.from_bytes(os.urandom(4), "big"))
except (AttributeError, OSError):
    _rng = Rng(time.ticks_ms())


def new_race(car, laps):
    """A fresh car with `laps` to go and five tactic cards from a shuffled deck of its own."""
    fresh = f1car.Car(laps, car.rules)
    deck = cards.tactic_deck(cards.PER_KIND)
    _rng.shuffle(deck)
    fresh.hand = deck[: cards.HAND_SIZE]
    car.replace_with(fresh)


def corner(car, safety):
    """The car crossed a band with this safety speed. Returns (case, dice list, penalty tuple)."""
    over = car.speed - safety
    if not car.speed_set or car.status != f1car.RACING:
        raise RuleError("corner", "set your speed first")
    case = charts.corner_case(over, car.tyre, car.superb)
    dice = []
    pen = charts.NO_PENALTY
    if case == charts.ROLL:
        dice = [_rng.die(), _rng.die()]
        pen = charts.dice_penalty(over, car.tyre, dice[0], dice[1])
    elif case == charts.AUTO_SPIN:
        pen = charts.SPIN
    throw = dice[0] * 10 + dice[1] if dice else 0
    args = {"spin": pen[0], "tyre": pen[1], "brake": pen[2], "dice": throw}
    f1car.apply_command(car, "pen", args)
    if dice:
        car.rolled = 1  # "A player cannot play a Tactic Card after he has rolled the dice"
    elif case == charts.WAIVED:
        car.superb = 0  # Superb Driving covers one corner
    return case, dice, pen


def pit(car):
    """Into the pit: draw a pit card from a full pile of this dashboard's own, and deal the extra tactic card
    it may give. Returns its code."""
    car.check_pit()
    pile = cards.pit_deck()
    code = pile[_rng.below(len(pile))]
    f1car.apply_command(car, "pit", {"card": code})
    if cards.PIT_CARDS[code][2]:
        # New Instructions: "the extra card to be taken from the top of the discard pile". A lone dashboard's
        # pile is its own deck less its hand (played cards went back into it); the order they went back in
        # is not kept (it would not survive a restart), so the card comes from anywhere in it (docs/rules.md).
        pile = cards.tactic_deck(cards.PER_KIND)
        for k in car.hand:
            if k in pile:
                pile.remove(k)
        if pile:
            car.take_card(pile[_rng.below(len(pile))])
    return code
