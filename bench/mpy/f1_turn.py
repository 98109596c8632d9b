# Runs on MicroPython: median time of one full Formula 1 turn (braking, two corner rolls, end of turn),
# and of a fixed baseline workload (200 additions), in microseconds. Prints "turn_us=<n> bare_us=<n>".
import time
from shared_rules.f1.race import Race

N = 400
race = Race(1, ["a", "b"], 10, keep_log=0)


def one_turn():
    seat = race.seat
    car = race.cars[seat]
    car.speed, car.tyre, car.brake, car.status, car.cap = 160, 0, 0, "racing", 0
    race.set_speed(seat, 120)  # 40 mph reduction: one brake point
    race.corner(seat, 100)  # 20 over: a throw
    if car.status == "racing":
        race.corner(seat, 100)
    race.end_turn(seat)


def bare():
    # A fixed interpreter workload, to compare machines: 200 additions and a small list.
    x = 0
    for i in range(200):
        x += i
    return [x] * 8


def median_us(fn):
    times = []
    for _ in range(N):
        t0 = time.ticks_us()
        fn()
        times.append(time.ticks_diff(time.ticks_us(), t0))
    times.sort()
    return times[N // 2]


print("turn_us=%d bare_us=%d" % (median_us(one_turn), median_us(bare)))
