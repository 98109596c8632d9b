"""The race screen says a car's link in words when it is not plainly linked, in the real app's window (run by
tests/companion/test_race_link_words_window.py):

    python -m tests.companion.race_link_words_window OUT.json [SHOTS]

Two players, both dashboards on this tablet's screen. Once the race is on, every car is plainly linked: nothing is said
beside them. Then one dashboard's process dies (SIGKILL: its player sees a car that no longer answers): its panel says
so in words, the other car's says nothing still."""

import os
import signal
import sys

WORDS_S = 20  # real time: the transport finds a dead line by its silence (its own clock, not the app's)


def _words(app):
    """What each car's panel shows of its link, in seat order: the label's text as drawn."""
    panels = sorted(app.f1.car_rows, key=lambda p: p.seat)
    return [p.ids.link_words.text for p in panels]


def scenario(d):
    from tests.companion.appdriver import setup_and_pair

    app = d.app
    yield from setup_and_pair(d, players=2)
    asked = app.f1.links_said
    yield 1.2  # the app's clock stepped: the words asked again since every dashboard is in step
    yield lambda: app.f1.links_said > asked
    d.note("before", _words(app))
    d.note("devs", [p.dev for p in sorted(app.f1.car_rows, key=lambda p: p.seat)])
    gone = app.ports.virtual["virtual-2"]
    os.kill(gone.proc.pid, signal.SIGKILL)
    yield lambda: _words(app)[1] != ""
    d.note("after", _words(app))
    d.note("status", [p.ids.status.text for p in sorted(app.f1.car_rows, key=lambda p: p.seat)])
    d.shot("race-link-lost")


def main(argv):
    from tests.companion import appdriver

    appdriver.drive(scenario, argv[0], argv[1] if len(argv) > 1 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
