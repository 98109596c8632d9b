"""Kivy widgets the screens share: an OLED view, the dice, the wear charts. Styles live in companion.kv."""

import math
import os
import random
import struct
import wave

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

W, H = 128, 64
# byte -> its 8 pixels top to bottom, 0 or 255 (an SSD1306 page column)
_COLUMN = [bytes(255 if (b >> k) & 1 else 0 for k in range(8)) for b in range(256)]


def oled_rows(image):
    """SSD1306 pages (MONO_VLSB) -> 64 rows of 128 luminance bytes, top row first."""
    rows = []
    for p in range(H // 8):
        cols = b"".join(_COLUMN[b] for b in image[p * W : (p + 1) * W])
        rows.extend(cols[k::8] for k in range(8))  # stepped slices transpose a page in C
    return rows


class OledView(Widget):
    """A virtual dashboard's OLED, drawn from its pages; redrawn only when its frame counter moves."""

    frame = NumericProperty(-1)

    def __init__(self, **kw):
        super().__init__(**kw)
        self.texture = Texture.create(size=(W, H), colorfmt="luminance")
        self.texture.mag_filter = "nearest"
        with self.canvas:
            Color(0.55, 0.85, 1, 1)
            self.rect = Rectangle(texture=self.texture, pos=self.pos, size=self.size)
        self.bind(pos=self._place, size=self._place)

    def _place(self, *_):
        self.rect.pos = self.pos
        self.rect.size = self.size

    def show(self, image, frame):
        if frame == self.frame:
            return 0
        self.frame = frame
        data = b"".join(reversed(oled_rows(image)))  # a texture's first row is the bottom one
        self.texture.blit_buffer(data, colorfmt="luminance", bufferfmt="ubyte")
        self.canvas.ask_update()
        return 1


class Dice(BoxLayout):
    """Two large dice that tumble for `ROLL_S`, then settle on the thrown faces; a rattle plays meanwhile."""

    faces = ListProperty([0, 0])
    ROLL_S = 0.8
    sound = None

    def roll(self, dice, done=None):
        if not dice:
            self.faces = [0, 0]
            if done:
                done()
            return
        self._play()
        steps = {"n": 0}
        total = int(self.ROLL_S / 0.06)

        def tumble(_dt):
            steps["n"] += 1
            if steps["n"] >= total:
                self.faces = list(dice)
                if done:
                    done()
                return False
            self.faces = [random.randint(1, 6), random.randint(1, 6)]
            return True

        Clock.schedule_interval(tumble, 0.06)

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
    from companion.storage import data_dir

    path = os.path.join(data_dir(), "dice.wav")
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
    tmp = path + ".tmp"
    with wave.open(tmp, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))
    os.replace(tmp, path)
    return path


class DieFace(Label):
    value = NumericProperty(0)


class WearChart(Widget):
    """One line per car over the turns: series = [(rgba, [values])], top = the scale's maximum."""

    series = ListProperty([])
    top_value = NumericProperty(1)
    title = StringProperty("")

    def __init__(self, **kw):
        super().__init__(**kw)
        self.bind(pos=self.redraw, size=self.redraw, series=self.redraw, top_value=self.redraw)

    def redraw(self, *_):
        self.canvas.after.clear()
        longest = max((len(v) for _c, v in self.series), default=0)
        if longest < 1:
            return
        x0, y0, w, h = self.x + 8, self.y + 8, self.width - 16, self.height - 48
        with self.canvas.after:
            Color(0.92, 0.92, 0.9, 1)  # light, so that the black car's line shows
            Rectangle(pos=(x0, y0), size=(w, h))
            for rgba, values in self.series:
                Color(*rgba)
                step = w / max(longest - 1, 1)
                pts = []
                for i, v in enumerate(values):
                    pts += [x0 + i * step, y0 + h * min(v, self.top_value) / float(self.top_value)]
                if len(pts) >= 4:
                    Line(points=pts, width=2.5)
                elif pts:
                    Line(circle=(pts[0], pts[1], 4), width=2)
