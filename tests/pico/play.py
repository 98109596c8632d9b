"""Playing the dashboard on the emulated Pico (tests/pico/picosim.py) the way the tests and bench/pico_bench.py need:
taps on a fixed beat whatever the dashboard is doing, the speed read back from the screen, a save and a journal
put on the board's flash, and the figures' raw measurements. Every time is emulated (picosim's clock) unless a name
says wall.

    burst(pico, turns)         standalone turns tapped 150 ms apart (a save on three taps of each), each turn's
                               speed checked on the main screen against the rules: the turns a tap was lost in
    press_to_frame(pico, n)    UP/DOWN presses in the speed dial: press edge to the end of the last SSD1306 write
                               it caused (the whole update), ms
    busy_pct(pico, s)          the share of the core's cycles not asleep over s seconds
    put_state(pico, save, journal)   a save (and journal lines) written as /data/state.json(.journal)
"""

import os
import subprocess
import tempfile
import time

from firmware import journal, restore, store
from shared_rules.f1 import car as f1car
from tests.firmware import dash
from tests.pico import picosim

# The dial steps of successive turns: up and down by one step (20 mph, which brakes for free) so that the speed
# stays between 0 and 40 and every lost UP or DOWN shows in the speed reached.
DELTAS = (2, -1, -1, 1, -1, 1, 1, -1, -1)
TURN_TAPS = 6  # besides the dial's: OK (start), OK (set), DOWN x3 (END TURN in the move menu), OK


def big(pico, x=0, y=10, n=3, scale=3):
    """The big characters drawn at (x, y) (the speed: the default), read with the firmware's font."""
    art = pico.screen().split("\n")
    font = dash.font()
    out = ""
    for k in range(n):
        glyph = bytearray(8)
        for col in range(8):
            for row in range(8):
                px = x + (k * 8 + col) * scale + scale // 2
                py = y + row * scale + scale // 2
                if art[py][px] == "#":
                    glyph[col] |= 1 << row
        out += font.get(bytes(glyph), "?")
    return out


def turn_speed(car, delta):
    """What the dashboard's speed dial gives after `delta` steps from where it opens (the highest speed not above
    the present one), the turn played on `car` as the dashboard plays it."""
    f1car.apply_command(car, "turn", {"on": 1})
    choices = car.speed_choices(0) or [car.speed]
    at = 0
    for i, v in enumerate(choices):
        if v <= car.speed:
            at = i
    v = choices[max(0, min(len(choices) - 1, at + delta))]
    car.set_speed(v)
    f1car.apply_command(car, "turn", {"on": 0})
    return v


class Beat:
    """Taps on a fixed beat of emulated time, whatever the dashboard is doing: press, hold, release; the next press
    `period_ms` after this one."""

    def __init__(self, pico, period_ms=150, hold_ms=40):
        self.pico = pico
        self.period_ns = period_ms * 1e6
        self.hold_ms = hold_ms
        self.next_ns = pico.t_ns()
        self.taps = 0

    def tap(self, key):
        p = self.pico
        while p.t_ns() < self.next_ns:
            time.sleep(0.002)
        t = p.press(key)
        p.wait_emu(self.hold_ms, t)
        p.release(key)
        self.next_ns = t + self.period_ns
        self.taps += 1

    def wait_beat(self, before_ms=20):
        """Until shortly before the next tap is due."""
        self.pico.wait_emu(0, self.next_ns - before_ms * 1e6)


