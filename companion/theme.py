"""The companion's look, defined once: palette, typefaces, icons, type scale, spacing and touch-target size.

Every screen (companion.kv, f1/f1.kv and f5/f5.kv) takes its colours, faces and sizes from here, through
the kv rules in companion/theme.kv and `app.scale`; the phones' seat page takes the same colours and faces through
`page_css()` (served by companion/phones/assets.py). Sizes are given for a 10-inch 1280x800 tablet read from
across a table; `scale_for(width, height)` shrinks them for the 7-inch 800x480 display and grows them on a
1920x1200 one, so the same layout fits every screen without a second set of rules.

The look is the 1962 board's: the infield's deep green around the grey tarmac of the cars' panels, the red
bands of the corners for what is live, Prenton Pool's blue for what is chosen, the chequered line for laps;
names and titles in the condensed capitals of the period's race posters and number boards (Bebas Neue), the
figures read across the table in B612 (Airbus's cockpit face, drawn so that no digit is taken for another at a
glance). The faces and the icon font ship in companion/fonts with their licences.
"""

import os

# ---- palette (RGBA, 0..1) ---------------------------------------------------------------------------
BG = (0.04, 0.13, 0.08, 1)  # the board's infield: deep racing green
PANEL = (0.15, 0.16, 0.16, 1)  # the tarmac: a car's panel, a card
PANEL_HI = (0.25, 0.26, 0.26, 1)  # the active player's panel
LINE = (0.36, 0.38, 0.37, 1)  # hairlines, gauge frames
INK = (0.98, 0.97, 0.92, 1)  # figures and names: the board's white lines, a little warm
MUTED = (0.66, 0.69, 0.66, 1)  # captions, units
OFF = (0.40, 0.42, 0.41, 1)  # an unavailable button's text
KERB = (0.84, 0.11, 0.11, 1)  # the corners' red bands: the live main action, the race's accent
KERB_DARK = (0.45, 0.06, 0.07, 1)
GO = (0.20, 0.70, 0.34, 1)  # confirm, connected
WARN = (1.0, 0.78, 0.18, 1)  # messages to the table, silent links, SPIN costs
BAD = (1.0, 0.38, 0.34, 1)  # errors, lost links, spun off
BUTTON = (0.21, 0.22, 0.22, 1)  # an ordinary live button
BUTTON_DOWN = (0.36, 0.37, 0.37, 1)
BUTTON_OFF = (0.11, 0.12, 0.12, 1)
CHOSEN = (0.13, 0.40, 0.72, 1)  # Prenton Pool's blue: a toggle that is chosen (corner, lane)
OLED_ON = (0.55, 0.85, 1.0, 1)  # the SSD1306's lit pixels, as the real one glows
OLED_OFF = (0.01, 0.02, 0.04, 1)
# A car's colour is drawn inside two rings, light outside and dark inside: one of the two stands out from any
# car's colour (the black car, the white one) and from any background (the dark panels, a light page).
OUTLINE = INK
OUTLINE_DARK = (0.0, 0.0, 0.0, 1)
RING = 2  # each ring's width in pixels, at every scale
CHART_BG = (0.10, 0.11, 0.11, 1)  # charts: dark, so that yellow and white lines read
CHART_GRID = (0.28, 0.30, 0.30, 1)
DIE = (0.98, 0.97, 0.92, 1)  # the dice's faces, the board's white

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

# ---- typefaces and icons (companion/fonts, each with its licence; the README says where they come from) -----
FONTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fonts")
DISPLAY_FONT = "RaceDisplay"  # Bebas Neue Bold: names, titles, the player to move, big buttons, tabs
FIGURE_FONT = "RaceFigures"  # B612 Bold: speeds, laps, dice, counts: the figures read across the table
ICON_FONT = "RaceIcons"  # Fork Awesome: the icons below
FONT_FILES = {DISPLAY_FONT: "BebasNeue-Bold.otf", FIGURE_FONT: "B612-Bold.otf", ICON_FONT: "ForkAwesome.ttf"}
# Sentences (messages, odds, captions) stay in Kivy's own Roboto: a text face reads better at 16 px than
# condensed capitals, and it is the one face every Kivy build carries.

# An icon where a word is slower to read: Fork Awesome's code points, by what they stand for.
ICONS = {
    "history": "\uf1da",  # a clock turning back
    "results": "\uf091",  # a trophy
    "pairing": "\uf10b",  # a phone
    "leave": "\uf08b",  # out of the door
    "laps": "\uf11e",  # the chequered flag
    "corner": "\uf024",  # a flag on the band
    "to_move": "\uf04b",  # a play triangle: this player's move
    "dice": "\uf1b2",  # a cube
    "saved": "\uf0c7",  # a floppy disk
    "link_lost": "\uf127",  # a broken chain
    "link_silent": "\uf1eb",  # a signal
    "no_link": "\uf05e",  # a no-entry sign
}


ICON_ALONE = 1.5  # an icon without words is drawn this much larger than its button's text


def icon(name, words="", size=None):
    """Kivy markup: the icon `name` in the icon font, then `words` (a label with markup=True draws it)."""
    glyph = "[font=%s]%s[/font]" % (ICON_FONT, ICONS[name])
    if size is not None:
        glyph = "[size=%d]%s[/size]" % (size, glyph)
    return glyph + ("  " + words if words else "")


