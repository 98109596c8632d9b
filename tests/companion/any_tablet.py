"""The real app on a tablet that is not a Linux PC with the unix port, in a real (offscreen SDL) window.

    python -m tests.companion.any_tablet OUT.json [--no-unix-terminals]

--no-unix-terminals: `pty`, `termios`, `tty` and `fcntl` do not exist in this process (a finder on sys.meta_path
refuses them before anything is imported), as on Windows. The test runs it with a Python and a PATH where no
`micropython` can be found. The scenario: the setup screen comes, then pairing for three players; what the
seat cards offer is written to OUT.json (tests/companion/test_any_tablet.py reads it).
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
    yield lambda: app.sm.current == "setup"


def main(argv):
    if "--no-unix-terminals" in argv:
        sys.meta_path.insert(0, NoUnixTerminals())
        for name in UNIX_TERMINALS:
            sys.modules.pop(name, None)  # none is imported this early; if one were, it goes
    from tests.companion.appdriver import drive  # the app (and Kivy) imported only now

    drive(scenario, argv[0])


if __name__ == "__main__":
    main(sys.argv[1:])
