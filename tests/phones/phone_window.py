"""The real companion app (offscreen window, tests/companion/appdriver.py's drive()) with a Pico-less Formula 5
table whose players are on phones:  python -m tests.phones.phone_window SCENARIO OUT.json [SHOTS_DIR]

f5_phones: Formula 5, red and yellow players, green a bot, blue and white without a player; at the pairing
screen the phones' addresses are written out, the race starts once both phones are on their pages.
f5_resume: the same game resumed after the app was killed. Both then watch the game to its end, writing its
progress out as they go, and look through every screen's widget tree for a dashboard drawn on the tablet."""

import sys

from companion.widgets import OledView
from tests.companion.appdriver import drive, tap

PLAYERS = (0, 1)


def tablet_shows(app):
    """(OLEDs drawn, label texts) across every screen's widget tree, not only the one in front."""
    oleds, texts = 0, set()
    for screen in app.sm.screens:
        for w in screen.walk():
            if isinstance(w, OledView):
                oleds += 1
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


def f5_phones(d):
    app = d.app
    yield lambda: app.bridge is not None
    yield tap(app.screen("setup").ids.choose_f5)
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
    yield tap(app.screen("setup").ids.choose_f5)
    yield lambda: app.sm.current == "f5setup" and not app.screen("f5setup").ids.resume.disabled
    yield tap(app.screen("f5setup").ids.resume)
    yield lambda: app.sm.current == "f5table"
    d.note("urls", {str(c): app.phones.address(c) for c in PLAYERS})
    d.note("resumed", 1)
    d.save()
    yield from watch(d)


SCENARIOS = {"f5_phones": f5_phones, "f5_resume": f5_resume}


def main(argv):
    drive(SCENARIOS[argv[0]], argv[1], argv[2] if len(argv) > 2 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
