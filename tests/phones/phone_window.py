"""The real companion app (offscreen window, tests/companion/appdriver.py's drive()) with a Pico-less Formula 5
table whose players are on phones:  python -m tests.phones.phone_window SCENARIO OUT.json [SHOTS_DIR]

f5_phones: Formula 5, red and yellow players, green a bot, blue and white without a player; at the pairing
screen the phones' addresses are written out, the race starts once both phones are on their pages.
f5_resume: the same game resumed after the app was killed. Both then watch the game to its end, writing its
progress out as they go, and look through every screen's widget tree for a dashboard drawn on the tablet."""

import os
import sys

from companion.widgets import OledView
from tests.companion.appdriver import button, dashboards_agree, drive, setup_and_pair, tap

PLAYERS = (0, 1)


def tablet_shows(app):
    """(OLEDs showing a dashboard, label texts) across every screen's widget tree, not only the one in front.
    (The race screen keeps an empty OLED pane for dashboards put on the tablet: it counts once it shows one.)"""
    oleds, texts = 0, set()
    for screen in app.sm.screens:
        for w in screen.walk():
            if isinstance(w, OledView):
                oleds += w.frame >= 0 or bool(getattr(w, "dev", None))
            elif isinstance(getattr(w, "text", None), str) and w.text:
                texts.add(w.text)
    return oleds, texts


def watch(d):
    app = d.app
    app.f5.auto_s = 0.05
    seen_oleds = 0
    texts = set()
    while True:
        ref = app.f5.ref
        oleds, now = tablet_shows(app)
        seen_oleds = max(seen_oleds, oleds)
        texts |= now
        d.note("oleds", seen_oleds)
        d.note("events", len(ref.game.events))
        d.note("to_move", ref.game.to_move())
        d.note("pending", len(app.transport.pending()))
        if ref.game.over:
            break
        d.save()
        yield 0.1
    d.note("all_events", ref.game.events)
    d.note("texts", sorted(texts))
    d.note("over", 1)
    d.shot("phones-3-over")
    d.save()
    # The tablet stays on after the race, as at a real table, until the test has looked at the phones: an app
    # that quit here took the server down before a loaded machine had sent the pages the last frame.
    yield lambda: os.path.exists(d.out + ".looked")


def f5_phones(d):
    app = d.app
    yield lambda: app.bridge is not None
    yield tap(app.screen("games").ids.choose_f5)
    yield lambda: app.sm.current == "f5setup"
    cars = list(reversed(app.screen("f5setup").ids.cars.children))
    for car in (1, 1, 3, 4):  # yellow: bot -> none -> player; blue, white: bot -> no player
        yield tap(cars[car])
    d.note("roles", [b.text for b in cars])
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "pairing"
    yield 0.3
    d.note("urls", {str(c): app.phones.address(c) for c in PLAYERS})
    d.note("pairing", sorted(tablet_shows(app)[1]))
    d.shot("phones-1-pairing")
    d.save()
    yield lambda: all(app.phones.connected(c) for c in PLAYERS)  # both players are on their pages
    yield 0.3
    d.note("pairing_connected", sorted(tablet_shows(app)[1]))
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "f5table"
    d.shot("phones-2-table")
    yield from watch(d)


def f5_resume(d):
    app = d.app
    yield lambda: app.bridge is not None
    yield tap(app.screen("games").ids.choose_f5)
    yield lambda: app.sm.current == "f5setup" and not app.screen("f5setup").ids.resume.disabled
    yield tap(app.screen("f5setup").ids.resume)
    yield lambda: app.sm.current == "f5table"
    d.note("urls", {str(c): app.phones.address(c) for c in PLAYERS})
    d.note("resumed", 1)
    d.save()
    yield from watch(d)


def f1_then_f5(d):
    """A Formula 1 race, its first car on the tablet, the second on a phone; then, in the same run, Formula 5
    with one player: its pairing takes none of the race's dashboards; put on the tablet, with a warning."""
    app = d.app
    yield from setup_and_pair(d, players=2)  # the first car "on this tablet instead", the rest on phones
    yield lambda: dashboards_agree(app)
    d.note("f1_pairs", {str(k): v for k, v in app.f1.ref.pairs.items()})
    d.note("f1_drawn", [getattr(w, "dev", None) for w in app.screen("race").ids.dash_tabs.children])
    d.note("f1_on_phones", sorted(app.phones.on_phones()))
    d.note("f1_url", app.phones.address(1))
    app.new_game()  # what leaving the race does once its question is answered
    yield lambda: app.sm.current == "games"
    yield 0.2
    yield tap(app.screen("games").ids.choose_f5)
    yield lambda: app.sm.current == "f5setup"
    yield 0.2
    yield tap(app.screen("f5setup").ids.start)  # red a player, the rest bots
    yield lambda: app.sm.current == "pairing"
    yield 1.0  # time for a leftover to be taken, if one could be
    d.note("f5_running", sorted(app.ports.virtual))
    d.note("f5_pairs", {str(k): v for k, v in app.f5.ref.pairs.items()})
    cards = list(reversed(app.screen("pairing").ids.seats.children))
    d.note("f5_cards", [c.seat for c in cards])
    d.note("f5_url", app.phones.address(0))
    yield tap(cards[0].virtual_button)  # "Show it on this tablet instead"
    d.note("warning", app.screen("pairing").ids.pair_message.text)
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "f5table"
    dev = app.f5.ref.pairs.get(0)
    yield lambda: dev in app.f5.oleds and app.ports.virtual[dev].state is not None and not app.transport.pending()
    d.note("f5_dev", dev)
    d.note("f5_drawn", list(app.f5.oleds))
    # Its buttons on the tablet drive it: CARD opens the hand (or says why not), a new frame either way.
    box = next(w for w in app.screen("f5table").ids.virtuals.children if getattr(w, "dev", None) == dev)
    frame = app.ports.virtual[dev].frame
    yield tap(button(box, "CARD"))
    yield lambda: app.ports.virtual[dev].frame > frame
    d.note("f5_card_pressed", True)
    d.shot("phones-4-f5-on-tablet")


SCENARIOS = {"f5_phones": f5_phones, "f5_resume": f5_resume, "f1_then_f5": f1_then_f5}


def main(argv):
    drive(SCENARIOS[argv[0]], argv[1], argv[2] if len(argv) > 2 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
