"""The real app on a tablet that is not a Linux PC with the unix port, in a real (offscreen SDL) window.

    python -m tests.companion.any_tablet OUT.json [--no-unix-terminals] [--no-phones-server] [--phone | --resume]

--no-unix-terminals: `pty`, `termios`, `tty` and `fcntl` do not exist in this process (a finder on sys.meta_path
refuses them before anything is imported), as on Windows. The test runs it with a Python and a PATH where no
`micropython` can be found. The scenario: the setup screen comes, then pairing for three players; what the
seat cards offer is written to OUT.json (tests/companion/test_any_tablet.py reads it).

--no-phones-server: `aiohttp` does not exist either (an APK built without it): no phone can be served.
--phone: the scenario a phone plays beside it (tests/companion/test_phone_seats.py drives the phone, a real
Chromium on the seat's address): pairing, the phone's seat paired by its link, the race, its speed set on the
phone, the page reloaded, another phone taking the car over. OUT.json is written at each stage, so the test knows when to act.
--resume: the tablet started again (after --phone): the race continued from the setup screen; the phone, still on
its page, links again to its car.
"""

import sys

UNIX_TERMINALS = ("pty", "termios", "tty", "fcntl")


class NoUnixTerminals:
    """Refuses the Unix terminal modules, as an interpreter that lacks them would (ModuleNotFoundError)."""

    def find_spec(self, name, path=None, target=None):
        if name in UNIX_TERMINALS:
            raise ModuleNotFoundError("No module named %r" % name, name=name)
        return None


def scenario(d):
    from companion import virtual
    from tests.companion.appdriver import tap

    app = d.app
    yield lambda: app.bridge is not None and app.first_frame is not None
    d.note("screen", app.sm.current)
    d.note("virtual", bool(virtual.available()))
    d.note("imported", sorted(m for m in UNIX_TERMINALS if m in sys.modules))
    d.note("source", [type(s).__name__ for s in getattr(app.transport.source, "sources", [app.transport.source])])
    yield tap(app.screen("games").ids.choose_f1)  # the game choice, then Formula 1's setup
    yield lambda: app.sm.current == "setup"
    ids = app.screen("setup").ids
    for i, w in enumerate(reversed(ids.names.children)):
        w.text = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][i]
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing"
    rows = list(reversed(app.screen("pairing").ids.seats.children))
    d.note("offered", [r.virtual_button.text if r.virtual_button is not None else None for r in rows])
    d.note("cards", [[w.text for w in r.walk() if hasattr(w, "text") and w is not r.seat_button] for r in rows])
    d.note("phones", app.phones is not None)
    yield 0.2
    app.new_game()
    yield lambda: app.sm.current == "games"


