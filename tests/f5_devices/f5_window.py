"""Drives the real companion app's Formula 5 screens in an offscreen window (tests/companion/appdriver.py's
drive(), one app per process):  python -m tests.f5_devices.f5_window OUT.json [SHOTS_DIR]"""

import sys

from tests.companion.appdriver import drive, tap


def rows_by_height(app):
    """The cars as the table screen shows them, top row first."""
    rows = app.f5.rows
    return [car for car, _y in sorted(((c, r.y) for c, r in rows.items()), key=lambda cy: -cy[1])]


def labels(app):
    return [w.text for w in app.root.walk() if hasattr(w, "text") and isinstance(w.text, str)]


def solo_with_bots(d):
    """Formula 5 chosen on the setup screen; four bots and a car without a player; leave mid-game, resume,
    play to the end; the rows follow the positions."""
    app = d.app
    yield lambda: app.bridge is not None
    yield tap(app.screen("games").ids.choose_f5)
    yield lambda: app.sm.current == "f5setup"
    cars = list(reversed(app.screen("f5setup").ids.cars.children))
    yield tap(cars[0])  # red: dashboard -> bot
    yield tap(cars[4])  # white: bot -> no player
    d.note("roles", [b.text for b in cars])
    d.shot("f5-1-setup")
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "f5table"
    app.f5.auto_s = app.f5.read_s = app.f5.glance_s = 0.03  # the bots' game at speed, its words too
    ref = app.f5.ref
    yield lambda: len(ref.game.events) > 20
    d.shot("f5-2-table")
    yield tap(app.screen("f5table").ids.leave)
    yield lambda: app.sm.current == "games" and app.f5 is None
    d.note("left_at", len(ref.game.events))  # counted once left: the tablet may play a turn up to the tap
    yield 0.6  # a look first: a tap at once where Leave was is a double tap (dropped)
    yield tap(app.screen("games").ids.choose_f5)
    yield lambda: app.sm.current == "f5setup"
    d.note("resume_enabled", not app.screen("f5setup").ids.resume.disabled)
    app.f5.auto_s = 3600.0  # nothing played until the resumed game is counted, however slow the resume is
    yield tap(app.screen("f5setup").ids.resume)
    yield lambda: app.sm.current == "f5table"
    d.note("resumed_at", len(app.f5.ref.game.events))
    app.f5.auto_s = app.f5.read_s = app.f5.glance_s = 0.03
    yield lambda: app.f5.ref.game.over
    yield 1.0  # the last slide
    ref = app.f5.ref
    d.note("events", ref.game.events)
    d.note("order", ref.game.order)
    d.note("rows_order", rows_by_height(app))
    d.note("status", app.screen("f5table").ids.status.text)
    d.note("labels", labels(app))
    d.note("hands", [ref.game.hand(c) for c in range(5)])
    d.shot("f5-3-over")


def main(argv):
    drive(solo_with_bots, argv[0], argv[1] if len(argv) > 1 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
