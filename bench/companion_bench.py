"""Tablet app figures, each with a baseline measured in the same run:

companion.cold_start_s              launch (`python`, the app's imports, the window) to the first frame of the
                                    first screen (the game choice), median of 3, in a real (offscreen SDL) window
companion.cold_start_bare_kivy_s    baseline: the same for a bare Kivy app showing one Label
companion.corner_ms                 p50 from the Corner roll confirmed to the virtual dashboard (real firmware on
                                    the `micropython` unix port, over a pty) showing the result: its OLED reads
                                    "DICE a+b"; the dice animation on the tablet is not included
companion.corner_ms_p99
companion.corner_referee_ms         diagnostic: the referee's share (rules, SQLite append, commands)
companion.corner_saved_acked_ms     diagnostic: until the dashboard has saved the result and the tablet has its ack
companion.corner_bare_echo_ms       baseline: one line echoed by a bare MicroPython poll loop over the same kind
                                    of pty
companion.frame_ms_p99              p99 frame time of the race screen (the work of one pass of Kivy's loop after
                                    its wait for the frame: link poll, layout, drawing, until the frame's pixels
                                    are drawn) while 6 dashboards stream 20 state frames a second each
companion.frame_ms_p99_idle         baseline: the same screen with no dashboard streaming
companion.tap_to_screen_ms_p99      a tap on the race screen (a speed key, then Undo, alternately; 6 cars) through
                                    Kivy's input dispatch to the end of the frame that shows its result: flipped
                                    and its pixels drawn (glFinish: the offscreen window's flip does not wait for
                                    them, a screen's does); TAP_SAMPLES taps in each of TAP_RUNS runs, the runs of
                                    the app and of the baseline taken in turn, p99 over all of an app's taps
companion.tap_to_screen_ms          its p50
companion.tap_to_screen_bare_kivy_ms_p99  baseline: the same for a bare Kivy app (Kivy's defaults), a button
                                    changing a label's text
companion.tap_to_screen_vs_bare_kivy  tap_to_screen_ms_p99 / tap_to_screen_bare_kivy_ms_p99, both from this run
                                    (the target: at most 1.3)
companion.tap_cpu_ms                p50 of the CPU time the app's process spends on one of those taps, every thread
                                    counted (Mesa's software rasteriser draws the offscreen window on two threads):
                                    a figure the machine's load does not move much, unlike the wall-clock ones
companion.tap_cpu_bare_kivy_ms      baseline: the same for the bare Kivy app
companion.tap_cpu_vs_bare_kivy      tap_cpu_ms / tap_cpu_bare_kivy_ms, both from this run: the figure to compare
                                    across runs on a loaded machine (the bare app's window draws with Kivy's
                                    default of 2 samples a pixel, the app's with none: companion/renderer.py)
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from bench.results import record  # noqa: E402


CORNER_SAMPLES = 40
TAP_SAMPLES = 200
TAP_RUNS = 2
# The first tap a second after the screen appears, as a player's comes (one sooner is on a screen still being
# laid out, and the double-tap guard drops it: companion/double_tap.py)
SETTLE_S = 1.0
FRAME_SECONDS = 8

WINDOW_ENV = dict(KIVY_NO_ARGS="1", SDL_VIDEODRIVER="offscreen", KIVY_WINDOW="sdl2", KIVY_LOG_MODE="PYTHON",
                  SDL_AUDIODRIVER="dummy")


def _window_env():
    os.environ.update(WINDOW_ENV)
    from kivy.config import Config

    Config.set("graphics", "width", "1280")
    Config.set("graphics", "height", "800")


# ---- child processes ------------------------------------------------------------------------------------

def child_cold(kind, out):
    _window_env()
    if kind == "bare":
        from kivy.app import App
        from kivy.uix.label import Label

        class Bare(App):
            def build(self):
                return Label(text="Formula 1")

        app = Bare()
    else:
        from companion.app import CompanionApp  # before Kivy's window opens: the app's renderer settings

        app = CompanionApp()
    from kivy.core.window import Window

    def flipped(*_):
        with open(out, "w") as f:
            f.write(repr(time.monotonic()))
        Window.unbind(on_flip=flipped)
        app.stop()

    Window.bind(on_flip=flipped)
    app.run()


def child_frames(streaming, out, work):
    """The race screen for 6 cars paired with 6 link dashboards (streaming or not); frame times to `out`."""
    _window_env()
    from kivy.clock import Clock

    from companion.app import CompanionApp
    from tests.link.harness import FakeUsb, direct_dashboard, transport

    usb = FakeUsb()
    dashes = []
    for i in range(6):
        d, path = direct_dashboard(work, "stream-%d" % i, state_hz=20 if streaming else 0)
        dashes.append(d)
        usb.paths.append(path)
    t = transport(usb)
    app = CompanionApp(transport=t, ports=None)
    flips = []
    state = {"phase": 0}

    def step(_dt):
        if state["phase"] == 0 and app.bridge is not None:
            app.f1.form.set_count(6)
            app.f1.start(seed=1)
            for seat in range(6):
                app.f1.ref.pair(seat, "stream-%d" % seat)
            app.bridge.push()
            app.show("race")
            state["phase"] = 1
            state["until"] = time.monotonic() + 2  # the links come up, the dashboards are resynced
        elif state["phase"] == 1 and time.monotonic() > state["until"]:
            state["measure"] = 1
            state["phase"] = 2
            state["until"] = time.monotonic() + FRAME_SECONDS
        elif state["phase"] == 2 and time.monotonic() > state["until"]:
            links = [app.bridge.status.get("stream-%d" % i) for i in range(6)]
            with open(out, "w") as f:
                json.dump({"flips": flips, "links": links}, f)
            app.stop()
            return False
        return True

    from kivy.base import EventLoop
    from kivy.graphics.opengl import glFinish

    idle = EventLoop.idle

    wait = Clock.idle

    def woke():
        r = wait()  # Kivy sleeps here until the next frame is due (60 fps)
        state["woke"] = time.perf_counter()
        return r

    def timed_idle():
        # One pass of Kivy's loop after the wait: clock events (the link poll), input, layout, drawing.
        r = idle()
        glFinish()  # the frame's pixels drawn: the offscreen window's flip does not wait for them
        if state.get("measure") and "woke" in state:
            flips.append((time.perf_counter() - state["woke"]) * 1000)
        return r

    Clock.idle = woke
    EventLoop.idle = timed_idle
    Clock.schedule_interval(step, 0.05)
    try:
        app.run()
    finally:
        t.stop()
        for d in dashes:
            d.kill()
            os.close(d.slave)


def child_taps(kind, out):
    """The race screen for 6 cars: real touches on a speed key and on Undo, each timed to the frame showing it.
    kind "bare": the baseline, a bare Kivy app whose button's tap changes a label's text."""
    _window_env()
    if kind == "bare":
        return _bare_taps(out)
    from companion.app import CompanionApp  # before Kivy's window opens: the app's renderer settings
    from kivy.clock import Clock
    from kivy.core.window import Window
    from tests.companion.touch import UnitTestTouch
    from tests.link.harness import FakeUsb, transport

    t = transport(FakeUsb())
    app = CompanionApp(transport=t, ports=None)
    times = {"ms": [], "cpu_ms": []}
    state = {"phase": 0, "n": 0, "t0": None}

    def flipped(*_):
        if state["t0"] is not None:
            _timed(times, state["t0"])
            state["t0"] = None

    def touch(widget):
        x, y = widget.to_window(*widget.center)
        finger = UnitTestTouch(x, y)
        state["t0"] = (time.perf_counter(), time.process_time())
        finger.touch_down()
        finger.touch_up()

    def step(_dt):
        if state["phase"] == 0 and app.bridge is not None:
            app.f1.form.set_count(6)
            app.f1.start(seed=1)
            app.show("race")
            Window.bind(on_flip=flipped)
            state["phase"] = 1
            state["from"] = time.monotonic() + SETTLE_S
            return True
        if state["phase"] != 1 or state["t0"] is not None or not app.f1.ready() or time.monotonic() < state["from"]:
            return True
        if _stopped_when_done(app, state, out, times):
            return False
        ids = app.screen("race").ids
        if app.f1.ref.race.cars[app.f1.ref.race.seat].speed_set:
            touch(ids.undo)
        else:
            touch(next(k for k in app.f1.speed_keys if k.live and not k.confirm and k.value > 0))
        state["n"] += 1
        return True

    Clock.schedule_interval(step, 0.05)
    try:
        app.run()
    finally:
        t.stop()


def _stopped_when_done(app, state, out, times):
    """Once every tap is taken: the times written to `out` and the app stopped (True)."""
    if state["n"] < TAP_SAMPLES:
        return False
    with open(out, "w") as f:
        json.dump(times, f)
    app.stop()
    return True


def _timed(times, t0):
    """One tap's wall time and the CPU time the whole process spent on it (every thread: Python, and Mesa's
    software rasteriser, which the offscreen window draws with); both from the touch to the frame's flip, once
    the frame is drawn: the offscreen window's flip does not wait for its pixels, a screen's does."""
    from kivy.graphics.opengl import glFinish

    glFinish()
    times["ms"].append((time.perf_counter() - t0[0]) * 1000)
    times["cpu_ms"].append((time.process_time() - t0[1]) * 1000)


def _bare_taps(out):
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from tests.companion.touch import UnitTestTouch
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    times = {"ms": [], "cpu_ms": []}
    state = {"t0": None, "n": 0}

    class Bare(App):
        def build(self):
            box = BoxLayout()
            self.label = Label(text="0", font_size=40)
            self.button = Button(text="tap", on_release=lambda *_: setattr(self.label, "text", str(state["n"])))
            box.add_widget(self.label)
            box.add_widget(self.button)
            return box

    app = Bare()

    def flipped(*_):
        if state["t0"] is not None:
            _timed(times, state["t0"])
            state["t0"] = None

    def step(_dt):
        if app.root is None:
            return True
        state.setdefault("from", time.monotonic() + SETTLE_S)
        if state["t0"] is not None or time.monotonic() < state["from"]:
            return True
        if _stopped_when_done(app, state, out, times):
            return False
        Window.bind(on_flip=flipped)
        x, y = app.button.to_window(*app.button.center)
        finger = UnitTestTouch(x, y)
        state["n"] += 1
        state["t0"] = (time.perf_counter(), time.process_time())
        finger.touch_down()
        finger.touch_up()
        return True

    Clock.schedule_interval(step, 0.05)
    app.run()


# ---- measurements -----------------------------------------------------------------------------------------

def _child(args, timeout=120):
    env = dict(os.environ, PYTHONPATH=ROOT, F1_COMPANION_DATA=tempfile.mkdtemp(prefix="f1bench-"))
    subprocess.run([sys.executable, os.path.abspath(__file__)] + args, cwd=ROOT, env=env, timeout=timeout,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def cold_start(kind):
    times = []
    for _ in range(3):
        out = tempfile.mktemp(prefix="f1cold-")
        t0 = time.monotonic()
        _child(["--cold", kind, out])
        with open(out) as f:
            times.append(float(f.read()) - t0)
        os.remove(out)
    return statistics.median(times)


def frames(streaming):
    work = tempfile.mkdtemp(prefix="f1frames-")
    out = os.path.join(work, "frames.json")
    _child(["--frames", "1" if streaming else "0", out, work])
    with open(out) as f:
        data = json.load(f)
    if streaming and data["links"] != ["connected"] * 6:
        raise RuntimeError("not every dashboard was connected: %s" % data["links"])
    frame_ms = sorted(data["flips"])
    return frame_ms[min(len(frame_ms) - 1, int(len(frame_ms) * 0.99))]


def tap_run(kind):
    """One run of taps in a process of its own: {"ms": [...], "cpu_ms": [...]}."""
    out = tempfile.mktemp(prefix="f1taps-")
    _child(["--taps", kind, out])
    with open(out) as f:
        times = json.load(f)
    os.remove(out)
    return times


def taps():
    """kind -> (p50, p99) of its taps' wall times and the p50 of their CPU time, for "bare" and "app", over
    TAP_RUNS runs of each taken in turn (a stretch of a busy machine falls on both alike)."""
    runs = {"bare": [], "app": []}
    for _ in range(TAP_RUNS):
        for kind in runs:
            runs[kind].append(tap_run(kind))
    figures = {}
    for kind, times in runs.items():
        ms = sorted(x for t in times for x in t["ms"])
        cpu = [x for t in times for x in t["cpu_ms"]]
        figures[kind] = (statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.99))], statistics.median(cpu))
    return figures


def corner():
    from companion.link_bridge import LinkBridge
    from companion.f1.referee import Referee
    from companion.transport import Transport
    from companion.f1.view import RaceView
    from companion.virtual import VirtualPorts
    from tests.firmware.dash import text_rows  # the OLED read back as text, with MicroPython's own font

    work = tempfile.mkdtemp(prefix="f1corner-")
    ports = VirtualPorts(real=False)
    t = Transport(ports)
    t.start()
    ref = Referee.new(os.path.join(work, "g.db"), ["Ann", "Bob"], 3, seed=11)
    bridge = LinkBridge(t, ref)
    dash = ports.add(work, "virtual-1")
    ref.pair(0, "virtual-1")
    view = RaceView(ref, bridge)
    view.set_speed(60)
    view.pick(corner=0, lane=0)

    def settle(timeout=10):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            bridge.poll()
            if dash.state is not None and dash.state.get("car") == ref.race.cars[0].snapshot() and not t.pending():
                return
            time.sleep(0.001)
        raise TimeoutError("the dashboard did not follow the table")

    def wait(pred, what, timeout=5):
        end = time.monotonic() + timeout
        while not pred():
            bridge.poll()
            time.sleep(0.0002)
            if time.monotonic() > end:
                raise TimeoutError(what)
        return time.perf_counter()

    try:
        settle()
        shown, saved, referee = [], [], []
        for _ in range(CORNER_SAMPLES):
            t0 = time.perf_counter()
            ev = view.roll_corner()
            referee.append((time.perf_counter() - t0) * 1000)
            title = "DICE %d+%d" % tuple(ev["dice"])
            t1 = wait(lambda title=title: text_rows(dash.image)[0] == title, "the dashboard did not show the dice")
            t2 = wait(lambda: dash.state["car"] == ref.race.cars[0].snapshot() and not t.pending(), "no ack")
            shown.append((t1 - t0) * 1000)
            saved.append((t2 - t0) * 1000)
            view.undo()  # the same roll again next time (undo cannot re-throw dice)
            settle()
            frame = dash.frame
            dash.tap("BACK")  # leave the message, so that the next result redraws the screen
            wait(lambda frame=frame, title=title: dash.frame > frame and text_rows(dash.image)[0] != title,
                 "no main screen")
        shown.sort()
        return (statistics.median(shown), shown[int(len(shown) * 0.99)], statistics.median(referee),
                statistics.median(saved))
    finally:
        t.stop()
        ports.stop()
        ref.close()


def bare_echo():
    from bench.link_bench import ECHO  # the link bench's same-run baseline loop
    from tests import mpy
    from tests.link.harness import raw_pty

    m, s = raw_pty()
    proc = subprocess.Popen([mpy.micropython_path(), "-c", ECHO], stdin=s, stdout=s, env=dict(
        os.environ, MICROPYPATH=mpy.micropypath()), cwd=ROOT)
    os.close(s)
    try:
        times = []
        for i in range(200):
            line = b"echo %d\n" % i
            t0 = time.perf_counter()
            os.write(m, line)
            got = b""
            while not got.endswith(b"\n"):
                got += os.read(m, 256)
            times.append((time.perf_counter() - t0) * 1000)
        return statistics.median(times)
    finally:
        proc.kill()
        proc.wait()
        os.close(m)


def main():
    figures = {}
    figures["companion.cold_start_bare_kivy_s"] = round(cold_start("bare"), 3)
    figures["companion.cold_start_s"] = round(cold_start("app"), 3)
    p50, p99, ref_ms, saved_ms = corner()
    figures["companion.corner_ms"] = round(p50, 2)
    figures["companion.corner_ms_p99"] = round(p99, 2)
    figures["companion.corner_referee_ms"] = round(ref_ms, 2)
    figures["companion.corner_saved_acked_ms"] = round(saved_ms, 2)
    figures["companion.corner_bare_echo_ms"] = round(bare_echo(), 3)
    figures["companion.frame_ms_p99_idle"] = round(frames(False), 2)
    figures["companion.frame_ms_p99"] = round(frames(True), 2)
    tapped = taps()
    _p50, bare_p99, bare_cpu = tapped["bare"]
    figures["companion.tap_to_screen_bare_kivy_ms_p99"] = round(bare_p99, 2)
    figures["companion.tap_cpu_bare_kivy_ms"] = round(bare_cpu, 2)
    tap_p50, tap_p99, tap_cpu = tapped["app"]
    figures["companion.tap_to_screen_ms"] = round(tap_p50, 2)
    figures["companion.tap_to_screen_ms_p99"] = round(tap_p99, 2)
    figures["companion.tap_to_screen_vs_bare_kivy"] = round(tap_p99 / max(bare_p99, 0.01), 2)
    figures["companion.tap_cpu_ms"] = round(tap_cpu, 2)
    figures["companion.tap_cpu_vs_bare_kivy"] = round(tap_cpu / max(bare_cpu, 0.01), 2)
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-36s %s" % (k, v))
    return figures


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--cold":
        child_cold(sys.argv[2], sys.argv[3])
    elif len(sys.argv) > 1 and sys.argv[1] == "--taps":
        child_taps(sys.argv[2], sys.argv[3])
    elif len(sys.argv) > 1 and sys.argv[1] == "--frames":
        child_frames(sys.argv[2] == "1", sys.argv[3], sys.argv[4])
    else:
        main()
