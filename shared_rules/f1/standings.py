# The order of the cars at the end of a race.

from shared_rules.f1.status import FINISHED, OUT


def ranking(cars, over):
    """Seats from first to last, as (place, seat). Finished cars by spaces past the line (`over`), then by
    speed; the others by laps left. Equal cars share a place (a dead heat)."""
    keys = []
    for seat, car in enumerate(cars):
        if car.status == FINISHED:
            key = (0, -over[seat], -car.speed)
        elif car.status == OUT:
            key = (2, car.laps_left, 0)
        else:
            key = (1, car.laps_left, 0)
        keys.append((key, seat))
    keys.sort()
    out = []
    place = 0
    for i, (key, seat) in enumerate(keys):
        if i == 0 or key != keys[i - 1][0]:
            place = i + 1
        out.append((place, seat))
    return out
