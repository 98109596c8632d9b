# Who sits where: the dice decide who takes the yellow car.


def roll_for_seats(rng, count):
    """Each player throws both dice; the highest takes the yellow car, ties throw again.
    Returns (index of the winner in table order, the throws as a list of lists)."""
    throws = []
    contenders = list(range(count))
    while True:
        best = -1
        rolls = [0] * count
        for i in contenders:
            rolls[i] = rng.die() + rng.die()
            best = max(best, rolls[i])
        throws.append(rolls)
        contenders = [i for i in contenders if rolls[i] == best]
        if len(contenders) == 1:
            return contenders[0], throws