def register_fonts():
    """Give Kivy the theme's faces by name (font_name: theme.DISPLAY_FONT, [font=RaceIcons] in markup). Called
    once by theme.kv, before any screen's rule is read; a second call changes nothing. Returns the names."""
    from kivy.core.text import LabelBase

    for name, filename in FONT_FILES.items():
        path = os.path.join(FONTS_DIR, filename)
        LabelBase.register(name=name, fn_regular=path, fn_bold=path)
    return tuple(FONT_FILES)


def hex_rgb(rgba):
    """#rrggbb of a palette colour (the seat page's CSS, markup colours)."""
    return "#%02x%02x%02x" % tuple(int(round(c * 255)) for c in rgba[:3])


# The phones' seat page (companion/phones/static/seat.html) in the same look: its CSS custom properties and
# faces, made here from the palette above, served as theme.css by companion/phones/assets.py.
PAGE_COLOURS = {"bg": BG, "panel": PANEL, "button": BUTTON, "button-down": BUTTON_DOWN, "ink": INK, "muted": MUTED,
                "kerb": KERB, "kerb-dark": KERB_DARK, "chosen": CHOSEN, "led": WARN, "ring": OUTLINE,
                "ring-dark": OUTLINE_DARK}
# The page's buttons in the display face; its figures are the OLED's, drawn by the firmware. The face is served as
# a subset of printable ASCII (companion/fonts/README.md says how it is made): 6 KB gzipped where the whole face is
# 46 KB, which the page's first load (bench: phone.first_load_kb, at most 300 KB) has no room for.
PAGE_FONTS = {"display": DISPLAY_FONT}
PAGE_FONT_FILES = {DISPLAY_FONT: "BebasNeue-Bold-seat.otf"}


def page_css(font_url):
    """The seat page's theme.css: a custom property per PAGE_COLOURS entry (--bg, --ink...), and each of PAGE_FONTS
    as --font-<its key> (--font-display), loaded from font_url(its PAGE_FONT_FILES file)."""
    lines = ["/* Made by companion/theme.py (page_css): the tablet's theme, for the seat page. */"]
    for name in PAGE_FONTS.values():
        lines.append('@font-face { font-family: "%s"; src: url("%s"); font-weight: 400 900; font-display: swap; }'
                     % (name, font_url(PAGE_FONT_FILES[name])))
    props = ["--%s: %s;" % (var, hex_rgb(rgba)) for var, rgba in PAGE_COLOURS.items()]
    props += ['--font-%s: "%s", system-ui, sans-serif;' % (var, name) for var, name in PAGE_FONTS.items()]
    lines.append(":root { %s }" % " ".join(props))
    return "\n".join(lines) + "\n"


# ---- type scale (sp, at scale 1) --------------------------------------------------------------------
HERO = 46  # speeds, dice faces' companions, the active player's name
TITLE = 30  # screen titles
LARGE = 24  # names, big buttons
BODY = 20  # ordinary text
SMALL = 16  # captions, costs under a speed
MIN_TEXT_PX = 16  # no text smaller on screen, whatever the scale (the 7-inch display read at arm's length)
# What the game needs read from a player's chair (the race's message, the odds, the roll in words, every button's
# words): the theme's faces draw capitals at about 0.7 of their size, so 20 px text draws them 14 px high (16 px
# text drew 11 px capitals on the 7-inch display, too small to read across the table).
READ_MIN_PX = 20
# The figures read across the table (speed, laps, dice, whose turn): far larger than the floor at every size.
FIGURE_MIN_PX = 2 * MIN_TEXT_PX  # the least, on the 7-inch display
NAME_MIN_PX = 22  # a car's name in its colour box, the least (the display face's capitals are narrow)
DICE_MIN_PX = 80  # a die's face, the least
FIGURE_GROW = 1.25  # a figure's size over HERO's where its box has room
FIGURE_WIDTH = 0.5  # three of the figure face's digits (B612 Bold) in a box this many times their size wide

# ---- spacing and touch targets (dp, at scale 1) -----------------------------------------------------
GAP = 8
PAD = 12
TOUCH = 64  # the least height of anything a finger taps
TOUCH_MIN_PX = 48  # never smaller on screen, whatever the scale (about 9 mm on the 7-inch display)

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


def read(size, scale):
    """font(), for words the game needs read from a chair: never under READ_MIN_PX."""
    return max(READ_MIN_PX, font(size, scale))


def title(scale):
    """The size of a screen's title in the box lid's look and of whose turn it is: as large as a figure."""
    return max(font(TITLE + 14, scale), FIGURE_MIN_PX)


def figure(size, scale):
    """A figure's size (speed, laps) in pixels for this window: grown from the type scale, never under
    FIGURE_MIN_PX (its box may still hold it smaller: the sizes test says it does not)."""
    return max(FIGURE_MIN_PX, font(size, scale) * FIGURE_GROW)


def space(size, scale):
    """A spacing (dp at scale 1) in pixels for this window."""
    from kivy.metrics import dp

    return dp(size) * scale


def touch(scale):
    """The touch-target height in pixels for this window."""
    from kivy.metrics import dp

    return max(TOUCH_MIN_PX, dp(TOUCH) * scale)
