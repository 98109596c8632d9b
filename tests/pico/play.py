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
    command_after_press(pico, tablet)   the tablet's command a moment after a player's press: ms to its ack
"""

import os
import re
import tempfile

from firmware import restore
from firmware.ondemand import journal, store
from shared_rules.f1 import car as f1car
from tests.firmware import dash
from tests.pico import picosim

# The dial steps of successive turns: up and down by one step (20 mph, which brakes for free) so that the speed
# stays between 0 and 40 and every lost UP or DOWN shows in the speed reached.
DELTAS = (2, -1, -1, 1, -1, 1, 1, -1, -1)
TURN_TAPS = 6  # besides the dial's: OK (start), OK (set), DOWN x3 (END TURN in the move menu), OK


def big(pico, x=0, y=10, n=3, scale=3):
    """The big characters drawn at (x, y) (the speed: the default), read with the firmware's font."""
    return _big(pico.screen().split("\n"), x, y, n, scale)


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
        p.wait_emu(0, self.next_ns)  # the beat: the emulated time of this tap
        t = p.press(key)
        p.wait_emu(self.hold_ms, t)
        p.release(key)
        self.next_ns = t + self.period_ns
        self.taps += 1
        return t

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
    """mpremote on the board's port (it stops the running dashboard with Ctrl-C first); raises if it fails."""
    done = pico.mpremote(*args)
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


def command_after_press(pico, tablet, after_ms=300):
    """A linked turn: the tablet's `turn` opens the dial, the player dials 40 and sets it with OK (a save starts,
    whose steps wait for a pause in play), and `after_ms` after that press the tablet ends the turn. Returns
    (its answer, the emulated ms from sending it to the answer read: see tests/pico/tablet.py)."""
    answer, _ = tablet.command("turn", {"on": 1})
    assert answer["t"] == "ack", answer
    pico.wait_rows(lambda rows: rows[0].startswith("SET SPEED"))
    for _ in range(4):
        shown = big(pico).strip()
        if shown == "40":
            break
        pico.tap("UP" if not shown.isdigit() or int(shown) < 40 else "DOWN")
        pico.settled(100)
    t = pico.press("OK")
    pico.wait_emu(80, t)
    pico.release("OK")
    pico.wait_emu(after_ms, t)
    return tablet.command("turn", {"on": 0})


def power_on(pico_factory, pico, image):
    """The board's flash saved to `image`, the board stopped, and a new Pico powered on from it."""
    pico.saveflash(image)
    pico.stop()
    return pico_factory(flash=image)


# ---- whole races through the buttons -------------------------------------------------------------------------
MENU = ("CORNER", "LAP CROSSED", "PIT STOP", "END TURN")
MOVERS = ("Fast Gear Change", "Quick Reactions", "Slip Streaming")  # the move cards the player plays


class View:
    """One read of the OLED: its text rows, which rows are inverted (a list's cursor, a title), big digits."""

    def __init__(self, pico):
        self.art = pico.screen().split("\n")
        self.rows = picosim.text_rows(self.art)

    def inverted(self, row):
        return self.art[row * 8][0] == "#"  # an inverted row's first pixel column is lit

    def big(self, x=0, y=10, n=3):
        """The big digits at (x, y): the speed dial's (the default), the corner's safety speed (0, 18), laps
        (48, 16); 0 when none can be read."""
        text = _big(self.art, x, y, n).strip()
        return int(text) if text.isdigit() else 0

    def cursor(self, first=1, last=6):
        for row in range(first, last + 1):
            if self.inverted(row):
                return row - first
        return None


