"""Runs the real app in a real (offscreen SDL) window and plays it by touching its widgets.

    python -m tests.companion.appdriver SCENARIO OUT.json [SHOTS_DIR]

Each scenario is a generator of steps; a step yields a predicate to wait for, or a number of seconds: that much
time passes for the app at once (its clock is stepped, companion/clock.py: the double-tap guard's AGAIN_S, the
dice, the race screen's handover, a message's time on the screen), then a few frames are drawn. Nothing outside
the app is stepped: what a dashboard's process, a phone's page or a socket does is waited for by a predicate,
with a deadline (WAIT_S, real time). What the scenario saw is written to OUT.json for the test to check. One app
at a time (Kivy has one window): a process of its own, or one after another in a shared process (serve(), each
app made after the last one let go of the window).
"""

import json
import math
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
from tests.companion.touch import UnitTestTouch  # noqa: E402

from companion.app import CompanionApp  # noqa: E402

WAIT_S = 25  # a predicate's deadline, in real time: what it waits for happens outside the app's clock too
FRAMES = 3  # a step of seconds ends once this many frames have been drawn after the clock moved


def click(widget):
    """A real touch at the widget's centre, through Kivy's input dispatch."""
    x, y = widget.to_window(*widget.center)
    t = UnitTestTouch(x, y)
    t.touch_down()
    t.touch_up()


def tap(widget):
    """Touch it, then give Kivy a few frames to lay out what the touch rebuilt (a step's pause: 0.08 s of the
    app's time, as a finger's next tap comes no sooner)."""
    click(widget)
    return 0.08


def until_killed():
    """A step that ends with the process: the test kills the app (SIGKILL or SIGTERM) once it has read OUT.json
    (past the step's deadline, the app stops by itself with an error)."""
    return False


def as_time_passes(app, cond, seconds=0.25):
    """A step for what the app's own timers hold back (a message's time on the table, the bots' pace): each time
    it is asked and `cond` is not yet true, `seconds` more pass for the app (its clock is stepped)."""

    def met():
        if cond():
            return True
        app.clock.step(seconds)
        return False

    return met


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
        self.names = None  # the players' names setup_and_pair types (None: Ann, Bob, ...)
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

    def passed(self, seconds):
        """`seconds` pass for the app at once; the step ends when FRAMES frames have shown what they changed. The
        time passes only once FRAMES frames have shown what came before: a tap's release settles over frames (the
        double-tap guard counts its wait from then), and stepped before, the next tap came too soon and was dropped."""
        settled = Clock.frames + FRAMES
        drawn = []

        def done():
            if not drawn:
                if Clock.frames < settled:
                    return False
                self.app.clock.step(seconds)
                drawn.append(Clock.frames + FRAMES)
            return Clock.frames >= drawn[0]

        return done

    def tick(self, _dt):
        try:
            if self.waiting is not None:
                if not self.waiting():
                    if time.monotonic() > self.until:
                        popup = getattr(self.app, "popup", None)
                        raise TimeoutError("waited too long at step %d (screen %r, question %r)" % (
                            len(self.seen["steps"]), getattr(getattr(self.app, "sm", None), "current", None),
                            getattr(popup, "question", None)))
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
                self.waiting = self.passed(step)
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
    return find(race_ids(app).corners, lambda w: getattr(w, "corner_name", None) == app.f1.ref.track.corners[i][0])


def dashboards_agree(app):
    """Every paired dashboard shows exactly the table's car (its own saved state, via its viewer channel)."""
    ref = app.f1.ref
    for seat, dev in ref.pairs.items():
        d = app.ports.virtual.get(dev)
        if d is None or d.state is None or d.state.get("car") != ref.race.cars[seat].snapshot():
            return False
    return bool(ref.pairs) and not app.transport.pending()


def choice_ids(app):
    """The game choice's widgets (the first screen: Continue, Formula 1, Formula 5, Saved games)."""
    return app.screen("games").ids


def open_f1(app):
    """From the game choice (the app opens on it) to Formula 1's setup, by its button."""
    yield lambda: app.bridge is not None and app.sm.current == "games"
    yield tap(choice_ids(app).choose_f1)
    yield lambda: app.sm.current == "setup"


def open_f5(app):
    """From the game choice to Formula 5's setup, by its button."""
    yield lambda: app.bridge is not None and app.sm.current == "games"
    yield tap(choice_ids(app).choose_f5)
    yield lambda: app.sm.current == "f5setup"


def setup_and_pair(d, players=3, on_tablet=None):
    """Setup, then pairing: the first `on_tablet` cars' dashboards (all of them by default) on the tablet's screen
    (their players have no hardware and chose it); the rest are left on phones (the default), where they wait for
    their phones to link (none here)."""
    app = d.app
    ids = app.screen("setup").ids
    yield lambda: app.bridge is not None
    if app.sm.current == "games":
        yield from open_f1(app)
    yield tap(ids.more)
    yield tap(ids.fewer)
    for _ in range(abs(players - 3)):
        yield tap(ids.more if players > 3 else ids.fewer)
    for i, w in enumerate(reversed(ids.names.children)):
        w.text = (d.names or ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])[i]
    yield tap(ids.track)  # the only track file: the 1962 board again
    d.note("track", ids.track.text)
    d.shot("1-setup")
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing"
    d.note("roll", app.screen("pairing").ids.roll.text)
    for seat in range(players if on_tablet is None else on_tablet):
        rows = list(reversed(app.screen("pairing").ids.seats.children))  # the cards are rebuilt by each tap
        yield tap(rows[seat].virtual_button)  # "Show it on this tablet instead": a virtual dashboard here
        yield lambda seat=seat: any(dev == "virtual-%d" % (seat + 1) for dev, _s in app.bridge.dashboards())
    d.shot("2-pairing")
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "race"
    yield lambda: dashboards_agree(app)


def ready(app):
    """The race screen takes taps again (no dice rolling, the turn not just handed over)."""
    return app.f1.ready()


def real_time(seconds):
    """A wait of `seconds` on the wall clock, for what the app's clock cannot step: a dashboard is a process of its
    own (micropython), whose screens and debounce run on real time."""
    end = time.monotonic() + seconds
    return lambda: time.monotonic() >= end


def press_virtual(app, dev, *names):
    """Taps on a virtual dashboard's buttons: its tab on the race screen first, then its buttons."""
    ids = race_ids(app)
    tab = find(ids.dash_tabs, lambda w: getattr(w, "dev", None) == dev)
    if app.f1.dash_dev != dev:
        yield tap(tab)
    virtual = getattr(app.ports, "virtual", {}).get(dev)
    for name in names:
        handled = virtual.handled if virtual is not None else None
        yield tap(button(ids.dash.ids.buttons, name))
        if virtual is not None:
            # The dashboard is another process: its press handled to the end (its `A` line), not the app's time
            # (or the app asked first, and sent nothing: a covered hand's blind OK)
            yield lambda handled=handled: virtual.handled > handled or app.popup is not None


def speed_keys(app):
    return list(app.f1.speed_keys)


def speed_key(app, v):
    return next(k for k in app.f1.speed_keys if k.value == v)


def speed_button(app, fastest=False):
    """The first live speed above the car's current one (else the first live), or the fastest live one; a
    speed that would spin the car is not chosen."""
    car = app.f1.view.active_car()
    keys = [k for k in app.f1.speed_keys if k.live and not k.confirm]
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
    ref = app.f1.ref
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
    d.note("rolling", app.f1.rolling)
    yield lambda: not app.f1.rolling
    d.note("dice_faces", list(ids.dice.faces))
    d.note("chart_row", ids.chart_row.text)
    from companion.f1.widgets import Dice

    d.note("sound_s", Dice.sound.length if Dice.sound else 0)
    d.note("last_roll", app.f1.view.last_roll)
    d.note("last_roll_text", app.f1.view.last_roll_text())
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
    yield app.f1.ready
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
        car = app.f1.view.active_car()
        yield app.f1.ready
        if not car.speed_set:
            yield app.f1.ready
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
    d.note("results", app.f1.view.results())
    d.note("series", [len(p) for p in ref.series()])
    d.shot("5-results")
    from kivy.core.window import Window

    Window.size = (800, 480)  # the 7-inch display
    yield 1.0
    d.shot("5-results-800x480")
    Window.size = (1280, 800)
    yield 0.3
    rids = app.screen("results").ids
    d.note("results_screen", {"heading": rids.heading.text, "charts": [len(rids[c].graph.plots) for c in (
        "speed_chart", "tyre_chart", "brake_chart")], "legend": len(rids.legend.children)})
    yield tap(rids.back)
    # The end of the race is a state: every race action off, Results at hand, the round count right.
    d.note("race_over", {"live": [n for n in ("corner", "block", "pit", "lap", "finish", "end", "undo")
                                  if getattr(ids, n).live], "round": ids.round.text, "turn": ids.turn.text,
                         "results_button": ids.results.disabled, "rounds": app.f1.view.rounds()})
    yield tap(ids.history)
    yield 0.2
    lines = app.screen("history").ids.lines
    d.note("history", "\n".join(item["text"] for item in lines.data))
    d.note("history_shown", len([w for w in lines.children[0].children if w.text]))
    d.shot("6-history")
    # A new race: the finished one is in Saved games as finished, and opens to its results.
    app.back()
    yield 0.1
    yield tap(ids.new_race)
    yield lambda: app.sm.current == "setup"
    yield tap(app.screen("setup").ids.back)  # Formula 1's setup goes back to the game choice
    yield lambda: app.sm.current == "games"
    yield 0.6  # a look first: Saved games lies where Back was, and a tap there sooner is a double tap (dropped)
    d.note("setup_after_finish", [choice_ids(app).resume.disabled, choice_ids(app).resume_note.text])
    yield tap(choice_ids(app).saved)
    rows = list(reversed(app.screen("saved").ids.games.children))
    d.note("saved_after_finish", [(r.players, r.state) for r in rows])
    yield tap(rows[0].ids.open)
    yield lambda: app.sm.current == "results"
    d.note("reopened", [app.screen("results").ids.heading.text, app.screen("results").ids.back.text])
    app.back()
    d.note("reopened_back", app.sm.current)


