"""The real companion app (offscreen window, tests/companion/appdriver.py's drive()) with a Pico-less Formula 5
table whose players are on phones:  python -m tests.phones.phone_window SCENARIO OUT.json [SHOTS_DIR]

f5_phones: Formula 5, red and yellow players, green a bot, blue and white without a player; at the pairing
screen the phones' addresses are written out, the race starts once both phones run the firmware on their pages,
linked and paired to their cars.
f5_resume: the same game resumed after the app was killed. Both then watch the game to its end, writing its
progress out as they go, and look through every screen's widget tree for a dashboard drawn on the tablet.
f1_then_f5: the pairing screen's choices across two games. six_phones: a whole Formula 1 race on six phones."""

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
    # The table's words stay up a few frames, not a reader's seconds: most of this game's time went to them
    app.f5.read_s = app.f5.glance_s = 0.3
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
    # both players' phones run the firmware on their pages, linked and paired to their cars by their tokens
    yield lambda: all(app.phones.connected(c) and app.f5.ref.pairs.get(c) for c in PLAYERS)
    d.note("paired", {str(c): app.f5.ref.pairs[c] for c in PLAYERS})
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
    """A Formula 1 race, its first car on the tablet, the second left to its phone (which runs the firmware itself:
    nothing for it on the tablet); then, in the same run, Formula 5 with one player: its pairing takes none of the
    race's dashboards; put on the tablet, with a warning."""
    app = d.app
    yield from setup_and_pair(d, players=2, on_tablet=1)  # the first car "on this tablet instead", the second's phone
    d.note("f1_served", sorted(app.phones.served))
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
    yield lambda: "f5-virtual-1" in app.ports.virtual
    card = list(reversed(app.screen("pairing").ids.seats.children))[0]
    # Its link in words on its card (companion/link_words.py, pairing.kv's LinkLine), kept up to date as it links
    yield lambda: 0 in app.pairing.link_lines and app.pairing.link_lines[0].text.startswith("this tablet: linked")
    card = list(reversed(app.screen("pairing").ids.seats.children))[0]
    d.note("link_words", [app.pairing.link_lines[0].text, app.pairing.link_lines[0] in card.children])
    d.note("use_phone", card.virtual_button.text)
    yield tap(card.virtual_button)  # "Use a phone": the dashboard here stops, the seat waits for its phone
    yield lambda: not app.ports.virtual
    d.note("back_to_phone", {"running": sorted(app.ports.virtual), "pairs": {str(k): v for k, v in app.f5.ref.pairs.items()},
                             "served": sorted(app.phones.served)})
    card = list(reversed(app.screen("pairing").ids.seats.children))[0]
    yield tap(card.virtual_button)  # and on the tablet again, deliberately
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


def six_phones(d):
    """A Formula 1 race of six players, every one on a phone (tests/phones/test_six_phone_seats.py runs it on a tablet
    with no `micropython`): the race starts once the six phones are linked and paired; each car's first speed is
    set on its phone (`to_play` says whose turn it is), the rest of the race on the race screen's buttons, Lap by
    Lap to the finish; at the end every phone's car is the table's."""
    from tests.companion.appdriver import open_f1, race_ids, speed_button

    app = d.app
    yield lambda: app.bridge is not None and app.first_frame is not None
    d.note("unix_port", app.ports is not None)
    yield from open_f1(app)
    ids = app.screen("setup").ids
    yield tap(ids.more)
    yield tap(ids.fewer)
    for _ in range(3):  # 3 players to 6
        yield tap(ids.more)
    for i, w in enumerate(reversed(ids.names.children)):
        w.text = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][i]
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing" and app.phones is not None and app.phones.ready()
    ref = app.f1.ref
    d.note("laps", ref.race.laps)
    d.note("addresses", [app.phones.address(seat) for seat in range(len(ref.race.cars))])
    d.save()
    yield lambda: len(ref.pairs) == 6  # the six phones linked, each paired to its seat by its token
    d.note("pairs", {str(seat): dev for seat, dev in ref.pairs.items()})
    d.note("phones", {str(seat): app.phones.phone_dev(seat) for seat in range(6)})
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "race"
    race = race_ids(app)
    on_phone = []
    turns = 0
    while not ref.race.game_over and turns < 60:
        yield app.f1.ready
        seat = ref.race.seat
        car = ref.race.cars[seat]
        if seat not in on_phone:  # its first turn: its player sets the speed on the phone
            on_phone.append(seat)
            d.note("to_play", seat)
            d.save()
            yield lambda car=car: car.speed_set
            yield app.f1.ready
        elif not car.speed_set:
            yield tap(speed_button(app, fastest=True))
        yield tap(race.finish if car.laps_left == 1 else race.lap)
        if car.laps_left == 1:
            yield tap(button(race.speeds, "2"))
        yield tap(race.end)
        turns += 1
    d.note("on_phone", on_phone)
    d.note("turns", turns)
    d.note("game_over", ref.race.game_over)
    yield lambda: all(app.transport.snapshot(dev) == ref.race.cars[seat].snapshot() for seat, dev in ref.pairs.items())
    yield lambda: not app.transport.pending()
    d.note("cars", [car.snapshot() for car in ref.race.cars])
    d.note("phones_cars", [app.transport.snapshot(ref.pairs[seat]) for seat in range(6)])
    d.note("over", 1)
    d.save()
    yield lambda: os.path.exists(d.out + ".looked")  # the tablet stays on until the test has looked at the phones


SCENARIOS = {"f5_phones": f5_phones, "f5_resume": f5_resume, "f1_then_f5": f1_then_f5, "six_phones": six_phones}


def main(argv):
    if argv[0] == "six_phones":
        import tests.companion.appdriver as appdriver

        appdriver.WAIT_S = 90  # a step waits on six real pages booting the firmware, on a shared machine
    drive(SCENARIOS[argv[0]], argv[1], argv[2] if len(argv) > 2 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
