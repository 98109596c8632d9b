"""Formula 1's race widgets: the dice, the speed picker's keys, the wear gauges, a car's panel, the charts.

The widgets both games use (buttons, the OLED view, a virtual dashboard, the question) are in companion/widgets.py.
Styles live in companion/theme.kv (sizes and colours from companion.theme)."""

import io
import math
import os
import random
import struct
import wave

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion import theme
from companion.clock import app_clock
from companion.widgets import RaceButton


class Dice(BoxLayout):
    """Two large dice that tumble for `ROLL_S` of the app's time (companion/clock.py), then settle on the thrown
    faces; a rattle plays meanwhile."""

    faces = ListProperty([0, 0])
    ROLL_S = 0.8
    TUMBLE_S = 0.06  # a new pair of faces this often
    sound = None

    def roll(self, dice, done=None):
        if not dice:
            self.faces = [0, 0]
            if done:
                done()
            return
        self._play()
        clock = app_clock()
        end = clock.now() + self.ROLL_S

        def tumble(_dt):
            if clock.now() >= end:
                self.faces = list(dice)
                if done:
                    done()
                return False
            self.faces = [random.randint(1, 6), random.randint(1, 6)]
            return True

        Clock.schedule_interval(tumble, self.TUMBLE_S)

    def _play(self):
        snd = Dice.sound
        if snd is None:
            try:
                from kivy.core.audio import SoundLoader

                snd = Dice.sound = SoundLoader.load(rattle_wav()) or False
            except Exception:  # no audio device: the dice still tumble
                snd = Dice.sound = False
        if snd:
            snd.stop()
            snd.play()


def rattle_wav():
    """A short dice rattle, synthesised once into the user's cache (no binary files in the repo)."""
    from companion.storage import cache_dir, write_atomic

    path = os.path.join(cache_dir(), "dice.wav")
    if os.path.exists(path):
        return path
    rate = 22050
    rng = random.Random(7)
    frames = bytearray()
    for i in range(int(rate * 0.7)):
        t = i / rate
        clack = sum(math.exp(-((t - c) * 300) ** 2) for c in (0.05, 0.18, 0.27, 0.41, 0.5, 0.62))
        v = int(12000 * clack * (rng.random() * 2 - 1))
        frames += struct.pack("<h", max(-32767, min(32767, v)))
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))
    write_atomic(path, out.getvalue())
    return path


class DieFace(Label):
    value = NumericProperty(0)


class SpeedKey(RaceButton):
    """One speed of the picker, always in its own place: the figure, and under it what it costs."""

    value = NumericProperty(0)
    cost = StringProperty("")
    spins = BooleanProperty(False)
    confirm = BooleanProperty(False)  # a speed that spins the car is asked about first
    picker = StringProperty("speed")  # what a tap sets: speed, hold (blocked, waiting) or block
    note = StringProperty("")  # a word more from the model ("optional": a blocked car's raise)