def to_the_finish(d, over=2):
    """Every turn through the race screen's buttons until the race is over: a speed, Lap (Finish with `over`
    spaces on the last lap), End turn."""
    app = d.app
    ids = race_ids(app)
    ref = app.f1.ref
    turns = 0
    while not ref.race.game_over and turns < 60:
        car = app.f1.view.active_car()
        yield app.f1.ready
        if not car.speed_set:
            yield tap(speed_button(app, fastest=True))
        if car.laps_left == 1:
            yield tap(ids.finish)
            yield tap(button(ids.speeds, str(over)))
        else:
            yield tap(ids.lap)
        yield tap(ids.end)
        turns += 1


def finisher_shows(app, seat):
    """The first row of that car's virtual dashboard, as its OLED shows it ("FINISHED", "YOUR TURN" ...)."""
    from tests.firmware.dash import text_rows

    d = app.ports.virtual.get(app.f1.ref.pairs.get(seat))
    return text_rows(bytes(d.image))[0].split()[0] if d is not None else None


def undo_over(d):
    """The last car over the line with the wrong spaces: Undo on Results, tapped twice, asks once; Yes, tapped
    twice, undoes once; the race screen is back in play, and Undo there (tapped twice) takes back the finish,
    once; the dashboard that showed FINISHED shows the race again. Then finished again, with the right spaces."""
    app = d.app
    yield lambda: app.bridge is not None
    from kivy.uix.label import Label

    label = Label(text="0000")  # the same size of text again: a new texture all the same (widgets.py says why)
    label.texture_update()
    first = label.texture
    label.text = "1111"
    label.texture_update()
    d.note("new_texture", [label.texture is not first, tuple(label.texture.size) == tuple(first.size)])
    yield from setup_and_pair(d, players=2)
    ids = race_ids(app)
    ref = app.f1.ref
    yield from to_the_finish(d, over=2)
    yield lambda: app.sm.current == "results" and dashboards_agree(app)
    seat = ref.stack[-2]["seat"]  # the last car over the line (its End turn closed the race)
    yield lambda: finisher_shows(app, seat) == "FINISHED"
    rids = app.screen("results").ids
    undos = lambda: sum(1 for e in ref.entries if e.get("t") == "undo")  # noqa: E731
    d.note("over", {"live": [n for n, a in app.f1.view.actions().items() if a.live], "undos": undos(),
                    "button": [rids.undo_last.text, rids.undo_last.live, rids.undo_last.opacity],
                    "over": ref.race.over[seat], "shows": finisher_shows(app, seat)})
    click(rids.undo_last)  # a double tap, 80 ms apart
    yield 0.08
    click(rids.undo_last)
    yield 0.1
    from companion.widgets import Confirm

    from kivy.core.window import Window

    asked = [w for w in Window.children if isinstance(w, Confirm)]
    d.note("asked", {"questions": [w.question for w in asked], "undos": undos(), "screen": app.sm.current})
    yes = button(app.popup, "Undo")
    click(yes)  # Yes, a double tap: the second lands on the race screen, just come back
    yield 0.08
    click(yes)
    yield 0.2
    yield lambda: dashboards_agree(app)
    d.note("back", {"screen": app.sm.current, "undos": undos(), "over": ref.race.game_over, "seat": ref.seat,
                    "phase": app.f1.view.phase(), "message": ids.message.text, "turn": ids.turn.text,
                    "live": sorted(n for n in ACTION_IDS if getattr(ids, n).live)})
    yield app.f1.ready
    yield 0.6  # a deliberate Undo comes after a look at the screen
    click(ids.undo)  # the finish itself, a double tap
    yield 0.08
    click(ids.undo)
    yield 0.2
    yield lambda: dashboards_agree(app)
    yield lambda: finisher_shows(app, seat) != "FINISHED"
    car = ref.race.cars[seat]
    d.note("finish_undone", {"undos": undos(), "laps_left": car.laps_left, "status": car.status,
                             "over": ref.race.over[seat], "message": ids.message.text, "phase": app.f1.view.phase(),
                             "shows": finisher_shows(app, seat), "finish_live": ids.finish.live})
    d.shot("undo-over-race")
    yield 0.6
    yield tap(ids.finish)
    yield tap(button(ids.speeds, "5"))
    yield tap(ids.end)
    yield lambda: app.sm.current == "results" and dashboards_agree(app)
    d.note("again", {"over": ref.race.over[seat], "game_over": ref.race.game_over,
                     "shows": finisher_shows(app, seat)})


ACTION_IDS = ("corner", "block", "pit", "lap", "finish", "end", "undo")


def play_then_idle(d):
    """Mid-race, then wait to be killed: the test SIGKILLs the app."""
    app = d.app
    yield from setup_and_pair(d, players=3)
    ids = race_ids(app)
    ref = app.f1.ref
    for _ in range(4):
        yield app.f1.ready
        yield tap(speed_button(app))
        yield tap(ids.corner)
        yield lambda: not app.f1.rolling
        yield tap(ids.end)
    yield app.f1.ready
    yield tap(speed_button(app))  # the kill comes in the middle of a turn, commands possibly in flight
    d.note("table", ref.race.snapshot())
    d.note("pairs", {str(k): v for k, v in ref.pairs.items()})
    d.note("children", [v.proc.pid for v in app.ports.virtual.values()])
    d.save()
    yield until_killed


def resume(d):
    app = d.app
    ids = choice_ids(app)
    yield lambda: not ids.resume.disabled
    yield tap(ids.resume)
    yield lambda: app.sm.current == "race"
    yield lambda: dashboards_agree(app)
    ref = app.f1.ref
    d.note("table", ref.race.snapshot())
    d.note("pairs", {str(k): v for k, v in ref.pairs.items()})
    d.note("dashboards", {dev: app.ports.virtual[dev].state["car"] for dev in ref.pairs.values()})
    d.shot("7-resumed")


def showcase(d):
    """The race screen of a 6-car race after a few turns, every dashboard on the tablet, just after a corner roll:
    docs/screenshot.png (1280x800) and docs/screenshot-800x480.png (the 7-inch display)."""
    from kivy.core.window import Window

    app = d.app
    d.names = ["Ann", "Bob", "Christine", "Christopher", "Dev", "Flo"]
    yield from setup_and_pair(d, players=6, on_tablet=6)
    ids = race_ids(app)
    for turn in range(9):
        yield app.f1.ready
        yield tap(speed_button(app, fastest=True))
        if turn % 2:
            yield tap(corner_button(app, turn % 6))
            yield tap(ids.corner)
            yield lambda: not app.f1.rolling
        yield tap(ids.end)
    yield app.f1.ready
    yield tap(speed_key(app, 60) if speed_key(app, 60).live else speed_button(app))
    yield tap(corner_button(app, 0))
    yield tap(ids.corner)
    yield lambda: not app.f1.rolling
    yield 0.5
    d.shot("race")
    Window.size = (800, 480)
    yield 0.8
    d.shot("race-800x480")


def superb(d):
    """A dashboard plays Superb Driving (as its CARD button would send it); the table asks if the track is clear."""
    app = d.app
    yield from setup_and_pair(d, players=2)
    ids = race_ids(app)
    yield app.f1.ready
    yield tap(speed_button(app))
    app.f1.ref.on_dashboard_event(0, "card", {"card": "SD"})  # the event the transport delivers
    yield 0.2
    d.note("question", [ids.picker_title.text] + [w.text for w in reversed(ids.speeds.children)])
    yield tap(button(ids.speeds, "Not clear"))
    d.note("hand_has_sd", "SD" in app.f1.ref.race.cars[0].hand)
    d.note("message", ids.message.text)
    yield lambda: dashboards_agree(app)
    d.note("dashboard_hand_has_sd", "SD" in app.ports.virtual[app.f1.ref.pairs[0]].state["car"]["hand"])


def damaged(d):
    """The newest saved game is damaged: the setup screen says so, offers no resume, and a new game starts; the
    pairing screen's Back, before the race, in both games."""
    app = d.app
    choice = choice_ids(app)
    ids = app.screen("setup").ids
    yield lambda: choice.resume_note.text != ""
    d.note("note", choice.resume_note.text)
    d.note("resume_disabled", choice.resume.disabled)
    yield tap(choice.saved)
    rows = list(reversed(app.screen("saved").ids.games.children))
    d.note("saved_rows", [(r.players, r.state, r.detail, r.ids.open.disabled) for r in rows])
    app.back()
    yield 0.1
    yield from open_f1(app)
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing"
    d.note("new_game", os.path.basename(app.f1.path))
    # Back from a race not started yet: Formula 1's pairing to its setup, Formula 5's to its own.
    yield tap(app.screen("pairing").ids.back)
    d.note("pairing_back", [app.sm.current, app.f1.ref is None])
    app.back()  # Formula 1's setup: back to the game choice
    yield from open_f5(app)
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "pairing"
    yield tap(app.screen("pairing").ids.back)
    d.note("f5_pairing_back", [app.sm.current, app.f5.ref is None, app.screen("f5setup").ids.resume.disabled])


def cold_start(d):
    app = d.app
    yield lambda: app.first_frame is not None
    d.note("first_frame", app.first_frame)


def oled_matches(app, oled, image):
    """The OledView's texture against the firmware's framebuffer `image` (SSD1306 pages), pixel for pixel, and
    its geometry: drawn at a whole-number scale k (k x k screen pixels each, nearest-neighbour), on whole pixels.
    Returns the faults (empty when exact) and k. A hidden hand draws nothing (the rectangle is empty)."""
    from companion.widgets import H, W, oled_rows

    rows = oled_rows(image)
    k = oled.scale
    faults = []
    if tuple(oled.rect.size) != (W * k, H * k) or k != int(k) or k < 1:
        faults.append("drawn at %r, not a whole-number scale of 128x64" % (tuple(oled.rect.size),))
        return faults, k
    if any(v != int(v) for v in oled.rect.pos) or oled.texture.mag_filter != "nearest":
        faults.append("not on whole pixels, or smoothed")
    pixels = oled.texture.pixels  # RGBA, bottom row first
    for fy in range(H):
        for fx in range(W):
            i = ((H - 1 - fy) * W + fx) * 4
            if (pixels[i] > 128) != (rows[fy][fx] > 0):
                faults.append("pixel %d,%d" % (fx, fy))
                if len(faults) > 5:
                    return faults, k
    return faults, k


