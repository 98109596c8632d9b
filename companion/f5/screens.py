"""The Formula 5 screens of the companion app: setup (who plays each car) and the table.

Chosen on the game choice (companion/game_choice.py); the app then hands its Clock tick to F5Controller. The table
shows the five columns by position, the speeds and who plays each car; a car that changes place slides to its
new row. The tablet plays the cars without a player and the bots, one turn every AUTO_S so the table can
follow; a player's turn waits for their dashboard. Before the first turn the pairing screen (the app's, shared
with Formula 1) gives each player's car a dashboard: the Picos plugged in go to the players' cars by themselves,
in car order, as they appear; every other player's car gets a virtual dashboard (the real firmware) served to
its player's phone, or deliberately one on this tablet's screen: a tab for each, the chosen one's OLED covered
(an F5 dashboard always shows something of its hand) until its player holds a finger on it to look.
What the table screen shows comes from companion/f5/view.py; no hand is ever shown here.

Each column is drawn as its race cards (companion/f5/cards.py). Every move is told to the table in words, one
message at a time (view.Announcer): an overtake, a pit stop or the end stays up for READ_S, and the tablet waits
for it before it plays its next car, so nobody misses one; the overtaking car's row slides and glows meanwhile.
History lists every move (public facts only), Results the places of a finished game and what decided them,
from the table or from Saved games.

Every size comes from the theme (companion/theme.py, at app.scale): the rows share the track's height, at
most ROW (dp at scale 1) each, so five cars fit from a 7-inch 800x480 screen to 1920x1200.
"""

import os

from kivy.animation import Animation
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from shared_rules.errors import RuleError
from shared_rules.f5.cards import CAR_NAMES, CARS

from companion import storage, theme
from companion import virtual as virtual_mod
from companion.f5 import view as f5_view
from companion.f5.cards import F5Column  # noqa: F401 (registers the card widgets f5.kv uses)
from companion.f5.referee import F5Referee
from companion.eventlog import LogError
from companion.transport import CONNECTED
from companion.widgets import VirtualDash

# The table's times are counted from the Clock tick's dt: the app's clock (companion/clock.py), which a test steps.
AUTO_S = 0.8  # a turn the tablet plays, every this often
READ_S = 3.0  # an overtake, a pit stop or the end stays in words on the screen this long, at least
GLANCE_S = 1.5  # any other turn's words, at least
SLIDE_S = 1.0  # an overtake's slide
ROW = 96  # a car's row at most this high (dp at scale 1); less when the track is lower

Builder.load_file(os.path.join(os.path.dirname(__file__), "f5.kv"))


class F5SetupScreen(Screen):
    pass


class F5TableScreen(Screen):
    pass


class F5HistoryScreen(Screen):
    pass


class F5ResultsScreen(Screen):
    pass


class F5Chip(Widget):
    tone = ListProperty([1, 1, 1, 1])  # a car's colour


class F5HistoryLine(BoxLayout):
    text = StringProperty("")
    tone = ListProperty([1, 1, 1, 1])
    news = BooleanProperty(False)  # an overtake, a pit stop or the end: bright


class F5ResultRow(BoxLayout):
    place = StringProperty("")
    name = StringProperty("")
    tone = ListProperty([1, 1, 1, 1])
    ink = ListProperty([0, 0, 0, 1])
    who = StringProperty("")
    why = StringProperty("")
    winner = BooleanProperty(False)


class F5CarRow(BoxLayout):
    to_move = BooleanProperty(False)
    swatch = ListProperty([0, 0, 0, 1])
    ink = ListProperty([1, 1, 1, 1])  # a text colour readable on the swatch
    glow = NumericProperty(0)  # 1 while news about this car is up (an overtake, its pit stop): its edge lit


def add_screens(sm):
    sm.add_widget(F5SetupScreen(name="f5setup"))
    sm.add_widget(F5TableScreen(name="f5table"))
    sm.add_widget(F5HistoryScreen(name="f5history"))
    sm.add_widget(F5ResultsScreen(name="f5results"))


