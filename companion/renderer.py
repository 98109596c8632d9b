"""How the app's window draws: set before Kivy opens the window (companion/app.py imports this module first).

- No multisampling. Every shape on our screens is an axis-aligned rectangle, text or one of Kivy's smooth
  (self-antialiased) shapes, so Kivy's default of 2 samples a pixel smooths nothing and doubles the work of a
  software renderer (Mesa's llvmpipe: a tablet or a Pi without its GPU driver, and the tests' offscreen
  window): the race screen's frame took 22 ms to draw with it and 13 ms without.
- A frame is flushed when it is done in an offscreen window (SDL's offscreen driver: the tests, the benches,
  the README's pictures), as a screen's buffer swap does. That driver's swap does nothing, so Mesa kept every
  frame's drawing queued, with every texture it used, until its queue filled: memory grew by about 11 MB a tap
  on the race screen, and a label redrawn into its own texture waited for the whole queue to be drawn.
"""

import os

from kivy.config import Config

Config.set("graphics", "multisamples", "0")


def offscreen():
    """True where the window is SDL's offscreen one (nothing is shown: tests, benches, pictures)."""
    return os.environ.get("SDL_VIDEODRIVER") == "offscreen"


def flush_each_frame(window):
    """In an offscreen window, every frame flushed once drawn (see above); a real screen's swap does it."""
    if offscreen():
        from kivy.graphics.opengl import glFlush

        window.bind(on_flip=lambda *_: glFlush())
