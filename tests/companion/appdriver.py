"""Runs the real app in a real (offscreen SDL) window and plays it by touching its widgets.

    python -m tests.companion.appdriver SCENARIO OUT.json [SHOTS_DIR]

Each scenario is a generator of steps; a step yields a predicate to wait for (or seconds to wait). What the
scenario saw is written to OUT.json for the test to check. One app per process: Kivy has one window.
"""

import json
import os
import sys
import time
import traceback

os.environ.update(KIVY_NO_ARGS="1", SDL_VIDEODRIVER="offscreen", KIVY_WINDOW="sdl2", KIVY_LOG_MODE="PYTHON",
                  SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"))

from kivy.config import Config  # noqa: E402

SIZE = os.environ.get("F1_WINDOW", "1280x800").split("x")  # 1920x1200, 800x480 (the 7-inch display)
Config.set("graphics", "width", SIZE[0])
Config.set("graphics", "height", SIZE[1])

from kivy.clock import Clock  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402

from companion.app import CompanionApp  # noqa: E402

WAIT_S = 25


def click(widget):
    """A real touch at the widget's centre, through Kivy's input dispatch."""
    x, y = widget.to_window(*widget.center)
    t = UnitTestTouch(x, y)
    t.touch_down()
    t.touch_up()


def tap(widget):
    """Touch it, then give Kivy a few frames to lay out what the touch rebuilt (a step's pause)."""
    click(widget)
    return 0.08


def find(root, pred):
    for w in root.walk():
        if pred(w):
            return w
    raise LookupError("no such widget")


def button(root, text):
    return find(root, lambda w: getattr(w, "text", None) == text and hasattr(w, "trigger_action"))


class Driver:
    def __init__(self, app, scenario, out, shots):
        self.app = app
        self.out = out
        self.shots = shots
        self.seen = {"steps": []}
        self.steps = scenario(self)
        self.waiting = None
        self.until = 0

    def note(self, key, value):
        self.seen[key] = value

    def shot(self, name):
        if self.shots:
            self.app.screenshot(os.path.join(self.shots, name + ".png"))

    def save(self):
        tmp = self.out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.seen, f)
        os.replace(tmp, self.out)

    def tick(self, _dt):
        try:
            if self.waiting is not None:
                if not self.waiting():
                    if time.monotonic() > self.until:
                        raise TimeoutError("waited too long at step %d" % len(self.seen["steps"]))
                    return True
                self.waiting = None
            sm = getattr(self.app, "sm", None)
            if sm is not None and sm.transition.is_active:
                return True  # Kivy drops touches while screens change: the next tap waits for the new screen
            step = next(self.steps)
            self.seen["steps"].append(getattr(step, "__name__", str(step)))
            if callable(step):
                self.waiting = step
            else:
                end = time.monotonic() + step
                self.waiting = lambda: time.monotonic() >= end
            self.until = time.monotonic() + WAIT_S
            return True
        except StopIteration:
            self.seen["ok"] = 1
        except Exception:
            self.seen["error"] = traceback.format_exc()
        self.save()
        self.app.stop()
        return False


# ---- helpers the scenarios share -----------------------------------------------------------------------

def race_ids(app):
    return app.screen("race").ids


def corner_button(app, i):
    return find(race_ids(app).corners, lambda w: getattr(w, "corner_name", None) == app.ref.track.corners[i][0])


def dashboards_agree(app):
    """Every paired dashboard shows exactly the table's car (its own saved state, via its viewer channel)."""
    ref = app.ref
    for seat, dev in ref.pairs.items():
        d = app.ports.virtual.get(dev)
        if d is None or d.state is None or d.state.get("car") != ref.race.cars[seat].snapshot():
            return False
    return bool(ref.pairs) and not app.transport.pending()


def setup_and_pair(d, players=3):
    app = d.app
    ids = app.screen("setup").ids
    yield lambda: app.bridge is not None
    yield tap(ids.more)
    yield tap(ids.fewer)
    for _ in range(abs(players - 3)):
        yield tap(ids.more if players > 3 else ids.fewer)
    for i, w in enumerate(reversed(ids.names.children)):
        w.text = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][i]
    yield tap(ids.track)  # the only track file: the 1962 board again
    d.note("track", ids.track.text)
    d.shot("1-setup")
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing"
    d.note("roll", app.screen("pairing").ids.roll.text)
    rows = list(reversed(app.screen("pairing").ids.seats.children))
    yield tap(rows[0].virtual_button)  # the first car's player has no hardware: a virtual dashboard
    yield lambda: any(dev == "virtual-1" for dev, _s in app.bridge.dashboards())
    d.shot("2-pairing")
    yield tap(app.screen("pairing").ids.go)  # the rest get virtual ones too
    yield lambda: app.sm.current == "race"
    yield lambda: dashboards_agree(app)


