"""The real app (offscreen window, tests/companion/appdriver.py's drive()) on a tablet without `micropython`, every
seat on a phone that runs the firmware on its seat page (the test drives the phones, Chromium pages):

    python -m tests.companion.phone_race SCENARIO OUT.json

race:    Formula 1, three players: the seat pages' addresses written out, the race started once all three phones
         linked (paired by their tokens), then every turn played: the phone sets its speed (the test presses its
         buttons), the tablet's operator taps Lap (Finish on the last lap) and End turn. After End turn of turn
         KILL_AFTER it writes "kill" and waits to be killed.
resume:  the same race continued from the setup screen, to its end.
f5:      Formula 5, red and yellow players on phones (green, blue and white without a player): started once both
         phones linked; the tablet moves only the cars without a player. Every screen's widget tree is looked
         through for a hand (a card face that is in a hand, a dashboard drawn, a hand's words), all along.

OUT.json is written at each step: the turn to play, the commands the referee sent, and at the end what the table,
the log and each phone's dashboard (its last state on the link) hold.
"""

import os
import sys

from tests.companion.appdriver import button, choice_ids, drive, open_f1, open_f5, tap

KILL_AFTER = 5  # turns ended before the app is killed (of 9: three cars, three laps)
NAMES = ["Ann", "Bob", "Cy"]
F5_PLAYERS = (0, 1)


def _count_commands(d, ref):
    """Every command the referee queues, by name, in d.seen["commands"] (this run's), and the seats it syncs."""
    counts = d.seen.setdefault("commands", {})
    synced = d.seen.setdefault("synced", [])  # the seats sent their whole car
    queue = ref._queue

    def counted(seat, name, args):
        counts[name] = counts.get(name, 0) + 1
        if name == "sync":
            synced.append(seat)
        queue(seat, name, args)

    ref._queue = counted


def _ended(ref):
    """Turns ended so far, from the log's decisions in force."""
    return sum(1 for e in ref.stack if e.get("t") == "end")


def _agree(app, ref):
    """Every phone's last state on the link is the table's car, nothing in flight."""
    return len(ref.pairs) == len(ref.race.cars) and not app.transport.pending() and all(
        app.transport.snapshot(dev) == ref.race.cars[seat].snapshot() for seat, dev in ref.pairs.items())


def _play(d, kill_after=None):
    app = d.app
    ids = app.screen("race").ids
    ref = app.f1.ref
    while not ref.race.game_over:
        seat, n = ref.race.seat, _ended(ref)
        car = ref.race.cars[seat]
        d.note("turn", {"n": n, "seat": seat})
        d.save()
        yield lambda car=car: car.speed_set  # set on the phone
        d.note("speed", {"n": n, "seat": seat, "v": car.speed})
        d.save()
        yield app.f1.ready
        if car.laps_left == 1:
            yield tap(ids.finish)
            yield tap(button(ids.speeds, "2"))
        else:
            yield tap(ids.lap)
        yield app.f1.ready
        yield tap(ids.end)
        yield lambda n=n: _ended(ref) == n + 1
        if kill_after is not None and n + 1 == kill_after:
            seats = {dev: seat for seat, dev in ref.pairs.items()}
            d.note("in_flight", sorted({seats[dev] for dev, *_ in app.transport.pending() if dev in seats}))
            d.note("kill", 1)  # the next car's turn just sent to its phone: killed with it in flight
            d.save()
            yield lambda: False  # until the test kills the app
    yield lambda: _agree(app, ref)
    d.note("over", 1)
    d.note("log", [e for e in ref.entries[1:] if e.get("t") != "pair"])
    d.note("cars", [c.snapshot() for c in ref.race.cars])
    d.note("phones", [app.transport.snapshot(ref.pairs[s]) for s in range(len(ref.race.cars))])
    d.note("pairs", {str(s): dev for s, dev in ref.pairs.items()})
    d.save()
    yield lambda: os.path.exists(d.out + ".looked")  # the tablet stays on while the test looks at the phones


