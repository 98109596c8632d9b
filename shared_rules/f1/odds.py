# Exact odds of a corner, from the 36 equally likely throws of two dice (the tablet's risk advisor).

from shared_rules.f1 import charts

THROWS = 36


def corner_odds(over, tyre, superb=0, special_tyres=0):
    """Every possible outcome of taking a band `over` mph too fast with this tyre wear, as a list of
    ((spins, tyre points, brake points), number of throws out of 36), most likely first."""
    case = charts.corner_case(over, tyre, superb, special_tyres)
    if case == charts.SAFE or case == charts.WAIVED:
        return [(charts.NO_PENALTY, THROWS)]
    if case == charts.AUTO_SPIN:
        return [(charts.SPIN, THROWS)]
    counts = {}
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            outcome = charts.dice_penalty(over, tyre, d1, d2)
            counts[outcome] = counts.get(outcome, 0) + 1
    # Sorted explicitly: dicts keep no order on MicroPython.
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def spin_chance(over, tyre, superb=0, special_tyres=0):
    """Throws out of 36 that spin the car."""
    for outcome, n in corner_odds(over, tyre, superb, special_tyres):
        if outcome[0]:
            return n
    return 0