def events_this_turn(app, kind):
    from companion.f1 import turn

    return [e for e in turn.this_turn(app.f1.ref) if e.get("t") == kind]


def people(d):
    """Taps like people's: Back everywhere, a double tap on End turn, a tap from a stale screen, taps while the
    dice roll, the fixed speed picker and its spin question, the virtual OLED pixel for pixel, the hidden hand
    peeked at, leaving a race and finding it in Saved games, deleting it."""
    app = d.app
    ids = app.screen("setup").ids
    choice = choice_ids(app)
    yield lambda: app.bridge is not None
    d.note("variants", [w.text for w in reversed(ids.variants.children)])
    # Escape (Android's Back) on the game choice asks before quitting; Back again answers no. Through the
    # window's own keyboard event, as a key press arrives: Kivy's default would close the app.
    from kivy.core.window import Window

    Window.dispatch("on_keyboard", 27, 41, None, [])
    d.note("setup_back_asks", app.popup.question if app.popup else None)
    Window.dispatch("on_keyboard", 27, 41, None, [])
    yield 0.1
    d.note("setup_back_twice", [app.sm.current, app.popup is None])
    yield tap(choice.choose_f1)  # Formula 1's setup goes back to the game choice
    shown = app.sm.current
    Window.dispatch("on_keyboard", 27, 41, None, [])
    yield 0.1
    d.note("back_from_setup", [shown, app.sm.current])
    yield tap(choice.choose_f5)  # Formula 5's screens go back too: its setup to the game choice
    shown = app.sm.current
    Window.dispatch("on_keyboard", 27, 41, None, [])
    yield 0.1
    d.note("back_from_f5setup", [shown, app.sm.current, app.f5 is None])
    yield tap(choice.saved)
    d.note("saved_empty", app.screen("saved").ids.saved_message.text)
    app.back()
    d.note("saved_back", app.sm.current)
    yield from setup_and_pair(d, players=2)
    race = app.f1.ref.race
    rids = race_ids(app)
    # Pairing, History and Results each come back to the race with their Back button.
    for name, widget in (("pairing", rids.dashboards), ("history", rids.history), ("results", rids.results)):
        yield tap(widget)
        shown = app.sm.current
        yield 0.6  # a look at it first: a tap on its Back sooner, at the same spot, is a double tap (dropped)
        yield tap(app.screen(name).ids.back)
        d.note("back_from_" + name, [shown, app.sm.current])
        yield 0.05
    # The speed picker: the same keys in the same places, whatever the turn.
    yield app.f1.ready
    d.note("keys", [(k.value, k.x, k.y) for k in app.f1.speed_keys])
    d.note("keys_off", [k.value for k in app.f1.speed_keys if not k.live])
    yield tap(speed_key(app, 60))
    # A double tap on End turn, 80 ms apart: Ann's turn ends, Bob's does not.
    click(rids.end)
    yield 0.08
    click(rids.end)
    yield 0.3
    d.note("double_tap", {"seat": race.seat, "ends": sum(1 for e in app.f1.ref.stack if e.get("t") == "end"),
                          "message": rids.message.text})
    yield app.f1.ready
    d.note("keys_turn2", [(k.value, k.x, k.y) for k in app.f1.speed_keys])
    yield tap(speed_key(app, 40))
    # A tap from a stale screen: Bob's turn is ended elsewhere (another tap got there first) before this
    # screen is redrawn; the End turn button still holds Bob's token.
    stale = rids.end.token
    app.f1.view.end_turn(token=stale)
    click(rids.end)
    d.note("stale_tap", {"seat": race.seat, "message": app.f1.view.message,
                         "ends": sum(1 for e in app.f1.ref.stack if e.get("t") == "end")})
    yield 0.2
    # Ann: 120 mph into Corner 6 (a 100 band): taps on the roll and on End turn while the dice tumble.
    yield app.f1.ready
    yield tap(speed_key(app, 120))
    yield tap(corner_button(app, 5))
    tyre = race.cars[0].tyre
    click(rids.corner)
    d.note("rolling", app.f1.rolling)
    click(rids.corner)
    click(rids.end)
    d.note("during_roll", {"corners": len(events_this_turn(app, "corner")), "seat": race.seat,
                           "message": rids.message.text})
    yield lambda: not app.f1.rolling
    yield tap(rids.corner)  # the same corner again, a second later: it is not rolled for twice
    d.note("after_roll", {"corners": len(events_this_turn(app, "corner")), "corner_off": not rids.corner.live,
                          "tyre_paid": race.cars[0].tyre - tyre, "chart_row": rids.chart_row.text,
                          "spun": race.cars[0].status})
    # The virtual dashboard's OLED, pixel for pixel against the firmware's framebuffer.
    dev = app.f1.ref.pairs[0]
    dash = app.ports.virtual[dev]
    yield from press_virtual(app, dev, "BACK")
    yield 0.5
    oled = rids.dash.oled
    yield lambda: oled.frame == dash.frame  # the tablet shows the dashboard's latest frame ...
    image = bytes(dash.image)
    same = oled.shown_image == image  # ... which is the firmware's framebuffer as it is now
    faults, k = oled_matches(app, oled, oled.shown_image)  # drawn pixel for pixel (in the same frame)
    d.note("oled", {"faults": faults, "scale": k, "lit": sum(bin(b).count("1") for b in image), "same": same})
    # The hand: on the dashboard it is shown, on the tablet it is covered unless held.
    yield from press_virtual(app, dev, "CARD")
    yield lambda: dash.state is not None and dash.state.get("hand") == 1 and oled.hidden
    yield 0.1
    covered = oled_matches(app, oled, oled.shown_image)[0] if oled.shown() else ["covered"]
    x, y = oled.to_window(*oled.center)
    from tests.companion.touch import UnitTestTouch

    finger = UnitTestTouch(x, y)
    finger.touch_down()
    yield 0.1
    peek = oled_matches(app, oled, oled.shown_image)[0] if oled.shown() else ["still covered"]
    d.note("peek", {"covered_faults": len(covered), "peeking": oled.peeking, "peek_faults": peek})
    finger.touch_up()
    yield 0.05
    d.note("released", {"peeking": oled.peeking, "hidden": oled.hidden})
    yield from press_virtual(app, dev, "BACK")
    # Bob: Block is off until his speed is set (a tap says so); blocked by a faster car, he may raise to it.
    yield tap(rids.end)
    yield app.f1.ready
    d.note("new_turn_table", {"dice": list(rids.dice.faces), "chart_row": rids.chart_row.text})
    yield tap(rids.block)  # Bob keeps last turn's 40: Block opens its picker from there
    block_before = rids.message.text
    d.note("block", {"before": block_before, "title": rids.picker_title.text,
                     "keys": [(k.value, k.live, k.note) for k in app.f1.speed_keys]})
    yield tap(speed_key(app, 60))
    d.note("blocked", {"speed": race.cars[1].speed, "message": rids.message.text, "picker": app.f1.picker})
    # Ann, at 120, sees what each speed costs; the one that spins asks first.
    yield tap(rids.end)
    yield app.f1.ready
    d.note("costs", [(k.value, k.cost, k.confirm) for k in app.f1.speed_keys])
    spinning = [k for k in app.f1.speed_keys if k.confirm and k.live]
    d.note("spin_keys", [(k.value, k.cost) for k in spinning])
    if not spinning:  # no speed spins the car from here: the picker's question is checked on a key told it does
        key = speed_key(app, 100)
        key.confirm, key.cost, key.spins = True, "SPIN", True
        spinning = [key]
    if spinning:
        yield tap(spinning[0])
        d.note("spin_asks", app.popup.question if app.popup else None)
        app.back()
        d.note("spin_no", [race.cars[0].speed_set, app.popup is None])
    # The race screen asks before leaving; no keeps it, yes goes to setup with the race saved.
    Window.dispatch("on_keyboard", 27, 41, None, [])
    d.note("race_back_asks", app.popup.question if app.popup else None)
    app.back()
    d.note("race_back_no", app.sm.current)
    app.back()
    app.popup.answer(True)
    yield lambda: app.sm.current == "games" and not choice.resume.disabled
    d.note("continue", choice.resume_note.text)
    yield tap(choice.saved)
    games = app.screen("saved").ids.games
    rows = list(reversed(games.children))
    d.note("saved_rows", [(r.players, r.state, r.detail) for r in rows])
    d.shot("saved-games")
    yield tap(rows[0].ids.delete)
    d.note("delete_asks", app.popup.question if app.popup else None)
    app.popup.answer(True)
    yield 0.1
    d.note("after_delete", [(r.players, r.state) for r in reversed(games.children)])
    app.back()
    d.note("saved_back_again", app.sm.current)


def continue_after_pairing(d):
    """Escape on pairing does not lose the seats: setup, Roll for seats, Escape on the pairing screen, then the setup's Continue. The
    race must not skip what Race does: every seat placed on a phone is served (its firmware page and link socket),
    so the phones waiting at their addresses link and play; nothing runs on the tablet for them."""
    from kivy.core.window import Window

    app = d.app
    ids = app.screen("setup").ids
    yield from open_f1(app)
    for i, w in enumerate(reversed(ids.names.children)):
        w.text = ["Ann", "Bob", "Cy"][i]
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing" and app.phones is not None and app.phones.ready()
    d.note("addresses", [app.phones.address(seat) for seat in range(3)])
    Window.dispatch("on_keyboard", 27, 41, None, [])  # Escape: Formula 1's setup
    yield lambda: app.sm.current == "setup"
    Window.dispatch("on_keyboard", 27, 41, None, [])  # Escape again: the game choice
    yield lambda: app.sm.current == "games" and not choice_ids(app).resume.disabled
    yield tap(choice_ids(app).resume)
    yield lambda: app.sm.current in ("race", "pairing")
    if app.sm.current == "pairing":  # a fix may show the skipped step again: Race then does the rest
        yield tap(app.screen("pairing").ids.go)
        yield lambda: app.sm.current == "race"
    import urllib.request

    ref = app.f1.ref
    yield lambda: sorted(app.phones.served) == [0, 1, 2]
    pages = []
    for address in d.seen["addresses"]:  # what a phone waiting at its address gets: the firmware's seat page
        with urllib.request.urlopen(address, timeout=10) as r:
            pages.append(r.status)
    d.note("after", {"screen": app.sm.current, "pairs": len(ref.pairs), "served": sorted(app.phones.served),
                     "pages": pages, "running": sorted(app.ports.virtual)})