def _big(art, x, y, n, scale=3):
    font = dash.font()
    out = ""
    for k in range(n):
        glyph = bytearray(8)
        for col in range(8):
            for row in range(8):
                if art[y + row * scale + scale // 2][x + (k * 8 + col) * scale + scale // 2] == "#":
                    glyph[col] |= 1 << row
        out += font.get(bytes(glyph), "?")
    return out


def _now(rows):
    """The speed dial's NOW (the car's speed), or None where the screen is not the dial. Row 1 on today's firmware, row 0
    on the firmware the bench takes its baseline on (which also wrote DN for DOWN)."""
    for row in rows[:2]:
        m = re.search(r"NOW +(\d+)", row)
        if m:
            return int(m.group(1))
    return None


class PlayerPace:
    """A player's taps: held 80 ms, then a pause to read the screen and think, 120 to 500 ms, and one time in eight
    1 to 3 s (a message read, the table waited for). Each tap's OLED update is timed while it is held and in that
    pause, up to the next press."""

    def __init__(self, pico, rnd, hold_ms=80, pause_ms=(120, 500), long_pause_ms=(1000, 3000), long_every=8):
        self.pico = pico
        self.rnd = rnd
        self.hold_ms = hold_ms
        self.pause_ms = pause_ms
        self.long_pause_ms = long_pause_ms
        self.long_every = long_every
        self.next_ns = 0

    def press(self, key):
        p = self.pico
        p.wait_emu(0, self.next_ns)  # the player's pause, in emulated time
        t = p.press(key)
        p.wait_emu(self.hold_ms, t)
        r = p.release(key)
        long = self.rnd.randrange(self.long_every) == 0
        self.next_ns = r + self.rnd.uniform(*(self.long_pause_ms if long else self.pause_ms)) * 1e6
        return t

    def before_look(self):
        """Where the player reads the screen: at the end of the pause."""
        self.pico.wait_emu(0, self.next_ns - 1e6)


class BeatPace(Beat):
    """Taps on a fixed beat (150 ms apart, held 40 ms) whatever the dashboard is doing; the screen is read in the
    last 20 ms before the next tap."""

    def press(self, key):
        return self.tap(key)

    def before_look(self):
        self.wait_beat()


class Race:
    """A standalone race played through the five buttons, reading the OLED before every tap and acting on what it
    shows (tests/firmware/race_script.py's moves): a long BACK sets up the laps; each turn OK (start), a speed
    dialled with UP/DOWN and set with OK, a corner on most turns (CORNER, a safety speed, the dice), a move card now
    and then, LAP CROSSED every second turn, a PIT STOP once, END TURN; every message read and dismissed. Saves
    come on every confirmed action (littlefs erasing a block every few of them).

    Each tap: {"key", "screen" (the top row it was pressed on), "t_ns" (the press), "drew" (frames drawn before
    the next press), "full_ms" (the press to the last of them: the whole update)}."""

    def __init__(self, pico, pace, rnd, log=None):
        self.pico = pico
        self.pace = pace
        self.rnd = rnd
        self.log = log or (lambda text: None)
        self.taps = []
        self._open = None  # the tap whose update is being timed: (record, frames before it)
        self.stats = dict(turns=0, corners=0, dice=0, cards=0, laps=0, pits=0, spins=0, missed=0, refused=0)

    # ---- taps ----
    def _close(self):
        """Ends the timing of the last tap, just before the next press: what it drew and when."""
        if self._open is None:
            return
        rec, n0 = self._open
        n, last = self.pico.frames()
        rec["drew"] = n - n0
        rec["full_ms"] = (last - rec["t_ns"]) / 1e6 if n > n0 else None
        self._open = None

    def look(self):
        self.pace.before_look()
        return View(self.pico)

    def tap(self, key, view):
        self._close()
        n0, _ = self.pico.frames()
        rec = {"key": key, "screen": view.rows[0]}
        rec["t_ns"] = self.pace.press(key)
        self._open = (rec, n0)
        self.taps.append(rec)

    def finish(self):
        self.pace.before_look()
        self._close()

    def hold_back(self, ms=900):
        """A long BACK (a new race from the main screen)."""
        self._close()
        t = self.pico.press("BACK")
        self.pico.wait_emu(ms, t)
        self.pico.wait_emu(100, self.pico.release("BACK"))
        self.pico.settled()

    # ---- the screens ----
    @staticmethod
    def kind(v):
        rows = v.rows
        if _now(rows) is not None:
            return "dial"  # the speed dial (also blocked, or Good Carburettor's)
        if "MPH" in rows[3]:
            return "main"
        if rows[1].startswith("SAFETY"):
            return "corner"
        if rows[0].startswith("NEW RACE") and rows[2].startswith("LAPS"):
            return "setup"
        if rows[0].startswith("HAND"):
            return "hand"
        if any(r.strip() == MENU[0] for r in rows[1:6]) and any(r.strip() == MENU[3] for r in rows[1:6]):
            return "menu"
        if rows[7].startswith("OK"):
            return "message"
        return "?"

    def new_race(self, laps):
        self.hold_back()
        for _ in range(60):
            v = self.look()
            k = self.kind(v)
            if k == "setup":
                shown = v.big(48, 16, 2)
                self.tap("OK" if shown == laps else "UP" if shown < laps else "DOWN", v)
            elif k == "message":
                self.tap("OK", v)
            elif k == "main":
                return
            else:
                raise AssertionError("setting up a race: %r" % v.rows)
        raise AssertionError("no race set up: %r" % v.rows)

    def play(self, laps, turns=80):
        """A whole race of `laps` (at most `turns` turns); returns the turns played."""
        self.new_race(laps)
        no = 0
        for no in range(turns):
            if not self.turn(no):
                break
        self.finish()
        if self.stats["turns"] == 0:  # no speed dial ever recognised: the player no longer reads the dashboard
            raise AssertionError("a race of %d turns without one speed dialled: the screens' words changed? %r"
                                 % (no + 1, self.stats))
        return no + 1

    def turn(self, no):
        """One turn from the main screen back to it; False when the race is over for this car."""
        plan = []
        if self.rnd.random() < 0.6:
            plan.append("CORNER")
        if no % 4 == 2:
            plan.append("CARD")
        if no % 2 == 1:
            plan.append("PIT STOP" if no == 7 else "LAP CROSSED")
        plan.append("END TURN")
        target = safety = None
        started = False
        for _ in range(80):
            v = self.look()
            rows = v.rows
            k = self.kind(v)
            if k == "main":
                if rows[0].startswith(("FINISHED", "OUT")):
                    return False
                if started and not plan:
                    return True
                if rows[7].startswith("OK:START TURN") and started:
                    return True  # the turn ended by itself (a missed move)
                started = True
                self.tap("OK", v)
            elif k == "dial":
                now = _now(rows)
                shown = v.big()
                if target is None:
                    target = max(0, min(160, now + self.rnd.choice((-20, 0, 20, 20, 40, 40, 60))))
                    self.stats["turns"] += 1
                if shown < target and "UP" in rows[2][12:]:
                    self.tap("UP", v)
                elif shown > target and rows[3][12:].strip() in ("DOWN", "DN"):
                    self.tap("DOWN", v)
                else:
                    self.tap("OK", v)
            elif k == "menu":
                if plan and plan[0] == "CARD":
                    plan.pop(0)
                    self.tap("CARD", v)
                    continue
                if not plan:
                    plan = ["END TURN"]
                cur = v.cursor()
                want = MENU.index(plan[0])
                if cur is None:
                    raise AssertionError("no cursor in the move menu: %r" % rows)
                if cur != want:
                    self.tap("DOWN" if cur < want else "UP", v)
                    continue
                item = plan.pop(0)
                self.tap("OK", v)
                key = {"CORNER": "corners", "LAP CROSSED": "laps", "PIT STOP": "pits"}.get(item)
                if key:
                    self.stats[key] += 1
            elif k == "corner":
                shown = v.big(0, 18, 3)
                if safety is None:
                    speed = target if target is not None else shown + 20
                    safety = max(0, speed - self.rnd.choice((0, 0, 20)))
                if shown != safety:
                    self.tap("UP" if shown < safety else "DOWN", v)
                else:
                    self.tap("OK", v)
                    safety = None
            elif k == "hand":
                self.hand(v)
            elif k == "message":
                title = rows[0]
                self.stats["dice"] += title.startswith("DICE")
                self.stats["spins"] += title.startswith("SPUN")
                if title.startswith("MISS A MOVE"):
                    self.stats["missed"] += 1
                    plan = []
                self.tap("OK", v)
                if title.startswith("RACE OVER"):
                    return False
            else:
                raise AssertionError("turn %d: a screen the player does not know: %r" % (no, rows))
        raise AssertionError("turn %d did not end: %r" % (no, rows))

    def hand(self, v):
        names = [r.strip() for r in v.rows[1:7]]
        pick = next((i for i, n in enumerate(names) if n in MOVERS), None)
        cur = v.cursor() or 0
        if pick is None or self.stats["cards"] >= 4:
            self.tap("CARD", v)  # closes the hand
        elif cur < pick:
            self.tap("DOWN", v)
        else:
            self.tap("OK", v)
            self.stats["cards"] += 1
