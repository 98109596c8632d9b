"""The companion's look, defined once: palette, type scale, spacing and touch-target size.

Every screen (companion.kv, f1/f1.kv and f5/f5.kv) takes its colours and sizes from here, through
the kv rules in companion/theme.kv and `app.scale`. Sizes are given for a 10-inch 1280x800 tablet read from
across a table; `scale_for(width, height)` shrinks them for the 7-inch 800x480 display and grows them on a
1920x1200 one, so the same layout fits every screen without a second set of rules.

The look is a pit wall at night: asphalt-dark panels, white figures, kerb red for what is live, amber for
what needs attention.
"""

# ---- palette (RGBA, 0..1) ---------------------------------------------------------------------------
BG = (0.07, 0.075, 0.085, 1)  # asphalt
PANEL = (0.13, 0.14, 0.16, 1)  # a car's panel, a card
PANEL_HI = (0.22, 0.23, 0.27, 1)  # the active player's panel
LINE = (0.30, 0.32, 0.36, 1)  # hairlines, gauge frames
INK = (0.96, 0.96, 0.94, 1)  # figures and names
MUTED = (0.62, 0.64, 0.68, 1)  # captions, units
OFF = (0.36, 0.37, 0.40, 1)  # an unavailable button's text
KERB = (0.86, 0.10, 0.12, 1)  # the live main action, the race's accent
KERB_DARK = (0.45, 0.06, 0.07, 1)
GO = (0.16, 0.66, 0.30, 1)  # confirm, connected
WARN = (1.0, 0.76, 0.15, 1)  # messages to the table, silent links, SPIN costs
BAD = (1.0, 0.36, 0.32, 1)  # errors, lost links, spun off
BUTTON = (0.20, 0.21, 0.24, 1)  # an ordinary live button
BUTTON_DOWN = (0.34, 0.35, 0.40, 1)
BUTTON_OFF = (0.11, 0.115, 0.13, 1)
CHOSEN = (0.16, 0.40, 0.78, 1)  # a toggle that is chosen (corner, lane)
OLED_ON = (0.55, 0.85, 1.0, 1)  # the SSD1306's lit pixels, as the real one glows
OLED_OFF = (0.01, 0.02, 0.04, 1)
OUTLINE = (0.55, 0.57, 0.62, 1)  # around a car's colour: the black car would vanish on the dark background
CHART_BG = (0.10, 0.11, 0.13, 1)  # charts: dark, so that yellow and white lines read
CHART_GRID = (0.28, 0.30, 0.34, 1)

# The cars, both games' (Formula 1's six, Formula 5's five), by their colour's name, and a text colour readable
# on each. The presenters (f1/view.py, f5/view.py) and the phones' pages read these without loading Kivy.
CAR_RGBA = {
    "yellow": (0.98, 0.82, 0.10, 1),
    "orange": (0.98, 0.50, 0.08, 1),
    "green": (0.15, 0.65, 0.25, 1),
    "red": (0.85, 0.12, 0.12, 1),
    "black": (0.08, 0.08, 0.08, 1),
    "blue": (0.15, 0.35, 0.90, 1),
    "white": (0.92, 0.92, 0.92, 1),
}
BLACK_INK, WHITE_INK = (0, 0, 0, 1), (1, 1, 1, 1)
CAR_INK = {"yellow": BLACK_INK, "orange": BLACK_INK, "green": WHITE_INK, "red": WHITE_INK, "black": WHITE_INK,
           "blue": WHITE_INK, "white": BLACK_INK}

# Link states as the race screen colours them.
LINK = {"connected": GO, "silent": WARN, "lost": BAD, "none": MUTED}

# ---- type scale (sp, at scale 1) --------------------------------------------------------------------
HERO = 46  # speeds, dice faces' companions, the active player's name
TITLE = 30  # screen titles
LARGE = 24  # names, big buttons
BODY = 20  # ordinary text
SMALL = 16  # captions, costs under a speed
MIN_TEXT_PX = 16  # no text smaller on screen, whatever the scale (the 7-inch display read at arm's length)

# ---- spacing and touch targets (dp, at scale 1) -----------------------------------------------------
GAP = 8
PAD = 12
TOUCH = 64  # the least height of anything a finger taps
TOUCH_MIN_PX = 44  # never smaller on screen, whatever the scale (about 7 mm on the 7-inch display)

BASE_W, BASE_H = 1280, 800
COMPACT_BELOW_PX = 640  # a window less high than this is laid out compact (the 16 px text leaves less room)


def scale_for(width, height):
    """The size factor for a window: 1 at 1280x800, 0.6 at 800x480, 1.5 at 1920x1200."""
    return max(0.55, min(2.0, width / float(BASE_W), height / float(BASE_H)))


# kivy.metrics is imported where a size is worked out, not at the top: the palette above is read by code that
# never loads Kivy (the presenters, which tests drive without a window).


def font(size, scale):
    """A type-scale size (sp at scale 1) in pixels for this window, never under MIN_TEXT_PX."""
    from kivy.metrics import sp

    return max(MIN_TEXT_PX, sp(size) * scale)


def space(size, scale):
    """A spacing (dp at scale 1) in pixels for this window."""
    from kivy.metrics import dp

    return dp(size) * scale


def touch(scale):
    """The touch-target height in pixels for this window."""
    from kivy.metrics import dp

    return max(TOUCH_MIN_PX, dp(TOUCH) * scale)
