# Drawing the screens into the 128x64 framebuffer. Each screen is drawn whole (cheap, in C); display.py
# then sends only the pages that changed. Small text sits on the 8x8 grid (16 columns, 8 rows), so a test
# can read it back from the framebuffer; the speed is drawn with the same font scaled up three times.
import framebuf
from micropython import const

from shared_rules.f1 import cards
from shared_rules.f1 import charts

from firmware import ui as u

_COLS = const(16)
_BIG = const(3)  # scale of the big digits: 24x24 pixels each
_BIG_Y = const(10)
_glyph_buf = bytearray(8)
_glyph = framebuf.FrameBuffer(_glyph_buf, 8, 8, framebuf.MONO_VLSB)

_HINT_MAIN_SOLO = const("OK:START TURN")


def big_text(fb, s, x, y, scale=_BIG):
    """Text in the built-in 8x8 font, each pixel drawn as a scale x scale square."""
    for ch in s:
        _glyph.fill(0)
        _glyph.text(ch, 0, 0, 1)
        for col in range(8):
            bits = _glyph_buf[col]
            row = 0
            while bits:
                if bits & 1:
                    # one run of set pixels down this column, as a single rectangle
                    run = 0
                    while bits & 1:
                        run += 1
                        bits >>= 1
                    fb.fill_rect(x + col * scale, y + row * scale, scale, run * scale, 1)
                    row += run
                else:
                    bits >>= 1
                    row += 1
        x += 8 * scale


def line(fb, row, text, col=0, invert=0):
    """Text at a grid row (0-7) and column (0-15), cut to the screen width."""
    text = text[: _COLS - col]
    if invert:
        fb.fill_rect(col * 8, row * 8, len(text) * 8, 8, 1)
    fb.text(text, col * 8, row * 8, 0 if invert else 1)


def right(fb, row, text):
    line(fb, row, text, _COLS - len(text))


def gauge(fb, row, label, value, maximum):
    """'TYRE 3/8' and a bar with one box per point: the maximum is the number of boxes."""
    line(fb, row, "%s %d/%d" % (label, value, maximum))
    x0 = 72
    w = (128 - x0) // maximum
    for i in range(maximum):
        x = x0 + i * w
        if i < value:
            fb.fill_rect(x, row * 8 + 1, w - 1, 6, 1)
        else:
            fb.rect(x, row * 8 + 1, w - 1, 6, 1)


def wrap(text, width=_COLS):
    words = text.split()
    lines = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = cur + " " + w if cur else w
    if cur:
        lines.append(cur)
    return lines


def footer(fb, ui, hint):
    if ui.error:
        line(fb, 7, ui.error, 0, 1)
    else:
        line(fb, 7, hint)


def render(fb, ui, linked):
    fb.fill(0)
    m = ui.mode
    if m == u.SPEED or m == u.WAIT:
        speed_screen(fb, ui)
    elif m == u.HAND:
        list_screen(fb, ui, "HAND %d CARDS" % len(ui.choices), [cards.TACTIC_NAMES[c] for c in ui.choices],
                    "OK:PLAY BACK")
    elif m == u.MENU:
        list_screen(fb, ui, "YOUR MOVE", ui.choices, "OK:DO BACK")
    elif m == u.CORNER:
        corner_screen(fb, ui)
    elif m == u.SETUP:
        line(fb, 0, "NEW RACE", 0, 1)
        line(fb, 2, "LAPS")
        big_text(fb, "%2d" % ui.choices[ui.cursor], 48, 16)
        footer(fb, ui, "OK:START BACK")
    elif m == u.MESSAGE:
        message_screen(fb, ui)
    else:
        main_screen(fb, ui, linked)


def main_screen(fb, ui, linked):
    c = ui.car
    line(fb, 0, ui.status_text(), 0, c.my_turn)
    right(fb, 0, "LAPS %d" % c.laps_left)
    big_text(fb, "%3d" % c.speed, 0, _BIG_Y)
    line(fb, 3, "MPH", 10)
    right(fb, 1, "TAB" if linked else "SOLO")
    if c.superb:
        right(fb, 2, "SD")
    gauge(fb, 5, "TYRE", c.tyre, charts.TYRE_MAX)
    gauge(fb, 6, "BRAK", c.brake, charts.BRAKE_MAX)
    if c.my_turn and not c.speed_set:
        hint = "OK:SET SPEED"
    elif c.my_turn:
        hint = "WAIT FOR TABLE" if linked else "OK:MOVE MENU"
    elif linked:
        hint = ""
    else:
        hint = _HINT_MAIN_SOLO
    footer(fb, ui, hint)


def speed_screen(fb, ui):
    c = ui.car
    v = ui.choices[ui.cursor]
    wait = ui.mode == u.WAIT  # blocked: the same dial, without the move
    line(fb, 0, "BLOCKED" if wait else "GC SPEED" if ui.carb else "SET SPEED", 0, 1)
    right(fb, 0, "NOW %d" % c.speed)
    big_text(fb, "%3d" % v, 0, _BIG_Y)
    if ui.cursor < len(ui.choices) - 1:
        right(fb, 2, "UP")
    if ui.cursor > 0:
        right(fb, 3, "DN")
    brake, tyre, spins = c.braking_cost(v)
    if spins:
        line(fb, 5, "SPINS OFF!", 0, 1)
    elif brake or tyre:
        line(fb, 5, "BRAKE+%d TYRE+%d" % (brake, tyre))
    else:
        line(fb, 5, "NO WEAR")
    line(fb, 6, "NO MOVE" if wait else "MOVE %d SPACES" % charts.spaces(v))
    footer(fb, ui, "OK:WAIT BACK:NO" if wait else "OK:GO BACK:WAIT" if ui.can_wait() else "OK:SET BACK:NO")


def list_screen(fb, ui, title, items, hint):
    line(fb, 0, title, 0, 1)
    first = ui.cursor - 5 if ui.cursor > 5 else 0
    for i in range(6):
        k = first + i
        if k >= len(items):
            break
        line(fb, 1 + i, items[k], 0, k == ui.cursor)
    footer(fb, ui, hint)


def corner_screen(fb, ui):
    c = ui.car
    safety = ui.choices[ui.cursor]
    line(fb, 0, "CORNER", 0, 1)
    line(fb, 1, "SAFETY SPEED")
    big_text(fb, "%3d" % safety, 0, 18)
    over = c.speed - safety
    case = charts.corner_case(over, c.tyre, c.superb)
    if case == charts.SAFE:
        text = "SAFE"
    elif case == charts.ROLL:
        text = "+%d: DICE" % over
    elif case == charts.AUTO_SPIN:
        text = "SPINS OFF!"
    else:
        text = "SUPERB: FREE"
    line(fb, 6, text)
    footer(fb, ui, "OK:GO BACK")


def message_screen(fb, ui):
    line(fb, 0, ui.title + " " * (_COLS - len(ui.title)), 0, 1)
    lines = wrap(ui.text)
    row = 2 if len(lines) < 6 else 1  # the longest pit card text needs six rows: use the spacer row too
    for t in lines:
        if row > 6:
            break
        line(fb, row, t)
        row += 1
    footer(fb, ui, "OK")
