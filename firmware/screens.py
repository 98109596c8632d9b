# Drawing the screens into the 128x64 framebuffer. Each screen is drawn whole (cheap, in C); display.py
# then sends only the pages that changed. Small text sits on the 8x8 grid (16 columns, 8 rows), so a test
# can read it back from the framebuffer; the speed is drawn with the same font scaled up three times.
import framebuf
from micropython import const

from shared_rules.f1 import car as f1car
from shared_rules.f1 import charts

COLS = const(16)  # text columns: the panel's 128 pixels in 8-pixel characters (firmware/ondemand/f5_screens.py too)
RIGHT = const(-1)  # line()'s column for text ending at the right edge
_BIG = const(3)  # scale of the big digits: 24x24 pixels each
_BIG_Y = const(10)
_MESSAGE_ROWS = const(6)  # a message's text: rows 1-6 under its title (row 1 left blank when five rows do)
_REFUSAL_ROWS = const(4)  # a refusal covers at most the bottom four rows at a time

_glyph_buf = bytearray(8)
_glyph = framebuf.FrameBuffer(_glyph_buf, 8, 8, framebuf.MONO_VLSB)


def big_text(fb, s, x, y):
    """Text in the built-in 8x8 font, each pixel drawn as a _BIG x _BIG square."""
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
                    fb.fill_rect(x + col * _BIG, y + row * _BIG, _BIG, run * _BIG, 1)
                    row += run
                else:
                    bits >>= 1
                    row += 1
        x += 8 * _BIG


def line(fb, row, text, col=0, invert=0):
    """Text at a grid row (0-7) and column (0-15, or RIGHT: ending at the right edge), cut to the screen width."""
    if col == RIGHT:
        col = COLS - len(text)
    text = text[: COLS - col]
    if invert:
        fb.fill_rect(col * 8, row * 8, len(text) * 8, 8, 1)
    fb.text(text, col * 8, row * 8, 0 if invert else 1)


def wrap(text):
    """The text word-wrapped to the screen's 16 columns, nothing cut: a word longer than a row is split."""
    lines = []
    cur = ""
    for w in text.split():
        if cur and len(cur) + 1 + len(w) > COLS:
            lines.append(cur)
            cur = ""
        while len(w) > COLS:
            lines.append(w[:COLS])
            w = w[COLS:]
        cur = cur + " " + w if cur else w
    if cur:
        lines.append(cur)
    return lines