def text_cut(label):
    """The lines of `label` its box does not show: its text laid out at its width, without a height, against
    the box (a label whose text_size is its size draws only the lines that fit, and says nothing)."""
    from kivy.uix.label import Label

    probe = Label()
    for key in ("text", "font_size", "bold", "markup", "line_height", "font_name", "padding"):
        setattr(probe, key, getattr(label, key))  # after the kv rules (a kwarg would lose to a rule's binding)
    probe.text_size = (label.width, None)
    probe.texture_update()
    return max(0, probe.texture_size[1] - label.height) > 1


def odds_seen(app):
    ids = race_ids(app)
    return {"text": ids.odds.text, "cut": text_cut(ids.odds) or ids.odds.texture_size[1] > ids.odds.height + 1,
            "inside": ids.odds.y >= ids.odds.parent.y - 1}


def odds_spin(d):
    """Superb Driving asks the table before it counts: 100 mph at a 60 band, before the roll, then Superb Driving played on the dashboard.
    The odds list every outcome, SPIN first, and after the card say what it changed."""
    from kivy.core.window import Window

    app = d.app
    yield from setup_and_pair(d, players=2)
    view = app.f1.view
    for _turn in range(10):  # the table's turns, quickly, until the first car is at 100
        speed = max(v for v in view.speed_choices() if v <= 100)
        view.set_speed(speed)
        if view.active() == 0 and speed == 100:
            break
        view.end_turn()
    app.f1.refresh_race(force=True)
    yield app.f1.ready
    corner = next(i for i, c in enumerate(app.f1.ref.track.corners) if 60 in c[1][0])
    yield tap(corner_button(app, corner))
    lane = list(app.f1.ref.track.corners[corner][1][0]).index(60)
    yield tap(button(race_ids(app).lanes, "lane %d: 60" % (lane + 1)))
    sizes = {}
    for w, h in SIZES:
        Window.size = (w, h)
        yield 0.4
        sizes["%dx%d" % (w, h)] = odds_seen(app)
        d.shot("odds-%dx%d" % (w, h))
    Window.size = SIZES[0]
    yield 0.3
    d.note("before", sizes)
    app.f1.ref.on_dashboard_event(0, "card", {"card": "SD"})  # the event the transport delivers
    yield 0.3
    d.note("after_card", odds_seen(app))
    yield tap(button(race_ids(app).speeds, "Clear"))
    d.note("after_clear", odds_seen(app))


def covered_hand(d):
    """A tablet dashboard's hand stays covered until held: CARD on the tablet's dashboard shows the hand covered; OK without holding the cover
    played the card unseen. Now it asks; after a look (a finger held on it), OK plays without a question."""
    from tests.companion.touch import UnitTestTouch

    app = d.app
    yield from setup_and_pair(d, players=2)
    ref = app.f1.ref
    yield app.f1.ready
    dev = ref.pairs[ref.race.seat]
    dash = app.ports.virtual[dev]
    oled = race_ids(app).dash.oled
    sent = []
    real_tap = dash.tap
    dash.tap = lambda name: sent.append(name) or real_tap(name)  # what reaches the firmware, as it is sent
    yield from press_virtual(app, dev, "CARD")
    yield lambda: dash.state is not None and dash.state.get("mode") == 2 and oled.hidden
    yield 0.2
    del sent[:]
    yield from press_virtual(app, dev, "OK")
    d.note("blind_ok", {"asked": app.popup.question if app.popup else None, "sent": list(sent)})
    d.shot("covered-hand-asks")
    app.back()  # Back on the question: no
    yield 0.2
    d.note("after_no", {"sent": list(sent), "mode": dash.state.get("mode"), "popup": app.popup is not None})
    x, y = oled.to_window(*oled.center)
    finger = UnitTestTouch(x, y)
    finger.touch_down()  # its player looks ...
    yield 0.2
    finger.touch_up()  # ... and lets go
    yield 0.1
    yield from press_virtual(app, dev, "OK")
    d.note("seen_ok", {"asked": app.popup.question if app.popup else None, "sent": list(sent)})


def quick_race(d, players=2):
    """A race started straight from the setup form, without pairing or dashboards (a short test)."""
    app = d.app
    yield lambda: app.bridge is not None
    app.f1.form.set_count(players)
    app.f1.start()
    assert app.f1.view is not None, app.screen("setup").ids.setup_message.text
    app.show("race")
    yield app.f1.ready


def _rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def taps_in_place(d):
    """A player's speed set and taken back 150 times on the race screen, each tap drawn: how much the app's
    memory grew over them (Linux's resident set), and the window's samples a pixel."""
    from kivy.graphics import opengl

    app = d.app
    yield from quick_race(d)
    ids = race_ids(app)

    def one_turn_back_and_forth():
        yield tap(speed_button(app))
        yield lambda: app.f1.ref.race.cars[app.f1.ref.race.seat].speed_set
        yield tap(ids.undo)
        yield lambda: not app.f1.ref.race.cars[app.f1.ref.race.seat].speed_set

    yield 0.6  # past the double-tap guard's time for the setup's vanished buttons
    before = _rss_mb()
    for _ in range(75):
        yield from one_turn_back_and_forth()
    d.note("grew_mb", round(_rss_mb() - before, 1))
    d.note("samples", opengl.glGetIntegerv(opengl.GL_SAMPLES)[0])


def same_speed(d):
    """A speed kept from last turn counts as set: a player keeping last turn's speed taps Lap, a corner's roll, Block or Pit: it means
    the same speed, said once on the screen, as End turn does; before, each said "set the speed first"."""
    app = d.app
    yield from quick_race(d)
    ids = race_ids(app)
    ref = app.f1.ref
    for _seat in range(2):  # both at 60 in the first round
        yield tap(speed_key(app, 60))
        yield tap(ids.end)
        yield app.f1.ready
    seen = {"live": {n: getattr(ids, n).live for n in ("corner", "block", "pit", "lap")}}
    yield tap(ids.lap)
    seen["lap"] = [ids.message.text, ref.race.cars[ref.race.seat].speed, ref.race.cars[ref.race.seat].speed_set]
    yield tap(ids.corner)
    yield lambda: not app.f1.rolling
    seen["corner"] = ids.message.text
    yield tap(ids.end)
    yield app.f1.ready
    yield tap(ids.block)  # the next player, at 60 too: Block opens its picker from the speed kept
    seen["block"] = [ids.picker_title.text, app.f1.picker, ids.message.text]
    d.note("same", seen)
    d.shot("same-speed")


def dice_land_first(d):
    """The dashboards show the throw only once the tablet's dice stop: they showed "DICE 5+4 No penalty" while the tablet's dice still rolled.
    Every frame of the car's dashboard is read while the table's dice tumble, then after they land."""
    from tests.firmware.dash import text_rows

    app = d.app
    yield from setup_and_pair(d, players=2)
    ref = app.f1.ref
    ids = race_ids(app)
    yield app.f1.ready
    dash = app.ports.virtual[ref.pairs[ref.race.seat]]
    yield tap(speed_key(app, 60))
    yield tap(corner_button(app, 0))
    yield lambda: dashboards_agree(app)
    before = dict(dash.state["car"])
    seat = ref.race.seat
    screen_before = race_screen_shows(app, seat)
    spoiled = []
    screen_spoiled = []
    frames = {"n": 0}
    dev = ref.pairs[seat]

    def watch():
        if app.f1.rolling:
            frames["n"] += 1
            rows = " ".join(text_rows(bytes(dash.image)))
            car = dash.state["car"] if dash.state else {}
            if "DICE" in rows or car != before:
                spoiled.append(rows)
            shown = race_screen_shows(app, seat)
            if shown != screen_before:
                screen_spoiled.append(shown)
            if frames["n"] > 5 and not app.transport.pending(dev) and dash.state_frame == dash.frame:
                # Looked long enough: whatever the table sent the dashboard meanwhile is acked and drawn (a throw
                # sent too soon would be on its screen now). The dice land: their time passes at once.
                app.clock.step(ids.dice.ROLL_S)
            return False
        return True

    # The dice tumble until the dashboard has been watched (a loaded machine draws few frames in 0.8 s)
    ids.dice.ROLL_S = 600
    yield tap(ids.corner)
    yield watch  # every tick of the roll looked at, until the dice land
    d.note("during", {"frames": frames["n"], "spoiled": spoiled[:3]})
    d.note("screen", {"before": screen_before, "spoiled": screen_spoiled[:3]})
    yield lambda: "DICE" in " ".join(text_rows(bytes(dash.image)))
    yield lambda: dashboards_agree(app)
    d.note("after", {"table": list(ids.dice.faces), "dashboard": " ".join(text_rows(bytes(dash.image))),
                     "screen": race_screen_shows(app, seat), "car": ref.race.cars[seat].snapshot()})


def race_screen_shows(app, seat):
    """What the race screen shows of the throw's outcome: the rolling car's card, the odds line, the status line
    and the roll in words."""
    ids = race_ids(app)
    panel = next(p for p in app.f1.car_rows if p.seat == seat)
    return {"card": [panel.speed, panel.tyre, panel.brake, panel.laps_left, panel.status], "odds": ids.odds.text,
            "status": ids.status.text, "roll": ids.chart_row.text}