def phone_scenario(d):
    from tests.companion.appdriver import tap

    app = d.app
    yield lambda: app.bridge is not None and app.first_frame is not None
    d.note("virtual", bool(app.ports is not None))
    yield tap(app.screen("games").ids.choose_f1)  # the game choice, then Formula 1's setup
    yield lambda: app.sm.current == "setup"
    ids = app.screen("setup").ids
    for i, w in enumerate(reversed(ids.names.children)):
        w.text = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][i]
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing" and app.phones is not None and app.phones.ready()
    ref = app.f1.ref
    seats = [s for s, *_ in app.f1.pairing_seats()]
    first = ref.race.seat  # the car that moves first: its phone sets its speed as soon as the race starts
    app.pairing.refresh(force=True)
    rows = list(reversed(app.screen("pairing").ids.seats.children))
    d.note("first", first)
    d.note("addresses", [app.phones.address(s) for s in seats])
    d.note("cards", [[w.text for w in r.walk() if hasattr(w, "text") and w is not r.seat_button] for r in rows])
    d.note("offered", [r.virtual_button.text if r.virtual_button is not None else None for r in rows])
    d.save()
    yield lambda: ref.pairs.get(first) is not None  # the page linked on the seat's token: paired by itself
    yield 0.3
    dev = ref.pairs[first]
    app.pairing.refresh(force=True)
    rows = list(reversed(app.screen("pairing").ids.seats.children))
    d.note("paired", {"dev": dev, "pairs": {str(s): v for s, v in ref.pairs.items()},
                      "card": [w.text for w in rows[first].walk() if hasattr(w, "text")],
                      "found": [w.text for w in app.screen("pairing").ids.found.children if hasattr(w, "text")],
                      "served": sorted(app.phones.served)})
    port = app.transport.port_of(dev)
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "race"
    d.note("racing", 1)
    d.save()
    car = ref.race.cars[first]
    yield lambda: car.speed_set and car.speed == 60  # set on the phone
    yield 0.3
    d.note("speed", {"speed": car.speed, "panels": [[p.name, p.ids.speed.text] for p in app.f1.car_rows]})
    d.save()
    # The page is reloaded: a new link socket (a new port), the same phone (its id kept in the browser's storage)
    yield lambda: app.transport.port_of(dev) not in (None, port) and app.bridge.status.get(dev) == "connected"
    yield lambda: app.transport.snapshot(dev) == car.snapshot() and not app.transport.pending()
    d.note("relinked", {"pairs": {str(s): v for s, v in ref.pairs.items()}, "speed": car.speed,
                        "ports": [port, app.transport.port_of(dev)], "served": sorted(app.phones.served),
                        "phone": app.phones.phone_dev(first)})
    d.save()
    # Another phone opens the seat's address (a new dashboard id): it takes the car over, with the table's state
    yield lambda: ref.pairs.get(first) not in (None, dev)
    new = ref.pairs[first]
    yield lambda: app.transport.snapshot(new) == car.snapshot() and not app.transport.pending()
    d.note("taken_over", {"pairs": {str(s): v for s, v in ref.pairs.items()}, "speed": car.speed,
                          "phone": app.phones.phone_dev(first), "served": sorted(app.phones.served)})
    d.save()
    yield 0.2
    app.new_game()
    yield lambda: app.sm.current == "games"


def resume_scenario(d):
    from tests.companion.appdriver import tap

    app = d.app
    ids = app.screen("games").ids
    yield lambda: app.bridge is not None and not ids.resume.disabled
    yield tap(ids.resume)
    yield lambda: app.sm.current == "race" and app.phones is not None and app.phones.ready()
    ref = app.f1.ref
    seat, dev = next(iter(ref.pairs.items()))
    car = ref.race.cars[seat]
    yield lambda: app.bridge.status.get(dev) == "connected" and app.transport.port_of(dev) is not None
    yield lambda: app.transport.snapshot(dev) == car.snapshot() and not app.transport.pending()
    d.note("resumed", {"pairs": {str(s): v for s, v in ref.pairs.items()}, "speed": car.speed,
                       "served": sorted(app.phones.served), "phone": app.phones.phone_dev(seat),
                       "address": app.phones.address(seat)})
    d.save()
    yield 0.2
    app.new_game()
    yield lambda: app.sm.current == "games"


def main(argv):
    if "--no-unix-terminals" in argv:
        sys.meta_path.insert(0, NoUnixTerminals())
        for name in UNIX_TERMINALS:
            sys.modules.pop(name, None)  # none is imported this early; if one were, it goes
    if "--no-phones-server" in argv:
        sys.modules["aiohttp"] = None  # type: ignore[assignment]  # Python's mark of a module absent: import fails
    from tests.companion import appdriver  # the app (and Kivy) imported only now

    if "--phone" in argv:
        appdriver.WAIT_S = 90  # a step waits on a real browser booting the firmware, on a shared machine
        appdriver.drive(phone_scenario, argv[0])
    elif "--resume" in argv:
        appdriver.WAIT_S = 90
        appdriver.drive(resume_scenario, argv[0])
    else:
        appdriver.drive(scenario, argv[0])


if __name__ == "__main__":
    main(sys.argv[1:])
