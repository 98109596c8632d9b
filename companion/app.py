"""The Kivy app: binds the screens in companion.kv to the presenters in companion.ui_logic.

Thin on purpose: rules and bookkeeping are in companion.referee, what the screens show is in
companion.ui_logic, the link runs on the transport's threads and reaches us through LinkBridge.poll()
on the Clock. Nothing here blocks: the game log appends are single small SQLite transactions.
"""

import os
import threading
import time

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton

from shared_rules.errors import RuleError

from companion import storage, ui_logic
from companion import virtual as virtual_mod
from companion.link_bridge import LinkBridge
from companion.referee.eventlog import LogError
from companion.referee.referee import Referee
from companion.referee.track import TrackError
from companion.transport import Transport, on_android
from companion.widgets import Dice, DieFace, OledView, WearChart  # noqa: F401  (used by companion.kv)

POLL_S = 1 / 30.0
LINK_COLOURS = {"connected": (0.3, 1, 0.4, 1), "silent": (1, 0.8, 0.2, 1), "lost": (1, 0.3, 0.3, 1),
                "none": (0.6, 0.6, 0.6, 1)}


class SetupScreen(Screen):
    pass


class PairingScreen(Screen):
    pass


class RaceScreen(Screen):
    pass


class ResultsScreen(Screen):
    pass


class HistoryScreen(Screen):
    pass


def _swatch(text, colour, **kw):
    lbl = Label(text=text, bold=True, font_size=kw.pop("font_size", sp(24)), color=ui_logic.INK[colour], **kw)
    from kivy.graphics import Color, Rectangle

    with lbl.canvas.before:
        Color(*ui_logic.RGBA[colour])
        rect = Rectangle(pos=lbl.pos, size=lbl.size)
    lbl.bind(pos=lambda w, v: setattr(rect, "pos", v), size=lambda w, v: setattr(rect, "size", v))
    return lbl


class CarRow(BoxLayout):
    """One car on the race screen: colour and name (and status), speed, wear, laps, link. Updated in place."""

    def __init__(self, r, **kw):
        super().__init__(spacing=dp(6), padding=dp(4), **kw)
        from kivy.graphics import Color, Rectangle

        with self.canvas.before:
            self.bg_colour = Color(0.35, 0.35, 0.45, 0)
            bg = Rectangle()
        self.bind(pos=lambda w, v: setattr(bg, "pos", v), size=lambda w, v: setattr(bg, "size", v))
        self.name_label = _swatch("", r["colour"], size_hint_x=0.25, halign="center")
        self.speed = Label(markup=True, font_size=sp(18), size_hint_x=0.16, halign="center")
        self.wear = Label(font_size=sp(20), size_hint_x=0.2, halign="center")
        self.laps = Label(font_size=sp(19), size_hint_x=0.22, halign="center")
        self.link = Label(markup=True, font_size=sp(17), size_hint_x=0.16, halign="center")
        for w in (self.name_label, self.speed, self.wear, self.laps, self.link):
            self.add_widget(w)
        self.shown = None

    def update(self, r):
        if r == self.shown:
            return
        self.shown = r
        self.bg_colour.a = 1 if r["active"] else 0
        self.name_label.text = ("> " if r["active"] else "") + r["name"] + ("\n" + r["status"] if r["status"] else "")
        self.name_label.font_size = sp(20) if r["status"] else sp(24)
        self.speed.text = "[b][size=%d]%d[/size][/b]\nmph" % (sp(34), r["speed"])
        self.wear.text = "tyre %d/8\nbrake %d/5" % (r["tyre"], r["brake"])
        self.laps.text = "laps %d" % r["laps_left"] + ("\nmissed %d" % r["missed"] if r["missed"] else "")
        self.link.text = "%s\n[size=%d]%s[/size]" % (r["link"], sp(13), r["dev"] or "")
        self.link.color = LINK_COLOURS.get(r["link"], (1, 1, 1, 1))