def pairing_sizes(d):
    """Every phone seat's QR code and address in view: six players' cards on the pairing screen, each with its phone's QR code and address,
    at the three sizes: the address whole (its second line kept its descenders: q read g, y read v), the
    buttons' words whole, every card's buttons in reach (the bottom row was cut off)."""
    from kivy.core.window import Window

    app = d.app
    ids = app.screen("setup").ids
    yield from open_f1(app)
    app.f1.form.set_count(6)
    app.f1.fill_setup()
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing" and app.phones is not None and app.phones.ready()
    fits = {}
    for w, h in SIZES:
        Window.size = (w, h)
        app.pairing.refresh(force=True)
        yield 0.5
        cards = list(reversed(app.screen("pairing").ids.seats.children))
        fits["%dx%d" % (w, h)] = {
            "faults": text_faults(app, "pairing", w, h),
            "addresses": [[a.text, not text_cut(a)] for a in (find(c, lambda w: str(getattr(w, "text", "")).startswith(
                "http://")) for c in cards)],
            "buttons": [[b.text, shown_text(b)] for c in cards for b in (c.seat_button, c.virtual_button) if b],
            "cards_whole": all(c.minimum_height <= c.height + 1 for c in cards)}
        if (w, h) == SIZES[0]:  # the black car's button in its rings, as on the race screen
            black = next(c for c in cards if c.seat_button.text.startswith("BLACK"))
            d.note("black_car", left_edge(app, black.seat_button.parent))
        d.shot("pairing-6p-%dx%d" % (w, h))
    d.note("fits", fits)


def stale_words(d):
    """No words of another game. A new Formula 5 game with no Green player said "Green's
    dashboard is on this tablet..."; the quit question during Formula 5 named Formula 1."""
    app = d.app
    yield from open_f5(app)
    app.f5.form.roles = ["dashboard", "bot", "dashboard", "bot", "bot"]  # red, yellow, green, blue, white
    app.f5._fill_roles()
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "pairing"
    cards = list(reversed(app.screen("pairing").ids.seats.children))
    green = next(c for c in cards if c.seat_button.text.startswith("GREEN"))
    yield tap(green.virtual_button)
    yield lambda: app.screen("pairing").ids.pair_message.text != ""
    first = app.screen("pairing").ids.pair_message.text
    app.back()  # back to Formula 5's setup: that game stays saved
    yield lambda: app.sm.current == "f5setup"
    app.f5.form.roles = ["dashboard", "bot", "none", "bot", "bot"]  # a new game: nobody drives green
    app.f5._fill_roles()
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "pairing"
    yield 0.2
    d.note("pairing", [first, app.screen("pairing").ids.pair_message.text])
    app._close_asked()  # the window's close button
    yield 0.1
    d.note("quit", app.popup.question if app.popup else None)
    app.back()


def f5_bots_play(app, moves):
    """The Formula 5 table's bots play until the game has more than `moves` moves, then wait."""
    app.f5.auto_s = 0.03
    yield as_time_passes(app, lambda: len(app.f5.ref.game.events) > moves)  # each move's words have their time
    app.f5.auto_s = 3600.0


def f5_played(d):
    """A Formula 5 game of bots played a little, then the app ends (as a kill would, mid-game)."""
    app = d.app
    yield from open_f5(app)
    app.f5.form.roles = ["bot", "bot", "bot", "bot", "none"]
    app.f5._fill_roles()
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "f5table"
    yield from f5_bots_play(app, 6)
    d.note("events", len(app.f5.ref.game.events))


def f5_continued(d):
    """Continue offers the game played last: the app opened again after a Formula 5 game: its setup's Continue offers that game
    (it offered only Formula 1's, "The last race is over", Continue dimmed), and Saved games counts both."""
    app = d.app
    ids = choice_ids(app)
    yield lambda: ids.saved.text.startswith("Saved games (")
    yield 0.2
    d.note("setup", {"resume": [ids.resume.text, not ids.resume.disabled], "note": ids.resume_note.text,
                     "saved": ids.saved.text, "screen": app.sm.current})
    yield tap(ids.resume)
    yield lambda: app.sm.current == "f5table"
    d.note("resumed", len(app.f5.ref.game.events))
    app.f5.auto_s = 3600.0


def f5_left_then_killed(d):
    """Leaving Formula 5 lands on the game choice: leaving Formula 5 landed on Formula 1's setup. A Formula 5 game of bots
    from the game choice, left by Back (asked, Leave): the game choice, with Continue for it; continued, played
    on, and then the app is killed (the test sends SIGKILL once this has saved what it saw)."""
    from kivy.core.window import Window

    app = d.app
    ids = choice_ids(app)
    yield from f5_played(d)  # a game of bots, a few moves in
    Window.dispatch("on_keyboard", 27, 41, None, [])  # Escape (Android's Back) on the table: asked first
    d.note("leave_asks", app.popup.question if app.popup else None)
    yield tap(button(app.popup, "Leave"))
    yield lambda: app.sm.current != "f5table" and not ids.resume.disabled
    d.note("left", {"screen": app.sm.current, "f5": app.f5 is not None, "resume": ids.resume.text,
                    "note": ids.resume_note.text})
    d.shot("games-after-f5")
    yield tap(ids.resume)
    yield lambda: app.sm.current == "f5table"
    yield from f5_bots_play(app, len(app.f5.ref.game.events) + 2)  # continued, and played on
    yield 0.2
    d.note("events", len(app.f5.ref.game.events))
    d.save()
    yield until_killed


def first_sight(d):
    """The app as it opens: the screen it shows first, and Continue as soon as the saved games are read (within
    a few seconds of the first frame, no tap); then Continue taken."""
    app = d.app
    ids = choice_ids(app)
    yield lambda: app.first_frame is not None
    first = app.sm.current
    yield lambda: not ids.resume.disabled or time.monotonic() > app.first_frame + 10
    d.note("first", {"screen": first, "now": app.sm.current, "resume": [ids.resume.text, not ids.resume.disabled],
                     "note": ids.resume_note.text})
    d.shot("games-first-sight")
    yield tap(ids.resume)
    yield lambda: app.sm.current == "f5table"
    d.note("resumed", {"events": len(app.f5.ref.game.events), "screen": app.sm.current})
    app.f5.auto_s = 3600.0


def who_plays(d):
    """The tablet dashboard's tab stays in its place: the one tablet dashboard's tab was a car-coloured bar mid-screen on every turn,
    competing with the header's "Ann to play". What is painted in a car's colour, turn by turn."""
    from companion import theme

    app = d.app
    yield from setup_and_pair(d, players=2, on_tablet=1)  # one dashboard on the tablet, the second car's on a phone
    ids = race_ids(app)
    ref = app.f1.ref
    seen = []
    for _turn in range(2):
        yield app.f1.ready
        seat = ref.race.seat
        tabs = list(ids.dash_tabs.children)
        cars = [list(c) for c in theme.CAR_RGBA.values()]
        seen.append({"seat": seat, "tabs_in_car_colour": [t.text for t in tabs if list(t.background_color) in cars],
                     "header": [ids.turn.text, list(ids.turn.rgba) == list(ref and theme.CAR_RGBA[ref.race.colours[seat]])],
                     "active": [p.name for p in app.f1.car_rows if p.active]})
        d.shot("who-plays-%d" % seat)
        yield tap(speed_button(app))
        yield tap(ids.end)
    d.note("turns", seen)


def race_then_wait(d):
    """A race open, then nothing: the test sends the app SIGTERM."""
    yield from quick_race(d)
    d.note("ready", 1)
    d.save()
    yield until_killed


def setup_names(d):
    """The setup screen as the app opens: its players' names."""
    app = d.app
    yield lambda: app.bridge is not None
    d.note("names", [w.text for w in reversed(app.screen("setup").ids.names.children)])


def words_whole(d):
    """No clipped words. A pit stop and its missed moves, then the race to its end (played
    through the view, the screen following), then the Results at the three sizes."""
    from kivy.core.window import Window

    app = d.app
    yield from quick_race(d)
    view = app.f1.view
    view.set_speed(60)
    view.pit()
    view.end_turn()
    statuses = []
    while not view.race.game_over:
        car = view.active_car()
        if not car.speed_set:
            view.set_speed(view.speed_choices()[-1])
        if car.laps_left == 1 and view.actions()["finish"].live:
            view.finish(3)
        elif view.actions()["lap"].live:
            view.lap(0)
        view.end_turn()
        app.f1.refresh_race(force=True)
        yield 0.02
        statuses.append([p.ids.status.text for p in app.f1.car_rows])
    d.note("statuses", statuses)
    d.note("skipped", len(view.race.skipped))
    app.show("results")
    fits = {}
    for w, h in SIZES:
        Window.size = (w, h)
        yield 0.5
        for _ in range(30):  # the charts lay their tick labels out a few frames after a resize
            if not text_faults(app, "results", w, h):
                break
            yield 0.1
        fits["%dx%d" % (w, h)] = {"faults": text_faults(app, "results", w, h),
                                  "buttons": [[b.text, shown_text(b)] for b in app.screen("results").walk()
                                              if hasattr(b, "trigger_action") and b.opacity]}
        d.shot("results-%dx%d" % (w, h))
    d.note("fits", fits)
    d.note("details", [r[3] for r in view.results()])


def screens_fit(d):
    """Text readable on every other Formula 1 screen: setup (six players), history, saved games, at the
    three sizes: no text under 16 px, none cut, none outside its box."""
    from kivy.core.window import Window

    app = d.app
    yield lambda: app.bridge is not None
    app.f1.form.set_count(6)
    app.f1.fill_setup()
    fits = {}

    def look(screen):
        app.sm.current = screen
        for w, h in SIZES:
            Window.size = (w, h)
            yield 0.5
            fits["%s-%dx%d" % (screen, w, h)] = [f for f in text_faults(app, screen, w, h) if "touch target" not in f]
            d.shot("%s-%dx%d" % (screen, w, h))
        Window.size = SIZES[0]
        yield 0.3

    yield 0.3  # the game choice has looked for saved games (there are none)
    yield from look("games")
    yield from look("setup")
    yield from quick_race(d, players=6)
    view = app.f1.view
    for _turn in range(14):
        if not view.active_car().speed_set:
            view.set_speed(view.speed_choices()[-1])
        view.end_turn()
    app.show("history")
    yield from look("history")
    app.new_game("saved")
    yield 0.3
    yield from look("saved")
    d.note("fits", fits)


