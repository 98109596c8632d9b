"""The Kivy app's shell, both games': its life cycle (build, start, stop, the link and the Clock) and navigation.

Its parts, each a module of its own:
- companion/game_choice.py: the first screen, and where leaving either game lands: Continue (the game played
  last, Formula 1 or Formula 5), a new Formula 1 race, a new Formula 5 game, Saved games;
- companion/pairing.py: the pairing screen, both games' (each seat's dashboard: a Pico, a phone, this tablet);
- companion/saved_games.py: the Saved games screen;
- each game a folder with a controller the app holds: Formula 1's F1Controller (companion/f1/screens.py: its
  setup form, race, results and history) from the start, Formula 5's F5Controller (companion/f5/screens.py)
  while it is chosen; the game played gets the Clock tick after the link is polled. Both games' referees extend
  companion/referee_base.py.

Thin on purpose: rules and bookkeeping are in each game's referee, what the screens show in its view.py, the
look is companion.theme, the link runs on the transport's threads and reaches us through LinkBridge.poll() on
the Clock. Nothing here blocks: the game log appends are single small SQLite transactions.

Navigation: Back (Escape, Android's Back) goes back one screen; leaving a race, starting a new one over it and
quitting are asked first; nothing quits without asking.
"""

import importlib
import importlib.util
import os
import threading
import time

from companion import renderer  # first: it sets Kivy's Config before the window opens
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from companion import game_choice, pairing, saved_games, theme
from companion.clock import app_clock
from companion.navigation import BackStack
from companion import virtual as virtual_mod
from companion.double_tap import DoubleTapGuard
from companion.f1 import screens as f1_screens
from companion.link_bridge import LinkBridge
from companion.transport import AllPorts, Transport, on_android
from companion.transport.websocket_backend import LinkPorts
from companion.widgets import (  # noqa: F401  (the kv files use some)
    Confirm,
    OledView,
    RaceButton,
    ToggleRaceButton,
    VirtualDash,
)

Builder.load_file(os.path.join(os.path.dirname(__file__), "theme.kv"))  # before companion.kv, which uses it

POLL_S = 1 / 30.0
KEY_BACK = 27  # Escape on a keyboard, Back on Android


class Screens(ScreenManager):
    """The app's screen manager, drawn without Kivy's clipping stencil (theme.kv says why)."""


class SetupScreen(Screen):
    pass