class F5Controller:
    VIRTUAL_DEV = "f5-virtual-%d"  # a player's virtual dashboard, by car number from 1

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
        self.read_s = READ_S
        self.glance_s = GLANCE_S
        self.moves = None  # view.Moves: the game's public history
        self.announcer = f5_view.Announcer()
        self.read_only = False  # a finished game opened from Saved games for its results
        self.app.nav.forget("f5history", "f5results")  # a new game's history and results: Back to its table
        self.oleds = {}  # dev -> OledView of the virtual dashboards put on this tablet's screen
        self.dashes = {}  # dev -> its VirtualDash (the chosen one on the screen, the others kept aside)
        self.dash_dev = None  # the dashboard whose tab is chosen
        self.dash_sig = None

    # ---- setup -----------------------------------------------------------------------------------------
    def open_setup(self):
        ids = self.app.screen("f5setup").ids
        ids.cars.clear_widgets()
        for car in range(CARS):
            b = Factory.F5CarButton(tone=theme.CAR_RGBA[CAR_NAMES[car]], color=theme.CAR_INK[CAR_NAMES[car]])
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
                ids.resume_note.text = f5_view.saved_text(path)
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
        self._pair_or_play()

    def resume(self):
        try:
            ref = F5Referee.open(self.saved_path)
        except LogError as e:
            self.app.screen("f5setup").ids.resume_note.text = str(e)
            return
        self._open(ref, self.saved_path)
        for dev in ref.pairs.values():
            if virtual_mod.is_virtual(dev):
                self.app.pairing.start_virtual(dev)  # on their saved state; the tablet resends their views
        self.app.pairing.sync_phones()  # the same addresses on the same port: the phones find their seats again
        self._pair_or_play()

    def _open(self, ref, path):
        self.app.pairing.close_dashboards()  # never an earlier game's virtual dashboards (a Formula 1 race's, say)
        self.ref, self.path = ref, path
        self.table = f5_view.F5Table(ref)
        self.moves = f5_view.Moves(ref)
        self.moves.update()  # a resumed game's moves were told before: its history, not news
        self.announcer.clear()
        self.app.screen("f5table").ids.last.text = ""
        self.app.bridge.attach(ref)
        self.rows = {}
        self.order = None
        self.sig = None
        self.dash_sig = None
        if self.app.need_phones() is not None:
            self.app.phones.open_game(storage.dashboards_dir(path))

    def _pair_or_play(self):
        """The pairing screen while a player's car has no dashboard, else the table."""
        if any(self.ref.controller(car) == "waiting" for car, *_ in self.pairing_seats()):
            self.app.screen("pairing").ids.roll.text = (
                "Formula 5: each player's hand goes to their own dashboard only, a Pico or their phone.")
            self.ref.hold()  # its dashboards wait for Start: a move made meanwhile is not the game's
            self.app.show("pairing")
            self.app.pairing.sync_phones()
        else:
            self.begin()

    def pairing_seats(self):
        """The cars a player holds (not the bots, not the cars without a player), for the pairing screen."""
        ref = self.ref
        return [(car, ref.names_[car], CAR_NAMES[car], theme.CAR_RGBA[CAR_NAMES[car]], theme.CAR_INK[CAR_NAMES[car]])
                for car in range(CARS) if ref.game.is_player(car) and car not in ref.bots]

    def begin(self):
        """From the pairing screen to the table: the players' cars still without one get a virtual dashboard."""
        self.app.pairing.give_the_rest()
        self.ref.start()
        self.app.bridge.push()  # the turns, to the dashboards waiting for Start
        self.app.sm.current = "f5table"
        self.since_auto = None  # the table is shown for a whole AUTO_S before the tablet plays on
        self.refresh(force=True)

    def leave(self):
        """Back to the game choice; a game in progress stays saved and can be resumed."""
        self.close()
        self.app.f5 = None
        self.app.show("games")  # its Continue offers the game just left

    def back(self):
        """Back (Escape, Android's Back, a screen's Back button) on a Formula 5 screen."""
        current = self.app.sm.current
        if current == "f5table":
            self.app.confirm("Leave this Formula 5 game? It stays saved.", self.leave, yes="Leave")
        elif current in ("f5history", "f5results"):
            target = self.app.nav.back_from(current, "f5table")
            if target == "saved":  # a finished game's results, opened from Saved games
                self.close()
                self.app.f5 = None
                before = self.app.nav.back_from("saved")  # Saved games' own Back still leads where it did
                self.app.show("saved")
                if before is not None:
                    self.app.nav.opened("saved", before)
            elif target == "f5results":
                self.show_results()
            else:
                self.app.sm.current = target

    # ---- history and results ---------------------------------------------------------------------------
    def show_history(self):
        """Every move of the game, the latest first, a round's heading over its moves (public facts only)."""
        current = self.app.sm.current
        self.app.nav.opened("f5history", current)
        self._bring_up_to_date()
        self._fill_history()
        self.app.sm.current = "f5history"

    def _bring_up_to_date(self):
        """The moves made since the last frame told first (never skipped because a screen read them)."""
        if not self.read_only and self.rows:
            self.refresh()

    def _fill_history(self):
        ids = self.app.screen("f5history").ids
        ids.lines.clear_widgets()
        names = self.ref.names()
        for rnd, lines in f5_view.history_rounds(self.moves.moves, names):
            heading = Factory.F5Line(text="Round %d" % rnd, bold=True, color=theme.MUTED)
            ids.lines.add_widget(heading)
            for car, text, news in lines:
                ids.lines.add_widget(Factory.F5HistoryLine(text=text, news=news,
                                                           tone=theme.CAR_RGBA[CAR_NAMES[car]]))
        if not self.moves.moves:
            ids.lines.add_widget(Factory.F5Line(text="No move yet: the car in first position plays first."))
        ids.scroll.scroll_y = 1

    def show_results(self):
        """The places and what decided them (the standings so far while the game goes on)."""
        current = self.app.sm.current
        if current != "f5history":
            self.app.nav.opened("f5results", current)
        self._bring_up_to_date()
        head, rule, rows = f5_view.results(self.ref, self.moves.moves)
        ids = self.app.screen("f5results").ids
        ids.headline.text = head
        ids.explain.text = rule
        ids.places.clear_widgets()
        for r in rows:
            if r["player_place"] is None:
                who = "No player: no place among the players"
            else:
                who = "%s player (%s)%s" % (f5_view.PLACES[r["player_place"] - 1], r["who"],
                                           ": wins" if r["player_place"] == 1 and self.ref.game.over else "")
            ids.places.add_widget(Factory.F5ResultRow(
                place="%d." % r["place"], name=r["name"], tone=theme.CAR_RGBA[r["colour"]],
                ink=theme.CAR_INK[r["colour"]], who=who, why="%s  ·  %s" % (r["why"], r["tally"]),
                winner=r["player_place"] == 1 and self.ref.game.over))
        self.app.sm.current = "f5results"

    def open_results(self, path):
        """A finished game from Saved games: its results (and history), nothing played, no dashboards."""
        try:
            ref = F5Referee.open(path)
        except LogError as e:
            self.app.screen("saved").ids.saved_message.text = str(e)
            return False
        self.ref, self.path, self.read_only = ref, path, True
        self.table = f5_view.F5Table(ref)
        self.moves = f5_view.Moves(ref)
        self.moves.update()
        self.show_results()
        self.app.nav.opened("f5results", "saved")
        return True

    def close(self):
        if self.ref is not None:
            if not self.read_only:
                self.app.bridge.attach(None)
                self.app.pairing.close_dashboards()
            self.ref.close()
            self.ref = None

    # ---- the table -------------------------------------------------------------------------------------
    def tick(self, dt):
        ref = self.ref
        if ref is None or self.read_only:
            return
        self._pair_new_dashboards()
        if self.app.sm.current == "pairing":
            self.app.pairing.refresh()
            return  # the game starts when the players have their dashboards
        # The first frame's dt is the time the table took to open (dashboards starting): it counts for nothing.
        self.since_auto = 0.0 if self.since_auto is None else self.since_auto + dt
        # The tablet plays its next car once the table has read what the last move did.
        if ref.tablet_plays() and self.since_auto >= self.auto_s and not self.announcer.busy():
            self.since_auto = 0.0
            ref.auto_move()
            self.app.bridge.push()
        self.app.show_link_error(self.app.screen("f5table").ids.message)
        self.refresh()
        self._announce(dt)
        self._draw_oleds()

    def _announce(self, dt):
        """The next message up when the one shown has had its time; an overtake's row glows meanwhile."""
        shown = self.announcer.tick(dt)
        if shown is None:
            return
        text, hold, tone, car = shown
        ids = self.app.screen("f5table").ids
        ids.last.text = text
        ids.last.color = theme.WARN if tone == "news" else theme.INK
        ids.last_chip.tone = theme.CAR_RGBA[CAR_NAMES[car]] if car is not None else theme.BG
        # The car the news is about glows while it is up: lit, not animated (every frame of an animation redraws
        # the whole window, dozens of cards).
        for c, row in self.rows.items():
            row.glow = 1.0 if c == car and tone == "news" else 0.0

    def _pair_new_dashboards(self):
        """A player's car without a dashboard takes the first connected Pico that has no car yet (never a
        virtual dashboard: those are given by the pairing screen, to this game's cars only)."""
        ref = self.ref
        bridge = self.app.bridge
        phones = self.app.phones.on_phones() if self.app.phones is not None else set()  # each on its own seat
        free = [dev for dev, status in bridge.dashboards() if status == CONNECTED and ref.seat_of(dev) is None
                and not virtual_mod.is_virtual(dev) and dev not in phones]
        for car in range(CARS):
            if not free:
                return
            phone = self.app.phones is not None and self.app.phones.connected(car)  # its player is on it
            if ref.controller(car) == "waiting" and not phone:
                ref.pair(car, free.pop(0))
                bridge.push()
                self.app.pairing.sync_phones()

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
                row = F5CarRow()
                self.rows[car] = row
                track.add_widget(row)
            track.bind(size=lambda *_: self._place(animate=False))
        names = ref.names()
        new = self.moves.update()
        for move in new:
            news = f5_view.is_news(move)
            self.announcer.push(f5_view.move_text(move, names), self.read_s if news else self.glance_s,
                                "news" if news else "plain", move["car"])
            if move["over"]:
                self.announcer.push(self.table.status(), self.read_s, "news", ref.game.winner())
        if new and self.app.sm.current == "f5history":
            self._fill_history()  # read while the game goes on: the new moves at the top
        old = self.order
        rows = self.table.rows()
        for r in rows:
            row = self.rows[r["car"]]
            row.ids.place.text = "%d." % (r["pos"] + 1)
            row.ids.car.text = r["name"]
            row.ids.car.color = theme.CAR_INK[r["colour"]]
            row.ink = list(theme.CAR_INK[r["colour"]])
            row.swatch = list(theme.CAR_RGBA[r["colour"]])
            row.ids.speed.text = "0" if r["stopped"] else str(r["speed"])
            row.ids.speed_caption.text = "PIT STOP" if r["stopped"] else "SPEED"
            row.ids.speed_caption.color = theme.WARN if r["stopped"] else theme.MUTED
            row.ids.cards.entries = r["column"]
            row.ids.who.text = r["row_who"]
            row.ids.hand.text = str(r["hand"]) if r["hand"] else ""
            row.to_move = r["to_move"]
        ids.status.text = self.table.status()
        mover = [r for r in rows if r["to_move"]] if not ref.game.over else []
        ids.turn.text = mover[0]["name"] if mover else "RACE OVER" if ref.game.over else ""
        ids.turn.rgba = theme.CAR_RGBA[mover[0]["colour"]] if mover else theme.PANEL
        ids.turn.color = theme.CAR_INK[mover[0]["colour"]] if mover else theme.INK
        ids.results.disabled = not ref.game.over
        self._fill_virtuals(ref.game.to_move())
        self.order = list(ref.game.order)
        self._place(animate=old is not None and old != self.order)

    def _fill_virtuals(self, to_move=None):
        """The virtual dashboards put on this screen on purpose: a tab for each, the chosen one's OLED (covered:
        the hand is secret) and five buttons. The car to play's own dashboard is chosen when its turn comes."""
        app = self.app
        on_phones = app.phones.on_phones() if app.phones is not None else set()
        wanted = [(car, dev) for car, dev in sorted(self.ref.pairs.items())
                  if virtual_mod.is_virtual(dev) and dev not in on_phones and app.ports is not None
                  and dev in app.ports.virtual]
        devs = [dev for _car, dev in wanted]
        mine = [dev for car, dev in wanted if car == to_move]
        if mine:
            self.dash_dev = mine[0]
        elif self.dash_dev not in devs:
            self.dash_dev = devs[0] if devs else None
        sig = (tuple(devs), self.dash_dev)
        if sig == self.dash_sig:
            return
        self.dash_sig = sig
        ids = app.screen("f5table").ids
        for dev in [d for d in self.dashes if d not in devs]:
            del self.dashes[dev]
        ids.dash_tabs.clear_widgets()
        ids.virtuals.clear_widgets()
        for car, dev in wanted:
            colour = CAR_NAMES[car]
            chosen = dev == self.dash_dev
            tab = Factory.F5Tab(text=self.ref.names_[car], down_tone=theme.CAR_RGBA[colour],
                                state="down" if chosen else "normal")
            tab.color = theme.CAR_INK[colour] if chosen else theme.INK
            tab.dev = dev
            tab.bind(on_release=lambda w: self.choose_dash(w.dev))
            ids.dash_tabs.add_widget(tab)
            if dev not in self.dashes:
                dash = VirtualDash()
                dash.bind(on_button=lambda _w, name, dev=dev: app.pairing.press(dev, name))
                dash.dev = dev
                dash.oled.hidden = True  # every F5 screen of a dashboard shows its hand, or what is in it
                dash.oled.cover = "Cards hidden\nhold here to look"
                self.dashes[dev] = dash
            if chosen:
                ids.virtuals.add_widget(self.dashes[dev])
                self.dashes[dev].oled.frame = -1  # redrawn from its dashboard now
        self.oleds = {dev: dash.oled for dev, dash in self.dashes.items()}

    def choose_dash(self, dev):
        self.dash_dev = dev
        self._fill_virtuals()

    def _draw_oleds(self):
        dash = self.dashes.get(self.dash_dev)
        d = self.app.ports.virtual.get(self.dash_dev) if dash is not None and self.app.ports is not None else None
        if d is not None:
            dash.oled.show(d.image, d.frame)

    def _place(self, animate):
        """Each car's row at its position's height; an overtake slides the rows that changed place."""
        if self.order is None:
            return
        track = self.app.screen("f5table").ids.track
        least_gap = theme.space(theme.GAP, self.app.scale)
        h = max(1.0, min(theme.space(ROW, self.app.scale), (track.height - (CARS - 1) * least_gap) / CARS))
        gap = max(0.0, (track.height - CARS * h) / CARS)
        for pos, car in enumerate(self.order):
            row = self.rows[car]
            row.width = track.width
            row.height = h
            y = track.height - (pos + 1) * (h + gap)
            Animation.cancel_all(row, "y")
            if animate and row.y != y:
                Animation(y=y, d=SLIDE_S, t="out_quad").start(row)
            else:
                row.y = y