def f5_finished_row(d):
    """A finished Formula 5 game in Saved games says so: a finished Formula 5 game in Saved games was dimmed and said nothing."""
    app = d.app
    yield from open_f5(app)
    app.f5.form.roles = ["bot", "bot", "none", "bot", "none"]
    app.f5._fill_roles()
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "f5table"
    ref = app.f5.ref
    while not ref.game.over:  # the bots' turns at once
        ref.auto_move()
    yield 0.3
    order = [ref.names()[car] for car in ref.game.order if ref.game.is_player(car)]
    yield tap(app.screen("f5table").ids.leave)
    yield lambda: app.sm.current == "games"
    yield 0.6  # a look first: Saved games lies where Leave was, and a tap there sooner is a double tap (dropped)
    yield tap(choice_ids(app).saved)
    rows = list(reversed(app.screen("saved").ids.games.children))
    d.note("row", {"players": rows[0].players, "state": rows[0].state, "detail": rows[0].detail, "order": order})


SIZES = ((1280, 800), (1920, 1200), (800, 480))


def sizes(d):
    """Screenshots of the race screen at the three screen sizes for 6 players (six virtual dashboards), then 4
    and 2 (games started straight to the race, without dashboards, to keep the test short)."""
    from kivy.core.window import Window

    app = d.app
    # Twelve letters (whole at 1280x800), two that differ only at the end, and one longer than any box.
    d.names = ["Maximilianus", "Christine", "Christopher", "Player 4", "Player 5", "Maximiliana Montgomery-Smythe"]
    yield lambda: app.bridge is not None
    app.f1.form.set_count(6)
    app.f1.fill_setup()
    for w, h in SIZES:
        Window.size = (w, h)
        yield 0.3
        d.shot("setup-6p-%dx%d" % (w, h))
    Window.size = SIZES[0]
    yield 0.3
    yield from setup_and_pair(d, players=6, on_tablet=6)
    ids = race_ids(app)
    yield app.f1.ready
    yield tap(speed_button(app, fastest=True))
    yield tap(corner_button(app, 0))
    yield tap(ids.corner)
    yield lambda: not app.f1.rolling
    fits = {}
    for players in (6, 4, 2):
        if players != 6:
            app.new_game()
            app.f1.form.set_count(players)
            app.f1.start()
            assert app.f1.view is not None, "the race did not start: %s" % app.screen("setup").ids.setup_message.text
            app.show("race")
            yield app.f1.ready
            yield tap(speed_button(app))
        for w, h in SIZES:
            Window.size = (w, h)
            yield 0.4
            panels = app.f1.car_rows
            fits["%dx%d-%d" % (w, h, players)] = {
                "faults": text_faults(app, "race", w, h),
                "names": {where: [[label.text, shown_text(label)] for label in labels]
                          for where, labels in (("cars", [p.ids.name for p in panels]),
                                                ("tabs", list(reversed(ids.dash_tabs.children))),
                                                ("turn", [ids.turn]))},
                "cars": len(panels),
                "in_view": all(p.y >= 0 and p.top <= h + 1 for p in panels),
                "names_fit": all(p.ids.name.texture_size[0] <= p.ids.name.width + 1 for p in panels),
                "long_name": [p.ids.name.texture_size[0] > 0 and p.ids.name.text.startswith("Maxi")
                              for p in panels if "Maxi" in p.name][:1],
                "keys": len([k for k in app.f1.speed_keys if k.parent is not None and k.width > 20]),
                "dashboards": len(ids.dash_tabs.children),
                "figures": big_figures(app),
                "choices": [[b.text, round(b.width), round(b.height)] for b in ids.corners.children + ids.lanes.children
                            if hasattr(b, "trigger_action")],
            }
            d.shot("race-%dp-%dx%d" % (players, w, h))
            if players == 6 and (w, h) == SIZES[0]:
                d.note("black_car", black_car_edge(app))
    d.note("fits", fits)


def big_figures(app):
    """The figures read across the table, in pixels on screen: the least speed and laps figure of the cars'
    panels, the header's name of the player to move, a die's face (its square) and its digit (far larger than the
    16 px floor)."""
    from kivy.metrics import dp

    ids = race_ids(app)
    panels = app.f1.car_rows
    faces = [w for w in ids.dice.children]
    return {
        "speed": round(min(p.ids.speed.font_size for p in panels), 1),
        "laps": round(min(p.ids.laps.font_size for p in panels), 1),
        "turn": round(ids.turn.font_size, 1),
        "die": round(min(min(f.width, f.height) - dp(8) for f in faces), 1),
        "die_digit": round(min(f.font_size for f in faces), 1),
        "thrown": all(f.value for f in faces),
    }


def black_car_edge(app):
    """The black car's colour box against the dark panel around it, as drawn: (the box's edge, just inside,
    just outside), RGB 0..255 (the black car once vanished on the dark theme)."""
    panel = next(p for p in app.f1.car_rows if tuple(p.car_rgba[:3]) == tuple(app_theme().CAR_RGBA["black"][:3]))
    return left_edge(app, panel.ids.name.parent)


def left_edge(app, box):
    """The pixels at `box`'s left edge, 6 px inside it and 3 px outside it, as drawn, RGB 0..255."""
    from kivy.graphics import opengl

    x, y = (math.ceil(v) for v in box.to_window(box.x, box.center_y))  # the first whole pixel drawn (layouts
    # place widgets at fractions of a pixel)
    row = opengl.glReadPixels(x - 3, y, 10, 1, opengl.GL_RGBA, opengl.GL_UNSIGNED_BYTE)  # the window's last frame

    def rgb(dx):
        return list(row[(dx + 3) * 4:(dx + 3) * 4 + 3])

    return {"edge": rgb(0), "inside": rgb(6), "outside": rgb(-3)}


def app_theme():
    from companion import theme

    return theme


# ---- Formula 5 at the three sizes ---------------------------------------------------------------------------

def _window_rect(w):
    x, y = w.to_window(w.x, w.y)
    x2, y2 = w.to_window(w.right, w.top)
    return x, y, x2, y2


def _overlap(a, b):
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def layout_faults(app, screen, width, height):
    """What a player would see wrong on `screen` in a width x height window: a widget outside the window (inside
    a ScrollView: outside the ScrollView, which may scroll it into view), a text larger than its box (a name
    not ellipsised), a button smaller than the theme's touch target, two buttons on top of each other."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    from companion import theme

    faults = []
    buttons = []
    touch = theme.touch(app.scale)
    view = (0, 0, width, height)

    def visit(w, frame, scrolled):
        if w.opacity == 0 or w.width < 1 or w.height < 1:
            return
        r = _window_rect(w)
        name = "%s %r" % (type(w).__name__, getattr(w, "text", "")[:40])
        shown = isinstance(w, (Label, ScrollView)) or type(w).__name__ in ("F5CarRow", "OledView", "VirtualDash")
        if shown and (isinstance(w, Label) and w.text or not isinstance(w, Label)):
            lo_x, lo_y, hi_x, hi_y = frame
            outside = r[0] < lo_x - 1 or r[2] > hi_x + 1 or (not scrolled and (r[1] < lo_y - 1 or r[3] > hi_y + 1))
            if outside:
                faults.append("%s at %s is outside %s" % (name, [round(v) for v in r], [round(v) for v in frame]))
        if isinstance(w, Label) and w.text:
            tw, th = w.texture_size
            if tw > w.width + 1 or th > w.height + 1:
                faults.append("%s: its text (%dx%d) is larger than its box (%dx%d)" % (name, tw, th, w.width, w.height))
        if isinstance(w, ButtonBehavior):
            if w.height < touch - 0.5 or w.width < theme.TOUCH_MIN_PX - 0.5:
                faults.append("%s: %dx%d, smaller than a touch target (%d high)" % (name, w.width, w.height, touch))
            if scrolled:  # clipped to its ScrollView: only the part in view can be tapped
                r = (r[0], max(r[1], frame[1]), r[2], min(r[3], frame[3]))
            if r[3] - r[1] > 1:
                for other, ro in buttons:
                    if _overlap(r, ro):
                        faults.append("%s overlaps %s" % (name, other))
                buttons.append((name, r))
        if isinstance(w, ScrollView):
            frame, scrolled = r, True
        for child in w.children:
            visit(child, frame, scrolled)

    visit(app.popup if screen == "question" else app.screen(screen), view, False)
    return faults


def text_faults(app, screen, width, height):
    """layout_faults, and what a player at arm's length from a 7-inch screen could not read: a text under
    theme.MIN_TEXT_PX, or lines a label's box drops without a word (its text_size fixed, no ellipsis)."""
    from kivy.uix.label import Label

    from companion import theme

    faults = layout_faults(app, screen, width, height)
    root = app.popup if screen == "question" else app.screen(screen)
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not w.text.strip() or w.opacity == 0 or w.width < 1:
            continue
        if any(p.opacity == 0 for p in _parents(w)):
            continue
        name = "%s %r" % (type(w).__name__, w.text[:30])
        if w.font_size < getattr(theme, "MIN_TEXT_PX", 16) - 0.01:  # (16: the old main had no floor)
            faults.append("%s: %.1f px text" % (name, w.font_size))
        if w.text_size[1] is not None and not w.shorten and text_cut(w):
            faults.append("%s: lines cut by its box (%dx%d)" % (name, w.width, w.height))
        if w.shorten and "[" not in w.text and shown_text(w) != w.text and not _a_name(app, w.text):
            faults.append("%s: shortened to %r" % (name, shown_text(w)))  # a word cut (names may shorten)
    return faults


def _a_name(app, text):
    """A player's name (or a list of them): those may shorten on a narrow screen, told apart (tested apart)."""
    names = set(app.f1.form.names)
    for game in (app.f1, app.f5):
        ref = getattr(game, "ref", None)
        names.update(getattr(getattr(ref, "race", None), "names", None) or getattr(ref, "names_", None) or [])
    return text in names or any(n and n in text for n in names)


def shown_text(label):
    """The text as the label draws it: shortened with an ellipsis where it does not fit its box."""
    label.texture_update()
    core = label._label
    return core.shorten(label.text) if label.shorten and core.text_size[0] is not None else label.text


def _parents(w):
    while w.parent is not None and w.parent is not w:
        w = w.parent
        yield w