class Gauge(Widget):
    """A wear gauge read from across the table: `maximum` segments, `value` of them lit, green to red.

    Drawn as one textured rectangle: a row of pixels (each segment in its colour, a clear gap between) made when
    the value or the size changes, stretched to the height. (A rectangle and a colour per segment were 13 draws a
    car, 78 of every frame of the race screen with six cars, which Mesa's software rasteriser pays on each tap.)"""

    value = NumericProperty(0)
    maximum = NumericProperty(8)

    def __init__(self, **kw):
        super().__init__(**kw)
        with self.canvas:
            Color(1, 1, 1, 1)
            self.rect = Rectangle(size=(0, 0))
        self.drawn = None  # (pixels wide, value, maximum) of the texture made last
        self.bind(pos=self.redraw, size=self.redraw, value=self.redraw, maximum=self.redraw)

    def segment_colour(self, i):
        frac = (i + 1) / float(max(1, self.maximum))
        return theme.GO if frac <= 0.5 else theme.WARN if frac < 0.85 else theme.BAD

    def redraw(self, *_):
        n = int(self.maximum)
        width = int(round(self.width))
        if n < 1 or width < n:
            self.rect.size = (0, 0)
            return
        self.rect.pos = (round(self.x), self.y)
        self.rect.size = (width, self.height)
        key = (width, int(self.value), n)
        if key != self.drawn:
            self.drawn = key
            self.rect.texture = self._texture(width, n)

    def _texture(self, width, n):
        """The row of pixels: pixel x belongs to segment i if its centre falls inside it, else to a gap."""
        gap = max(1, int(width * 0.03))
        w = (width - gap * (n - 1)) / float(n)
        lit = [bytes(int(c * 255 + 0.5) for c in (self.segment_colour(i) if i < self.value else theme.BUTTON_OFF))
               for i in range(n)]
        clear = bytes(4)
        row = bytearray()
        for x in range(width):
            i = min(n - 1, int((x + 0.5) // (w + gap)))
            row += lit[i] if x + 0.5 - i * (w + gap) < w else clear
        texture = Texture.create(size=(width, 1), colorfmt="rgba")
        texture.mag_filter = texture.min_filter = "nearest"
        texture.blit_buffer(bytes(row), colorfmt="rgba", bufferfmt="ubyte")
        return texture


class CarPanel(BoxLayout):
    """One car on the race screen (laid out in theme.kv); F1Controller sets these from RaceView.rows()."""

    name = StringProperty("")
    car_rgba = ListProperty([0.5, 0.5, 0.5, 1])
    car_ink = ListProperty([1, 1, 1, 1])
    speed = NumericProperty(0)
    tyre = NumericProperty(0)
    brake = NumericProperty(0)
    laps_left = NumericProperty(0)
    status = StringProperty("")
    link = StringProperty("none")
    link_words = StringProperty("")  # its link in words when not plainly linked (F1Controller._say_links)
    dev = StringProperty("")
    active = BooleanProperty(False)
    frame = NumericProperty(0)  # the kerb-red frame's width while it is the car to play (f1.kv)
    seat = NumericProperty(0)
    shown = ObjectProperty(None, allownone=True)

    def update(self, r):
        """Touch only what changed (a frame stays short with six cars streaming)."""
        if r == self.shown:
            return
        self.shown = r
        self.seat = r["seat"]
        self.name = r["name"]
        self.car_rgba = list(r["rgba"])
        self.car_ink = list(r["ink"])
        self.speed = r["speed"]
        self.tyre = r["tyre"]
        self.brake = r["brake"]
        self.laps_left = r["laps_left"]
        # What holds the car now ("PIT, MISS 2"); the moves missed before are History's (a "missed 1" stayed on
        # the panel for the rest of the race, and clipped "IN PIT" to "IN PI...").
        self.status = r["status"]
        self.link = r["link"]
        self.dev = r["dev"] or ""
        self.active = bool(r["active"])


# ---- charts: kivy_garden.graph with a line per car told apart by its marker ------------------------------

MARKERS = ("circle", "square", "triangle", "diamond", "cross", "bar")


def marker(shape, x, y, r):
    """The canvas instructions of one marker of `shape` centred at (x, y), radius r."""
    from kivy.graphics import Ellipse, Quad, Triangle

    if shape == "circle":
        return [Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))]
    if shape == "square":
        return [Rectangle(pos=(x - r * 0.85, y - r * 0.85), size=(1.7 * r, 1.7 * r))]
    if shape == "triangle":
        return [Triangle(points=(x - r, y - r * 0.8, x + r, y - r * 0.8, x, y + r))]
    if shape == "diamond":
        return [Quad(points=(x, y - r * 1.1, x + r * 1.1, y, x, y + r * 1.1, x - r * 1.1, y))]
    if shape == "cross":
        w = max(1.0, r / 3)
        return [Line(points=(x - r, y - r, x + r, y + r), width=w), Line(points=(x - r, y + r, x + r, y - r), width=w)]
    return [Rectangle(pos=(x - r, y - r * 0.35), size=(2 * r, r * 0.7))]


def _plot_class():
    from kivy.graphics import InstructionGroup, RenderContext
    from kivy_garden.graph import Plot

    class MarkedLinePlot(Plot):
        """A line with a marker at every turn; `lift` pixels up, so that lines of equal values stay apart."""

        shape = StringProperty("circle")
        size_px = NumericProperty(5)
        line_width = NumericProperty(1.6)
        lift = NumericProperty(0)

        def create_drawings(self):
            self._grc = RenderContext(use_parent_modelview=True, use_parent_projection=True)
            self._group = InstructionGroup()
            self._grc.add(self._group)
            return [self._grc]

        def draw(self, *args):
            super().draw(*args)
            pts = [(x, y + self.lift) for x, y in self.iterate_points()]
            group = self._group
            group.clear()
            group.add(Color(*self.color))
            flat = [v for p in pts for v in p]
            if len(flat) >= 4:
                group.add(Line(points=flat, width=self.line_width))
            for x, y in pts:
                for instr in marker(self.shape, x, y, self.size_px):
                    group.add(instr)

    return MarkedLinePlot


