"""A player on a phone's seat page, as the whole-game tests play one: a press looked at before the next, and
Formula 5's hand on the firmware's screens (tests/phones/test_f5_on_phones.py, tests/companion/test_f5_phone_pages.py,
tests/companion/test_phone_race.py)."""

import time

from shared_rules.f5.cards import COLOURS, FIRST_PIT, colour
from shared_rules.f5.game import PIT
from tests.firmware.dash import text_rows


def press(page, name, shown=None):
    """A press, then what the screen shows once the frame it drew is there (briefly waited for: no frame may come, a
    press that changes nothing). `shown`: the screen looked at last, (frame, bytes), if the caller just read it. The
    page draws a press's frame in the press's own event, so the look after the tap sees it; the wait is for a frame
    drawn later. The page waits for the frame itself: one call, not a poll of calls."""
    before = (shown if shown is not None else page.look())[0]
    page.tap(name)
    return page.look(before, 3)


def rows_of(shown):
    """The OLED's rows of text in a look, (frame, bytes or None); [""] while no whole frame is on the canvas."""
    return text_rows(shown[1]) if shown[1] is not None else [""]


def group(card):
    return COLOURS if card >= FIRST_PIT else colour(card)


def groups(hand):
    return sorted({group(c) for c in hand})


def rows(page):
    return rows_of(page.look())


def open_hand(page, taken):
    """From whatever the dashboard shows to its hand, at the player's turn (messages dismissed with OK): what the
    screen then shows, or None once taken() says the move is in (made by an earlier press whose title was not seen).
    A message may time out just as OK dismisses it: that OK then opens the hand from the main screen, whose turn was
    not seen; so only a hand opened from YOUR TURN counts, any other is closed again (BACK)."""
    end = time.monotonic() + 60
    from_turn = False
    shown = page.look()
    while True:
        top = rows_of(shown)[0]
        if top.startswith("HAND"):
            if from_turn:
                return shown
            shown = press(page, "BACK", shown)
        elif top.startswith("YOUR TURN"):
            from_turn = True
            shown = press(page, "OK", shown)
        elif top.startswith(("WAIT", "RACE OVER")) or not top:
            if taken():
                return None
            # until the screen changes: the next frame, looked at within a second (a canvas being scaled, or a
            # frame the count missed, is looked at again)
            shown = page.look(shown[0], min(1.0, max(0.0, end - time.monotonic())))
        else:
            from_turn = False
            shown = press(page, "OK", shown)  # a message: any button dismisses it
        assert time.monotonic() < end, "no turn on the page: %s" % rows_of(shown)


def steps_for(hand, ev):
    """The presses for the engine's move ev from the hand screen, each with the screen it is made on, and the title
    the dashboard shows once the move is sent."""
    hand_rows = [g for g in groups(hand) if g < COLOURS] + [COLOURS]
    if ev[0] != PIT:
        return [("HAND", "DOWN")] * hand_rows.index(colour(ev[2])) + [("HAND", "OK")], "PLAYED"
    steps = [("HAND", "DOWN")] * (len(hand_rows) - 1) + [("HAND", "OK")]  # PIT STOP
    pit_rows = list(reversed(groups(hand)))
    steps += [("PIT", "DOWN")] * pit_rows.index(group(ev[2])) + [("PIT", "OK")]
    for g in groups([c for c in hand if c != ev[2] and c < FIRST_PIT]):
        steps += [("DISCARD", "OK")] * len([c for c in ev[3] if colour(c) == g]) + [("DISCARD", "DOWN")]
    return steps + [("DISCARD", "OK")], "PIT STOP"  # CONFIRM PIT


def play(page, hand, ev, taken):
    """The move made on the phone, each press on the screen it is meant for; a view from the tablet arriving
    meanwhile may put the dashboard back on its main screen (nothing sent yet): then again from the hand."""
    steps, sent = steps_for(hand, ev)
    shown = None
    for _attempt in range(4):
        if taken():
            return
        shown = open_hand(page, taken)
        if shown is None:
            return  # the move is in
        for screen, key in steps:
            if not rows_of(shown)[0].startswith(screen):
                break
            shown = press(page, key, shown)
        else:
            end = time.monotonic() + 5
            while not (rows_of(shown)[0].startswith(sent) or taken()):
                if time.monotonic() >= end:
                    break
                shown = page.look(shown[0], min(0.5, max(0.0, end - time.monotonic())))
            else:
                return
    raise AssertionError("the move %s did not go out: %s" % (ev, rows_of(shown) if shown else rows(page)))