class CompanionApp(App):
    title = "Formula 1 companion"

    def __init__(self, transport=None, ports=None, **kw):
        super().__init__(**kw)
        self.form = ui_logic.SetupForm()
        self.ref = None
        self.view = None
        self.ports = ports
        self.transport = transport
        self.bridge = None
        self.path = None
        self.chosen_dev = None
        self.picker = "speed"
        self.rows_sig = None
        self.car_rows = []  # CarRow widgets, in turn order
        self.found_sig = None
        self.oleds = {}  # dev -> OledView on the race screen
        self.rolling = 0
        self.first_frame = None  # set when the setup screen has been drawn once (cold start figure)
        self.f5 = None  # while Formula 5 is chosen: its screens' controller (companion/f5_app.py)

    # ---- life cycle ---------------------------------------------------------------------------------
    def build(self):
        Window.clearcolor = (0.1, 0.1, 0.12, 1)
        # Kivy has already loaded companion.kv (the App's name, from this folder) before build().
        sm = ScreenManager(transition=NoTransition())
        for cls, name in ((SetupScreen, "setup"), (PairingScreen, "pairing"), (RaceScreen, "race"),
                          (ResultsScreen, "results"), (HistoryScreen, "history")):
            sm.add_widget(cls(name=name))
        from companion import f5_app

        f5_app.add_screens(sm)
        self.sm = sm
        self._fill_setup()
        return sm

    def on_start(self):
        if self.ports is None:
            self.ports = virtual_mod.VirtualPorts(real=not on_android()) if virtual_mod.available() else None
        if self.transport is None:
            if self.ports is not None:
                self.transport = Transport(self.ports)
            else:
                from companion.transport import open_transport

                self.transport = open_transport()
            self.transport.start()
        self.bridge = LinkBridge(self.transport)
        Clock.schedule_interval(self.tick, POLL_S)
        Window.bind(on_flip=self._drawn)
        threading.Thread(target=self._look_for_saved_game, daemon=True).start()

    def _drawn(self, *_):
        self.first_frame = time.monotonic()  # the first frame of the setup screen is on the screen
        Window.unbind(on_flip=self._drawn)

    def on_stop(self):
        if self.f5 is not None:
            self.f5.close()
        if self.transport is not None:
            self.transport.stop()
        if self.ports is not None and hasattr(self.ports, "stop"):
            self.ports.stop()
        if self.ref is not None:
            self.ref.close()

    def screen(self, name):
        return self.sm.get_screen(name)

    def show(self, name):
        if name == "history":
            self._fill_history()
        elif name == "results":
            self._fill_results()
        elif name == "race":
            self.refresh_race(force=True)
        elif name == "pairing":
            self.refresh_pairing(force=True)
        self.sm.current = name

    # ---- setup -----------------------------------------------------------------------------------------
    def _look_for_saved_game(self):
        found = storage.game_in_progress()  # SQLite reads: off the UI thread
        Clock.schedule_once(lambda _dt: self._saved_game(found), 0)

    def _saved_game(self, found):
        ids = self.screen("setup").ids
        if found is None:
            return
        path, problem = found
        if problem:
            ids.resume_note.text = "The last game cannot be resumed: %s" % problem
            return
        self.saved_path = path
        ids.resume.disabled = False
        ids.resume_note.text = os.path.basename(path)

    def _fill_setup(self):
        ids = self.screen("setup").ids
        ids.names.clear_widgets()
        for i in range(self.form.count):
            ti = TextInput(text=self.form.names[i], multiline=False, font_size=sp(24), write_tab=False)
            ti.bind(text=lambda w, v, i=i: self.form.names.__setitem__(i, v))
            ids.names.add_widget(ti)
        ids.count.text = str(self.form.count)
        ids.laps.text = str(self.form.laps)
        if not ids.variants.children:
            for flag, name, text in ui_logic.VARIANTS:
                tb = ToggleButton(text="%s\n%s" % (name, text), font_size=sp(17), halign="center")
                tb.bind(state=lambda w, v, flag=flag: self.form.toggle(flag, v == "down"))
                ids.variants.add_widget(tb)

    def f5_open(self):
        """The game choice: Formula 5 has screens of its own (companion/f5_app.py)."""
        from companion.f5_app import F5Controller

        self.f5 = F5Controller(self)
        self.f5.open_setup()

    def setup_count(self, d):
        self.form.set_count(self.form.count + d)
        self._fill_setup()

    def setup_track(self):
        self.screen("setup").ids.track.text = "Track: %s" % self.form.next_track()

    def setup_laps(self, d):
        self.form.set_laps(self.form.laps + d)
        self._fill_setup()

    def start_game(self, seed=None):
        if seed is None and os.environ.get("F1_COMPANION_SEED"):
            seed = int(os.environ["F1_COMPANION_SEED"])  # a reproducible game (tests, demonstrations)
        path = storage.new_game_path()
        try:
            ref = self.form.start(path, seed=seed)
        except (RuleError, TrackError, LogError) as e:
            self.screen("setup").ids.setup_message.text = str(e)
            return
        self._open(ref, path)
        self.screen("pairing").ids.roll.text = ui_logic.seat_roll_text(ref.race)
        self.refresh_pairing(force=True)
        self.sm.current = "pairing"

    def resume_game(self):
        try:
            ref = Referee.open(self.saved_path)
        except LogError as e:
            self.screen("setup").ids.resume_note.text = str(e)
            return
        self._open(ref, self.saved_path)
        for dev in ref.pairs.values():
            if dev.startswith("virtual-"):
                self._virtual(dev)
        self.show("race")

    def new_game(self):
        if self.ref is not None:
            self.ref.close()
        self.ref = self.view = None
        self.bridge.attach(None)
        self.sm.current = "setup"

    def _open(self, ref, path):
        self.ref, self.path = ref, path
        self.view = ui_logic.RaceView(ref, self.bridge)
        self.bridge.attach(ref)
        self.rows_sig = None

    # ---- pairing ---------------------------------------------------------------------------------------
    def _virtual(self, dev):
        if self.ports is None or not hasattr(self.ports, "add"):
            return None
        return self.ports.add(storage.dashboards_dir(self.path), dev)

    def refresh_pairing(self, force=False):
        ids = self.screen("pairing").ids
        found = self.bridge.dashboards()
        sig = (tuple(found), tuple(sorted(self.ref.pairs.items())), self.chosen_dev)
        if sig == self.found_sig and not force:
            return
        self.found_sig = sig
        ids.found.clear_widgets()
        for dev, status in found:
            seat = self.ref.seat_of(dev)
            label = "%s  (%s)%s" % (dev, status, "  -> %s" % self.ref.race.names[seat] if seat is not None else "")
            b = ToggleButton(text=label, font_size=sp(22), size_hint_y=None, height=dp(64),
                             state="down" if dev == self.chosen_dev else "normal", group="dash")
            b.bind(on_release=lambda w, dev=dev: self.choose_dashboard(dev))
            ids.found.add_widget(b)
        if not found:
            ids.found.add_widget(Label(text="None plugged in yet: plug one in, or use virtual ones.",
                                       size_hint_y=None, height=dp(64)))
        ids.seats.clear_widgets()
        race = self.ref.race
        for seat, name in enumerate(race.names):
            row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(8))
            colour = race.colours[seat]
            give = Button(text="%s  %s" % (colour.upper(), name), font_size=sp(24), bold=True,
                          background_normal="", background_color=ui_logic.RGBA[colour], color=ui_logic.INK[colour])
            give.bind(on_release=lambda w, seat=seat: self.give(seat))
            row.add_widget(give)
            row.add_widget(Label(text=self.ref.pairs.get(seat) or "no dashboard", size_hint_x=0.6))
            v = Button(text="Virtual", font_size=sp(22), size_hint_x=0.4)
            v.bind(on_release=lambda w, seat=seat: self.give_virtual(seat))
            row.add_widget(v)
            row.seat_button, row.virtual_button = give, v
            ids.seats.add_widget(row)

    def choose_dashboard(self, dev):
        self.chosen_dev = None if self.chosen_dev == dev else dev
        self.refresh_pairing(force=True)

    def give(self, seat):
        msg = self.screen("pairing").ids.pair_message
        if self.chosen_dev is None:
            msg.text = "Tap a dashboard first, then the car it belongs to."
            return
        self.ref.pair(seat, self.chosen_dev)
        info = self.bridge.seen.get(self.chosen_dev) or {}
        if info.get("snapshot") is not None:
            self.ref.reconcile(seat, info["snapshot"])
        self.bridge.push()
        msg.text = "%s now drives with dashboard %s" % (self.ref.race.names[seat], self.chosen_dev)
        self.chosen_dev = None
        self.refresh_pairing(force=True)

    def give_virtual(self, seat):
        dev = "virtual-%d" % (seat + 1)
        if self._virtual(dev) is None:
            self.screen("pairing").ids.pair_message.text = "Virtual dashboards need the micropython command."
            return
        self.ref.pair(seat, dev)
        self.bridge.push()
        self.refresh_pairing(force=True)

    def start_race(self):
        if virtual_mod.available():
            for seat in range(len(self.ref.race.cars)):
                if seat not in self.ref.pairs:
                    self.give_virtual(seat)
        self.show("race")

    # ---- the race ---------------------------------------------------------------------------------------
    def tick(self, _dt):
        if self.bridge is None:
            return
        n = self.bridge.poll()
        if self.f5 is not None:
            self.f5.tick(_dt)
            return
        if self.ref is None:
            return
        if self.sm.current == "pairing" and n:
            self.refresh_pairing()
        elif self.sm.current == "race":
            if self.bridge.errors:
                self.screen("race").ids.message.text = self.bridge.errors.pop()
                self.bridge.errors.clear()
            self.refresh_race()
            self._draw_oleds()

    def _draw_oleds(self):
        if self.ports is None:
            return
        for dev, view in self.oleds.items():
            d = self.ports.virtual.get(dev)
            if d is not None:
                view.show(d.image, d.frame)

    def refresh_race(self, force=False):
        """Bring the race screen up to date, touching only what changed (a frame stays short)."""
        if self.view is None:
            return
        v = self.view
        rows = v.rows()
        car = v.active_car()
        race = self.ref.race
        ids = self.screen("race").ids
        if force or len(self.car_rows) != len(rows):
            ids.cars.clear_widgets()
            self.car_rows = [CarRow(r) for r in rows]
            for row in self.car_rows:
                ids.cars.add_widget(row)
        for row, r in zip(self.car_rows, rows, strict=True):
            row.update(r)
        ids.round.text = "Round %d of a %d-lap race%s" % (race.round, race.laps, "  FINISHED" if race.game_over else "")
        seat = v.active()
        ids.turn.text = ("The race is over: see Results" if seat is None
                         else "%s (%s) to play" % (race.names[seat], race.colours[seat]))
        sig = (self.picker, seat, v.corner, v.lane, v.band, v.special, tuple(v.speed_choices()), v.superb_question(),
               None if car is None else (car.speed, car.speed_set, car.status, car.special))
        if force or sig != self.rows_sig:
            self.rows_sig = sig
            self._fill_virtuals(rows)
            self._fill_pickers()
        self._fill_odds()

    def _fill_virtuals(self, rows):
        ids = self.screen("race").ids
        first = self.view.active() or 0
        rows = rows[first:] + rows[:first]  # the player whose turn it is sees their own dashboard first
        wanted = [(r["dev"], r) for r in rows
                  if r["dev"] and self.ports is not None and r["dev"] in getattr(self.ports, "virtual", {})]
        if [d for d, _r in wanted] == list(self.oleds):
            return
        ids.virtuals.clear_widgets()
        self.oleds = {}
        for dev, r in wanted:
            box = BoxLayout(orientation="vertical", size_hint_x=None, width=dp(200), spacing=dp(2))
            box.add_widget(_swatch(r["name"], r["colour"], size_hint_y=None, height=dp(30), font_size=sp(18)))
            oled = OledView(size_hint_y=None, height=dp(100))
            box.add_widget(oled)
            buttons = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(2))
            for name in virtual_mod.BUTTONS:
                b = Button(text=name, font_size=sp(14))
                b.bind(on_release=lambda w, dev=dev, name=name: self.press(dev, name))
                buttons.add_widget(b)
            box.add_widget(buttons)
            box.dev = dev
            ids.virtuals.add_widget(box)
            self.oleds[dev] = oled

    def press(self, dev, button):
        d = self.ports.virtual.get(dev) if self.ports is not None else None
        if d is not None:
            d.tap(button)

    def _fill_pickers(self):
        ids = self.screen("race").ids
        v = self.view
        ids.speeds.clear_widgets()
        car = v.active_car()
        picks = []
        question = v.superb_question()
        if question is not None:
            ids.speeds.add_widget(Label(text="%s plays Superb Driving. Track clear?" % question, size_hint_x=2))
            picks = [("Clear", ("superb", 1)), ("Not clear", ("superb", 0))]
        elif car is not None and self.picker == "block":
            ids.speeds.add_widget(Label(text="Blocker's speed:", size_hint_x=None, width=dp(170)))
            picks = [(str(s), ("block", s)) for s in range(0, 161, 20) if s != car.speed]
        elif car is not None and self.picker == "finish":
            ids.speeds.add_widget(Label(text="Spaces over the line:", size_hint_x=None, width=dp(200)))
            picks = [(str(n), ("finish", n)) for n in range(0, 9)]
        elif car is not None and not car.speed_set:
            ids.speeds.add_widget(Label(text="Speed:", size_hint_x=None, width=dp(80)))
            picks = [(str(s), ("speed", s)) for s in v.speed_choices()]
            if v.hold_choices():  # blocked in the pit or at the spin-off point: wait, dialling up to 60
                picks += [("wait %d" % s, ("hold", s)) for s in v.hold_choices()]
        elif car is not None:
            ids.speeds.add_widget(Label(text="Speed %d mph set" % car.speed))
        for text, action in picks:
            b = Button(text=text, font_size=sp(22))
            b.bind(on_release=lambda w, action=action: self.act(*action))
            ids.speeds.add_widget(b)
        ids.corners.clear_widgets()
        for i, name in enumerate(v.corner_names()):
            b = ToggleButton(text=name, font_size=sp(22), group="corner", state="down" if i == v.corner else "normal")
            b.bind(on_release=lambda w, i=i: self.pick(corner=i))
            ids.corners.add_widget(b)
        ids.lanes.clear_widgets()
        if v.bands() > 1:
            for band in range(v.bands()):
                b = ToggleButton(text="band %d" % (band + 1), group="band",
                                 state="down" if band == v.band else "normal")
                b.bind(on_release=lambda w, band=band: self.pick(band=band))
                ids.lanes.add_widget(b)
        for lane, safety in enumerate(v.lanes()):
            b = ToggleButton(text="lane %d: %d" % (lane + 1, safety), font_size=sp(22), group="lane",
                             state="down" if lane == v.lane else "normal")
            b.bind(on_release=lambda w, lane=lane: self.pick(lane=lane))
            ids.lanes.add_widget(b)
        if car is not None and car.special:
            b = ToggleButton(text="special tyres", font_size=sp(20), state="down" if v.special else "normal")
            b.bind(on_release=lambda w: self.toggle_special(w.state == "down"))
            ids.lanes.add_widget(b)

    def _fill_odds(self):
        ids = self.screen("race").ids
        ids.odds.text = "Before the roll:\n" + self.view.odds_text() if self.view.active() is not None else ""

    def toggle_special(self, on):
        self.view.special = 1 if on else 0
        self.refresh_race(force=True)

    def pick(self, corner=None, lane=None, band=None):
        self.view.pick(corner, lane, band)
        self.refresh_race(force=True)

    def act(self, what, arg=None):
        """Every action button of the race screen lands here."""
        if self.view is None or self.rolling:
            return None
        v = self.view
        ids = self.screen("race").ids
        ev = None
        if what == "speed":
            ev = v.set_speed(arg)
        elif what == "hold":
            ev = v.hold(arg)
        elif what == "superb":
            ev = v.answer_superb(arg)
        elif what == "corner":
            ev = v.roll_corner()
            if ev is not None:
                self.rolling = 1
                ids.chart_row.text = ""
                ids.dice.roll(ev["dice"], self._rolled)
        elif what == "block":
            if arg is None:
                self.picker = "speed" if self.picker == "block" else "block"
            else:
                ev = v.block(arg)
                self.picker = "speed"
        elif what == "finish":
            if arg is None:
                self.picker = "speed" if self.picker == "finish" else "finish"
            else:
                ev = v.finish(arg)
                self.picker = "speed"
        elif what == "pit":
            ev = v.pit()
            if ev is not None:  # the drawn pit card, face up where the dice were
                ids.dice.faces = [0, 0]
                ids.chart_row.text = "PIT CARD: %s" % v.last_pit[1]
        elif what == "lap":
            ev = v.lap(0)
        elif what == "end":
            ev = v.end_turn()
            self.picker = "speed"
        elif what == "undo":
            ev = v.undo()
            ids.chart_row.text = ""
            ids.dice.faces = [0, 0]
        if not self.rolling:
            ids.message.text = v.message
        self.refresh_race(force=True)
        if ev is not None and what in ("end", "finish", "lap") and self.ref.race.game_over:
            self.show("results")  # the last turn of the final round: the order and the charts
        return ev

    def _rolled(self):
        ids = self.screen("race").ids
        roll = self.view.last_roll
        if roll is not None:
            ids.chart_row.text = "%s: %s" % (roll["row"], roll["outcome"].upper())
        ids.message.text = self.view.message
        self.rolling = 0

    # ---- results and history ---------------------------------------------------------------------------
    def _fill_results(self):
        ids = self.screen("results").ids
        ids.order.clear_widgets()
        if self.view is None:
            return
        ids.heading.text = "Results" if self.ref.race.game_over else "Standings so far"
        for place, name, colour, text in self.view.results():
            row = BoxLayout(size_hint_y=None, height=dp(48), spacing=dp(8))
            row.add_widget(Label(text="%d." % place, font_size=sp(26), size_hint_x=None, width=dp(60)))
            row.add_widget(_swatch(name, colour, size_hint_x=0.4))
            row.add_widget(Label(text=text, font_size=sp(22)))
            ids.order.add_widget(row)
        series = ui_logic.chart_series(self.ref)
        for key, idx in (("speed_chart", 1), ("tyre_chart", 2), ("brake_chart", 3)):
            chart = ids[key]
            chart.series = [(_line_colour(colour), [p[idx] for p in pts]) for _n, colour, pts in series]

    def _fill_history(self):
        ids = self.screen("history").ids
        # A RecycleView: a 10-lap race for six has thousands of lines, more than one texture can hold.
        ids.lines.data = [{"text": t} for t in self.view.history_lines()] if self.view is not None else []
        ids.lines.scroll_y = 0  # the latest at the bottom, in view

    # ---- for tests and the bench ---------------------------------------------------------------------------
    def screenshot(self, path):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        self.root.export_to_png(path)
        return path


def _line_colour(colour):
    return (0.05, 0.05, 0.05, 1) if colour == "black" else ui_logic.RGBA[colour]


def run():
    CompanionApp().run()

