"""A player on a phone's seat page, as the whole-game tests play one: a press looked at before the next, and
Formula 5's hand on the firmware's screens (tests/phones/test_f5_on_phones.py, tests/companion/test_f5_phone_pages.py,
tests/companion/test_phone_race.py)."""

import time

from shared_rules.f5.cards import COLOURS, FIRST_PIT, colour
from shared_rules.f5.game import PIT
from tests.firmware.dash import text_rows
from tests.wait import poll


def press(page, name):
    """A press, then the frame it drew (briefly waited for)."""
    frame = "return window.dash.frame"  # the frame count alone: the whole window.dash carries the link's log
    before = page.js(frame)
    page.tap(name)
    poll(lambda: page.js(frame) != before, 3, 0.02)  # no frame may come (a press that changes nothing)


def group(card):
    return COLOURS if card >= FIRST_PIT else colour(card)


def groups(hand):
    return sorted({group(c) for c in hand})


def rows(page):
    got = page.screen()
    return text_rows(got[1]) if got is not None else [""]


def open_hand(page):
    """From whatever the dashboard shows to its hand, at the player's turn (messages dismissed with OK). A message
    may time out just as OK dismisses it: that OK then opens the hand from the main screen, whose turn was not seen;
    so only a hand opened from YOUR TURN counts, any other is closed again (BACK)."""
    end = time.monotonic() + 60
    from_turn = False
    while True:
        top = rows(page)[0]
        if top.startswith("HAND"):
            if from_turn:
                return
            press(page, "BACK")
        elif top.startswith("YOUR TURN"):
            from_turn = True
            press(page, "OK")
        elif top.startswith(("WAIT", "RACE OVER")) or not top:
            poll(lambda top=top: rows(page)[0] != top, max(0.0, end - time.monotonic()), 0.05)  # until the screen changes
        else:
            from_turn = False
            press(page, "OK")  # a message: any button dismisses it
        assert time.monotonic() < end, "no turn on the page: %s" % rows(page)


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
    for _attempt in range(4):
        if taken():
            return
        open_hand(page)
        for screen, key in steps:
            if not rows(page)[0].startswith(screen):
                break
            press(page, key)
        else:
            if poll(lambda: rows(page)[0].startswith(sent) or taken(), 5, 0.03):
                return
    raise AssertionError("the move %s did not go out: %s" % (ev, rows(page)))