def race(d):
    app = d.app
    yield lambda: app.bridge is not None and app.first_frame is not None
    yield from open_f1(app)
    ids = app.screen("setup").ids
    for i, w in enumerate(reversed(ids.names.children)):
        w.text = (NAMES + ["Di", "Ed", "Flo"])[i]
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing" and app.phones is not None and app.phones.ready()
    ref = app.f1.ref
    seats = [s for s, *_ in app.f1.pairing_seats()]
    d.note("addresses", [app.phones.address(s) for s in seats])
    d.note("laps", ref.race.laps)
    d.save()
    yield lambda: len(ref.pairs) == len(seats)  # every phone linked on its seat's token: paired by itself
    yield lambda: _agree(app, ref)
    _count_commands(d, ref)  # from here on: the race's own commands (the pairing's syncs are before)
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "race"
    yield from _play(d, KILL_AFTER)


def resume(d):
    app = d.app
    ids = choice_ids(app)
    yield lambda: app.bridge is not None and app.sm.current == "games" and not ids.resume.disabled
    yield tap(ids.resume)
    yield lambda: app.sm.current == "race" and app.phones is not None and app.phones.ready()
    ref = app.f1.ref
    _count_commands(d, ref)
    d.note("resumed", 1)
    d.note("addresses", [app.phones.address(s) for s in range(len(ref.race.cars))])
    d.save()
    yield from _play(d)


def tablet_shows(app, hands):
    """What every screen's widget tree shows, not only the one in front: (card faces that are in a hand, OLEDs
    showing a dashboard, texts, card faces). The race screen keeps an empty OLED pane for dashboards put on the tablet: it
    counts once it shows one."""
    from companion.widgets import OledView

    secret = {c for hand in hands for c in hand}
    faces, oleds, texts, shown = set(), 0, set(), 0
    for screen in app.sm.screens:
        for w in screen.walk():
            if type(w).__name__ == "F5Card" and not getattr(w, "back", False):
                shown += 1
                if int(w.entry) in secret:
                    faces.add(int(w.entry))
            elif isinstance(w, OledView):
                oleds += w.frame >= 0 or bool(getattr(w, "dev", None))
            elif isinstance(getattr(w, "text", None), str) and w.text:
                texts.add(w.text)
    return faces, oleds, texts, shown


def f5(d):
    app = d.app
    yield from open_f5(app)
    cars = list(reversed(app.screen("f5setup").ids.cars.children))
    for car in (1, 1, 2, 3, 4):  # yellow: bot -> none -> player; green, blue, white: bot -> no player
        yield tap(cars[car])
    d.note("roles", [b.text for b in cars])
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "pairing" and app.phones is not None and app.phones.ready()
    ref = app.f5.ref
    d.note("addresses", {str(c): app.phones.address(c) for c in F5_PLAYERS})
    d.save()
    yield lambda: all(ref.pairs.get(c) for c in F5_PLAYERS)  # each phone linked on its seat's token
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "f5table"
    app.f5.auto_s = app.f5.read_s = app.f5.glance_s = 0.05  # the tablet's cars and words at speed
    faces, oleds, texts, looks, shown = set(), 0, set(), 0, 0
    while True:
        game = ref.game
        now = tablet_shows(app, [game.hand(c) for c in range(len(game.hands))])
        faces |= now[0]
        oleds = max(oleds, now[1])
        texts |= now[2]
        shown = max(shown, now[3])
        looks += 1
        d.note("events", len(game.events))
        d.note("to_move", game.to_move())
        if game.over:
            break
        d.save()
        yield 0.1
    yield lambda: not app.transport.pending()
    d.note("all_events", ref.game.events)
    d.note("faces", sorted(faces))
    d.note("oleds", oleds)
    d.note("texts", sorted(texts))
    d.note("looks", looks)
    d.note("shown", shown)
    d.note("over", 1)
    d.save()
    yield lambda: os.path.exists(d.out + ".looked")  # the tablet stays on while the test looks at the phones


def main(argv):
    from tests.companion import appdriver

    appdriver.WAIT_S = 90  # a step waits on real browsers and a person's presses, on a shared machine
    drive({"race": race, "resume": resume, "f5": f5}[argv[0]], argv[1])


if __name__ == "__main__":
    main(sys.argv[1:])
