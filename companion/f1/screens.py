"""Formula 1's screens: the race, the results and the history (their look in f1.kv), and F1Controller.

The app (companion/app.py) owns the shell both games share (the game choice, pairing, saved games, navigation)
and holds an F1Controller, which owns Formula 1's setup form, its open race (referee and view) and fills the
race, results and history screens from the presenters in companion/f1/view.py; the kv rules call it as
app.f1.act(...), app.f1.pick(...) and so on. Formula 5's screens and F5Controller (companion/f5/screens.py) are
built the same way.
"""

import os

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from shared_rules.errors import RuleError

from companion import link_words, storage, theme
from companion import virtual as virtual_mod
from companion.eventlog import LogError
from companion.clock import app_clock
from companion.f1 import turn
from companion.f1 import view as f1_view
from companion.f1.referee import Referee
from companion.f1.track import TrackError
from companion.f1.widgets import MARKERS, CarPanel, MarkerSwatch, SpeedKey
from companion.widgets import DashTab, IconLabel, RaceButton, ToggleRaceButton

LINK_WORDS_EVERY_S = 0.5  # how often the race screen asks each car's link words again

KV = os.path.join(os.path.dirname(__file__), "f1.kv")

HANDOVER_S = 0.5  # after the turn passes, taps wait this long: a double tap must not play the next player's turn
HANDOVER_FRAMES = 20  # ... and as many frames (a third of a second at 60 Hz) have shown the new turn
ACTION_BUTTONS = {"corner": "corner", "block": "block", "pit": "pit", "lap": "lap", "finish": "finish",
                  "end": "end_turn", "undo": "undo"}


def hand_shown(state):
    """True while a dashboard's screen shows its secret hand: its state line's `hand` field (firmware/app.py's
    refresh), never a number of the firmware's own."""
    return bool(state and state.get("hand"))


class RaceScreen(Screen):
    # Compact (the 7-inch display), what the middle of the screen shows (f1.kv): "odds" before the roll, "dice"
    # once thrown, "dash" a dashboard on this tablet (its car's panel tapped, or the turn of a car whose dashboard
    # it is). has_dash: a dashboard is on this tablet.
    face = StringProperty("odds")
    has_dash = BooleanProperty(False)


class ResultsScreen(Screen):
    pass


class HistoryScreen(Screen):
    pass


def add_screens(sm):
    """Formula 1's screens, into the app's ScreenManager (their kv rules loaded first, after the theme's)."""
    if KV not in Builder.files:
        Builder.load_file(KV)
    for cls, name in ((RaceScreen, "race"), (ResultsScreen, "results"), (HistoryScreen, "history")):
        sm.add_widget(cls(name=name))


