"""The Kivy app's shell, both games': setup, pairing, saved games, navigation, the link and the Clock.

Each game is a folder with a controller the app holds: Formula 1's F1Controller (companion/f1/screens.py: its
setup form, race, results and history) from the start, Formula 5's F5Controller (companion/f5/screens.py) while
it is chosen; the game played gets the Clock tick after the link is polled.

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

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from companion import storage, theme
from companion import virtual as virtual_mod
from companion.double_tap import DoubleTapGuard
from companion.f1 import screens as f1_screens
from companion.link_bridge import LinkBridge
from companion.phones.seats import PHONE, TABLET  # the server and QR codes are imported when there are phones
from companion.transport import AllPorts, Transport, on_android
from companion.transport.websocket_backend import LinkPorts
from companion.widgets import (  # noqa: F401  (the kv files use some)
    Confirm,
    OledView,
    paint,
    RaceButton,
    SavedGameRow,
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


class PairingScreen(Screen):
    pass


class SavedGamesScreen(Screen):
    pass


class CompanionApp(App):
    title = "Formula 1 companion"
    scale = NumericProperty(1.0)  # theme sizes for this window (companion/theme.py scale_for)
    compact = BooleanProperty(False)  # a short window (the 7-inch 800x480 display): the screens drop what can wait

    def __init__(self, transport=None, ports=None, **kw):
        super().__init__(**kw)
        self.ports = ports
        self.transport = transport
        self.bridge = None
        self.chosen_dev = None
        self.found_sig = None
        self.came_from = {}  # screen -> the screen Back returns to
        self.popup = None  # the open Confirm, if any
        self.saved_list = []
        self.saved_path = None
        self.first_frame = None  # set when the setup screen has been drawn once (cold start figure)
        self.f1 = f1_screens.F1Controller(self)  # Formula 1: what the setup screen sets up, and its race
        self.f5 = None  # while Formula 5 is chosen: its screens' controller (companion/f5/screens.py)
        self.phones = None  # the phones' web server (companion/phones), with virtual dashboards to serve
        self.links = None  # the phones' link sockets as ports of the transport (made with it; None if given one)

    # ---- life cycle ---------------------------------------------------------------------------------
    def build(self):
        Window.clearcolor = theme.BG
        self._resize(Window, Window.size)
        Window.bind(size=self._resize, on_keyboard=self._key, on_request_close=self._close_asked)
        self.tap_guard = DoubleTapGuard()  # a double tap's second tap never presses what its first put there
        Window.bind(on_touch_down=self.tap_guard.on_touch_down, on_touch_up=self.tap_guard.on_touch_up)
        # Kivy has already loaded companion.kv (the App's name, from this folder) before build().
        sm = Screens(transition=NoTransition())
        for cls, name in ((SetupScreen, "setup"), (PairingScreen, "pairing"), (SavedGamesScreen, "saved")):
            sm.add_widget(cls(name=name))
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
        Clock.schedule_interval(self.tick, POLL_S)
        Window.bind(on_flip=self._drawn)
        self._quit_on_sigterm()
        self._look_for_saved_games()

    def _quit_on_sigterm(self):
        """SIGTERM (a shutdown, `kill`, a service manager) quits at once, every game saved as always; SDL's own
        handler turned it into the window's close button, which asks the table a question nobody is there to
        answer."""
        import signal

        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
            return
        signal.signal(signal.SIGTERM, lambda *_: Clock.schedule_once(lambda _dt: self._quit(), 0))

    def _drawn(self, *_):
        self.first_frame = time.monotonic()  # the first frame of the setup screen is on the screen
        Window.unbind(on_flip=self._drawn)
        if self._phones_possible():  # the phones' server (aiohttp) loads meanwhile, not before the first frame
            threading.Thread(target=lambda: importlib.import_module("companion.phones.table"), daemon=True).start()

    def _mirrors(self):
        """Phones mirror virtual dashboards run on this tablet (where `micropython` is)."""
        return self.ports is not None and hasattr(self.ports, "virtual")

    def _phones_possible(self):
        # Without virtual dashboards the phones run the firmware themselves, linked on their seats' sockets, where
        # the phones' server can run (an APK built without aiohttp and segno: Picos only)
        return self._mirrors() or self.links is not None and phones_server_available()

    def need_phones(self):
        """The phones' server, made when the first game opens: mirroring this tablet's virtual dashboards, or
        (no `micropython` here) serving each seat the firmware's own page and its link socket."""
        if self.phones is None and self._phones_possible():
            from companion.phones.table import Phones

            self.phones = Phones(self.ports if self._mirrors() else None, links=self.links)
        return self.phones

    def _firmware_phones(self):
        return self.phones is not None and self.phones.firmware_pages

    def _phone_linked(self, dev):
        """A dashboard said hello (LinkBridge.on_hello): one on a seat's link socket is that seat's phone. Paired
        by the socket's token, never guessed; the same phone again (a reload, its Wi-Fi back) changes nothing; a
        new phone on the token takes the seat over."""
        if not self._firmware_phones() or self.links is None:
            return
        port_of = getattr(self.transport, "port_of", None)
        seat = self.phones.seat_of_token(self.links.token_of(port_of(dev))) if port_of is not None else None
        ref = self._game().ref
        if seat is None or ref is None or seat not in {s for s, *_ in self._pairing()[1]}:
            return
        if ref.seat_of(dev) not in (None, seat):
            return  # a dashboard id already another seat's: never moved by a page
        self.phones.set_phone_dev(seat, dev)
        if ref.pairs.get(seat) != dev:
            ref.pair(seat, dev)  # the table's car goes to it (the referee resyncs a new pair)
            self.bridge.push()
        self.sync_phones()

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
        self._game().tick(dt)

    def show_link_error(self, label):
        """The link's newest error, if there is one, on `label` (the game screen's message line); older ones go."""
        if self.bridge.errors:
            label.text = self.bridge.errors.pop()
            self.bridge.errors.clear()

    def _game(self):
        """The controller of the game being played: Formula 5's while it is chosen, else Formula 1's."""
        return self.f5 if self.f5 is not None else self.f1

    def screen(self, name):
        return self.sm.get_screen(name)

    def show(self, name):
        current = self.sm.current
        if name in ("history", "results", "saved", "pairing") and current != name:
            self.came_from[name] = current
        if name == "history":
            self.f1.fill_history()
        elif name == "results":
            self.f1.fill_results()
        elif name == "race":
            self.f1.refresh_race(force=True)
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
        elif current == "setup":
            self.confirm(self._quit_question(), self._quit, yes="Quit")
        elif current == "pairing" and self.f5 is not None:
            self.f5.close()  # back to Formula 5's setup; the game stays saved (its Resume offers it)
            self.f5.open_setup()
        elif current in ("results", "history", "saved", "pairing"):
            target = self.came_from.get(current) or ("race" if self.f1.view is not None else "setup")
            if target == "race" and self.f1.view is None:
                target = "setup"
            if current == "pairing" and target != "race":
                self.new_game()  # the race was never started: back to setup, its game stays saved
            elif current == "results" and target == "saved":
                self.new_game("saved")
            else:
                self.show(target)
        elif current == "f5setup" and self.f5 is not None:
            self.f5.leave()
        elif current in ("f5table", "f5history", "f5results") and self.f5 is not None:
            self.f5.back()  # its table asks first; its history and results go back to where they were opened
        return self.sm.current

    # ---- setup -----------------------------------------------------------------------------------------
    def _look_for_saved_games(self):
        def look():
            found = storage.saved_games()  # both games' (SQLite reads: off the UI thread)
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
        newest = found[0]  # of either game: after a kill, the game played last is the one to continue
        f5 = newest.game == "F5"
        ids.resume.text = "Continue the Formula 5 game" if f5 else "Continue the last race"
        if newest.error:
            ids.resume_note.text = "The last game cannot be resumed: %s" % newest.error
            return
        if newest.finished:
            ids.resume_note.text = "The last %s is over: its results are in Saved games" % (
                "Formula 5 game" if f5 else "race")
            return
        self.saved_path = newest.path
        ids.resume.disabled = False
        ids.resume_note.text = "%s%s  ·  round %d  ·  %s" % (
            "Formula 5: " if f5 else "", ", ".join(newest.players), newest.round, when_text(newest.last_played))

    def f5_open(self):
        """The game choice: Formula 5 has screens of its own (companion/f5/screens.py)."""
        from companion.f5.screens import F5Controller

        self.f5 = F5Controller(self)
        self.f5.open_setup()

    def new_game(self, then="setup"):
        """Close the open game (it stays saved) and go to `then` (setup, or the saved games)."""
        self.f1.close()
        if self.bridge is not None:
            self.bridge.attach(None)
        self.close_dashboards()
        self.came_from.clear()
        self.show(then)

    def close_dashboards(self):
        """The open game's virtual dashboards stop and its phones are told; their state stays with it. What the
        pairing screen said of that game goes with it (a new game's has other players)."""
        if getattr(self, "sm", None) is not None:
            self.screen("pairing").ids.pair_message.text = ""
        self.chosen_dev = None
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
        game = self._game()
        return game.ref, game.pairing_seats()

    def _game_path(self):
        return self._game().path

    def _virtual_dev(self, seat):
        return self._game().VIRTUAL_DEV % (seat + 1)

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
            if self._firmware_phones():  # served while it has no dashboard or its own phone's
                if dev is None or dev == self.phones.phone_dev(seat):
                    served.append((seat, None, name, colour, rgb_hex(rgba)))
                continue
            if self._place(seat) == PHONE and (dev is None or virtual_mod.is_virtual(dev)):
                running = dev if dev is not None and dev in self.ports.virtual else None
                served.append((seat, running, name, colour, rgb_hex(rgba)))
        self.phones.sync(served)

    def refresh_pairing(self, force=False):
        if force and self._firmware_phones():
            self.sync_phones()  # its seats' pages and link sockets are served from the pairing screen on
        ids = self.screen("pairing").ids
        ref, seats = self._pairing()
        phones = self.phones.on_phones() if self._firmware_phones() else set()  # on their seats' cards
        found = [(dev, status) for dev, status in self.bridge.dashboards()
                 if not virtual_mod.is_virtual(dev) and dev not in phones]
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
            ids.found.add_widget(_fitted(text, color=colour))
        ids.seats.clear_widgets()
        for (seat, name, colour, rgba, ink), online_now in zip(seats, online, strict=True):
            ids.seats.add_widget(self._seat_card(ref, seat, name, colour, rgba, ink, online_now))

    def _seat_card(self, ref, seat, name, colour, rgba, ink, online):
        def space(n):
            return theme.space(n, self.scale)

        def font(n):
            return theme.font(n, self.scale)

        # As high as what it holds (every line of the address, both buttons), whatever the window's scale.
        card = BoxLayout(orientation="vertical", size_hint_y=None, spacing=space(3), padding=space(4))
        card.bind(minimum_height=card.setter("height"))
        card.address = None
        paint(card, theme.PANEL)
        give = RaceButton(text="%s  %s" % (colour.upper(), name), tone=rgba, color=ink, size_hint_y=None,
                          height=theme.touch(self.scale))
        give.bind(on_release=lambda w: self.give(seat))
        card.add_widget(give)
        dev = ref.pairs.get(seat)
        other = None
        phone = self._firmware_phones() and dev is not None and dev == self.phones.phone_dev(seat)
        if dev is not None and not virtual_mod.is_virtual(dev) and not phone:
            card.add_widget(_fitted("Pico %s\n(%s)" % (dev, self.bridge.status.get(dev, "lost"))))
        elif self._place(seat) == PHONE and self.phones is not None and self.phones.ready():
            from companion.phones.qr import qr_texture

            url = self.phones.address(seat)
            card.add_widget(Image(texture=qr_texture(url), size_hint_y=None, height=space(90), fit_mode="contain"))
            address = _fitted(url, font_size=font(theme.SMALL - 1))
            card.add_widget(address)
            card.address = address
            card.add_widget(_fitted("phone connected" if online else "scan with the player's phone",
                                    font_size=font(theme.SMALL), color=theme.GO if online else theme.MUTED))
            if virtual_mod.available():  # a dashboard on this tablet's screen needs the unix port
                other = RaceButton(text="Show it on this tablet instead", font_size=font(theme.SMALL + 1),
                                   bold=False, size_hint_y=None, height=theme.touch(self.scale))
                other.bind(on_release=lambda w: self.give_virtual(seat))
        elif not virtual_mod.available():
            card.add_widget(_fitted("Needs a Pico: this tablet cannot run virtual dashboards (nor phones)",
                                    color=theme.WARN))
        else:
            card.add_widget(_fitted("On this tablet's screen: its cards covered, shown while a finger is held on them",
                                    color=theme.WARN))
            if self.phones is not None and self.phones.ready():
                other = RaceButton(text="Use a phone", font_size=font(theme.SMALL + 1), bold=False,
                                   size_hint_y=None, height=theme.touch(self.scale))
                other.bind(on_release=lambda w: self.give_phone(seat))
        if other is not None:
            other.shorten, other.max_lines = False, 2  # its words whole, on two lines where the card is narrow
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
        table could look when its player does) unless place says phone."""
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
            msg.text = ("%s's dashboard is on this tablet: its cards are covered; %s holds a finger on them to look, "
                        "so the table may see them too." % (names[seat], names[seat]))
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
        self._game().begin()

    def press(self, dev, button):
        """A tap on a virtual dashboard's button drawn on this tablet (either game's). OK on a covered hand that
        its player has not looked at asks first: it would play a card nobody saw chosen."""
        d = self.ports.virtual.get(dev) if self.ports is not None and dev else None
        if d is None:
            return
        oled = getattr(self._game(), "oleds", {}).get(dev)
        if button == "OK" and oled is not None and oled.unseen():
            self.confirm("Play the card chosen on this covered dashboard without looking? Hold a finger on its "
                         "screen to see it first.", lambda: d.tap(button), yes="Play it", no="Look first")
            return
        d.tap(button)

    # ---- results, history, saved games -------------------------------------------------------------------
    def _fill_saved(self):
        ids = self.screen("saved").ids
        games = storage.saved_games()
        self.saved_list = games
        ids.games.clear_widgets()
        ids.saved_message.text = "" if games else "No saved games yet: every race is saved as it is played."
        for g in games:
            players = ("Formula 5: " if g.game == "F5" else "") + (", ".join(g.players) or "players unknown")
            if g.error:
                detail = "Cannot be opened: %s" % g.error
            elif g.finished and g.game == "F5" and g.players:
                # the row says how it ended, in the order they finished (Open shows its results)
                detail = "%s won  ·  then %s  ·  last played %s" % (
                    g.players[0], ", ".join(g.players[1:]) or "nobody", when_text(g.last_played))
            elif g.finished:
                detail = "%d rounds  ·  last played %s" % (g.round, when_text(g.last_played))
            else:
                detail = "round %d  ·  last played %s" % (g.round, when_text(g.last_played))
            row = SavedGameRow(path=g.path, players=players, detail=detail, state=g.label(),
                               finished=bool(g.finished), error=g.error or "")
            ids.games.add_widget(row)

    def open_saved(self, path):
        """Continue a race in progress; a finished one opens to its results, never as in progress."""
        game = next((g for g in self.saved_list if g.path == path), None)
        if game is None or game.error:
            return
        if game.game == "F5":
            self.f5_open()
            if self.f5 is not None and game.finished:
                self.f5.open_results(path)  # its places and what decided them (companion/f5/screens.py)
            elif self.f5 is not None:
                self.f5.saved_path = path
                self.f5.resume()
            return
        if not game.finished:
            self.came_from.clear()
            self.f1.resume(path)
            return
        if self.f1.open_file(path, self.screen("saved").ids.saved_message):
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


def phones_server_available():
    """The phones' server and QR codes can be loaded here (aiohttp, segno)."""
    return all(importlib.util.find_spec(name) is not None for name in ("aiohttp", "segno"))


def _fitted(text, **kw):
    """A centred label that wraps to its card's width and is as high as its lines (none lost, descenders kept)."""
    label = Label(text=text, halign="center", valign="middle", size_hint_y=None, **kw)
    label.bind(width=lambda w, v: setattr(w, "text_size", (v, None)))
    label.bind(texture_size=lambda w, v: setattr(w, "height", v[1] + dp(4)))
    return label


def when_text(last_played):
    """A saved game's last play, as a person says it."""
    return time.strftime("%a %d %b, %H:%M", time.localtime(last_played)) if last_played else "?"


def run():
    CompanionApp().run()
