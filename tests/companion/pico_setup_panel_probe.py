"""Run as a process of its own (tests/companion/test_pico_setup_view.py): the pairing screen's panel of Picos to set
up (companion/pico_setup_view.py, pico_setup.kv) in a real Kivy window (SDL offscreen), filled from set-up entries;
prints, as one JSON line, each row's widgets (kind, text, bar value and max), then presses the offer's button."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ["KIVY_NO_ARGS"] = "1"

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.properties import BooleanProperty, NumericProperty  # noqa: E402

from companion import pico_setup_view, theme, widgets  # noqa: E402, F401  (widgets: RaceButton and the rest)
from companion.pico_setup import RACE_KEPT, UPDATE, PicoSetup  # noqa: E402


class Panel(App):
    scale = NumericProperty(1.0)
    compact = BooleanProperty(False)

    def build(self):
        Builder.load_file(os.path.join(os.path.dirname(theme.__file__), "theme.kv"))
        pico_setup_view.load()
        self.panel = pico_setup_view.PicoSetupPanel()
        setup = PicoSetup(lambda fn: fn(), list_ports=list, roots=[])
        self.started = []
        setup.start = self.started.append  # the button's press, seen (nothing plugged in here)
        setup.on_change = self.panel.fill
        self.panel.setup = setup
        setup._set("/dev/ttyACM0", UPDATE, "offered", "Dashboard 0.1.0: this app brings 0.2.0.", RACE_KEPT)
        setup._set("/dev/ttyACM1", "install", "running", "Copying 12 of 50: firmware/app.mpy", "", 12, 50)
        setup._set("/dev/ttyUSB0", None, "refused", "/dev/ttyUSB0 is not a Raspberry Pi device")
        Clock.schedule_once(self.look, 0.5)
        return self.panel

    def look(self, _dt):
        rows = [[[type(w).__name__, getattr(w, "text", ""), getattr(w, "value", None), getattr(w, "max", None)]
                 for w in row.children[::-1]] for row in self.panel.children[::-1]]
        self.panel.children[-1].action.dispatch("on_release")
        print("PANEL " + json.dumps({"rows": rows, "started": self.started}), flush=True)
        self.stop()


Panel().run()
