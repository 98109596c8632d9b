"""Run by the installed app's own Python (python -I, from a folder that is not the checkout): starts the app as the
`formula1` command does, in an offscreen window, and once the game choice is on screen writes what it saw and every
file the process opened to the JSON file named by argv[1]; then the seat page's files are made as for a phone, so
their files count too. Standard library and the app only: nothing of the tests is importable here."""

import json
import os
import sys
import time

OUT = sys.argv[1]
opened = []


def audit(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        opened.append(os.path.realpath(os.fsdecode(args[0])))


sys.addaudithook(audit)

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402

DEADLINE = time.monotonic() + 90


def look(dt):
    app = App.get_running_app()
    sm = getattr(app, "sm", None)
    screen = sm.current if sm is not None else None
    texts = [w.text for w in app.root.walk() if isinstance(getattr(w, "text", None), str)] if app and app.root else []
    if screen != "games" and time.monotonic() < DEADLINE:
        return True  # keep looking, next frame
    from companion.flashing import sources
    from companion.phones.assets import Assets

    Assets()  # the seat page's files: the runtime, the firmware compiled, the faces
    import companion
    from kivy.core.text import LabelBase

    # The faces are opened by SDL's C code, which Python's audit hook does not see: Kivy's register of them says.
    faces = [os.path.realpath(p) for files in LabelBase._fonts.values() for p in files if p]
    with open(OUT, "w") as f:
        json.dump({"screen": screen, "texts": texts, "opened": sorted(set(opened + faces)), "sources": sources.root(),
                   "package": os.path.dirname(os.path.realpath(companion.__file__))}, f)
    app.stop()
    return False


Clock.schedule_interval(look, 0.1)
from companion.__main__ import main  # noqa: E402

sys.exit(main(["--size", "800x480"]))
