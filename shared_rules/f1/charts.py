# The two charts printed on the back of every 1962 dashboard, and the speedometer's limits.

STEP = 20  # one space on the board per 20 mph
MAX_SPEED = 160
TYRE_MAX = 8
BRAKE_MAX = 5
HOLD_SPEED = 60  # blocked in the pit or at a spin-off point: "may bring his speedometer up to 60 mph"

# Rules variant switches (bits), from the later quick reference. 0 is the 1962 rulebook.
FREE_40 = 1  # a reduction of 40 mph costs nothing
RESTART_80 = 2  # after a spin, restart at up to 80 mph
REDRAW = 4  # a used tactic card is replaced by a draw from the pile
WORN_OUT = 8  # a car whose tyres (8) and brakes (5) are both fully worn is out of the race
ALL_VARIANTS = FREE_40 | RESTART_80 | REDRAW | WORN_OUT

# Penalty outcomes are (spins, tyre points, brake points).
NO_PENALTY = (0, 0, 0)
SPIN = (1, 0, 0)
TYRE_1 = (0, 1, 0)
TYRE_2 = (0, 2, 0)
TYRE_1_BRAKE_1 = (0, 1, 1)


def valid_speed(v):
    return isinstance(v, int) and 0 <= v <= MAX_SPEED and v % STEP == 0


def spaces(speed):
    return speed // STEP


# The Speed Reduction Chart: reduction (mph) -> (brake points, tyre points). Below 40 a reduction is free; the
# chart ends at 100 (see docs/rules.md, decision 1).
REDUCTION_CHART = {40: (1, 0), 60: (2, 1), 80: (3, 2), 100: (4, 3)}
CHART_END = 100


def braking_cost(reduction, tyre, brake, rules=0):
    """What a reduction costs: (brake points, tyre points, spins).

    A reduction the gauges cannot pay for, or one beyond the chart, spins the car and costs nothing else: "when a
    speed reduction of over 20 mph is demanded and there are no brakes left" the car spins. Only a reduction forced
    on the car (a block) can be one of those: a player may not dial it (max_reduction).
    """
    if reduction <= STEP or (rules & FREE_40 and reduction <= 2 * STEP):
        return (0, 0, 0)
    if reduction > CHART_END:
        return (0, 0, 1)
    b, t = REDUCTION_CHART[reduction]
    if brake + b > BRAKE_MAX or tyre + t > TYRE_MAX:
        return (0, 0, 1)
    return (b, t, 0)


def max_reduction(tyre, brake, rules=0):
    """The largest reduction these gauges can pay for: "tire wear ... reach its maximum of 8 points. In this case
    speed may be reduced by 40 mph only"; "brake wear ... maximum of 5 points. In this case speed may be reduced by
    20 mph only". Nearly worn gauges limit it the same way (docs/rules.md, decision 2)."""
    most = CHART_END
    while most > STEP and braking_cost(most, tyre, brake, rules)[2]:
        most -= STEP
    return most


def dice_penalty(over, tyre, d1, d2):
    """The Penalty Chart: the outcome of one throw for a band taken 20 or 40 mph too fast."""
    if d1 == d2 and (d1 == 3 or d1 == 4):
        return NO_PENALTY  # 3/3 and 4/4 have their own rows, apart from the sums 6 and 8
    total = d1 + d2
    if total == 2 or total == 12:
        return NO_PENALTY
    if total == 3 or total == 11:
        return SPIN
    if total == 4 or total == 5 or total == 8:
        return TYRE_1
    if over <= STEP:
        return NO_PENALTY  # the +20 column is empty on the rows 6, 7, 9 and 10
    if total == 6 or total == 10:
        return SPIN if tyre >= 4 else TYRE_2
    return TYRE_1_BRAKE_1  # 7 and 9


# How a band is taken, before any dice.
SAFE = 0  # at or below the safety speed
ROLL = 1  # 20 or 40 over: throw the dice
AUTO_SPIN = 2  # 60 or more over, or any overspeed on fully worn tyres
WAIVED = 3  # over, but Superb Driving or Special Tyres cover it


def corner_case(over, tyre, superb=0, special_tyres=0):
    if over <= 0:
        return SAFE
    if superb or (special_tyres and over <= 2 * STEP):
        return WAIVED
    if tyre >= TYRE_MAX or over >= 3 * STEP:
        return AUTO_SPIN
    return ROLL