def message_pages(text):
    """How many pages a message's text takes on the message screen."""
    return max(1, (len(wrap(text)) + _MESSAGE_ROWS - 1) // _MESSAGE_ROWS)


def refusal_pages(text):
    """How many pages a refusal takes over the bottom rows."""
    return max(1, (len(wrap(text)) + _REFUSAL_ROWS - 1) // _REFUSAL_ROWS)


def footer(fb, ui, hint):
    """The bottom row: what the keys do on this screen; or the last refusal instead, inverted and word-wrapped
    upwards over the rows it needs (up to four, the screen's own cleared under it), page `ui.error_page` of it."""
    if not ui.error:
        line(fb, 7, hint)
        return
    first = ui.error_page * _REFUSAL_ROWS
    page = wrap(ui.error)[first : first + _REFUSAL_ROWS]
    row = 8 - len(page)
    fb.fill_rect(0, row * 8, COLS * 8, (7 - row) * 8, 0)  # row 7 is the footer's own: the screens leave it empty
    for t in page:
        line(fb, row, t, 0, 1)
        row += 1


def render(fb, ui, linked, screen):
    """The whole screen: `screen` (one of those below, the one for firmware/ui.py's mode), then its footer."""
    fb.fill(0)
    footer(fb, ui, screen(fb, ui, linked))


# ---- the screens, one per mode of firmware/ui.py; each draws rows 0-6 and returns its footer's hint ---------
def main_screen(fb, ui, linked):
    c = ui.car
    if c.status == f1car.FINISHED:
        status = "FINISHED"
    elif c.status == f1car.OUT:
        status = "OUT"
    elif c.miss:
        status = "MISS %d" % c.miss
    elif c.status == f1car.SPUN:
        status = "SPUN OFF"
    elif c.status == f1car.PIT:
        status = "IN PIT"
    else:
        status = "YOUR TURN" if c.my_turn else "WAIT"
    line(fb, 0, status, 0, c.my_turn)
    line(fb, 0, "LAPS %d" % c.laps_left, RIGHT)
    big_text(fb, "%3d" % c.speed, 0, _BIG_Y)
    line(fb, 3, "MPH", 10)
    line(fb, 1, "TABLET" if linked else "SOLO", RIGHT)
    if c.superb:  # Superb Driving played: its corner is still to come
        line(fb, 2, "SUPERB", RIGHT)
    # the wear gauges, 'TYRE 3/8' and one box per point
    for row, label, value, maximum in ((5, "TYRE", c.tyre, charts.TYRE_MAX), (6, "BRAKE", c.brake, charts.BRAKE_MAX)):
        line(fb, row, "%s %d/%d" % (label, value, maximum))
        w = 56 // maximum  # the bar fills columns 9-15
        for i in range(maximum):
            if i < value:
                fb.fill_rect(72 + i * w, row * 8 + 1, w - 1, 6, 1)
            else:
                fb.rect(72 + i * w, row * 8 + 1, w - 1, 6, 1)
    if c.status == f1car.FINISHED or c.status == f1car.OUT:  # no more turns: standalone, OK sets up the next race
        return "" if linked else "OK:NEW RACE"
    if c.my_turn and not c.speed_set:
        return "OK:SET SPEED"
    if c.my_turn:
        return "WAIT FOR TABLE" if linked else "OK:MOVE MENU"
    return "" if linked else "OK:START TURN"


def speed_screen(fb, ui, linked):
    """SPEED: the speed dial, with what it costs."""
    return dial(fb, ui, 0)


def wait_screen(fb, ui, linked):
    """WAIT: blocked, the same dial without the move."""
    return dial(fb, ui, 1)


def dial(fb, ui, wait):
    c = ui.car
    v = ui.choices[ui.cursor]
    line(fb, 0, "BLOCKED" if wait else "CARBURETTOR" if ui.carb else "SET SPEED", 0, 1)  # Good Carburettor's
    line(fb, 1, "NOW %d" % c.speed, RIGHT)
    big_text(fb, "%3d" % v, 0, _BIG_Y)
    if ui.cursor < len(ui.choices) - 1:
        line(fb, 2, "UP", RIGHT)
    if ui.cursor > 0:
        line(fb, 3, "DOWN", RIGHT)
    brake, tyre, spins = c.braking_cost(v)
    if spins:
        line(fb, 5, "SPINS OFF!", 0, 1)
    elif brake or tyre:
        line(fb, 5, "BRAKE+%d TYRE+%d" % (brake, tyre))
    else:
        line(fb, 5, "NO WEAR")
    line(fb, 6, "NO MOVE" if wait else "MOVE %d SPACES" % charts.spaces(v))
    if wait:
        return "OK:WAIT BACK:NO"
    return "OK:GO BACK:WAIT" if ui.can_wait() else "OK:SET BACK:NO"


def list_screen(fb, ui, title, items):
    """A title and up to six rows of `items`, the one at the cursor inverted."""
    line(fb, 0, title, 0, 1)
    first = ui.cursor - 5 if ui.cursor > 5 else 0
    for k in range(first, min(first + 6, len(items))):
        line(fb, 1 + k - first, items[k], 0, k == ui.cursor)


def hand_screen(fb, ui, linked):
    """HAND: the cards by name."""
    list_screen(fb, ui, "HAND %d CARDS" % len(ui.choices), ui.names)
    return "OK:PLAY BACK"


def menu_screen(fb, ui, linked):
    """MENU: the move's items."""
    list_screen(fb, ui, "YOUR MOVE", ui.choices)
    return "OK:DO BACK"


def corner_screen(fb, ui, linked):
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
    return "OK:GO BACK"


def setup_screen(fb, ui, linked):
    line(fb, 0, "NEW RACE", 0, 1)
    line(fb, 2, "LAPS")
    big_text(fb, "%2d" % ui.choices[ui.cursor], 48, 16)
    return "OK:START BACK"


def message_screen(fb, ui, linked):
    """The title on an inverted top row, the text word-wrapped below it; a text longer than six rows is shown
    six at a time, page `ui.page` of it (a key or the time-out turns the page)."""
    fb.fill_rect(0, 0, COLS * 8, 8, 1)
    line(fb, 0, ui.title, 0, 1)
    lines = wrap(ui.text)
    pages = (len(lines) + _MESSAGE_ROWS - 1) // _MESSAGE_ROWS
    first = ui.page * _MESSAGE_ROWS
    row = 2 if len(lines) < _MESSAGE_ROWS else 1  # the longest pit card text needs six rows: the spacer row too
    for t in lines[first : first + _MESSAGE_ROWS]:
        line(fb, row, t)
        row += 1
    if pages < 2:
        return "OK"
    if ui.page + 1 < pages:
        return "OK:MORE %d/%d" % (ui.page + 1, pages)
    return "OK %d/%d" % (pages, pages)

