"""What the race screen works at, in the real app (offscreen window, tests/companion/appdriver.py's drive()):
python -m tests.companion.race_screen_work OUT.json

Two cars, their dashboards on the tablet. Once the table is in step, the race screen is left alone for a second: how
often it read the cars' rows again (each a look at every car's gauges, status and link) against the news that came
over the links meanwhile. Then every turn to the finish on the race screen's buttons; at each car's finish the finish
picker's keys are noted (the same widgets each time: made once, not nine new buttons at every finish).
"""

import sys

from tests.companion.appdriver import (
    button,
    dashboards_agree,
    drive,
    race_ids,
    real_time,
    setup_and_pair,
    speed_button,
    tap,
)

QUIET_S = 1.0  # some 30 polls of the links by the app's Clock (companion/app.py POLL_S): real time, as each poll
# is a frame's (a stepped clock fires an interval once per frame, however far it jumps)


def finishes(d):
    app = d.app
    yield from setup_and_pair(d, players=2)
    yield lambda: dashboards_agree(app)  # what the dashboards said on linking, handled
    yield 0.1  # and the race screen's frames drawn since (the app's clock stepped)
    view = app.f1.view
    rows = view.rows
    calls = []

    def counted():
        calls.append(1)
        return rows()

    view.rows = counted
    news, token = app.bridge.changed, app.f1.ref.token()
    yield real_time(QUIET_S)
    view.rows = rows
    d.note("quiet_rows", len(calls))
    d.note("quiet_news", app.bridge.changed - news)
    d.note("quiet_decisions", int(app.f1.ref.token() != token))
    ids = race_ids(app)
    ref = app.f1.ref
    finish_keys = []
    turns = 0
    while not ref.race.game_over and turns < 30:
        car = app.f1.view.active_car()
        yield app.f1.ready
        if not car.speed_set:
            yield tap(speed_button(app, fastest=True))
        if car.laps_left == 1:
            yield tap(ids.finish)
            finish_keys.append([[id(w), w.text, w.token is not None] for w in ids.speeds.children])
            yield tap(button(ids.speeds, "2"))
        else:
            yield tap(ids.lap)
        yield tap(ids.end)
        turns += 1
    yield lambda: dashboards_agree(app)
    d.note("game_over", ref.race.game_over)
    d.note("finish_keys", finish_keys)
    d.note("finished", [car.snapshot() for car in ref.race.cars])


if __name__ == "__main__":
    drive(finishes, sys.argv[1])
