# Seat fillers for a solo player: `choose` is a small deterministic strategy, `random_event` any legal move.
# Both return the event to pass to Game.apply, for whichever car is to move.

from shared_rules.f5.cards import COLOURS, colour, is_pit_card, speed_if_played
from shared_rules.f5.game import DRIVE, PIT, RACE


def choose(game):
    """A simple bot: play the card giving the highest speed; pit when it cannot overtake and holds a pit card.

    On a pit stop it plays a pit stop card and discards the race cards whose colour it holds only once.
    """
    car = game.to_move()
    if car is None:
        return None
    if not game.is_player(car):
        return [DRIVE, car]
    hand = game.hand(car)  # sorted: lowest id first, so ties go the same way on both runtimes
    race = [c for c in hand if not is_pit_card(c)]
    pits = [c for c in hand if is_pit_card(c)]
    if not race:
        return [PIT, car, pits[0], []]
    pos = game.position(car)
    column = game.columns[pos]
    best = race[0]
    best_speed = speed_if_played(column, best)
    for c in race:
        s = speed_if_played(column, c)
        if s > best_speed:
            best, best_speed = c, s
    can_overtake = pos > 0 and best_speed > game.speed(game.order[pos - 1])
    # The leader keeps racing (a stop would hand its place to the car behind); others stop when stuck.
    if pits and pos > 0 and not can_overtake:
        held = [0] * COLOURS
        for c in race:
            held[colour(c)] += 1
        return [PIT, car, pits[0], [c for c in race if held[colour(c)] == 1]]
    return [RACE, car, best]


def random_event(game, rng):
    """Any legal move, chosen with `rng` (a shared_rules.rng.Rng): for tests and a 'random' bot."""
    car = game.to_move()
    if car is None:
        return None
    if not game.is_player(car):
        return [DRIVE, car]
    hand = game.hand(car)
    race = [c for c in hand if not is_pit_card(c)]
    if race and rng.below(4):
        return [RACE, car, race[rng.below(len(race))]]
    card = hand[rng.below(len(hand))]
    discards = [c for c in race if c != card and rng.below(2)]
    return [PIT, car, card, discards]
