"""The Kivy app: binds the screens in companion.kv to the presenters in companion.ui_logic.

Thin on purpose: rules and bookkeeping are in companion.referee, what the screens show is in
companion.ui_logic (read through companion.view_adapter), the look is companion.theme, the link runs on the
transport's threads and reaches us through LinkBridge.poll() on the Clock. Nothing here blocks: the game log
appends are single small SQLite transactions.

Navigation: Back (Escape, Android's Back) goes back one screen; leaving a race, starting a new one over it and
quitting are asked first; nothing quits without asking.
"""

import importlib
import os
import threading
import time

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from shared_rules.errors import RuleError

from companion import storage, theme, ui_logic
from companion import virtual as virtual_mod
from companion.link_bridge import LinkBridge
from companion.phones.seats import PHONE, TABLET  # the server and QR codes are imported when there are phones
from companion.referee.eventlog import LogError
from companion.referee import turn
from companion.referee.referee import Referee
from companion.referee.track import TrackError
from companion.transport import Transport, on_android
from companion.widgets import (  # noqa: F401  (the kv files use some)
    CarPanel,
    Confirm,
    Dice,
    DieFace,
    Gauge,
    MarkerSwatch,
    OledView,
    RaceButton,
    SavedGameRow,
    SpeedKey,
    ToggleRaceButton,
    TurnChart,
    VirtualDash,
    MARKERS,
)

Builder.load_file(os.path.join(os.path.dirname(__file__), "theme.kv"))  # before companion.kv, which uses it

POLL_S = 1 / 30.0
HANDOVER_S = 0.5  # after the turn passes, taps wait this long: a double tap must not play the next player's turn
HANDOVER_FRAMES = 20  # ... and as many frames (a third of a second at 60 Hz) have shown the new turn
KEY_BACK = 27  # Escape on a keyboard, Back on Android
HAND = 2  # the dashboard's mode while it shows the tactic hand (firmware/ui.py _HAND)
ACTION_BUTTONS = {"corner": "corner", "block": "block", "pit": "pit", "lap": "lap", "finish": "finish",
                  "end": "end_turn", "undo": "undo"}


class Screens(ScreenManager):
    """The app's screen manager, drawn without Kivy's clipping stencil (theme.kv says why)."""


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


class SavedGamesScreen(Screen):
    pass