_PLOT = [None]


def marked_line_plot(**kw):
    if _PLOT[0] is None:
        _PLOT[0] = _plot_class()
    return _PLOT[0](**kw)


def nice_step(span, ticks=6):
    """A tick step of 1, 2 or 5 times a power of ten giving about `ticks` ticks over `span`."""
    raw = max(span, 1) / float(ticks)
    mag = 10 ** int(math.floor(math.log10(raw)))
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


class MarkerSwatch(Widget):
    """The legend's sample of a car's line: its colour and marker."""

    rgba = ListProperty([1, 1, 1, 1])
    shape = StringProperty("circle")

    def __init__(self, **kw):
        super().__init__(**kw)
        self.bind(pos=self.redraw, size=self.redraw, rgba=self.redraw, shape=self.redraw)

    def redraw(self, *_):
        self.canvas.clear()
        cy = self.center_y
        self.canvas.add(Color(*self.rgba))
        self.canvas.add(Line(points=(self.x, cy, self.right, cy), width=1.6))
        for instr in marker(self.shape, self.center_x, cy, min(self.height / 3.0, 8)):
            self.canvas.add(instr)


class TurnChart(BoxLayout):
    """One gauge over the race, a line per car (kivy_garden.graph): turns along the bottom, the gauge's values
    up the side, each car's line in its colour with a marker of its own. series = [(rgba, shape, [(turn, v)])]."""

    title = StringProperty("")
    top_value = NumericProperty(1)
    step = NumericProperty(1)  # between the value labels up the side
    series = ListProperty([])

    def __init__(self, **kw):
        super().__init__(orientation="vertical", **kw)
        from kivy_garden.graph import Graph

        # As high as its text: the theme's Label rule sizes it to the window (a kwarg would lose to the rule).
        self.caption = Label(text=self.title, bold=True, size_hint_y=None, halign="left")
        self.caption.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                          texture_size=lambda w, v: setattr(w, "height", v[1] + dp(4)))
        self.bind(title=lambda w, t: setattr(self.caption, "text", t))
        self.add_widget(self.caption)
        self.graph = Graph(
            xlabel="turn", x_ticks_major=1, y_ticks_major=1, x_grid_label=True,
            y_grid_label=True, x_grid=False, y_grid=True, xmin=0, xmax=1, ymin=0, ymax=max(1, self.top_value),
            background_color=list(theme.CHART_BG), tick_color=list(theme.CHART_GRID), border_color=list(theme.LINE),
            label_options={"color": list(theme.INK), "bold": True}, padding=dp(4),
            font_size=max(theme.MIN_TEXT_PX, sp(theme.SMALL - 2)),
            precision="%d")
        self.add_widget(self.graph)
        self.bind(series=self.redraw, top_value=self.redraw)
        self.graph.bind(height=self._fit_ticks)

    def redraw(self, *_):
        g = self.graph
        for p in list(g.plots):
            g.remove_plot(p)
        turns = max((t for _c, _s, pts in self.series for t, _v in pts), default=1)
        g.xmax = max(1, turns)
        g.x_ticks_major = max(1, int(nice_step(turns, 10)))  # whole turns
        g.ymax = max(1, self.top_value)
        self._fit_ticks()
        n = len(self.series)
        for i, (rgba, shape, pts) in enumerate(self.series):
            # equal values (everyone at zero wear) drawn a little apart, so that no line hides another
            plot = marked_line_plot(color=list(rgba), shape=shape, size_px=dp(4.5), lift=dp(2.5) * (i - (n - 1) / 2.0))
            plot.points = [(t, v) for t, v in pts]
            g.add_plot(plot)


    def _fit_ticks(self, *_):
        """As many value labels up the side as fit (a short chart on the 7-inch screen labels fewer)."""
        g = self.graph
        fit = max(1, int(g.height / (g.font_size * 2.0)))
        step = self.step or 1
        top = self.top_value
        # a step that divides the top (the graph labels no value when its steps do not reach the top exactly:
        # the brake chart's 0..5 in steps of 4 showed none), the least that fits
        while top / step > fit and step < top:
            step = next((s for s in range(int(step) + 1, int(top) + 1) if top % s == 0), top)
        g.y_ticks_major = min(step, top)