class CompanionApp(App):
    title = "Formula 1 companion"
    icon = os.path.join(os.path.dirname(os.path.abspath(__file__)), "icons", "formula1.png")  # tools/app_icon.py
    scale = NumericProperty(1.0)  # theme sizes for this window (companion/theme.py scale_for)
    compact = BooleanProperty(False)  # a short window (the 7-inch 800x480 display): the screens drop what can wait

    def __init__(self, transport=None, ports=None, **kw):
        super().__init__(**kw)
        self.ports = ports
        self.transport = transport
        self.bridge = None
        self.clock = app_clock()  # every timer's time, Kivy's Clock's too (companion/clock.py): a test steps it
        self.nav = BackStack()  # where Back leads, from every screen of the shell and both games
        self.popup = None  # the open Confirm, if any
        self.pairing = pairing.Pairing(self)  # the seats' dashboards: the pairing screen (companion/pairing.py)
        self.saved = saved_games.SavedGames(self)  # the Saved games screen (companion/saved_games.py)
        self.choice = game_choice.GameChoice(self)  # the first screen: which game (companion/game_choice.py)
        self.first_frame = None  # set when the game choice has been drawn once (cold start figure)
        self.f1 = f1_screens.F1Controller(self)  # Formula 1: what the setup screen sets up, and its race
        self.f5 = None  # while Formula 5 is chosen: its screens' controller (companion/f5/screens.py)
        self.phones = None  # the phones' web server (companion/phones): each seat's firmware page and link socket
        self.links = None  # the phones' link sockets as ports of the transport (made with it; None if given one)

    # ---- life cycle ---------------------------------------------------------------------------------
    def build(self):
        Window.clearcolor = theme.BG
        renderer.flush_each_frame(Window)
        self._resize(Window, Window.size)
        Window.bind(size=self._resize, on_keyboard=self._key, on_request_close=self._close_asked)
        self.tap_guard = DoubleTapGuard(self.clock)  # a double tap's second tap never presses what its first put there
        Window.bind(on_touch_down=self.tap_guard.on_touch_down, on_touch_up=self.tap_guard.on_touch_up)
        # Kivy has already loaded companion.kv (the App's name, from this folder) before build().
        sm = Screens(transition=NoTransition())
        game_choice.add_screen(sm)  # the first added is the first shown
        sm.add_widget(SetupScreen(name="setup"))
        pairing.add_screen(sm)
        saved_games.add_screen(sm)
        f1_screens.add_screens(sm)
        from companion.f5 import screens as f5_screens

        f5_screens.add_screens(sm)
        self.sm = sm
        self.f1.fill_setup()
        self.f1.make_race_controls()
        return sm

    def _resize(self, _w, size):
        self.scale = theme.scale_for(*size)  # the kv rules follow app.scale; what Python made is made again
        self.compact = size[1] < theme.COMPACT_BELOW_PX
        self.f1.resized()

    def on_start(self):
        if self.ports is None:
            self.ports = virtual_mod.VirtualPorts(real=not on_android()) if virtual_mod.available() else None
        if self.transport is None:
            # The phones' link sockets are dashboard ports beside the USB ones (the phones' server feeds them)
            self.links = LinkPorts()
            if self.ports is not None:
                self.transport = Transport(AllPorts(self.ports, self.links))
            else:
                from companion.transport import open_transport

                self.transport = open_transport(None, self.links)
            self.transport.start()
        self.bridge = LinkBridge(self.transport)
        self.bridge.on_hello = self._phone_linked
        # A tap's commands leave after the frame that shows it (the log's flush to disk goes first: push_soon).
        self.bridge.defer = lambda fn: Clock.schedule_once(lambda _dt: fn(), 0)
        Clock.schedule_interval(self.tick, POLL_S)
        Window.bind(on_flip=self._drawn)
        self._quit_on_sigterm()
        self.choice.look()

    def _quit_on_sigterm(self):
        """SIGTERM (a shutdown, `kill`, a service manager) quits at once, every game saved as always; SDL's own
        handler turned it into the window's close button, which asks the table a question nobody is there to
        answer."""
        import signal

        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
            return
        signal.signal(signal.SIGTERM, lambda *_: Clock.schedule_once(lambda _dt: self._quit(), 0))

    def _drawn(self, *_):
        # The first frame of the game choice is on the screen: a figure of real time, read against the launch by
        # another process (bench/companion_bench.py), so the system's clock and not the app's stepped one.
        self.first_frame = time.monotonic()
        Window.unbind(on_flip=self._drawn)
        if self._phones_possible():  # the phones' server (aiohttp) loads meanwhile, not before the first frame
            threading.Thread(target=lambda: importlib.import_module("companion.phones.table"), daemon=True).start()

    def _phones_possible(self):
        # Each phone runs the firmware itself, linked on its seat's socket, where the phones' server can run (an APK
        # built without aiohttp and segno: Picos only)
        return self.links is not None and phones_server_available()

    def need_phones(self):
        """The phones' server, made when the first game opens: each seat's firmware page and its link socket."""
        if self.phones is None and self._phones_possible():
            from companion.phones.table import Phones

            self.phones = Phones(self.links)
        return self.phones

    def serves_phones(self):
        """Whether the phones' server runs: a car without a Pico may be played on a phone."""
        return self.phones is not None

    def _phone_linked(self, dev):
        """A dashboard said hello (LinkBridge.on_hello): one on a seat's link socket is that seat's phone
        (companion/phones/table.py Phones.linked: paired by the socket's token, never guessed)."""
        if not self.serves_phones() or not self.phones.ready() or self.game_in_play().ref is None:
            return
        if self.phones.linked(dev, self.transport, self.links, *self.pairing.seats()):
            self.bridge.push()
        self.pairing.sync_phones()

    def on_stop(self):
        if self.phones is not None:
            self.phones.stop()  # first: the pages are left to reconnect to this game when it is resumed
        if self.f5 is not None:
            self.f5.close()
        if self.transport is not None:
            self.transport.stop()
        if self.ports is not None and hasattr(self.ports, "stop"):
            self.ports.stop()
        self.f1.close()

    def tick(self, dt):
        if self.bridge is None:
            return
        self.bridge.poll()
        self.game_in_play().tick(dt)

    def show_link_error(self, label):
        """The link's newest error, if there is one, on `label` (the game screen's message line); older ones go."""
        if self.bridge.errors:
            label.text = self.bridge.errors.pop()
            self.bridge.errors.clear()

    def game_in_play(self):
        """The controller of the game being played: Formula 5's while it is chosen, else Formula 1's."""
        return self.f5 if self.f5 is not None else self.f1

    def screen(self, name):
        return self.sm.get_screen(name)

    def show(self, name):
        current = self.sm.current
        if name in ("history", "results", "saved", "pairing"):
            self.nav.opened(name, current)
        if name == "history":
            self.f1.fill_history()
        elif name == "results":
            self.f1.fill_results()
        elif name == "race":
            self.f1.refresh_race(force=True)
        elif name == "pairing":
            self.pairing.refresh(force=True)
        elif name == "saved":
            self.saved.fill()
        elif name == game_choice.NAME:
            self.choice.look()
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
        self.confirm(self._quit_question(), self._quit, yes="Quit")
        return True

    def _quit_question(self):
        game = "Formula 5 game" if self.f5 is not None else "race"
        return "Quit the companion? Every %s stays saved." % game

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
        elif current == game_choice.NAME:
            self.confirm(self._quit_question(), self._quit, yes="Quit")
        elif current == "setup":
            self.show(game_choice.NAME)  # Formula 1's setup: back to the game choice
        elif current == "pairing" and self.f5 is not None:
            self.f5.close()  # back to Formula 5's setup; the game stays saved (its Resume offers it)
            self.f5.open_setup()
        elif current in ("results", "history", "saved", "pairing"):
            target = self.nav.back_from(current) or ("race" if self.f1.view is not None else game_choice.NAME)
            if target == "race" and self.f1.view is None:
                target = game_choice.NAME
            if current == "pairing" and target != "race":
                self.new_game(target)  # the race was never started: back to its setup, its game stays saved
            elif current == "results" and target == "saved":
                self.new_game("saved")
            else:
                self.show(target)
        elif current == "f5setup" and self.f5 is not None:
            self.f5.leave()
        elif current in ("f5table", "f5history", "f5results") and self.f5 is not None:
            self.f5.back()  # its table asks first; its history and results go back to where they were opened
        return self.sm.current

    # ---- the games: opened, left ------------------------------------------------------------------------
    def f5_open(self):
        """Formula 5 chosen: it has screens of its own (companion/f5/screens.py), its setup first."""
        from companion.f5.screens import F5Controller

        self.f5 = F5Controller(self)
        self.f5.open_setup()

    def new_game(self, then=game_choice.NAME):
        """Close the open game (it stays saved) and go to `then`: the game choice (the game is left), Formula 1's
        setup (a new race) or the saved games."""
        self.f1.close()
        if self.bridge is not None:
            self.bridge.attach(None)
        self.pairing.close_dashboards()
        self.nav.clear()
        self.show(then)

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


def phones_server_available():
    """The phones' server and QR codes can be loaded here (aiohttp, segno)."""
    return all(importlib.util.find_spec(name) is not None for name in ("aiohttp", "segno"))


def run():
    CompanionApp().run()