def f5_table_facts(app):
    """The Formula 5 table as a player reads it across the table: each row in view, the figures' sizes, the
    active player's row marked, and every virtual dashboard's OLED covered (F5 hands are secret)."""
    from companion import theme

    rows = app.f5.rows
    least = theme.font(theme.LARGE, app.scale) - 0.5
    ids = app.screen("f5table").ids
    return {
        "rows": len(rows),
        "small_figures": [
            "%s %s %.1f" % (r.ids.car.text, key, getattr(r.ids, key).font_size)
            for r in rows.values() for key in ("place", "car", "speed") if getattr(r.ids, key).font_size < least],
        "rows_apart": all(abs(a.y - b.y) >= a.height - 1 for a in rows.values() for b in rows.values() if a is not b),
        "to_move": sum(1 for r in rows.values() if r.to_move),
        "long_name": [r.ids.car.texture_size[0] <= r.ids.car.width + 1 for r in rows.values()
                      if r.ids.car.text == F5_LONG_NAME],  # ellipsised inside its colour box
        "oleds": len(app.f5.oleds),
        "oleds_shown": [dev for dev, oled in app.f5.oleds.items() if oled.shown() or tuple(oled.rect.size) != (0, 0)],
        "tabs": len(ids.dash_tabs.children) if "dash_tabs" in ids else 0,
    }


F5_LONG_NAME = "Maximiliana Montgomery-Smythe"


def f5_sizes(d):
    """Formula 5 at the three screen sizes: its setup; a 5-player game (every car a player, every dashboard on
    this tablet, a name longer than its box) through pairing to the table; then 4 and 2 players (bots, straight
    to the table), the 2-player game played to its end. One app for all: the window is resized."""
    from kivy.core.window import Window

    app = d.app
    fits = {}
    d.note("fits", fits)  # filled in as the screens are looked at
    t0 = time.monotonic()

    def look(screen, label, players, facts=None):
        for w, h in SIZES:
            Window.size = (w, h)
            if screen == "pairing":
                app.pairing.refresh(force=True)  # its cards are made at the window's size (a tablet's never changes)
            yield 0.4
            key = "%s-%dp-%dx%d" % (label, players, w, h)
            fits[key] = {"faults": text_faults(app, screen, w, h)}
            if facts is not None:
                fits[key].update(facts())
            if screen == "question" and d.shots:  # over the window, not in the screens' tree (app.screenshot)
                app.popup.export_to_png(os.path.join(d.shots, "f5-%s.png" % key))
            else:
                d.shot("f5-" + key)
            fits[key]["t"] = round(time.monotonic() - t0, 1)
        Window.size = SIZES[0]
        yield 0.3

    yield from open_f5(app)
    cars = list(reversed(app.screen("f5setup").ids.cars.children))
    for car in range(1, 5):  # bot -> no player -> dashboard
        yield tap(cars[car])
        yield tap(cars[car])
    d.note("roles5", list(app.f5.form.roles))
    yield from look("f5setup", "setup", 5)
    names = [n.capitalize() for n in ("red", "yellow", "green", "blue", "white")]
    names[2] = F5_LONG_NAME
    app.f5.form.names = names
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "pairing"
    for seat in range(5):
        rows = list(reversed(app.screen("pairing").ids.seats.children))  # the cards are rebuilt by each tap
        yield tap(rows[seat].virtual_button)  # "Show it on this tablet instead"
        yield lambda seat=seat: any(dev == "f5-virtual-%d" % (seat + 1) for dev, _s in app.bridge.dashboards())
    yield from look("pairing", "pairing", 5)
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "f5table" and len(app.f5.oleds) == 5
    yield 1.0
    yield from look("f5table", "table", 5, lambda: f5_table_facts(app))
    # The player to move holds a finger on their covered OLED to look at their hand; it is covered again after.
    ref = app.f5.ref
    oled = app.f5.oleds.get(ref.pairs.get(ref.game.to_move()))
    x, y = oled.to_window(*oled.center) if oled is not None else (0, 0)
    from tests.companion.touch import UnitTestTouch

    finger = UnitTestTouch(x, y)
    finger.touch_down()
    yield 0.1
    peek = [oled.shown(), tuple(oled.rect.size)] if oled is not None else [False, (0, 0)]
    finger.touch_up()
    yield 0.05
    d.note("peek", peek + [oled.shown() if oled is not None else None])
    for players, roles in ((4, ["bot", "bot", "bot", "bot", "none"]), (2, ["none", "bot", "none", "bot", "none"])):
        yield tap(app.screen("f5table").ids.leave)
        yield lambda: app.sm.current == "games" and app.f5 is None
        yield 0.6  # a look first: a tap at once where Leave was is a double tap (dropped)
        yield tap(choice_ids(app).choose_f5)
        yield lambda: app.sm.current == "f5setup"
        if players == 4:  # the game just left is offered to resume, in words
            yield lambda: not app.screen("f5setup").ids.resume.disabled
            d.note("resume_note", app.screen("f5setup").ids.resume_note.text)
            yield from look("f5setup", "resume", 5)
        app.f5.form.roles = list(roles)
        app.f5._fill_roles()
        yield tap(app.screen("f5setup").ids.start)
        yield lambda: app.sm.current == "f5table"
        app.f5.auto_s = 1000  # the bots wait while the screen is looked at
        yield 0.3
        yield from look("f5table", "table", players, lambda: f5_table_facts(app))
    ref = app.f5.ref
    while not ref.game.over:  # the bots' turns at once (the tablet plays them), not one a tick
        ref.auto_move()
    yield lambda: app.screen("f5table").ids.status.text.startswith("The race is over")
    yield 0.7  # the last slide
    yield from look("f5table", "over", 2, lambda: f5_table_facts(app))
    app.back()  # Back (Escape, Android's Back) on the table asks first
    yield 0.3
    d.note("question", app.popup.question if app.popup else None)
    yield from look("question", "question", 2)
    app.back()  # Back on the question answers no
    d.note("after_question", app.sm.current)


# ---- the 7-inch display from a player's chair: words measured as drawn -----------------------------------------

def drawn_words(app, root, frame):
    """Every button's words on `root` in view, as drawn: [text, [capital height of each line]] (tests/companion/
    glyphs.py), icons alone left out (no words)."""
    from tests.companion.glyphs import caps

    seen = []
    for w in root.walk(restrict=True):
        if not hasattr(w, "trigger_action") or not getattr(w, "text", "") or w.opacity == 0 or w.width < 1:
            continue
        if any(p.opacity == 0 for p in _parents(w)):
            continue
        seen.append([w.text, caps(frame, w), type(w).__name__])
    return seen


def play_words(d):
    """A six-car race on the 7-inch display (F1_WINDOW=800x480), every dashboard on the tablet: a speed kept and
    a lap (a message of several sentences), a corner chosen (the odds), rolled (the roll in words), each read
    in the window's pixels; the tablet's dashboard's scale; then the same screen at 1280x800 (it still fits)."""
    from kivy.core.window import Window

    from tests.companion.glyphs import Frame, caps

    app = d.app
    d.names = ["Ann", "Bob", "Christine", "Christopher", "Dev", "Flo"]
    Window.size = (1280, 800)  # paired where the six cards are in view together, then played on the 7-inch
    yield from setup_and_pair(d, players=6, on_tablet=6)
    Window.size = (800, 480)
    yield 0.5
    ids = race_ids(app)
    view = app.f1.view
    for _seat in range(6):  # everyone at 60 in the first round
        yield app.f1.ready
        yield tap(speed_key(app, 60))
        yield tap(ids.end)
    yield app.f1.ready
    yield tap(ids.lap)  # the same speed kept, then the lap: several sentences
    yield 0.3
    frame = Frame()
    d.note("message", {"text": ids.message.text, "shown": shown_text(ids.message), "cut": text_cut(ids.message),
                       "caps": caps(frame, ids.message)})
    yield tap(ids.end)
    yield app.f1.ready
    yield 0.3
    frame = Frame()
    d.note("turn", {"text": ids.turn.text, "caps": caps(frame, ids.turn)})
    d.shot("play-words-message")
    yield tap(speed_key(app, 60) if speed_key(app, 60).live else speed_button(app))
    yield tap(corner_button(app, 0))
    yield 0.3
    frame = Frame()
    d.note("odds", {"text": ids.odds.text, "caps": caps(frame, ids.odds), "cut": odds_seen(app)["cut"]})
    d.note("buttons", drawn_words(app, app.screen("race"), frame))
    d.shot("play-words-odds")
    yield tap(ids.corner)
    yield lambda: not app.f1.rolling
    yield 0.3
    frame = Frame()
    d.note("rolled", {"text": ids.chart_row.text, "caps": caps(frame, ids.chart_row),
                      "message": [ids.message.text, shown_text(ids.message), caps(frame, ids.message)],
                      "figures": big_figures(app)})
    d.note("faults_800", text_faults(app, "race", *Window.size))
    d.shot("play-words-rolled")
    panel = next(p for p in app.f1.car_rows if p.active)  # its player asks for the dashboard: their car's panel
    yield tap(panel)
    yield lambda: ids.dash.oled.frame >= 0
    yield 0.3
    frame = Frame()
    d.note("oled", {"scale": ids.dash.oled.scale, "drawn": list(ids.dash.oled.rect.size),
                    "face": getattr(app.screen("race"), "face", None), "buttons": drawn_words(app, app.screen("race"), frame),
                    "faults": text_faults(app, "race", *Window.size)})
    d.shot("play-words-dashboard")
    yield tap(panel)  # tapped again: the table
    d.note("face_after", getattr(app.screen("race"), "face", None))
    Window.size = (1280, 800)
    yield 0.5
    d.note("faults_1280", text_faults(app, "race", 1280, 800))
    d.note("oled_1280", ids.dash.oled.scale)
    d.note("view", view is app.f1.view)


