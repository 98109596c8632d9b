"""The Formula 5 screens of the companion app: setup (who plays each car) and the table.

Chosen on the Setup screen ("Play Formula 5"); the app then hands its Clock tick to F5Controller. The table
shows the five columns by position, the speeds and who plays each car; a car that changes place slides to its
new row. The tablet plays the cars without a player and the bots, one turn every AUTO_S so the table can
follow; a player's turn waits for their dashboard. Player cars get the connected dashboards not yet paired,
in car order, as they appear. What is shown comes from companion/f5_view.py; no hand is ever shown here.
"""

import os

from kivy.animation import Animation
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from shared_rules.errors import RuleError
from shared_rules.f5.cards import CAR_NAMES, CARS

from companion import f5_view, storage
from companion.f5_referee import F5Referee
from companion.referee.eventlog import LogError
from companion.transport import CONNECTED

AUTO_S = 0.8  # a turn the tablet plays, every this often
SLIDE_S = 0.5  # an overtake's slide
ROW_DP = 96

Builder.load_file(os.path.join(os.path.dirname(__file__), "f5.kv"))


class F5SetupScreen(Screen):
    pass


class F5TableScreen(Screen):
    pass


class F5CarRow(BoxLayout):
    to_move = BooleanProperty(False)
    swatch = ListProperty([0, 0, 0, 1])


def add_screens(sm):
    sm.add_widget(F5SetupScreen(name="f5setup"))
    sm.add_widget(F5TableScreen(name="f5table"))


class F5Controller:
    def __init__(self, app):
        self.app = app
        self.form = f5_view.F5Form()
        self.ref = None
        self.table = None
        self.path = None
        self.rows = {}  # car -> F5CarRow
        self.order = None  # the order the rows are placed in
        self.sig = None
        self.since_auto = 0.0
        self.auto_s = AUTO_S

    # ---- setup -----------------------------------------------------------------------------------------
    def open_setup(self):
        ids = self.app.screen("f5setup").ids
        ids.cars.clear_widgets()
        for car in range(CARS):
            b = Button(
                font_size=sp(22),
                bold=True,
                background_normal="",
                background_color=f5_view.RGBA[CAR_NAMES[car]],
                color=f5_view.INK[CAR_NAMES[car]],
            )
            b.bind(on_release=lambda w, car=car: self.cycle(car))
            ids.cars.add_widget(b)
        self._fill_roles()
        found = f5_view.game_in_progress(storage.data_dir())
        self.saved_path = None
        ids.resume.disabled = True
        ids.resume_note.text = ""
        if found is not None:
            path, problem = found
            if problem:
                ids.resume_note.text = "The last Formula 5 game cannot be resumed: %s" % problem
            else:
                self.saved_path = path
                ids.resume.disabled = False
                ids.resume_note.text = os.path.basename(path)
        self.app.sm.current = "f5setup"

    def _fill_roles(self):
        buttons = list(reversed(self.app.screen("f5setup").ids.cars.children))
        for car, b in enumerate(buttons):
            b.text = "%s car: %s" % (CAR_NAMES[car].capitalize(), f5_view.ROLE_TEXT[self.form.roles[car]])

    def cycle(self, car):
        self.form.cycle(car)
        self._fill_roles()

    def start(self, seed=None):
        if seed is None and os.environ.get("F1_COMPANION_SEED"):
            seed = int(os.environ["F1_COMPANION_SEED"])
        path = f5_view.new_game_path(storage.data_dir())
        try:
            ref = self.form.start(path, seed=seed)
        except (RuleError, LogError) as e:
            self.app.screen("f5setup").ids.message.text = str(e)
            return
        self._open(ref, path)

    def resume(self):
        try:
            ref = F5Referee.open(self.saved_path)
        except LogError as e:
            self.app.screen("f5setup").ids.resume_note.text = str(e)
            return
        self._open(ref, self.saved_path)

    def _open(self, ref, path):
        self.ref, self.path = ref, path
        self.table = f5_view.F5Table(ref)
        self.app.bridge.attach(ref)
        self.rows = {}
        self.order = None
        self.sig = None
        self.app.sm.current = "f5table"
        self.refresh(force=True)

    def leave(self):
        """Back to the Formula 1 setup; a game in progress stays saved and can be resumed."""
        self.close()
        self.app.f5 = None
        self.app.sm.current = "setup"

    def close(self):
        if self.ref is not None:
            self.app.bridge.attach(None)
            self.ref.close()
            self.ref = None

    # ---- the table -------------------------------------------------------------------------------------
    def tick(self, dt):
        ref = self.ref
        if ref is None:
            return
        self._pair_new_dashboards()
        self.since_auto += dt
        if ref.tablet_plays() and self.since_auto >= self.auto_s:
            self.since_auto = 0.0
            ref.auto_move()
            self.app.bridge.push()
        if self.app.bridge.errors:
            self.app.screen("f5table").ids.message.text = self.app.bridge.errors.pop()
            self.app.bridge.errors.clear()
        self.refresh()

    def _pair_new_dashboards(self):
        """A player's car without a dashboard takes the first connected one that has no car yet."""
        ref = self.ref
        bridge = self.app.bridge
        free = [dev for dev, status in bridge.dashboards() if status == CONNECTED and ref.seat_of(dev) is None]
        for car in range(CARS):
            if not free:
                return
            if ref.controller(car) == "waiting":
                ref.pair(car, free.pop(0))
                bridge.push()

    def refresh(self, force=False):
        ref = self.ref
        sig = (len(ref.game.events), tuple(sorted(ref.pairs.items())))
        if sig == self.sig and not force:
            return
        self.sig = sig
        ids = self.app.screen("f5table").ids
        track = ids.track
        if not self.rows:
            track.clear_widgets()
            for car in range(CARS):
                row = F5CarRow(height=dp(ROW_DP))
                self.rows[car] = row
                track.add_widget(row)
            track.bind(size=lambda *_: self._place(animate=False))
        old = self.order
        for r in self.table.rows():
            row = self.rows[r["car"]]
            row.ids.place.text = "%d." % (r["pos"] + 1)
            row.ids.car.text = r["name"]
            row.ids.car.color = f5_view.INK[r["colour"]]
            row.swatch = list(f5_view.RGBA[r["colour"]])
            row.ids.speed.text = "PIT 0" if r["stopped"] else "speed %d" % r["speed"]
            row.ids.cards.text = r["markup"]
            row.ids.who.text = "%s\n%d cards" % (r["who"], r["hand"]) if r["hand"] else r["who"]
            row.to_move = r["to_move"]
        ids.status.text = self.table.status()
        ids.last.text = self.table.last_text()
        self.order = list(ref.game.order)
        self._place(animate=old is not None and old != self.order)

    def _place(self, animate):
        """Each car's row at its position's height; an overtake slides the rows that changed place."""
        if self.order is None:
            return
        track = self.app.screen("f5table").ids.track
        h = dp(ROW_DP)
        gap = max(0.0, (track.height - CARS * h) / CARS)
        for pos, car in enumerate(self.order):
            row = self.rows[car]
            row.width = track.width
            y = track.height - (pos + 1) * (h + gap)
            Animation.cancel_all(row, "y")
            if animate and row.y != y:
                Animation(y=y, d=SLIDE_S, t="out_quad").start(row)
            else:
                row.y = y
