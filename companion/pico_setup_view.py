"""The pairing screen's Picos to set up, drawn (pico_setup.kv) from companion/pico_setup.py's PicoSetup.

attach(screen) is the pairing screen's one hook: while the screen is shown the Picos are looked for every
LOOK_S, and the panel (the screen's ids.pico_setup) is drawn again whenever an entry changes. Every change comes
through the app's Kivy Clock, so the install's thread never touches a widget."""

import os

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout

from companion import theme
from companion.pico_setup import ACTION, PicoSetup

KV = os.path.join(os.path.dirname(__file__), "pico_setup.kv")
LOOK_S = 1.0
RELEASE_S = 5.0  # the link lets go of a held port at its next scan (a quarter of a second)
COLOURS = {"failed": theme.BAD, "refused": theme.BAD, "done": theme.GO, "current": theme.MUTED}


class PicoSetupPanel(BoxLayout):
    setup = None

    def fill(self):
        """A row per entry: what it holds, the notice, the bar while running, the button of its offer."""
        self.clear_widgets()
        for key, e in sorted((self.setup.entries if self.setup else {}).items()):
            self.add_widget(self.row(key, e))

    def row(self, key, e):
        row = Factory.PicoSetupRow()
        row.key = key
        row.add_widget(Factory.SetupLine(text="%s: %s" % (os.path.basename(key.rstrip("/\\")) or key, e["words"]),
                                         color=COLOURS.get(e["state"], theme.INK)))
        if e["notice"]:
            row.add_widget(Factory.SetupLine(text=e["notice"], color=theme.WARN))
        row.bar = None
        if e["state"] in ("running", "done") and e["total"]:
            row.bar = Factory.SetupBar(max=e["total"], value=e["done"])
            row.add_widget(row.bar)
        row.action = None
        if e["state"] in ("offered", "failed") and e["kind"]:
            row.action = Factory.SetupAction(text=ACTION[e["kind"]])
            row.action.bind(on_release=lambda _w: self.setup.start(key))
            row.add_widget(row.action)
        return row


class PicoSetupRow(BoxLayout):
    pass


def load():
    """Its kv rules (before the pairing screen that holds the panel is made)."""
    if KV not in Builder.files:
        Builder.load_file(KV)


def attach(screen):
    """The set-up of Picos on `screen` (the pairing screen): looked for while it is shown."""
    load()
    panel = screen.ids.pico_setup
    setup = PicoSetup(lambda fn: Clock.schedule_once(lambda _dt: fn(), 0))
    setup.on_change = panel.fill
    setup.released = _released
    panel.setup = setup
    looking = Clock.create_trigger(lambda _dt: setup.look(), LOOK_S, interval=True)
    screen.bind(on_enter=lambda *_: (setup.look(), looking()), on_leave=lambda *_: looking.cancel())
    return setup


def _released(port):
    """Until the app's link has closed `port` (held: its scan leaves it out), or RELEASE_S passed."""
    import time

    from kivy.app import App

    app = App.get_running_app()
    end = time.monotonic() + RELEASE_S
    while port in getattr(app.transport, "workers", {}) and time.monotonic() < end:
        time.sleep(0.05)  # the poll period: the link's scan thread closes it