def f5_words(d):
    """Formula 5 on the 7-inch display: the pairing cards' car buttons, then the table with two dashboards on
    the tablet: whose turn, each car's colour name and the word under it, read in the window's pixels."""
    from tests.companion.glyphs import Frame, caps

    app = d.app
    yield from open_f5(app)
    app.f5.form.roles = ["dashboard", "dashboard", "bot", "bot", "bot"]
    app.f5._fill_roles()
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "pairing"
    cards = list(reversed(app.screen("pairing").ids.seats.children))
    d.note("seat_buttons", [c.seat_button.text for c in cards])
    for seat in range(2):
        rows = list(reversed(app.screen("pairing").ids.seats.children))
        yield tap(rows[seat].virtual_button)
        yield lambda seat=seat: any(dev == "f5-virtual-%d" % (seat + 1) for dev, _s in app.bridge.dashboards())
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "f5table" and len(app.f5.oleds) == 2
    app.f5.auto_s = 1000
    yield 1.0
    ids = app.screen("f5table").ids
    frame = Frame()
    turn = [w for w in app.screen("f5table").walk() if type(w).__name__ == "F5Turn"]
    d.note("status", {"text": ids.status.text, "caps": caps(frame, ids.status),
                      "turn": [[w.text, caps(frame, w)] for w in turn]})
    d.note("rows", [[r.ids.car.text, caps(frame, r.ids.car), r.ids.who.text, caps(frame, r.ids.who)]
                    for r in app.f5.rows.values()])
    d.note("buttons", drawn_words(app, app.screen("f5table"), frame))
    d.note("oleds", [o.scale for o in app.f5.oleds.values() if o.get_root_window() is not None])  # those shown
    d.note("faults", text_faults(app, "f5table", 800, 480))
    d.shot("f5-words")


def first_screens(d):
    """A fresh install on the 7-inch display: the game choice (Continue, and why it is dimmed); a race played to
    its end, its Results; a Formula 5 game of bots to its end, its Results; Saved games. Each screen's title and
    the faces its names are drawn in; the charts' value labels up the side."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    app = d.app
    seen = {}
    d.note("screens", seen)

    def look(screen, names):
        w, h = Window.size
        root = app.screen(screen)
        titles = [[t.text, t.font_name, round(t.font_size, 1)] for t in root.walk(restrict=True)
                  if type(t).__name__ == "LidTitle" and t.opacity and t.width > 1]
        seen[screen] = {"titles": titles, "faces": sorted({x.font_name for x in names}),
                        "names": [x.text for x in names], "faults": text_faults(app, screen, w, h)}
        d.shot("look-%s-%dx%d" % (screen, w, h))

    ids = choice_ids(app)
    yield lambda: app.bridge is not None and app.sm.current == "games"
    yield 0.5  # the saved games looked up (none)
    d.note("fresh", {"resume": [ids.resume.text, ids.resume.disabled], "note": ids.resume_note.text})
    look("games", [])
    yield from quick_race(d)
    view = app.f1.view
    while not view.race.game_over:
        car = view.active_car()
        if not car.speed_set:
            view.set_speed(view.speed_choices()[-1])
        if car.laps_left == 1 and view.actions()["finish"].live:
            view.finish(3)
        elif view.actions()["lap"].live:
            view.lap(0)
        view.end_turn()
    app.f1.refresh_race(force=True)
    app.show("results")
    yield 0.5
    rids = app.screen("results").ids
    for _ in range(30):  # the charts lay their tick labels out a few frames after they are drawn
        if all(any(lb.text for lb in rids[c].graph._y_grid_label) for c in ("tyre_chart", "brake_chart")):
            break
        yield 0.1
    d.note("charts", {c: [lb.text for lb in rids[c].graph._y_grid_label if lb.text and lb.opacity]
                      for c in ("speed_chart", "tyre_chart", "brake_chart")})
    look("results", [w for w in rids.order.walk(restrict=True) if isinstance(w, Label) and w.text in view.race.names])
    app.new_game()  # left (it stays saved): the game choice
    yield 0.6
    yield tap(ids.choose_f5)
    yield lambda: app.sm.current == "f5setup"
    app.f5.form.roles = ["bot", "bot", "none", "bot", "none"]
    app.f5._fill_roles()
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "f5table"
    ref = app.f5.ref
    while not ref.game.over:
        ref.auto_move()
    yield 0.3
    app.f5.show_results()
    yield 0.3
    names = set(ref.names())
    look("f5results", [w for w in app.screen("f5results").walk(restrict=True)
                       if isinstance(w, Label) and w.text in names])
    yield tap(app.screen("f5results").ids.back)
    yield 0.6
    yield tap(app.screen("f5table").ids.leave)
    yield lambda: app.sm.current == "games"
    yield 0.6
    yield tap(ids.saved)
    yield lambda: app.sm.current == "saved"
    yield 0.3
    rows = list(reversed(app.screen("saved").ids.games.children))
    look("saved", [r.ids.players for r in rows])
    app.back()
    yield 0.3
    look("games", [])


def fresh_look(d):
    """What a new app finds in its process: the tests of the shared app process (test_app_host.py) compare it
    between a first app and one made after others."""
    from kivy.core.window import Window

    from companion import storage

    app = d.app
    yield lambda: app.bridge is not None and app.sm.current == "games"
    yield 0.3
    d.note("look", {"pid": os.getpid(), "screen": app.sm.current, "window": list(Window.size),
                    "window_children": len(Window.children), "size_observers": len(Window.get_property_observers("size")),
                    "clock_events": repeating(),
                    "data": os.environ.get("F1_COMPANION_DATA"),
                    "saved": len(os.listdir(storage.games_dir())) if os.path.isdir(storage.games_dir()) else 0,
                    "settings": sorted(k for k in os.environ if k.startswith("F1_"))})


def repeating():
    """The names of what repeats on Kivy's Clock (a left app's tick would be there twice); not Kivy's animations,
    which repeat only while one runs."""
    names = (getattr(e.get_callback(), "__qualname__", "?") for e in Clock.get_events() if e.loop)
    return sorted(n for n in names if n != "Animation._update")


def fails_on_purpose(d):
    """A scenario that fails half-way (test_app_host.py: the failure is named, the next test gets a new process)."""
    yield lambda: d.app.bridge is not None
    raise RuntimeError("planted failure")


SCENARIOS = {"fresh_look": fresh_look, "fails_on_purpose": fails_on_purpose, "taps_in_place": taps_in_place, "continue_after_pairing": continue_after_pairing, "f5_finished_row": f5_finished_row, "screens_fit": screens_fit, "words_whole": words_whole, "setup_names": setup_names, "race_then_wait": race_then_wait, "who_plays": who_plays, "f5_played": f5_played, "f5_continued": f5_continued, "f5_left_then_killed": f5_left_then_killed, "first_sight": first_sight, "stale_words": stale_words, "pairing_sizes": pairing_sizes, "dice_land_first": dice_land_first, "same_speed": same_speed, "covered_hand": covered_hand, "odds_spin": odds_spin, "undo_over": undo_over, "sizes": sizes, "people": people, "damaged": damaged, "superb": superb, "showcase": showcase, "tour": tour, "play_then_idle": play_then_idle, "resume": resume, "cold_start": cold_start,
             "f5_sizes": f5_sizes, "play_words": play_words, "f5_words": f5_words, "first_screens": first_screens}


def drive(scenario, out, shots=None):
    """Run the real app in this process with `scenario` driving it; what it saw goes to `out` (JSON)."""
    kivys = set(Clock.get_events())  # Kivy's own, scheduled before any app (its caches' purge): they stay
    app = CompanionApp()
    driver = Driver(app, scenario, out, shots)
    Clock.schedule_interval(driver.tick, 0.02)
    try:
        app.run()
    finally:
        let_go(app, kivys)
    if "ok" not in driver.seen and "error" not in driver.seen:
        driver.seen["error"] = "the app stopped early"
        driver.save()


def let_go(app, kivys):
    """What a stopped app leaves in the process, undone, so that the next app starts as in a process of its own:
    its handlers on the window, what it and its driver scheduled on Kivy's Clock (all but `kivys`, Kivy's own,
    such as its caches' purge), its screens, Kivy's caches, and the kv rules Kivy loads again for the next app
    (companion.kv, by the App's name)."""
    import gc

    from kivy.cache import Cache
    from kivy.core.window import Window
    from kivy.lang import Builder

    Window.unbind(size=app._resize, on_keyboard=app._key, on_request_close=app._close_asked,
                  on_flip=app._drawn)
    Window.unbind(on_keyboard=app._on_keyboard_settings)
    guard = getattr(app, "tap_guard", None)
    if guard is not None:
        Window.unbind(on_touch_down=guard.on_touch_down, on_touch_up=guard.on_touch_up)
    for event in Clock.get_events():
        if event not in kivys:
            event.cancel()
    for child in Window.children[:]:
        Window.remove_widget(child)
    Window.canvas.clear()
    for category in list(Cache._categories):
        Cache.remove(category)  # the textures and images the app drew with (Kivy drops them on a timeout)
    gc.collect()
    Builder.unload_file(os.path.join(os.path.dirname(os.path.abspath(sys.modules[CompanionApp.__module__].__file__)),
                                     "companion.kv"))


def scenario_named(name):
    """SCENARIOS' `name`, or `module:name` for a scenario written in another module (tests.f5_devices...)."""
    if ":" not in name:
        return SCENARIOS[name]
    import importlib

    module, _, attr = name.partition(":")
    found = importlib.import_module(module)
    return getattr(found, "SCENARIOS", {}).get(attr) or getattr(found, attr)


def serve():
    """Scenarios one after another in this one process (tests/companion/app_host.py asks for them, through
    tests/companion/app_serve.py): one JSON line on stdin per run ({"scenario", "out", "shots", "env"}), a line
    "done" on stdout once its OUT.json is written. Each run has an app of its own, made after the last one let go
    (let_go), the app's F1_ settings those of `env` alone (its data folder, seed, ...), the window at F1_WINDOW.
    Kivy, SDL and the app's modules are loaded once: that is the time saved."""
    from kivy.core.window import Window

    for line in sys.stdin:
        ask = json.loads(line)
        for key in [k for k in os.environ if k.startswith("F1_")]:
            del os.environ[key]
        os.environ.update(ask["env"])
        width, height = (int(x) for x in os.environ.get("F1_WINDOW", "1280x800").split("x"))
        if tuple(Window.size) != (width, height):
            Window.size = (width, height)
        try:
            drive(scenario_named(ask["scenario"]), ask["out"], ask.get("shots"))
        except Exception:
            with open(ask["out"], "w") as f:
                json.dump({"error": traceback.format_exc()}, f)
        sys.stdout.write("done\n")
        sys.stdout.flush()


def main(argv):
    drive(SCENARIOS[argv[0]], argv[1], argv[2] if len(argv) > 2 else None)


if __name__ == "__main__":
    main(sys.argv[1:])

