# Drawing the Formula 5 screens (firmware/ondemand/f5_ui.py) on the 8x8 text grid, with the helpers of screens.py.
from shared_rules.f5.cards import CAR_NAMES, COLOURS

from firmware.ondemand import f5_ui as u
from firmware.screens import COLS, RIGHT, footer, line, list_screen, message_screen


def _pad(s, n):
    return s + " " * (n - len(s))


def _spread(left, right):
    """One row: `left` at its start, `right` ending at the screen's right edge."""
    return _pad(left, COLS - len(right)) + right


def render(fb, ui, linked):
    fb.fill(0)
    m = ui.mode
    if m == u.HAND:
        # each colour held, how many, and (under SPEED) the speed one played would give; the pit stop row last
        items = []
        for c in ui.choices:
            n = len(ui.held(c))
            if c == COLOURS:
                items.append("%d PIT STOP" % n if n else "PIT STOP")
            else:
                items.append(_spread("%d %s" % (n, u.NAMES[c]), "%d" % ui.speed_of(c)))
        list_screen(fb, ui, _spread("HAND %d" % len(ui.hand), "SPEED"), items)
        hint = "OK:PLAY BACK"
    elif m == u.PIT:
        # a pit stop card, or a race card of a colour played pit stop side up (the rulebook's "face down")
        items = ["PIT STOP CARD" if c == COLOURS else u.NAMES[c] + " PIT SIDE" for c in ui.choices]
        list_screen(fb, ui, "PIT: PLAY WHICH", items)
        hint = "OK:NEXT BACK"
    elif m == u.DISCARD:
        items = []
        for c in ui.choices:
            if c == COLOURS:
                items.append("CONFIRM PIT")
            else:
                items.append("%s%d/%d" % (_pad(u.NAMES[c], 8), ui.discard[c], ui.discardable(c)))
        list_screen(fb, ui, "DISCARD", items)
        hint = "OK:+1 BACK"
    elif m == u.MESSAGE:
        hint = message_screen(fb, ui, linked)
    else:
        hint = main_screen(fb, ui, linked)
    footer(fb, ui, hint)


def main_screen(fb, ui, linked):
    if ui.over:
        top = "RACE OVER"
    elif ui.wait:
        top = "WAIT FOR START"  # the table is still pairing: no round under way (no room for RND beside it)
    elif ui.turn:
        top = "YOUR TURN"
    else:
        top = "WAIT"
    line(fb, 0, top, 0, ui.turn)
    if not ui.wait or ui.over:
        line(fb, 0, "RND %d" % ui.round, RIGHT)
    line(fb, 1, "CAR " + CAR_NAMES[ui.car].upper())
    seat = ui.app.tablet.wifi  # a Pico W over Wi-Fi: "WI-FI", and its signal or why it has no table (row 6)
    wifi = seat.over_wifi(ui.app.tablet) if seat is not None else None
    if linked:
        line(fb, 1, "WI-FI" if wifi is not None else "TABLET", RIGHT)
    if wifi is not None:
        line(fb, 6, wifi)
    elif not linked:
        line(fb, 6, "NO TABLET")
    line(fb, 2, "POS %d  SPEED %d" % (ui.pos + 1, ui.speed))
    if ui.ahead >= 0:
        line(fb, 3, "AHEAD SPEED %d" % ui.ahead)
    else:
        line(fb, 3, "LEADING")
    counts = [len(ui.held(c)) for c in range(COLOURS + 1)]
    line(fb, 4, "R%d Y%d G%d B%d W%d" % (counts[0], counts[1], counts[2], counts[3], counts[4]))
    line(fb, 5, "PIT %d  HAND %d" % (counts[COLOURS], len(ui.hand)))
    return "OK:HAND" if ui.turn else "OK:SEE HAND"
