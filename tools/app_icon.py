"""The app's icon, drawn in the 1962 look with the app's own theme and faces (companion/theme.py, companion/fonts):
the infield's green, a grey tarmac circuit with a corner's red and white kerb, "F1" in the race posters' capitals
and the year under it. Writes companion/icons/formula1.png (256x256), the window's and the desktop entry's icon.

    python tools/app_icon.py            (an offscreen window; a second or two)
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.update(KIVY_NO_ARGS="1", SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "offscreen"),
                  KIVY_WINDOW="sdl2", KIVY_LOG_MODE="PYTHON")

from kivy.core.image import Image as CoreImage  # noqa: E402
from kivy.core.text import Label as CoreLabel  # noqa: E402
from kivy.core.window import Window  # noqa: E402, F401  (a GL context to draw in)
from kivy.graphics import Color, Fbo, Line, Rectangle, RoundedRectangle  # noqa: E402

from companion import theme  # noqa: E402

SIZE = 256
OUT = os.path.join(ROOT, "companion", "icons", "formula1.png")


def text(words, face, size):
    label = CoreLabel(text=words, font_name=os.path.join(theme.FONTS_DIR, face), font_size=size)
    label.refresh()
    return label.texture


def draw():
    fbo = Fbo(size=(SIZE, SIZE), with_stencilbuffer=False)
    big = text("F1", "BebasNeue-Bold.otf", 150)
    year = text("1962", "BebasNeue-Bold.otf", 40)
    c = SIZE / 2
    with fbo:
        Color(0, 0, 0, 0)
        Rectangle(size=(SIZE, SIZE))
        Color(*theme.BG)
        RoundedRectangle(pos=(8, 8), size=(SIZE - 16, SIZE - 16), radius=[40])
        # the circuit: grey tarmac, the board's white edge lines, a corner's kerb in red and white
        Color(*theme.PANEL_HI)
        Line(ellipse=(30, 40, SIZE - 60, SIZE - 80), width=13)
        Color(*theme.INK)
        Line(ellipse=(16, 26, SIZE - 32, SIZE - 52), width=1.6)
        for n, start in enumerate(range(20, 100, 10)):
            Color(*(theme.KERB if n % 2 == 0 else theme.INK))
            Line(ellipse=(30, 40, SIZE - 60, SIZE - 80, start, start + 10), width=13, cap="none")
        Color(*theme.INK)
        Rectangle(texture=big, pos=(c - big.width / 2, c - big.height / 2 + 10), size=big.size)
        Color(*theme.WARN)
        Rectangle(texture=year, pos=(c - year.width / 2, 52), size=year.size)
    fbo.draw()
    return fbo.texture


def main():
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    CoreImage(draw()).save(OUT, flipped=True)
    print(os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