def ready(app):
    """The race screen takes taps again (no dice rolling, the turn not just handed over)."""
    return app.ready()


def press_virtual(app, dev, *names):
    """Taps on a virtual dashboard's buttons: its tab on the race screen first, then its buttons."""
    ids = race_ids(app)
    tab = find(ids.dash_tabs, lambda w: getattr(w, "dev", None) == dev)
    if app.dash_dev != dev:
        yield tap(tab)
    for name in names:
        yield tap(button(ids.dash_buttons, name))


def speed_keys(app):
    return list(app.speed_keys)


def speed_key(app, v):
    return next(k for k in app.speed_keys if k.value == v)


def speed_button(app, fastest=False):
    """The first live speed above the car's current one (else the first live), or the fastest live one; a
    speed that would spin the car is not chosen."""
    car = app.view.active_car()
    keys = [k for k in app.speed_keys if not k.disabled and not k.confirm]
    if fastest:
        return keys[-1]
    faster = [k for k in keys if k.value > car.speed]
    return (faster or keys)[0]


# ---- scenarios --------------------------------------------------------------------------------------------

def tour(d):
    """Setup, pairing, a turn with a corner roll (speed set on the virtual dashboard), a pit stop, an undo,
    laps to the finish, results and history."""
    app = d.app
    yield from setup_and_pair(d, players=2)
    ids = race_ids(app)
    ref = app.ref
    # Seat 0 sets 60 on its (virtual) dashboard: OK opens the dial, UP three times, OK.
    first_dev = ref.pairs[0]
    yield from press_virtual(app, first_dev, "OK")
    yield 0.3
    yield from press_virtual(app, first_dev, "UP", "UP", "UP")
    yield 0.3
    yield from press_virtual(app, first_dev, "OK")
    yield lambda: ref.race.cars[0].speed_set and ref.race.cars[0].speed == 60
    d.note("speed_from_dashboard", ref.race.cars[0].speed)
    yield tap(corner_button(app, 0))
    yield tap(button(ids.lanes, "lane 1: %d" % ref.track.corners[0][1][0][0]))
    d.note("odds", ids.odds.text)
    yield tap(ids.corner)
    d.note("rolling", app.rolling)
    yield lambda: not app.rolling
    d.note("dice_faces", list(ids.dice.faces))
    d.note("chart_row", ids.chart_row.text)
    from companion.widgets import Dice

    d.note("sound_s", Dice.sound.length if Dice.sound else 0)
    d.note("last_roll", app.view.last_roll)
    d.note("last_roll_text", app.view.last_roll_text())
    yield lambda: dashboards_agree(app)
    dash = app.ports.virtual[first_dev]
    d.note("dashboard_after_roll", dash.state["car"])
    d.shot("3-race-corner")
    before_undo = ref.race.cars[0].snapshot()
    d.note("before_undo", before_undo)
    yield tap(ids.undo)
    yield lambda: dashboards_agree(app)
    d.note("after_undo", ref.race.cars[0].snapshot())
    d.note("undo_message", ids.message.text)
    yield tap(ids.end)
    yield lambda: ref.race.seat == 1 and dashboards_agree(app)
    # Seat 1: speed on the tablet, then into the pit.
    yield app.ready
    yield tap(speed_button(app))
    yield tap(ids.pit)
    d.note("pit_message", ids.message.text)
    d.note("pit_card", ids.chart_row.text)
    d.note("pit_status", ref.race.cars[1].status)
    yield lambda: dashboards_agree(app)
    d.shot("4-race-pit")
    yield tap(ids.end)
    # Laps to the finish, every turn through the buttons.
    turns = 0
    while not ref.race.game_over and turns < 60:
        car = app.view.active_car()
        yield app.ready
        if not car.speed_set:
            yield app.ready
            yield tap(speed_button(app))
        if car.laps_left == 1:
            yield tap(ids.finish)
            yield tap(button(ids.speeds, "2"))
        else:
            yield tap(ids.lap)
        yield tap(ids.end)
        turns += 1
        yield 0.01
    d.note("game_over", ref.race.game_over)
    yield lambda: dashboards_agree(app)
    yield lambda: app.sm.current == "results"  # shown by itself at the end of the race
    yield 0.2
    d.note("results", app.view.results())
    d.note("series", [len(p) for p in ref.series()])
    d.shot("5-results")
    yield tap(app.screen("results").ids.back)
    yield tap(ids.history)
    yield 0.2
    lines = app.screen("history").ids.lines
    d.note("history", "\n".join(item["text"] for item in lines.data))
    d.note("history_shown", len([w for w in lines.children[0].children if w.text]))
    d.shot("6-history")