class F1Controller:
    """Formula 1 in the app: the setup form, the open race (its referee and view) and what its screens show.

    The app holds one from the start (Formula 1 is what the setup screen sets up) and hands it the Clock tick
    while Formula 5 is not chosen; the kv rules call it as app.f1.act(...), app.f1.pick(...) and so on."""

    VIRTUAL_DEV = "virtual-%d"  # a seat's virtual dashboard, by seat number from 1

    def __init__(self, app):
        self.app = app
        self.ref = None  # the open race's referee, its view (companion/f1/view.py) and its log's path
        self.view = None
        self.path = None
        self.form = f1_view.SetupForm().recall()  # the setup screen's fields, as the last race was set up
        self.picker = "speed"
        self.rows_sig = None
        self.car_rows = []  # CarPanel widgets, in turn order
        self.speed_keys = []  # the 17 SpeedKeys, 0..160, made once
        self.finish_keys = []  # the finish picker's keys, 0..8 spaces over the line, made once
        self.tick_news = None  # what the links and the referee had said when a tick last brought the screen up to date
        self.links_said = 0.0  # when each car's link in words was last asked of the transport (_say_links)
        self.oleds = {}  # dev -> the OledView showing it (one: the race screen's dashboard pane)
        self.dash_dev = None  # the virtual dashboard shown on the race screen
        self.dash_sig = None
        self.choices_sig = None  # what the corner and lane buttons were made for
        self.rolling = 0
        self.locked_until = 0.0  # taps on race actions wait until then (the turn has just passed) ...
        self.locked_frames = 0  # ... and until that many frames have been shown
        self.seat_shown = None
        self.tablet_devs = []  # the virtual dashboards on this tablet's screen
        self.dash_asked = False  # compact: the dashboard in the table's place ("panel" tapped, or its car's "turn")

    # ---- setup (companion.kv's setup screen, opened from the game choice) ---------------------------------
    def fill_setup(self):
        ids = self.app.screen("setup").ids
        ids.names.clear_widgets()
        for i in range(self.form.count):
            ti = TextInput(text=self.form.names[i], multiline=False, write_tab=False)
            ti.bind(text=lambda w, v, i=i: self.form.names.__setitem__(i, v))
            ids.names.add_widget(ti)
        ids.count.text = str(self.form.count)
        ids.laps.text = str(self.form.laps)
        if not ids.variants.children:
            for flag, _name, text in f1_view.VARIANTS:
                tb = ToggleRaceButton(text=text, bold=False, shorten=False, max_lines=2,  # words wrap, never cut
                                      font_size=theme.font(theme.SMALL + 2, self.app.scale))
                tb.bind(state=lambda w, v, flag=flag: self.form.toggle(flag, v == "down"))
                ids.variants.add_widget(tb)

    def setup_count(self, d):
        self.form.set_count(self.form.count + d)
        self.fill_setup()

    def setup_track(self):
        self.app.screen("setup").ids.track.text = "Track: %s" % self.form.next_track()

    def setup_laps(self, d):
        self.form.set_laps(self.form.laps + d)
        self.fill_setup()

    def start(self, seed=None):
        if seed is None and os.environ.get("F1_COMPANION_SEED"):
            seed = int(os.environ["F1_COMPANION_SEED"])  # a reproducible game (tests, demonstrations)
        path = storage.new_game_path()
        try:
            ref = self.form.start(path, seed=seed)
        except (RuleError, TrackError, LogError) as e:
            self.app.screen("setup").ids.setup_message.text = str(e)
            return
        self.form.remember()  # the same table, the next time the app opens
        self._open(ref, path)
        self.app.screen("pairing").ids.roll.text = f1_view.seat_roll_text(ref.race)
        self.app.nav.opened("pairing", "setup")
        self.app.pairing.refresh(force=True)
        self.app.sm.current = "pairing"

    def open_file(self, path, says):
        """Open the saved game at `path` (True), or put why it cannot be opened on the label `says` (False)."""
        try:
            ref = Referee.open(path)
        except LogError as e:
            says.text = str(e)
            return False
        self._open(ref, path)
        return True

    def resume(self, path):
        """Continue the race saved at `path`: its virtual dashboards start again, on their saved state."""
        if not self.open_file(path, self.app.screen("games").ids.resume_note):  # the game choice's Continue
            return
        for dev in self.ref.pairs.values():
            if virtual_mod.is_virtual(dev):
                self.app.pairing.start_virtual(dev)
        # Left at the pairing screen, the race never had its Race: the cars without a dashboard get theirs now,
        # where they were placed (a phone by default), as Race would have given them.
        self.app.pairing.give_the_rest()
        self.app.pairing.sync_phones()  # the same addresses on the same port: the phones find their seats again
        self.app.show("race")

    def ask_new_game(self):
        if self.view is not None and not self.view.over():
            self.app.confirm("Start a new race? This one stays saved: continue it from Saved games.",
                             lambda: self.app.new_game("setup"), yes="New race")
        else:
            self.app.new_game("setup")

    def _open(self, ref, path):
        self.app.pairing.close_dashboards()  # an earlier game's virtual dashboards are never this game's
        self.ref, self.path = ref, path
        self.view = f1_view.RaceView(ref, self.app.bridge)
        self.app.bridge.attach(ref)
        self.rows_sig = None
        self.tick_news = None
        self.seat_shown = None
        self.dash_dev = None
        self.picker = "speed"
        self.car_rows = []
        self.choices_sig = None
        if self.app.need_phones() is not None:
            self.app.phones.open_game(storage.dashboards_dir(path))

    def close(self):
        """The open race closes (it stays saved)."""
        if self.ref is not None:
            self.ref.close()
        self.ref = self.view = None

    def pairing_seats(self):
        """Every car, for the pairing screen: [(seat, name, colour name, rgba, ink)]."""
        race = self.ref.race
        return [(seat, race.names[seat], colour, theme.CAR_RGBA[colour], theme.CAR_INK[colour])
                for seat, colour in enumerate(race.colours)]

    def begin(self):
        """From the pairing screen to the race: the cars still without a dashboard get a virtual one."""
        self.app.pairing.give_the_rest()
        self.app.show("race")

    # ---- the race ---------------------------------------------------------------------------------------
    def make_race_controls(self):
        """The widgets that never move: the 17 speed keys."""
        ids = self.app.screen("race").ids
        self._speed_keys(len(turn.SPEEDS))
        self.oleds = {}
        ids.cars.bind(size=lambda *_: self._size_car_panels())

    def resized(self):
        """The window changed size: what Python made (choices, tabs) is made again at the new size."""
        self.choices_sig = self.dash_sig = None
        if getattr(self.app, "sm", None) is not None and self.app.sm.current == "race":
            self.refresh_race(force=True)

    def _speed_keys(self, n):
        """The picker's keys, one per speed the model lists (made once: each speed keeps its place)."""
        if len(self.speed_keys) != n:
            self.speed_keys = [SpeedKey() for _i in range(n)]
            for key in self.speed_keys:
                key.bind(on_release=self._speed_tapped)
        return self.speed_keys

    def tick(self, _dt):
        """The app's Clock, while Formula 1 is played (the link has just been polled)."""
        if self.ref is None:
            return
        if self.app.sm.current == "pairing":
            self.app.pairing.refresh()  # redrawn only when a dashboard or a phone came or went
        elif self.app.sm.current == "race":
            self.app.show_link_error(self.app.screen("race").ids.message)
            # What a tick may bring to the screen comes over the links (a dashboard's event, state, status, hello)
            # or is a decision the referee took; everything else the screen changes refreshes it itself. Looked at
            # 30 times a second, the six cars' rows cost the tablet as much with nothing new.
            news = (self.app.bridge.changed, self.ref.token())
            if news != self.tick_news:
                self.tick_news = news
                self.refresh_race()
            self._say_links()
            self._draw_oleds()

    def _say_links(self):
        """Each car's link in words beside it (companion/link_words.py), when it is not plainly linked: why a car is
        not answering. Asked of the transport LINK_WORDS_EVERY_S at most (the words change once a second at most)."""
        now = app_clock().now()  # the app's one clock: a test steps it
        if now - self.links_said < LINK_WORDS_EVERY_S:
            return
        self.links_said = now
        transport = getattr(self.app, "transport", None)
        if transport is None or not hasattr(transport, "link_info"):
            return
        links = getattr(self.app, "links", None)
        for panel in self.car_rows:
            dev = panel.dev
            said = link_words.of(transport, links, dev, virtual_mod.is_virtual(dev)) if dev else ""
            panel.link_words = link_words.beside_the_car(said)

    def _draw_oleds(self):
        if self.app.ports is None or self.dash_dev is None:
            return
        d = getattr(self.app.ports, "virtual", {}).get(self.dash_dev)
        oled = self.app.screen("race").ids.dash.oled
        if d is None:
            return
        with d.lock:
            if getattr(d, "state_frame", d.frame) != d.frame:
                return  # a frame whose state line has not come yet: it might be the hand, not yet known hidden
            hidden = hand_shown(d.state)
            image, frame = bytes(d.image), d.frame
        oled.hidden = hidden
        oled.show(image, frame)

    def ready(self):
        """True when a tap on the race screen is taken: no dice in the air, the turn not just passed."""
        return not self.rolling and not self._handing_over()

    def _handing_over(self):
        # Both: a stalled tablet has not shown the new turn for HANDOVER_S just because that much time passed.
        return self.app.clock.now() < self.locked_until or Clock.frames < self.locked_frames

    def refresh_race(self, force=False):
        """Bring the race screen up to date, touching only what changed (a frame stays short). While the dice
        tumble it holds what it showed when they were thrown: the referee already has the throw, and the car's
        card, the odds and the status would tell it before the dice land (_rolled shows it then)."""
        if self.view is None or self.rolling:
            return
        v = self.view
        rows = v.rows()
        ids = self.app.screen("race").ids
        if len(self.car_rows) != len(rows):  # a new game (_open empties the list) or other cars
            ids.cars.clear_widgets()
            self.car_rows = [CarPanel(size_hint_y=None) for _r in rows]
            for panel in self.car_rows:
                panel.bind(on_touch_down=self._panel_touched)
                ids.cars.add_widget(panel)
            ids.cars.add_widget(Widget())  # what the panels leave, at the bottom
            self._size_car_panels()
        for panel, r in zip(self.car_rows, rows, strict=True):
            panel.update(r)
        seat = v.active()
        if seat != self.seat_shown:
            if self.seat_shown is not None:
                self.locked_until = self.app.clock.now() + HANDOVER_S
                self.locked_frames = Clock.frames + HANDOVER_FRAMES
                self.picker = "speed"
            self.seat_shown = seat
            self.dash_dev = None  # the dashboard pane follows the turn
            self.dash_asked = "turn"  # compact: shown if the car to play has its dashboard here (_show_face)
        # The turn's token moves with every decision (and undo): the actions and the picker change with it only.
        sig = (self.picker, seat, v.corner, v.lane, v.band, v.special, v.superb_question(), v.token())
        if force or sig != self.rows_sig:
            self.rows_sig = sig
            acts = v.actions()
            self._fill_turn(rows, seat)
            self._fill_actions(acts)
            self._fill_pickers(acts)
            self._fill_choices()
            self._fill_odds()
            self._fill_table()
        self._fill_dashboards(rows, force)
        self._show_face()

    def _show_face(self):
        """Compact: the odds before the roll, the dice once thrown, or the dashboard asked for (f1.kv)."""
        screen = self.app.screen("race")
        screen.has_dash = bool(self.tablet_devs)
        face = "dice" if self.rolling or any(screen.ids.dice.faces) else "odds"
        if self.dash_asked and self.dash_dev in self.tablet_devs:
            mine = self.view is not None and self.dash_dev in [r["dev"] for r in self.view.rows()
                                                               if r["seat"] == self.view.active()]
            if self.dash_asked != "turn" or mine:
                face = "dash"
        screen.face = face

    def _panel_touched(self, panel, touch):
        """Compact: a car's panel tapped shows its dashboard (when it is on this tablet) in the table's place; tapped
        again, the table."""
        if not (self.app.compact and panel.collide_point(*touch.pos) and panel.dev in self.tablet_devs):
            return False
        screen = self.app.screen("race")
        if screen.face == "dash" and self.dash_dev == panel.dev:
            self.dash_asked = False
        else:
            self.dash_asked, self.dash_dev = "panel", panel.dev
        self._fill_dashboards(self.view.rows(), True)
        self._show_face()
        return True

    def _fill_table(self):
        """The dice, the roll in words and the pit card of this turn (a new turn starts with a clear table)."""
        if self.rolling or self.view is None:
            return
        ids = self.app.screen("race").ids
        v = self.view
        dice = v.last_dice()
        ids.dice.faces = list(dice) if len(dice) == 2 else [0, 0]
        pit = v.pit_card_text()
        ids.chart_row.text = "\n".join(t for t in (v.last_roll_text(), "PIT CARD: %s" % pit if pit else "") if t)

    def _size_car_panels(self):
        cars = self.app.screen("race").ids.cars
        n = max(1, len(self.car_rows))
        h = min((cars.height - cars.spacing * n) / n, theme.touch(self.app.scale) * 2.1)
        for panel in self.car_rows:
            panel.height = max(h, 1)

    def _fill_turn(self, rows, seat):
        ids = self.app.screen("race").ids
        v = self.view
        race = self.ref.race
        ids.round.text = ("to play  ·  round %d  ·  %d-lap race" % (race.round, race.laps)) if not v.over() else (
            "%d rounds  ·  %d-lap race" % (v.rounds(), race.laps))
        ids.status.text = v.status_line()
        if seat is None:
            ids.turn.text = "RACE OVER"
            ids.turn.rgba = theme.KERB
            ids.turn.color = theme.INK
        else:
            r = rows[seat]
            ids.turn.text = r["name"]  # the name alone, as large as it fits (the line beside says "to play")
            ids.turn.rgba = r["rgba"]
            ids.turn.color = r["ink"]

    def _fill_actions(self, acts):
        ids = self.app.screen("race").ids
        for wid, name in ACTION_BUTTONS.items():
            a = acts.get(name)
            b = getattr(ids, wid)
            b.token = a.token if a is not None else None
            b.reason = (a.reason or "") if a is not None else ""
            b.live = a is not None and a.live
        if self.picker in ("block", "finish"):
            getattr(ids, self.picker).live = True  # its picker is open: tapping it again closes it

    def _fill_pickers(self, acts):
        ids = self.app.screen("race").ids
        v = self.view
        car = v.active_car()
        grid = ids.speeds
        question = v.superb_question()
        if question is not None:
            ids.picker_title.text = "%s plays Superb Driving. Is the track clear?" % question
            grid.clear_widgets()
            grid.cols = 2
            for text, yes in (("Clear", 1), ("Not clear", 0)):
                b = RaceButton(text=text, tone=theme.GO if yes else theme.KERB_DARK)
                b.bind(on_release=lambda w, yes=yes: self.act("superb", yes))
                grid.add_widget(b)
            return
        if car is not None and self.picker == "finish":
            ids.picker_title.text = "%s crosses the finishing line: spaces over it" % self.ref.race.names[v.active()]
            if not self.finish_keys:  # made once: nine buttons made at every car's finish cost more than its frame
                for n in range(0, 9):
                    b = RaceButton(text=str(n))
                    b.bind(on_release=lambda w, n=n: self.act("finish", n, token=w.token))
                    self.finish_keys.append(b)
            for b in self.finish_keys:
                b.token = acts["finish"].token
            if self.finish_keys[0].parent is not grid:
                grid.clear_widgets()
                grid.cols = 9
                for b in self.finish_keys:
                    grid.add_widget(b)
            return
        picker = "speed"
        if car is not None and self.picker == "block":
            picker = "block"
            ids.picker_title.text = "Blocked: the blocking car's speed (the rules may let %s raise to it)" % (
                self.ref.race.names[v.active()])
            options, token = v.block_options(), acts["block"].token
        elif acts["hold"].live and not acts["speed"].live:
            picker = "hold"
            ids.picker_title.text = "Blocked where the car stands: wait, dialling up to 60"
            options, token = v.hold_options(), acts["hold"].token
        else:
            who = self.ref.race.names[v.active()] if car is not None else ""
            # One title a turn (a tap that re-words it costs a text drawn again): the speed is on the car's panel.
            ids.picker_title.text = ("%s's speed, and what each costs" % who) if car is not None else "The race is over"
            options, token = v.speed_options(), acts["speed"].token
        keys = self._speed_keys(len(options))
        if not keys or keys[0].parent is not grid:
            grid.clear_widgets()
            grid.cols = len(keys) if len(keys) <= 9 else (len(keys) + 1) // 2
            for key in keys:
                grid.add_widget(key)
        if not any(opt.live for opt in options):
            # The speed is set (or the race over): every key dims and keeps its face (drawing nine keys' texts
            # again on every tap would cost more than a frame); a tap on one says why.
            for key, opt in zip(keys, options, strict=True):
                key.live = False
                key.reason = opt.reason or ""
                key.token = token
                key.picker = picker
            return
        for key, opt in zip(keys, options, strict=True):
            key.value = opt.v
            key.cost = opt.cost or ""
            key.spins = bool(opt.spins)
            key.live = opt.live
            key.reason = opt.reason or ""
            key.token = token
            key.confirm = bool(opt.confirm)
            key.picker = picker
            key.note = getattr(opt, "note", "") or ""

    def explain(self, button):
        """A tap on an action that is off: say why, change nothing."""
        if self.view is not None and button.reason:
            self.app.screen("race").ids.message.text = button.reason
        return None

    def _speed_tapped(self, key):
        if not key.live:
            return self.explain(key)
        what = getattr(key, "picker", "speed")
        if what == "speed" and getattr(key, "confirm", False):
            if not self.ready():
                return None
            self.app.confirm("%d mph: the car spins (%s). Set it?" % (key.value, key.cost or "SPIN"),
                         lambda: self.act("speed", key.value, token=key.token), yes="Spin at %d" % key.value)
            return None
        return self.act(what, key.value, token=key.token)

    def _fill_choices(self):
        """The corner and lane choices: made again only when what they offer changes (a tap stays short)."""
        ids = self.app.screen("race").ids
        v = self.view
        car = v.active_car()
        names = tuple(v.corner_names())
        lanes = (v.corner, v.bands(), tuple(v.lanes()), bool(car is not None and car.special))
        sig = (names, lanes)
        if sig != self.choices_sig:
            if self.choices_sig is None or self.choices_sig[0] != names:
                ids.corners.clear_widgets()
                # the band's flag, and the word where there is room (compact: every corner a finger wide)
                compact = self.app.compact
                caption = IconLabel(text="" if compact else "CORNER", icon="corner", size_hint_x=None,
                                    font_name=theme.DISPLAY_FONT, font_size=theme.font(theme.SMALL + 2, self.app.scale),
                                    color=theme.MUTED)
                caption.texture_update()
                room = caption.texture_size[0] + caption.icon_texture.width + theme.space(8, self.app.scale)
                caption.width = room if compact else max(theme.space(110, self.app.scale), room)
                ids.corners.add_widget(caption)
                # every corner a finger wide at every size (the lanes share what is left)
                ids.corners.width = caption.width + len(names) * (theme.touch(self.app.scale) + ids.corners.spacing)
                for i, name in enumerate(names):
                    b = ToggleRaceButton(text=name.replace("Corner ", ""), group="corner", allow_no_selection=False)
                    b.corner_name = name
                    b.corner = i
                    b.bind(on_release=lambda w: self.pick(corner=w.corner))
                    ids.corners.add_widget(b)
            ids.lanes.clear_widgets()
            if v.bands() > 1:
                for band in range(v.bands()):
                    b = ToggleRaceButton(text="band %d" % (band + 1), group="band", allow_no_selection=False)
                    b.band = band
                    b.bind(on_release=lambda w: self.pick(band=w.band))
                    ids.lanes.add_widget(b)
            for lane, safety in enumerate(v.lanes()):
                words = ("L%d %d" if self.app.compact else "lane %d: %d") % (lane + 1, safety)
                b = ToggleRaceButton(text=words, group="lane", allow_no_selection=False,
                                     font_size=theme.font(theme.BODY + 2, self.app.scale))
                b.lane = lane
                b.bind(on_release=lambda w: self.pick(lane=w.lane))
                ids.lanes.add_widget(b)
            if car is not None and car.special:
                b = ToggleRaceButton(text="special tyres", font_size=theme.font(theme.SMALL, self.app.scale))
                b.special = True
                b.bind(on_release=lambda w: self.toggle_special(w.state == "down"))
                ids.lanes.add_widget(b)
            self.choices_sig = sig
        for b in ids.corners.children:
            if hasattr(b, "corner"):
                b.state = "down" if b.corner == v.corner else "normal"
        for b in ids.lanes.children:
            if hasattr(b, "band"):
                b.state = "down" if b.band == v.band else "normal"
            elif hasattr(b, "lane"):
                b.state = "down" if b.lane == v.lane else "normal"
            elif hasattr(b, "special"):
                b.state = "down" if v.special else "normal"

    def _fill_odds(self):
        ids = self.app.screen("race").ids
        ids.odds.text = self.view.odds_text(compact=self.app.compact) if self.view.active() is not None else ""

    def _fill_dashboards(self, rows, force):
        """The dashboard pane: a tab for every car with a virtual dashboard, the chosen one's OLED and buttons."""
        ids = self.app.screen("race").ids
        virtual = getattr(self.app.ports, "virtual", {}) if self.app.ports is not None else {}
        seat = self.view.active()
        on_phones = self.app.phones.on_phones() if self.app.phones is not None else set()  # private: never drawn here
        wanted = [r for r in rows if r["dev"] and r["dev"] in virtual and r["dev"] not in on_phones]
        devs = [r["dev"] for r in wanted]
        if self.dash_dev not in devs:
            mine = [r["dev"] for r in wanted if r["seat"] == seat]
            self.dash_dev = (mine or devs or [None])[0]
        sig = (tuple(devs), self.dash_dev)
        if sig == self.dash_sig and not force:
            return
        self.dash_sig = sig
        ids.dash_tabs.clear_widgets()
        for r in wanted:
            # The chosen tab is lit, not painted in its car's colour: a block of yellow mid-screen on every turn
            # competed with the one sign of whose turn it is (the header and the active car's panel).
            # Its car's colour as a strip at its foot (theme.kv's DashTab): six shortened names told apart.
            tab = DashTab(text=r["name"], group="dashboard", allow_no_selection=False, tone=theme.PANEL,
                          down_tone=theme.PANEL_HI, font_size=theme.read(theme.BODY, self.app.scale),
                          state="down" if r["dev"] == self.dash_dev else "normal", car_rgba=r["rgba"])
            tab.color = theme.INK if tab.state == "down" else theme.MUTED
            tab.shorten_from = "center"  # six tabs of shortened names still told apart
            tab.dev = r["dev"]
            tab.bind(on_release=lambda w: self.choose_dash(w.dev))
            ids.dash_tabs.add_widget(tab)
        self.tablet_devs = devs
        self.app.screen("race").has_dash = bool(devs)
        oled = ids.dash.oled
        oled.frame = -1  # redraw from the newly chosen dashboard
        oled.dev = self.dash_dev
        self.oleds = {self.dash_dev: oled} if self.dash_dev else {}
        self._draw_oleds()

    def choose_dash(self, dev):
        self.dash_dev = dev
        self._fill_dashboards(self.view.rows(), True)

    def toggle_special(self, on):
        self.view.special = 1 if on else 0
        self.refresh_race(force=True)

    def pick(self, corner=None, lane=None, band=None):
        self.dash_asked = False  # compact: a corner or a lane chosen: its odds in view
        self.view.pick(corner, lane, band)
        self.refresh_race(force=True)

    def act(self, what, arg=None, token=None):
        """Every action of the race screen lands here, with the token its button was drawn with."""
        if self.view is None:
            return None
        v = self.view
        ids = self.app.screen("race").ids
        if self.rolling:
            ids.message.text = "The dice are rolling"
            return None
        if self._handing_over():
            return None  # the turn has just passed: this tap was meant for the last screen
        ev = None
        if what == "speed":
            ev = v.set_speed(arg, token=token)
        elif what == "hold":
            ev = v.hold(arg, token=token)
        elif what == "superb":
            ev = v.answer_superb(arg)
        elif what == "corner":
            bridge = self.app.bridge
            bridge.hold_commands()  # the dashboards learn the throw when the table's dice have landed (_rolled)
            ev = v.roll_corner(token=token)
            if ev is None:
                bridge.release_commands()
            else:
                self.rolling = 1
                self.dash_asked = False  # compact: the dice in view
                ids.chart_row.text = ""
                ids.dice.roll(ev["dice"], self._rolled)  # the dice tumble; the taps wait for them
        elif what in ("block", "finish"):
            if arg is None:  # the button opens its picker, or closes it again
                self.picker = "speed" if self.picker == what else what
            else:
                ev = (v.block if what == "block" else v.finish)(arg, token=token)
                self.picker = "speed"
        elif what == "pit":
            ev = v.pit(token=token)
        elif what == "lap":
            ev = v.lap(0, token=token)
        elif what == "end":
            ev = v.end_turn(token=token)
            self.picker = "speed"
        elif what == "undo":
            ev = self._undo(token)
        if not self.rolling:
            ids.message.text = self._said(v)
        self.refresh_race(force=True)
        if ev is not None and what in ("end", "finish", "lap") and v.over():
            self.app.show("results")  # the last turn of the final round: the order and the charts
        return ev

    def _said(self, v):
        return v.message

    # ---- undo: a double tap undoes once -----------------------------------------------------------------
    # An undo changes the screen under the finger: the Undo button at once holds the next step's token, so the
    # second tap of a double tap would undo a second move. For HANDOVER_S (and HANDOVER_FRAMES) after an undo,
    # an undo tap is sent with the token of the screen the first tap was on, which the referee refuses as
    # "already done". (A deliberate second undo, after a look at the screen, comes later than that; and once
    # anything else is done, the next undo is no echo.)
    _undone = (None, None, 0.0, 0)  # (the token the last undo was sent with, the token after it, until, frame)

    def _undo(self, token):
        last, after, until, frames = self._undone
        echo = last is not None and after == self.ref.token() and (
            self.app.clock.now() < until or Clock.frames < frames)
        if echo:
            token = last
        said = self.view.message
        ev = self.view.undo(token=token)
        if ev is None and echo:
            self.view.message = said  # the table reads what the first tap undid, not the refusal of its echo
        elif ev is not None:
            self._undone = (token, self.ref.token(), self.app.clock.now() + HANDOVER_S, Clock.frames + HANDOVER_FRAMES)
        return ev

    def ask_undo_last(self, button):
        """Results' "Undo the last move", once the race is over: asks, naming the move, then takes it back and
        the race screen comes back with the race in play (Undo there takes back more, one move at a time)."""
        ids = self.app.screen("results").ids
        if self.view is None or not button.live:
            ids.results_message.text = button.reason
            return None
        stack = self.ref.stack
        move = f1_view.history_text(self.ref.race.names, stack[-1]) if stack else ""
        token = button.token
        return self.app.confirm("Undo the last move (%s)? The race goes back in play." % move,
                            lambda: self.undo_last(token), yes="Undo")

    def undo_last(self, token):
        """Take back the move that ended the race (the token is the Results screen's) and go back to the race."""
        if self.view is None:
            return None
        ev = self._undo(token)
        if ev is None:  # a double tap, or a Results screen of a race that went on since: nothing changed
            self.fill_results()
            self.app.screen("results").ids.results_message.text = self.view.message
            return None
        # Opened from Saved games, its virtual dashboards were not running: they come back with the race.
        for dev in self.ref.pairs.values():
            if virtual_mod.is_virtual(dev):
                self.app.pairing.start_virtual(dev)
        self.app.pairing.sync_phones()
        # The screen changes under the finger: a second tap on the question's Yes must not land on the race.
        self.locked_until = self.app.clock.now() + HANDOVER_S
        self.locked_frames = Clock.frames + HANDOVER_FRAMES
        self.app.nav.forget("results")
        self.app.show("race")
        self.app.screen("race").ids.message.text = self.view.message
        return ev

    def _rolled(self):
        """The dice have landed: the throw shows everywhere at once, the table and the dashboards."""
        ids = self.app.screen("race").ids
        self.rolling = 0
        if self.app.bridge is not None:
            self.app.bridge.release_commands()
        self.refresh_race(force=True)
        self._fill_table()
        self._show_face()
        ids.message.text = self._said(self.view) if self.view is not None else ""

    def fill_results(self):
        ids = self.app.screen("results").ids
        ids.order.clear_widgets()
        ids.legend.clear_widgets()
        if self.view is None:
            return
        over = self.view.over()
        ids.heading.text = "Results" if over else "Standings so far"
        undo = self.view.actions()["undo"]
        ids.undo_last.token = undo.token
        ids.undo_last.live = over and undo.live
        ids.undo_last.reason = undo.reason
        ids.undo_last.opacity = 1 if over else 0  # during the race, Undo is on the race screen
        ids.undo_last.disabled = not over
        ids.results_message.text = ""
        ids.back.text = "Back to the race" if self.app.nav.back_from("results", "race") == "race" else "Back"
        ties = []
        h = theme.touch(self.app.scale) * 1.3
        for row in self.view.results():
            place, name, colour, text = row[:4]
            line = BoxLayout(size_hint_y=None, height=h, spacing=theme.space(8, self.app.scale))
            line.add_widget(Label(text="%d" % place, font_name=theme.FIGURE_FONT,
                                  font_size=theme.figure(theme.HERO - 6, self.app.scale),
                                  size_hint_x=None, width=theme.space(56, self.app.scale)))
            box = BoxLayout(orientation="vertical")
            # the car's colour in the theme's rings, its name in the display face (theme.kv's Swatch)
            swatch = Factory.Swatch(text=name, color=theme.CAR_INK[colour], rgba=theme.CAR_RGBA[colour],
                                    size_hint_y=None, height=h * 0.55, shorten_from="center",
                                    font_size=theme.font(theme.LARGE + 2, self.app.scale))
            box.add_widget(swatch)
            # every word of how it ended ("finished, 3 spaces over the line"): the row grows to hold them
            detail = Label(text=text, font_size=theme.font(theme.SMALL, self.app.scale), color=theme.MUTED,
                           size_hint_y=None, halign="left", valign="top")
            detail.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                        texture_size=lambda w, v: setattr(w, "height", v[1]))
            detail.bind(height=lambda w, v, line=line, swatch=swatch: setattr(
                line, "height", max(h, swatch.height + v + theme.space(4, self.app.scale))))
            box.add_widget(detail)
            line.add_widget(box)
            ids.order.add_widget(line)
            if len(row) > 4 and row[4]:
                ties.append(str(row[4]))
        ids.ties.text = "\n".join(ties + list(self.view.tie_notes()))
        series = f1_view.chart_series(self.ref)
        for i, (name, colour, _pts) in enumerate(series):
            entry = BoxLayout(spacing=theme.space(4, self.app.scale))
            entry.add_widget(MarkerSwatch(rgba=_line_colour(colour), shape=MARKERS[i % len(MARKERS)],
                                          size_hint_x=None, width=theme.space(34, self.app.scale)))
            label = Label(text=name, font_name=theme.DISPLAY_FONT, font_size=theme.font(theme.BODY, self.app.scale),
                          shorten=True, halign="left")  # a name: in the display face, as on the race screen
            label.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
            entry.add_widget(label)
            ids.legend.add_widget(entry)
        for key, idx in (("speed_chart", 1), ("tyre_chart", 2), ("brake_chart", 3)):
            ids[key].series = [(_line_colour(colour), MARKERS[i % len(MARKERS)], [(p[0], p[idx]) for p in pts])
                               for i, (_n, colour, pts) in enumerate(series)]

    def fill_history(self):
        ids = self.app.screen("history").ids
        # A RecycleView: a 10-lap race for six has thousands of lines, more than one texture can hold.
        ids.lines.data = [{"text": t} for t in self.view.history_lines()] if self.view is not None else []
        ids.lines.scroll_y = 0  # the latest at the bottom, in view


def _line_colour(colour):
    # the black car's line would vanish on the dark chart: it is drawn white (its marker and legend say whose)
    return theme.CAR_RGBA["white" if colour == "black" else colour]
