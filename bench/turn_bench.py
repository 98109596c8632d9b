"""The turn model's cost per tap: after each decision of a scripted 6-car race, what the race screen reads to
redraw (the live actions with their tokens, the speed and block pickers, the status line, the last roll in
words). Part of companion.tap_to_screen_ms, measured apart so that the turn model's share is known.

Figures: companion.turn_view_ms_p50 / _p99, over every decision of the race (no window, no dashboards)."""

import os
import statistics
import tempfile
import time

from bench.results import record

SEED = 5


def view_ms_per_decision(turns=240):
    from shared_rules.f1.autoplay import Driver
    from shared_rules.rng import Rng

    from companion.f1.referee import Referee
    from companion.f1.view import RaceView

    work = tempfile.mkdtemp(prefix="f1turn-")
    ref = Referee.new(os.path.join(work, "g.db"), ["A", "B", "C", "D", "E", "F"], 5, seed=SEED)
    view = RaceView(ref)
    times = []

    class Timed:
        """The scripted driver plays through the referee; after each decision the screen's reads are timed."""

        def __getattr__(self, name):
            return getattr(ref.race, name)

        def _after(self, ev):
            t0 = time.perf_counter()
            view.actions()
            view.speed_options()
            view.block_options()
            view.status_line()
            view.last_roll_text()
            times.append((time.perf_counter() - t0) * 1000)
            return ev

        def set_speed(self, seat, v, card=None):
            return self._after(ref.set_speed(v, card))

        def hold(self, seat, v):
            return self._after(ref.hold(v))

        def corner(self, seat, safety, special=0):
            return self._after(ref.corner(safety, special))

        def block(self, seat, v):
            return self._after(ref.block(v))

        def play_card(self, seat, code, clear=1):
            return self._after(ref.play_card(code, clear))

        def lap(self, seat, over=0):
            return self._after(ref.finish(over) if ref.race.cars[seat].laps_left == 1 else ref.lap())

        def pit(self, seat):
            return self._after(ref.pit())

        def end_turn(self, seat):
            return self._after(ref.end_turn())

    driver = Driver(Timed(), Rng(SEED))
    for _ in range(turns):
        if ref.race.game_over:
            break
        driver.play_turn()
    ref.close()
    times.sort()
    return times


def main():
    times = view_ms_per_decision()
    figures = {"companion.turn_view_ms_p50": round(statistics.median(times), 2),
               "companion.turn_view_ms_p99": round(times[int(len(times) * 0.99)], 2)}
    record(figures)
    print(figures, "over %d decisions" % len(times))


if __name__ == "__main__":
    main()