def burst(pico, turns, period_ms=150, hold_ms=40):
    """Standalone turns from the main screen (the dashboard fresh: speed 0), every tap on the beat: OK starts the
    turn (a save), UP/DOWN dial, OK sets the speed (a save), DOWN x3 and OK end the turn (a save). Littlefs erases a
    block every few saves. After each turn, in the last 20 ms before the next tap, the main screen's speed is read.
    Returns (taps, [(turn, speed expected, speed shown, top row, footer) for each turn that went wrong]); a turn
    that went wrong ends the burst (the taps after it would land on other screens)."""
    car = f1car.Car(3)
    beat = Beat(pico, period_ms, hold_ms)
    wrong = []
    for n in range(turns):
        delta = DELTAS[n % len(DELTAS)]
        want = turn_speed(car, delta)
        for key in ["OK"] + ["UP" if delta > 0 else "DOWN"] * abs(delta) + ["OK", "DOWN", "DOWN", "DOWN", "OK"]:
            beat.tap(key)
        beat.wait_beat()
        rows = pico.rows()
        shown = big(pico).strip()
        if shown != str(want) or rows[7] != "OK:START TURN":
            wrong.append((n, want, shown, rows[0], rows[7]))
            break
    return beat.taps, wrong


def press_to_frame(pico, presses, hold_ms=80, gap_ms=60):
    """From the main screen: OK opens the speed dial; then `presses` UP/DOWN presses back and forth across it, each
    changing the screen. Each: its edge to the end of the last SSD1306 data write before its release (picosim's
    `frames` stops counting: the whole update), in ms."""
    pico.tap("OK", 100, 600)
    pico.settled()
    out = []
    key = "UP"
    for _ in range(presses):
        rows = pico.rows()
        if key == "UP" and "UP" not in rows[2][12:]:
            key = "DOWN"
        elif key == "DOWN" and "DOWN" not in rows[3][12:]:
            key = "UP"
        n0, _ = pico.frames()
        t = pico.press(key)
        pico.wait_emu(hold_ms, t)
        n1, last = pico.frames()
        pico.wait_emu(gap_ms, pico.release(key))
        if n1 > n0:
            out.append((last - t) / 1e6)
    return out


def busy_pct(pico, seconds):
    c0 = pico.cycles()
    pico.wait_emu(seconds * 1000, c0["t_ns"])
    c1 = pico.cycles()
    return 100.0 * (c1["cpu_cycles"] - c0["cpu_cycles"]) / ((c1["t_ns"] - c0["t_ns"]) / 8)


def mpremote(pico, *args):
    """mpremote on the board's port (it stops the running dashboard with Ctrl-C first)."""
    done = subprocess.run([picosim._tool("mpremote"), "connect", pico.tty] + list(args), capture_output=True,
                          text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError("mpremote %s: %s%s" % (" ".join(args), done.stdout, done.stderr))
    return done.stdout


def saved_state(pico):
    """The board's save (/data/state.json) as the dashboard restores it (restore.decode)."""
    with tempfile.TemporaryDirectory() as d:
        mpremote(pico, "fs", "cp", ":data/state.json", os.path.join(d, "s"))
        with open(os.path.join(d, "s"), "rb") as f:
            return restore.decode(f.read())


def put_state(pico, save=None, commands=()):
    """Writes `save` (a dict, as store.save writes it) to /data/state.json, if given, and a journal of `commands`
    ([id, name, args], ...) following the save's generation, as the dashboard's link journals tablet commands."""
    with tempfile.TemporaryDirectory() as d:
        args = []
        if save is not None:
            with open(os.path.join(d, "s"), "wb") as f:
                f.write(store.encode(save))
            args += ["fs", "cp", os.path.join(d, "s"), ":data/state.json", "+"]
        else:
            save = saved_state(pico)
        with open(os.path.join(d, "j"), "wb") as f:
            f.write(journal.line(journal.MAGIC, save.get("gen", 0)))
            for cid, name, a in commands:
                f.write(journal.line(cid, name, a))
        args += ["fs", "cp", os.path.join(d, "j"), ":data/state.json.journal"]
        mpremote(pico, *args)


def power_on(pico_factory, pico, image):
    """The board's flash saved to `image`, the board stopped, and a new Pico powered on from it."""
    pico.saveflash(image)
    pico.stop()
    return pico_factory(flash=image)
