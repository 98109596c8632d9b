"""The size of the app's window on a desktop: the screen it is given.

A 7-inch 800x480 display (or any screen a 1280x800 window does not fit on) gets the app full screen; a larger
one a 1280x800 window (a 10-inch tablet's size); `--size WxH` chooses, `--fullscreen` forces full screen.
Android's window is always the whole screen and never asks.
"""

import ctypes
import ctypes.util
import glob
import os

TABLET = (1280, 800)
DECORATION = (0, 60)  # a window's title bar and a desktop's panel: room a 1280x800 window needs around it


def parse_size(text):
    """'800x480' -> (800, 480); anything else is an argparse error (ValueError)."""
    w, _x, h = text.lower().partition("x")
    size = int(w), int(h)
    if min(size) < 200 or max(size) > 10000:
        raise ValueError("a window from 200x200 to 10000x10000")
    return size


def choose(size=None, fullscreen=False, display=None):
    """(width, height, fullscreen) for the window. `display` is the usable area of the screen, if known."""
    if size is not None:
        return size[0], size[1], bool(fullscreen)
    if fullscreen:
        return (display or TABLET)[0], (display or TABLET)[1], True
    if display is not None and (display[0] < TABLET[0] + DECORATION[0] or display[1] < TABLET[1] + DECORATION[1]):
        return display[0], display[1], True  # a small screen: all of it, nothing in the middle of a larger window
    return TABLET[0], TABLET[1], False


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("w", ctypes.c_int), ("h", ctypes.c_int)]


SDL_INIT_VIDEO = 0x20


def display_size():
    """The first display's size as SDL2 (Kivy's window library) sees it, or None where it cannot be asked.
    Asked before Kivy opens its window, so the window is made at its size once."""
    if os.environ.get("SDL_VIDEODRIVER") in ("offscreen", "dummy"):
        return None  # no screen: the window is whatever size it was asked for
    lib = _sdl()
    if lib is None:
        return None
    try:
        if lib.SDL_InitSubSystem(SDL_INIT_VIDEO) != 0:
            return None
        try:
            lib.SDL_GetCurrentVideoDriver.restype = ctypes.c_char_p
            if lib.SDL_GetCurrentVideoDriver() in (b"offscreen", b"dummy"):
                return None  # no display at all (SDL fell back to a driver without one)
            full, usable = _Rect(), _Rect()
            if lib.SDL_GetDisplayBounds(0, ctypes.byref(full)) != 0:
                return None
            if lib.SDL_GetDisplayUsableBounds(0, ctypes.byref(usable)) != 0 or usable.w <= 0:
                usable = full
            # A small screen is taken whole (full screen); the usable area decides whether a window fits.
            return (full.w, full.h) if usable.w >= full.w and usable.h >= full.h else (usable.w, usable.h)
        finally:
            lib.SDL_QuitSubSystem(SDL_INIT_VIDEO)
    except (AttributeError, OSError):
        return None


def _sdl():
    """The SDL2 library Kivy's wheel carries (Kivy.libs), else the system's."""
    import importlib.util

    spec = importlib.util.find_spec("kivy")
    candidates = []
    if spec is not None and spec.origin:
        site = os.path.dirname(os.path.dirname(spec.origin))
        candidates += sorted(glob.glob(os.path.join(site, "Kivy.libs", "libSDL2-2*.so*")))
    found = ctypes.util.find_library("SDL2")
    if found:
        candidates.append(found)
    for path in candidates:
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    return None