def play_then_idle(d):
    """Mid-race, then wait to be killed: the test SIGKILLs the app."""
    app = d.app
    yield from setup_and_pair(d, players=3)
    ids = race_ids(app)
    ref = app.ref
    for _ in range(4):
        yield app.ready
        yield tap(speed_button(app))
        yield tap(ids.corner)
        yield lambda: not app.rolling
        yield tap(ids.end)
    yield app.ready
    yield tap(speed_button(app))  # the kill comes in the middle of a turn, commands possibly in flight
    d.note("table", ref.race.snapshot())
    d.note("pairs", {str(k): v for k, v in ref.pairs.items()})
    d.note("children", [v.proc.pid for v in app.ports.virtual.values()])
    d.save()
    yield 3600


def resume(d):
    app = d.app
    ids = app.screen("setup").ids
    yield lambda: not ids.resume.disabled
    yield tap(ids.resume)
    yield lambda: app.sm.current == "race"
    yield lambda: dashboards_agree(app)
    ref = app.ref
    d.note("table", ref.race.snapshot())
    d.note("pairs", {str(k): v for k, v in ref.pairs.items()})
    d.note("dashboards", {dev: app.ports.virtual[dev].state["car"] for dev in ref.pairs.values()})
    d.shot("7-resumed")


def showcase(d):
    """The race screen of a 4-car race after a few turns, just after a corner roll (docs/screenshot.png)."""
    app = d.app
    yield from setup_and_pair(d, players=4)
    ids = race_ids(app)
    for turn in range(9):
        yield app.ready
        yield tap(speed_button(app, fastest=True))
        if turn % 2:
            yield tap(corner_button(app, turn % 6))
            yield tap(ids.corner)
            yield lambda: not app.rolling
        yield tap(ids.end)
    yield app.ready
    yield tap(speed_key(app, 60) if not speed_key(app, 60).disabled else speed_button(app))
    yield tap(corner_button(app, 0))
    yield tap(ids.corner)
    yield lambda: not app.rolling
    yield 0.5
    d.shot("race")


def superb(d):
    """A dashboard plays Superb Driving (as its CARD button would send it); the table asks if the track is clear."""
    app = d.app
    yield from setup_and_pair(d, players=2)
    ids = race_ids(app)
    yield app.ready
    yield tap(speed_button(app))
    app.ref.on_dashboard_event(0, "card", {"card": "SD"})  # the event the transport delivers
    yield 0.2
    d.note("question", [w.text for w in reversed(ids.speeds.children)])
    yield tap(button(ids.speeds, "Not clear"))
    d.note("hand_has_sd", "SD" in app.ref.race.cars[0].hand)
    d.note("message", ids.message.text)
    yield lambda: dashboards_agree(app)
    d.note("dashboard_hand_has_sd", "SD" in app.ports.virtual[app.ref.pairs[0]].state["car"]["hand"])


def damaged(d):
    """The newest saved game is damaged: the setup screen says so, offers no resume, and a new game starts."""
    app = d.app
    ids = app.screen("setup").ids
    yield lambda: ids.resume_note.text != ""
    d.note("note", ids.resume_note.text)
    d.note("resume_disabled", ids.resume.disabled)
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing"
    d.note("new_game", os.path.basename(app.path))


def cold_start(d):
    app = d.app
    yield lambda: app.first_frame is not None
    d.note("first_frame", app.first_frame)


SCENARIOS = {"damaged": damaged, "superb": superb, "showcase": showcase, "tour": tour, "play_then_idle": play_then_idle, "resume": resume, "cold_start": cold_start}


def drive(scenario, out, shots=None):
    """Run the real app in this process with `scenario` driving it; what it saw goes to `out` (JSON)."""
    app = CompanionApp()
    driver = Driver(app, scenario, out, shots)
    Clock.schedule_interval(driver.tick, 0.02)
    app.run()
    if "ok" not in driver.seen and "error" not in driver.seen:
        driver.seen["error"] = "the app stopped early"
        driver.save()


def main(argv):
    drive(SCENARIOS[argv[0]], argv[1], argv[2] if len(argv) > 2 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
