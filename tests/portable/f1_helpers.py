# Small builders for the Formula 1 rules tests (portable: CPython and MicroPython).
from shared_rules.f1.car import Car


def car_at(speed=0, tyre=0, brake=0, laps=3, rules=0, hand=None, turn=1):
    """A car in the middle of a race, at the start of its turn unless turn=0."""
    car = Car(laps, rules)
    car.speed = speed
    car.tyre = tyre
    car.brake = brake
    if hand:
        car.hand = list(hand)
    if turn:
        car.start_turn()
    return car


def moving_car(speed, tyre=0, brake=0, hand=None, rules=0):
    """A car that has set `speed` this turn (without braking)."""
    car = car_at(speed, tyre, brake, hand=hand, rules=rules)
    car.set_speed(speed)
    return car