class CompanionApp(App):
    title = "Formula 1 companion"
    scale = NumericProperty(1.0)  # theme sizes for this window (companion/theme.py scale_for)

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
        self.car_rows = []  # CarPanel widgets, in turn order
        self.speed_keys = []  # the 17 SpeedKeys, 0..160, made once
        self.found_sig = None
        self.oleds = {}  # dev -> the OledView showing it (one: the race screen's dashboard pane)
        self.dash_dev = None  # the virtual dashboard shown on the race screen
        self.dash_sig = None
        self.choices_sig = None  # what the corner and lane buttons were made for
        self.rolling = 0
        self.locked_until = 0.0  # taps on race actions wait until then (the turn has just passed) ...
        self.locked_frames = 0  # ... and until that many frames have been shown
        self.seat_shown = None
        self.came_from = {}  # screen -> the screen Back returns to
        self.popup = None  # the open Confirm, if any
        self.saved_list = []
        self.saved_path = None
        self.first_frame = None  # set when the setup screen has been drawn once (cold start figure)
        self.f5 = None  # while Formula 5 is chosen: its screens' controller (companion/f5_app.py)
        self.phones = None  # the phones' web server (companion/phones), with virtual dashboards to serve

    # ---- life cycle ---------------------------------------------------------------------------------
    def build(self):
        Window.clearcolor = theme.BG
        self._resize(Window, Window.size)
        Window.bind(size=self._resize, on_keyboard=self._key, on_request_close=self._close_asked)
        # Kivy has already loaded companion.kv (the App's name, from this folder) before build().
        sm = Screens(transition=NoTransition())
        for cls, name in ((SetupScreen, "setup"), (PairingScreen, "pairing"), (RaceScreen, "race"),
                          (ResultsScreen, "results"), (HistoryScreen, "history"), (SavedGamesScreen, "saved")):
            sm.add_widget(cls(name=name))
        from companion import f5_app

        f5_app.add_screens(sm)
        self.sm = sm
        self._fill_setup()
        self._make_race_controls()
        return sm

    def _resize(self, _w, size):
        self.scale = theme.scale_for(*size)
        # The kv rules follow app.scale; what Python made (choices, tabs) is made again at the new size.
        self.choices_sig = self.dash_sig = None
        if getattr(self, "sm", None) is not None and self.sm.current == "race":
            self.refresh_race(force=True)

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
        self._look_for_saved_games()

    def _drawn(self, *_):
        self.first_frame = time.monotonic()  # the first frame of the setup screen is on the screen
        Window.unbind(on_flip=self._drawn)
        if self._phones_possible():  # the phones' server (aiohttp) loads meanwhile, not before the first frame
            threading.Thread(target=lambda: importlib.import_module("companion.phones.table"), daemon=True).start()

    def _phones_possible(self):
        return self.ports is not None and hasattr(self.ports, "virtual")

    def need_phones(self):
        """The phones' server, made when the first game opens (where virtual dashboards can run at all)."""
        if self.phones is None and self._phones_possible():
            from companion.phones.table import Phones

            self.phones = Phones(self.ports)
        return self.phones

    def on_stop(self):
        if self.phones is not None:
            self.phones.stop()  # first: the pages are left to reconnect to this game when it is resumed
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
        current = self.sm.current
        if name in ("history", "results", "saved", "pairing") and current != name:
            self.came_from[name] = current
        if name == "history":
            self._fill_history()
        elif name == "results":
            self._fill_results()
        elif name == "race":
            self.refresh_race(force=True)
        elif name == "pairing":
            self.refresh_pairing(force=True)
        elif name == "saved":
            self._fill_saved()
        elif name == "setup":
            self._look_for_saved_games()
        self.sm.current = name

    # ---- navigation: Back, and the questions asked before leaving ------------------------------------------
    def _key(self, _window, key, *_args):
        if key == KEY_BACK:
            self.back()
            return True  # handled: Kivy's own Escape handler would quit the app
        return False

    def _close_asked(self, *_args, **_kw):
        """The window's close button (or the system) asks to quit: ask the table first."""
        if getattr(self, "quitting", False):
            return False
        self.confirm("Quit the Formula 1 companion? Every race stays saved.", self._quit, yes="Quit")
        return True

    def _quit(self):
        self.quitting = True
        self.stop()

    def confirm(self, question, then, yes="Yes", no="No"):
        """Ask a yes/no question over the screen; `then()` runs on yes."""
        if self.popup is not None:
            self.popup.answer(False)
        popup = Confirm(question=question, yes_text=yes, no_text=no)

        def answered(ok):
            self.popup = None
            if ok:
                then()

        popup.then = answered
        self.popup = popup
        popup.open()
        return popup

    def back(self):
        """One screen back; returns the screen now shown (or asked about)."""
        if self.popup is not None:
            self.popup.answer(False)  # Back on a question means no
            return self.sm.current
        current = self.sm.current
        if current == "race":
            self.confirm("Leave the race? It stays saved: continue it from Saved games.", self.new_game, yes="Leave")
        elif current == "setup":
            self.confirm("Quit the Formula 1 companion? Every race stays saved.", self._quit, yes="Quit")
        elif current == "pairing" and self.f5 is not None:
            self.f5.close()  # back to Formula 5's setup; the game stays saved (its Resume offers it)
            self.f5.open_setup()
        elif current in ("results", "history", "saved", "pairing"):
            target = self.came_from.get(current) or ("race" if self.view is not None else "setup")
            if target == "race" and self.view is None:
                target = "setup"
            if current == "pairing" and target != "race":
                self.new_game()  # the race was never started: back to setup, its game stays saved
            elif current == "results" and target == "saved":
                self.new_game("saved")
            else:
                self.show(target)
        elif current == "f5setup" and self.f5 is not None:
            self.f5.leave()
        elif current == "f5table" and self.f5 is not None:
            self.confirm("Leave this Formula 5 game? It stays saved.", self.f5.leave, yes="Leave")
        return self.sm.current

    # ---- setup -----------------------------------------------------------------------------------------
    def _look_for_saved_games(self):
        def look():
            found = [g for g in storage.saved_games() if g.game == "F1"]  # SQLite reads: off the UI thread
            Clock.schedule_once(lambda _dt: self._saved_games(found), 0)

        threading.Thread(target=look, daemon=True).start()

    def _saved_games(self, found):
        """The setup screen's Continue: the newest game if it is still in progress."""
        self.saved_list = found
        ids = self.screen("setup").ids
        ids.saved.text = "Saved games (%d)" % len(found) if found else "Saved games"
        self.saved_path = None
        ids.resume.disabled = True
        ids.resume_note.text = ""
        if not found:
            return
        newest = found[0]
        if newest.error:
            ids.resume_note.text = "The last game cannot be resumed: %s" % newest.error
            return
        if newest.finished:
            ids.resume_note.text = "The last race is over: its results are in Saved games"
            return
        self.saved_path = newest.path
        ids.resume.disabled = False
        ids.resume_note.text = "%s  ·  round %d  ·  %s" % (
            ", ".join(newest.players), newest.round, when_text(newest.last_played))

    def _fill_setup(self):
        ids = self.screen("setup").ids
        ids.names.clear_widgets()
        for i in range(self.form.count):
            ti = TextInput(text=self.form.names[i], multiline=False, write_tab=False)
            ti.bind(text=lambda w, v, i=i: self.form.names.__setitem__(i, v))
            ids.names.add_widget(ti)
        ids.count.text = str(self.form.count)
        ids.laps.text = str(self.form.laps)
        if not ids.variants.children:
            for flag, _name, text in ui_logic.VARIANTS:
                tb = ToggleRaceButton(text=text, bold=False, shorten=False, max_lines=2,  # words wrap, never cut
                                      font_size=theme.font(theme.SMALL + 2, self.scale))
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
        self.came_from["pairing"] = "setup"
        self.refresh_pairing(force=True)
        self.sm.current = "pairing"

    def _open_file(self, path, says):
        """Open the saved game at `path` (True), or put why it cannot be opened on the label `says` (False)."""
        try:
            ref = Referee.open(path)
        except LogError as e:
            says.text = str(e)
            return False
        self._open(ref, path)
        return True

    def resume_game(self, path=None):
        path = path or self.saved_path
        if not self._open_file(path, self.screen("setup").ids.resume_note):
            return
        ref = self.ref
        for dev in ref.pairs.values():
            if virtual_mod.is_virtual(dev):
                self._virtual(dev)
        self.sync_phones()  # the same addresses on the same port: the phones find their seats again
        self.show("race")

    def ask_new_game(self):
        if self.view is not None and not self.view.over():
            self.confirm("Start a new race? This one stays saved: continue it from Saved games.", self.new_game,
                         yes="New race")
        else:
            self.new_game()

    def new_game(self, then="setup"):
        """Close the open game (it stays saved) and go to `then` (setup, or the saved games)."""
        if self.ref is not None:
            self.ref.close()
        self.ref = self.view = None
        if self.bridge is not None:
            self.bridge.attach(None)
        self.close_dashboards()
        self.came_from.clear()
        self.show(then)

    def _open(self, ref, path):
        self.close_dashboards()  # an earlier game's virtual dashboards are never this game's
        self.ref, self.path = ref, path
        self.view = ui_logic.RaceView(ref, self.bridge)
        self.bridge.attach(ref)
        self.rows_sig = None
        self.seat_shown = None
        self.dash_dev = None
        self.picker = "speed"
        self.car_rows = []
        self.choices_sig = None
        if self.need_phones() is not None:
            self.phones.open_game(storage.dashboards_dir(path))

    def close_dashboards(self):
        """The open game's virtual dashboards stop and its phones are told; their state stays with it."""
        if self.ports is not None and hasattr(self.ports, "virtual"):
            self.ports.stop()
        if self.phones is not None:
            self.phones.close_game()

    # ---- pairing ---------------------------------------------------------------------------------------
    # One pairing screen for both games: each seat (a Formula 1 car, a Formula 5 player's car) gets a Pico, or
    # a virtual dashboard served to its player's phone (the default: a QR code and an address on its card), or
    # deliberately one on this tablet's screen, which the whole table can see.
    def _pairing(self):
        """The open game's referee and its seats: [(seat, name, colour name, rgba, ink)]."""
        if self.f5 is not None:
            return self.f5.ref, self.f5.pairing_seats()
        race = self.ref.race
        return self.ref, [(seat, race.names[seat], colour, ui_logic.RGBA[colour], ui_logic.INK[colour])
                          for seat, colour in enumerate(race.colours)]

    def _game_path(self):
        return self.f5.path if self.f5 is not None else self.path

    def _virtual_dev(self, seat):
        return ("f5-virtual-%d" if self.f5 is not None else "virtual-%d") % (seat + 1)

    def _virtual(self, dev):
        if self.ports is None or not hasattr(self.ports, "add"):
            return None
        return self.ports.add(storage.dashboards_dir(self._game_path()), dev)

    def _place(self, seat):
        return self.phones.place(seat) if self.phones is not None else TABLET

    def sync_phones(self):
        """Serve to phones the seats placed on one that have no Pico (their dashboard, once it runs)."""
        if self.phones is None or not self.phones.ready():
            return
        from companion.phones.table import rgb_hex

        ref, seats = self._pairing()
        served = []
        for seat, name, colour, rgba, _ink in seats:
            dev = ref.pairs.get(seat)
            if self._place(seat) == PHONE and (dev is None or virtual_mod.is_virtual(dev)):
                running = dev if dev is not None and dev in self.ports.virtual else None
                served.append((seat, running, name, colour, rgb_hex(rgba)))
        self.phones.sync(served)

    def refresh_pairing(self, force=False):
        ids = self.screen("pairing").ids
        ref, seats = self._pairing()
        found = [(dev, status) for dev, status in self.bridge.dashboards() if not virtual_mod.is_virtual(dev)]
        places = tuple(self._place(seat) for seat, *_ in seats)
        online = tuple(self.phones.connected(seat) if self.phones is not None else 0 for seat, *_ in seats)
        sig = (tuple(found), tuple(sorted(ref.pairs.items())), self.chosen_dev, places, online)
        if sig == self.found_sig and not force:
            return
        self.found_sig = sig
        ids.go.text = "%s: the cars without a Pico get their dashboards on the phones (or here)" % (
            "Start" if self.f5 is not None else "Race")
        ids.found.clear_widgets()
        names = {s: n for s, n, *_ in seats}
        for dev, status in found:
            seat = ref.seat_of(dev)
            label = "%s  (%s)%s" % (dev, status, "  -> %s" % names[seat] if seat in names else "")
            b = ToggleRaceButton(text=label, group="dash", size_hint_y=None, height=theme.touch(self.scale),
                                 font_size=theme.font(theme.BODY, self.scale),
                                 state="down" if dev == self.chosen_dev else "normal")
            b.bind(on_release=lambda w, dev=dev: self.choose_dashboard(dev))
            ids.found.add_widget(b)
        notes = [] if found else [("No Pico plugged in yet: plug one in, or play on phones.", theme.MUTED)]
        if self.phones is not None and self.phones.problem:
            notes.append((self.phones.problem, theme.BAD))
        for text, colour in notes:
            ids.found.add_widget(_wrapped(text, color=colour, size_hint_y=None, height=theme.touch(self.scale)))
        ids.seats.clear_widgets()
        for (seat, name, colour, rgba, ink), online_now in zip(seats, online, strict=True):
            ids.seats.add_widget(self._seat_card(ref, seat, name, colour, rgba, ink, online_now))

    def _seat_card(self, ref, seat, name, colour, rgba, ink, online):
        def space(n):
            return theme.space(n, self.scale)

        def font(n):
            return theme.font(n, self.scale)

        card = BoxLayout(orientation="vertical", size_hint_y=None, height=space(296), spacing=space(3),
                         padding=space(4))
        _paint(card, theme.PANEL)
        give = RaceButton(text="%s  %s" % (colour.upper(), name), tone=rgba, color=ink, size_hint_y=None,
                          height=space(56))
        give.bind(on_release=lambda w: self.give(seat))
        card.add_widget(give)
        dev = ref.pairs.get(seat)
        other = None
        if dev is not None and not virtual_mod.is_virtual(dev):
            card.add_widget(_wrapped("Pico %s\n(%s)" % (dev, self.bridge.status.get(dev, "lost"))))
        elif self._place(seat) == PHONE and self.phones is not None and self.phones.ready():
            from companion.phones.qr import qr_texture

            url = self.phones.address(seat)
            card.add_widget(Image(texture=qr_texture(url), size_hint_y=None, height=space(124), fit_mode="contain"))
            card.add_widget(_wrapped(url, font_size=font(theme.SMALL - 1), size_hint_y=None, height=space(40)))
            card.add_widget(_wrapped("phone connected" if online else "scan with the player's phone",
                                     font_size=font(theme.SMALL), size_hint_y=None, height=space(24),
                                     color=theme.GO if online else theme.MUTED))
            other = RaceButton(text="Show it on this tablet instead", font_size=font(theme.SMALL + 1), bold=False,
                               size_hint_y=None, height=space(48))
            other.bind(on_release=lambda w: self.give_virtual(seat))
        elif not virtual_mod.available():
            card.add_widget(_wrapped("Needs a Pico: this tablet cannot run virtual dashboards (nor phones)",
                                     color=theme.WARN))
        else:
            card.add_widget(_wrapped("On this tablet's screen: everyone at the table sees its cards",
                                     color=theme.WARN))
            if self.phones is not None and self.phones.ready():
                other = RaceButton(text="Use a phone", font_size=font(theme.SMALL + 1), bold=False,
                                   size_hint_y=None, height=space(48))
                other.bind(on_release=lambda w: self.give_phone(seat))
        if other is not None:
            card.add_widget(other)
        card.seat_button, card.virtual_button, card.seat = give, other, seat
        return card

    def choose_dashboard(self, dev):
        self.chosen_dev = None if self.chosen_dev == dev else dev
        self.refresh_pairing(force=True)

    def give(self, seat):
        """The dashboard chosen in the list (a Pico) goes to this seat; a virtual one the seat had is stopped."""
        msg = self.screen("pairing").ids.pair_message
        ref, seats = self._pairing()
        if self.chosen_dev is None:
            msg.text = "Tap a dashboard first, then the car it belongs to."
            return
        old = ref.pairs.get(seat)
        ref.pair(seat, self.chosen_dev)
        info = self.bridge.seen.get(self.chosen_dev) or {}
        if info.get("snapshot") is not None:
            ref.reconcile(seat, info["snapshot"])
        if old is not None and virtual_mod.is_virtual(old) and self.ports is not None:
            self.ports.remove(old)
        self.bridge.push()
        names = {s: n for s, n, *_ in seats}
        msg.text = "%s now drives with dashboard %s" % (names[seat], self.chosen_dev)
        self.chosen_dev = None
        self.sync_phones()
        self.refresh_pairing(force=True)

    def give_virtual(self, seat, place=None):
        """A virtual dashboard for this seat, started now: on this tablet's screen (chosen deliberately: the
        table sees its cards) unless place says phone."""
        msg = self.screen("pairing").ids.pair_message
        ref, seats = self._pairing()
        dev = ref.pairs.get(seat)
        if dev is None or not virtual_mod.is_virtual(dev):
            dev = self._virtual_dev(seat)
        if self._virtual(dev) is None:
            msg.text = "Virtual dashboards need the micropython command."
            return
        if self.phones is not None and self.phones.seats is not None:
            self.phones.set_place(seat, place or TABLET)
        if ref.pairs.get(seat) != dev:
            ref.pair(seat, dev)
        self.bridge.push()
        if (place or TABLET) == TABLET:
            names = {s: n for s, n, *_ in seats}
            msg.text = "%s's dashboard is on this tablet: everyone at the table can see its cards." % names[seat]
        self.sync_phones()
        self.refresh_pairing(force=True)

    def give_phone(self, seat):
        """Back to the phone (the default): its QR code again; a dashboard already running stays the same."""
        self.phones.set_place(seat, PHONE)
        self.screen("pairing").ids.pair_message.text = ""
        self.sync_phones()
        self.refresh_pairing(force=True)

    def give_the_rest(self):
        """Every seat still without a dashboard gets a virtual one where it was placed (a phone by default)."""
        if not virtual_mod.available():
            return
        ref, seats = self._pairing()
        for seat, *_ in seats:
            if seat not in ref.pairs:
                self.give_virtual(seat, place=self._place(seat))

    def start_race(self):
        if self.f5 is not None:
            self.f5.begin()
            return
        self.give_the_rest()
        self.show("race")

    # ---- the race ---------------------------------------------------------------------------------------
    def _make_race_controls(self):
        """The widgets that never move: the 17 speed keys."""
        ids = self.screen("race").ids
        self._speed_keys(len(turn.SPEEDS))
        self.oleds = {}
        ids.cars.bind(size=lambda *_: self._size_car_panels())

    def _speed_keys(self, n):
        """The picker's keys, one per speed the model lists (made once: each speed keeps its place)."""
        if len(self.speed_keys) != n:
            self.speed_keys = [SpeedKey() for _i in range(n)]
            for key in self.speed_keys:
                key.bind(on_release=self._speed_tapped)
        return self.speed_keys

    def tick(self, _dt):
        if self.bridge is None:
            return
        self.bridge.poll()
        if self.f5 is not None:
            self.f5.tick(_dt)
            return
        if self.ref is None:
            return
        if self.sm.current == "pairing":
            self.refresh_pairing()  # redrawn only when a dashboard or a phone came or went
        elif self.sm.current == "race":
            if self.bridge.errors:
                self.screen("race").ids.message.text = self.bridge.errors.pop()
                self.bridge.errors.clear()
            self.refresh_race()
            self._draw_oleds()

    def _draw_oleds(self):
        if self.ports is None or self.dash_dev is None:
            return
        d = getattr(self.ports, "virtual", {}).get(self.dash_dev)
        oled = self.screen("race").ids.dash.oled
        if d is None:
            return
        with d.lock:
            if getattr(d, "state_frame", d.frame) != d.frame:
                return  # a frame whose state line has not come yet: it might be the hand, not yet known hidden
            hidden = bool(d.state and d.state.get("mode") == HAND)
            image, frame = bytes(d.image), d.frame
        oled.hidden = hidden
        oled.show(image, frame)

    def ready(self):
        """True when a tap on the race screen is taken: no dice in the air, the turn not just passed."""
        return not self.rolling and not self._handing_over()

    def _handing_over(self):
        # Both: a stalled tablet has not shown the new turn for HANDOVER_S just because that much time passed.
        return time.monotonic() < self.locked_until or Clock.frames < self.locked_frames

    def refresh_race(self, force=False):
        """Bring the race screen up to date, touching only what changed (a frame stays short)."""
        if self.view is None:
            return
        v = self.view
        rows = v.rows()
        ids = self.screen("race").ids
        if len(self.car_rows) != len(rows):  # a new game (_open empties the list) or other cars
            ids.cars.clear_widgets()
            self.car_rows = [CarPanel(size_hint_y=None) for _r in rows]
            for panel in self.car_rows:
                ids.cars.add_widget(panel)
            ids.cars.add_widget(Widget())  # what the panels leave, at the bottom
            self._size_car_panels()
        for panel, r in zip(self.car_rows, rows, strict=True):
            panel.update(r)
        seat = v.active()
        if seat != self.seat_shown:
            if self.seat_shown is not None:
                self.locked_until = time.monotonic() + HANDOVER_S
                self.locked_frames = Clock.frames + HANDOVER_FRAMES
                self.picker = "speed"
            self.seat_shown = seat
            self.dash_dev = None  # the dashboard pane follows the turn
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

    def _fill_table(self):
        """The dice, the roll in words and the pit card of this turn (a new turn starts with a clear table)."""
        if self.rolling or self.view is None:
            return
        ids = self.screen("race").ids
        v = self.view
        dice = v.last_dice()
        ids.dice.faces = list(dice) if len(dice) == 2 else [0, 0]
        pit = v.pit_card_text()
        ids.chart_row.text = "\n".join(t for t in (v.last_roll_text(), "PIT CARD: %s" % pit if pit else "") if t)

    def _size_car_panels(self):
        cars = self.screen("race").ids.cars
        n = max(1, len(self.car_rows))
        h = min((cars.height - cars.spacing * n) / n, theme.touch(self.scale) * 2.1)
        for panel in self.car_rows:
            panel.height = max(h, 1)

    def _fill_turn(self, rows, seat):
        ids = self.screen("race").ids
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
        ids = self.screen("race").ids
        for wid, name in ACTION_BUTTONS.items():
            a = acts.get(name)
            b = getattr(ids, wid)
            b.token = a.token if a is not None else None
            b.reason = (a.reason or "") if a is not None else ""
            b.live = a is not None and a.live
        if self.picker in ("block", "finish"):
            getattr(ids, self.picker).live = True  # its picker is open: tapping it again closes it

    def _fill_pickers(self, acts):
        ids = self.screen("race").ids
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
            grid.clear_widgets()
            grid.cols = 9
            for n in range(0, 9):
                b = RaceButton(text=str(n), token=acts["finish"].token)
                b.bind(on_release=lambda w, n=n: self.act("finish", n, token=w.token))
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
            self.screen("race").ids.message.text = button.reason
        return None

    def _speed_tapped(self, key):
        if not key.live:
            return self.explain(key)
        what = getattr(key, "picker", "speed")
        if what == "speed" and getattr(key, "confirm", False):
            if not self.ready():
                return None
            self.confirm("%d mph: the car spins (%s). Set it?" % (key.value, key.cost or "SPIN"),
                         lambda: self.act("speed", key.value, token=key.token), yes="Spin at %d" % key.value)
            return None
        return self.act(what, key.value, token=key.token)

    def _fill_choices(self):
        """The corner and lane choices: made again only when what they offer changes (a tap stays short)."""
        ids = self.screen("race").ids
        v = self.view
        car = v.active_car()
        names = tuple(v.corner_names())
        lanes = (v.corner, v.bands(), tuple(v.lanes()), bool(car is not None and car.special))
        sig = (names, lanes)
        if sig != self.choices_sig:
            if self.choices_sig is None or self.choices_sig[0] != names:
                ids.corners.clear_widgets()
                ids.corners.add_widget(Label(text="CORNER", size_hint_x=None, width=theme.space(84, self.scale),
                                             font_size=theme.font(theme.SMALL, self.scale), color=theme.MUTED))
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
                b = ToggleRaceButton(text="lane %d: %d" % (lane + 1, safety), group="lane", allow_no_selection=False,
                                     font_size=theme.font(theme.BODY, self.scale))
                b.lane = lane
                b.bind(on_release=lambda w: self.pick(lane=w.lane))
                ids.lanes.add_widget(b)
            if car is not None and car.special:
                b = ToggleRaceButton(text="special tyres", font_size=theme.font(theme.SMALL, self.scale))
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
        ids = self.screen("race").ids
        ids.odds.text = "Before the roll:\n" + self.view.odds_text() if self.view.active() is not None else ""

    def _fill_dashboards(self, rows, force):
        """The dashboard pane: a tab for every car with a virtual dashboard, the chosen one's OLED and buttons."""
        ids = self.screen("race").ids
        virtual = getattr(self.ports, "virtual", {}) if self.ports is not None else {}
        seat = self.view.active()
        on_phones = self.phones.on_phones() if self.phones is not None else set()  # private: never drawn here
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
            tab = ToggleRaceButton(text=r["name"], group="dashboard", allow_no_selection=False, tone=theme.PANEL,
                                   down_tone=r["rgba"], font_size=theme.font(theme.SMALL, self.scale),
                                   state="down" if r["dev"] == self.dash_dev else "normal")
            tab.color = r["ink"] if tab.state == "down" else theme.INK
            tab.dev = r["dev"]
            tab.bind(on_release=lambda w: self.choose_dash(w.dev))
            ids.dash_tabs.add_widget(tab)
        ids.dash_pane.opacity = 1 if devs else 0
        ids.dash_pane.disabled = not devs
        oled = ids.dash.oled
        oled.frame = -1  # redraw from the newly chosen dashboard
        oled.dev = self.dash_dev
        self.oleds = {self.dash_dev: oled} if self.dash_dev else {}
        self._draw_oleds()

    def choose_dash(self, dev):
        self.dash_dev = dev
        self._fill_dashboards(self.view.rows(), True)

    def press(self, dev, button):
        d = self.ports.virtual.get(dev) if self.ports is not None and dev else None
        if d is not None:
            d.tap(button)

    def toggle_special(self, on):
        self.view.special = 1 if on else 0
        self.refresh_race(force=True)

    def pick(self, corner=None, lane=None, band=None):
        self.view.pick(corner, lane, band)
        self.refresh_race(force=True)

    def act(self, what, arg=None, token=None):
        """Every action of the race screen lands here, with the token its button was drawn with."""
        if self.view is None:
            return None
        v = self.view
        ids = self.screen("race").ids
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
            ev = v.roll_corner(token=token)
            if ev is not None:
                self.rolling = 1
                ids.chart_row.text = ""
                ids.dice.roll(ev["dice"], self._rolled)  # the dice tumble; the taps wait for them
        elif what == "block":
            if arg is None:
                self.picker = "speed" if self.picker == "block" else "block"
            else:
                ev = v.block(arg, token=token)
                self.picker = "speed"
        elif what == "finish":
            if arg is None:
                self.picker = "speed" if self.picker == "finish" else "finish"
            else:
                ev = v.finish(arg, token=token)
                self.picker = "speed"
        elif what == "pit":
            ev = v.pit(token=token)
        elif what == "lap":
            ev = v.lap(0, token=token)
        elif what == "end":
            ev = v.end_turn(token=token)
            self.picker = "speed"
        elif what == "undo":
            ev = v.undo(token=token)
        if not self.rolling:
            ids.message.text = self._said(v)
        self.refresh_race(force=True)
        if ev is not None and what in ("end", "finish", "lap") and v.over():
            self.show("results")  # the last turn of the final round: the order and the charts
        return ev

    def _said(self, v):
        return v.message

    def _rolled(self):
        ids = self.screen("race").ids
        self.rolling = 0
        self._fill_table()
        ids.message.text = self._said(self.view) if self.view is not None else ""

    # ---- results, history, saved games -------------------------------------------------------------------
    def _fill_results(self):
        ids = self.screen("results").ids
        ids.order.clear_widgets()
        ids.legend.clear_widgets()
        if self.view is None:
            return
        over = self.view.over()
        ids.heading.text = "Results" if over else "Standings so far"
        ids.back.text = "Back to the race" if self.came_from.get("results", "race") == "race" else "Back"
        ties = []
        h = theme.touch(self.scale) * 1.3
        for row in self.view.results():
            place, name, colour, text = row[:4]
            line = BoxLayout(size_hint_y=None, height=h, spacing=theme.space(8, self.scale))
            line.add_widget(Label(text="%d" % place, bold=True, font_size=theme.font(theme.HERO - 6, self.scale),
                                  size_hint_x=None, width=theme.space(56, self.scale)))
            box = BoxLayout(orientation="vertical")
            swatch = Label(text=name, bold=True, color=ui_logic.INK[colour], halign="left",
                           font_size=theme.font(theme.LARGE, self.scale), shorten=True)
            swatch.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(12), None)))
            _paint(swatch, ui_logic.RGBA[colour])
            box.add_widget(swatch)
            detail = Label(text=text, font_size=theme.font(theme.SMALL, self.scale), color=theme.MUTED,
                           size_hint_y=0.8, max_lines=2, halign="left", valign="top")
            detail.bind(size=lambda w, s: setattr(w, "text_size", s))
            box.add_widget(detail)
            line.add_widget(box)
            ids.order.add_widget(line)
            if len(row) > 4 and row[4]:
                ties.append(str(row[4]))
        ids.ties.text = "\n".join(ties + list(self.view.tie_notes()))
        series = ui_logic.chart_series(self.ref)
        for i, (name, colour, _pts) in enumerate(series):
            entry = BoxLayout(spacing=theme.space(4, self.scale))
            entry.add_widget(MarkerSwatch(rgba=_line_colour(colour), shape=MARKERS[i % len(MARKERS)],
                                          size_hint_x=None, width=theme.space(34, self.scale)))
            label = Label(text=name, bold=True, font_size=theme.font(theme.SMALL, self.scale), shorten=True,
                          halign="left")
            label.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
            entry.add_widget(label)
            ids.legend.add_widget(entry)
        for key, idx in (("speed_chart", 1), ("tyre_chart", 2), ("brake_chart", 3)):
            ids[key].series = [(_line_colour(colour), MARKERS[i % len(MARKERS)], [(p[0], p[idx]) for p in pts])
                               for i, (_n, colour, pts) in enumerate(series)]

    def _fill_history(self):
        ids = self.screen("history").ids
        # A RecycleView: a 10-lap race for six has thousands of lines, more than one texture can hold.
        ids.lines.data = [{"text": t} for t in self.view.history_lines()] if self.view is not None else []
        ids.lines.scroll_y = 0  # the latest at the bottom, in view

    def _fill_saved(self):
        ids = self.screen("saved").ids
        games = storage.saved_games()
        self.saved_list = games
        ids.games.clear_widgets()
        ids.saved_message.text = "" if games else "No saved games yet: every race is saved as it is played."
        for g in games:
            players = ("Formula 5: " if g.game == "F5" else "") + (", ".join(g.players) or "players unknown")
            if g.error:
                state, detail = "DAMAGED", "Cannot be opened: %s" % g.error
            elif g.finished:
                state = "FINISHED"
                detail = "%d rounds  ·  last played %s" % (g.round, when_text(g.last_played))
            else:
                state = "IN PROGRESS"
                detail = "round %d  ·  last played %s" % (g.round, when_text(g.last_played))
            row = SavedGameRow(path=g.path, players=players, detail=detail, state=state,
                               finished=bool(g.finished), error=g.error or "")
            if g.game == "F5" and g.finished:
                row.ids.open.disabled = True  # a finished Formula 5 game has no results screen
            ids.games.add_widget(row)

    def open_saved(self, path):
        """Continue a race in progress; a finished one opens to its results, never as in progress."""
        game = next((g for g in self.saved_list if g.path == path), None)
        if game is None or game.error:
            return
        if game.game == "F5":
            self.f5_open()
            if self.f5 is not None and not game.finished:
                self.f5.saved_path = path
                self.f5.resume()
            return
        if not game.finished:
            self.came_from.clear()
            self.resume_game(path)
            return
        if self._open_file(path, self.screen("saved").ids.saved_message):
            self.show("results")

    def ask_delete_saved(self, path):
        game = next((g for g in self.saved_list if g.path == path), None)
        who = ", ".join(game.players) if game is not None and game.players else "this game"
        self.confirm("Delete the saved game of %s? It cannot be brought back." % who,
                     lambda: self.delete_saved(path), yes="Delete")

    def delete_saved(self, path):
        msg = self.screen("saved").ids.saved_message
        try:
            storage.delete_saved_game(path)
        except OSError as e:
            msg.text = "Could not delete it: %s" % e
            return
        self._fill_saved()
        msg.text = "Deleted."

    # ---- for tests and the bench ---------------------------------------------------------------------------
    def screenshot(self, path):
        from kivy.graphics import Color, InstructionGroup, Rectangle

        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        # The window's clear colour is the screens' background (theme.kv): an image of the root needs it drawn.
        bg = InstructionGroup()
        bg.add(Color(*theme.BG))
        bg.add(Rectangle(pos=self.root.pos, size=self.root.size))
        self.root.canvas.before.insert(0, bg)
        try:
            self.root.export_to_png(path)
        finally:
            self.root.canvas.before.remove(bg)
        return path


def _wrapped(text, **kw):
    """A centred label that wraps to its width (a seat card's or the Pico column's)."""
    label = Label(text=text, halign="center", valign="middle", **kw)
    label.bind(size=lambda w, v: setattr(w, "text_size", v))
    return label


def when_text(last_played):
    """A saved game's last play, as a person says it."""
    return time.strftime("%a %d %b, %H:%M", time.localtime(last_played)) if last_played else "?"


def _paint(widget, rgba):
    """A filled background behind a widget, following it."""
    from kivy.graphics import Color, Rectangle

    with widget.canvas.before:
        Color(*rgba)
        rect = Rectangle(pos=widget.pos, size=widget.size)
    widget.bind(pos=lambda w, v: setattr(rect, "pos", v), size=lambda w, v: setattr(rect, "size", v))


def _line_colour(colour):
    # the black car's line would vanish on the dark chart: it is drawn white (its marker and legend say whose)
    return (0.92, 0.92, 0.92, 1) if colour == "black" else ui_logic.RGBA[colour]


def run():
    CompanionApp().run()
