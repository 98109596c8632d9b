"""The pairing screen, both games': each seat gets its dashboard before the game is played.

Each seat (a Formula 1 car, a Formula 5 player's car) gets a Pico, or a virtual dashboard served to its
player's phone (the default: a QR code and an address on its card), or deliberately one on this tablet's
screen, which the whole table can see. Its look is companion/pairing.kv (the screen, a seat's card and its
lines); Pairing, held by the app as app.pairing, fills it from the open game (its referee and its seats) and
starts and stops the virtual dashboards the seats are given.
"""

import os

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion import link_words, pico_setup_view, storage, theme, wifi_form
from companion import virtual as virtual_mod
from companion.clock import app_clock
from companion.phones.seats import PHONE, TABLET  # the server and QR codes are imported when there are phones
from companion.transport import LOST

KV = os.path.join(os.path.dirname(__file__), "pairing.kv")
LINK_WORDS_EVERY_S = 0.5  # how often each card's link words are asked of the transport again


class PairingScreen(Screen):
    pass


class SeatCard(BoxLayout):
    """A seat's card (pairing.kv): its car's button, then what its dashboard is. Tests reach its parts as
    seat_button, virtual_button (the other place for it: this tablet, or a phone) and address."""

    seat = NumericProperty(0)
    player = StringProperty("")
    colour = StringProperty("")
    tone = ListProperty([1, 1, 1, 1])
    ink = ListProperty([0, 0, 0, 1])


def add_screen(sm):
    """The pairing screen, into the app's ScreenManager (its kv rules loaded first, after the theme's)."""
    pico_setup_view.load()  # its panel of Picos to set up (a Pico without the dashboard, or an older one)
    if KV not in Builder.files:
        Builder.load_file(KV)
    screen = PairingScreen(name="pairing")
    screen.pico_setup = pico_setup_view.attach(screen)
    sm.add_widget(screen)


class Pairing:
    """The open game's seats and their dashboards: the pairing screen, and the virtual dashboards started here."""

    def __init__(self, app):
        self.app = app
        self.chosen_dev = None  # the Pico tapped in the list, waiting for the car it goes to
        self.found_sig = None  # what the screen was last filled from (it is redrawn when that changes)
        self.link_lines = {}  # seat -> its card's line saying its link in words (kept up to date at each refresh)
        self.links_said = 0.0  # the app's clock when they were last said

    # The app's parts this works with (the link, the dashboards' ports, the phones' server), as the app has them.
    @property
    def bridge(self):
        return self.app.bridge

    @property
    def ports(self):
        return self.app.ports

    @property
    def phones(self):
        return self.app.phones

    def _firmware_phones(self):
        return self.app.serves_phones()

    def _ids(self):
        return self.app.screen("pairing").ids

    def seats(self):
        """The open game's referee and its seats: [(seat, name, colour name, rgba, ink)]."""
        game = self.app.game_in_play()
        return game.ref, game.pairing_seats()

    def _game_path(self):
        return self.app.game_in_play().path

    def _virtual_dev(self, seat):
        return self.app.game_in_play().VIRTUAL_DEV % (seat + 1)

    def start_virtual(self, dev):
        """The virtual dashboard `dev` of the open game, started on its saved state (None where none can run)."""
        if self.ports is None or not hasattr(self.ports, "add"):
            return None
        return self.ports.add(storage.dashboards_dir(self._game_path()), dev)

    def _place(self, seat):
        return self.phones.place(seat) if self.phones is not None else TABLET

    def sync_phones(self):
        """Serve to phones the seats placed on one that have no Pico (each phone runs its seat's firmware)."""
        if self.phones is None or not self.phones.ready():
            return
        self.phones.sync(self.phones.seats_to_serve(*self.seats()))

    def found(self):
        """The list's "Picos found": [(dev, status)] of the dashboards linked now that are no virtual one and no
        phone on its seat's card. A dashboard the link has lost is not plugged in (a phone of an earlier game, a
        Pico unplugged): a Pico paired here still shows on its seat's card, and is listed again once it is back."""
        phones = self.phones.on_phones() if self._firmware_phones() else set()  # on their seats' cards
        return [(dev, status) for dev, status in self.bridge.dashboards()
                if status != LOST and not virtual_mod.is_virtual(dev) and dev not in phones]

    def refresh(self, force=False):
        if force and self._firmware_phones():
            self.sync_phones()  # its seats' pages and link sockets are served from the pairing screen on
        ids = self._ids()
        ref, seats = self.seats()
        found = self.found()
        places = tuple(self._place(seat) for seat, *_ in seats)
        online = tuple(self.phones.connected(seat) if self.phones is not None else 0 for seat, *_ in seats)
        sig = (tuple(found), tuple(sorted(ref.pairs.items())), self.chosen_dev, places, online)
        if sig == self.found_sig and not force:
            self._say_links(ref)
            return
        self.found_sig = sig
        ids.go.text = "%s: the cars without a Pico get their dashboards on the phones (or here)" % (
            "Start" if self.app.f5 is not None else "Race")
        ids.found.clear_widgets()
        names = {s: n for s, n, *_ in seats}
        for dev, status in found:
            seat = ref.seat_of(dev)
            label = "%s  (%s)%s" % (dev, status, "  -> %s" % names[seat] if seat in names else "")
            b = Factory.PicoChoice(text=label, state="down" if dev == self.chosen_dev else "normal")
            b.bind(on_release=lambda w, dev=dev: self.choose_dashboard(dev))
            ids.found.add_widget(b)
            wifi_form.add_lines(self, ids.found, dev)  # its Wi-Fi, and a Pico W's form
        notes = [] if found else [("No Pico plugged in yet: plug one in, or play on phones.", theme.MUTED)]
        if self.phones is not None and self.phones.problem:
            notes.append((self.phones.problem, theme.BAD))
        for text, colour in notes:
            ids.found.add_widget(Factory.SeatLine(text=text, color=colour))
        ids.seats.clear_widgets()
        self.link_lines = {}
        self.links_said = 0.0  # new cards: their words at once
        for (seat, name, colour, rgba, ink), online_now in zip(seats, online, strict=True):
            ids.seats.add_widget(self.seat_card(ref, seat, name, colour, rgba, ink, online_now))
        self._say_links(ref)

    def link_words(self, dev):
        """Dashboard `dev`'s link in words (companion/link_words.py): which way (USB, Wi-Fi, phone, this tablet)
        and how well."""
        transport = getattr(self.app, "transport", None)
        if transport is None or not hasattr(transport, "link_info"):
            return ""
        return link_words.of(transport, getattr(self.app, "links", None), dev, virtual_mod.is_virtual(dev))

    def _say_links(self, ref):
        now = app_clock().now()  # the app's one clock: a test steps it
        if now - self.links_said < LINK_WORDS_EVERY_S:
            return  # the words change once a second at most (companion/link_words.py); the tick is 30 a second
        self.links_said = now
        for seat, line in self.link_lines.items():
            dev = ref.pairs.get(seat)
            line.text = self.link_words(dev) if dev is not None else ""

    def seat_card(self, ref, seat, name, colour, rgba, ink, online):
        """A seat's card: its car's button (pairing.kv), then its Pico, or its phone's QR code and address, or
        what its dashboard on this tablet means; and the other place its dashboard can go."""
        card = SeatCard(seat=seat, player=name, colour=colour, tone=rgba, ink=ink)
        card.address = None
        dev = ref.pairs.get(seat)
        other = None
        phone = self._firmware_phones() and dev is not None and dev == self.phones.phone_dev(seat)
        if dev is not None and not virtual_mod.is_virtual(dev) and not phone:
            card.add_widget(Factory.SeatLine(text="Pico %s\n(%s)" % (dev, self.bridge.status.get(dev, "lost"))))
        elif self._place(seat) == PHONE and self.phones is not None and self.phones.ready():
            from companion.phones.qr import qr_texture

            url = self.phones.address(seat)
            card.add_widget(Factory.SeatQr(texture=qr_texture(url)))
            address = Factory.SeatLine(text=url)
            card.add_widget(address)
            card.address = address
            card.add_widget(Factory.SeatLine(text="phone connected" if online else "scan with the player's phone",
                                             color=theme.GO if online else theme.MUTED))
            if virtual_mod.available():  # a dashboard on this tablet's screen needs the unix port
                other = Factory.SeatChoice(text="Show it on this tablet instead")
                other.bind(on_release=lambda w: self.give_virtual(seat))
        elif not virtual_mod.available():
            card.add_widget(Factory.SeatLine(text="Needs a Pico: this tablet cannot run virtual dashboards (nor "
                                                  "phones)", color=theme.WARN))
        else:
            card.add_widget(Factory.SeatLine(text="On this tablet's screen: its cards covered, shown while a finger "
                                                  "is held on them", color=theme.WARN))
            if self.phones is not None and self.phones.ready():
                other = Factory.SeatChoice(text="Use a phone")
                other.bind(on_release=lambda w: self.give_phone(seat))
        if dev is not None:
            line = Factory.LinkLine()
            card.add_widget(line)
            self.link_lines[seat] = line
        if other is not None:
            card.add_widget(other)
        card.seat_button, card.virtual_button = card.ids.give, other
        return card

    def choose_dashboard(self, dev):
        self.chosen_dev = None if self.chosen_dev == dev else dev
        self.refresh(force=True)

    def give(self, seat):
        """The dashboard chosen in the list (a Pico) goes to this seat; a virtual one the seat had is stopped."""
        msg = self._ids().pair_message
        ref, seats = self.seats()
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
        self.refresh(force=True)

    def give_virtual(self, seat):
        """A virtual dashboard for this seat, started now, on this tablet's screen (chosen deliberately: the table
        could look when its player does)."""
        msg = self._ids().pair_message
        ref, seats = self.seats()
        dev = ref.pairs.get(seat)
        if dev is None or not virtual_mod.is_virtual(dev):
            dev = self._virtual_dev(seat)
        if self.start_virtual(dev) is None:
            msg.text = "Virtual dashboards need the micropython command."
            return
        if self.phones is not None and self.phones.seats is not None:
            self.phones.set_place(seat, TABLET)
        if ref.pairs.get(seat) != dev:
            ref.pair(seat, dev)
        self.bridge.push()
        names = {s: n for s, n, *_ in seats}
        msg.text = ("%s's dashboard is on this tablet: its cards are covered; %s holds a finger on them to look, "
                    "so the table may see them too." % (names[seat], names[seat]))
        self.sync_phones()
        self.refresh(force=True)

    def give_phone(self, seat):
        """Back to the phone (the default): its QR code again; the dashboard on this tablet's screen stops and the
        seat waits for its phone, which links and is paired by itself (the table keeps the car meanwhile)."""
        self.phones.set_place(seat, PHONE)
        self.phones.leave_tablet(seat, self.seats()[0], self.ports)
        self._ids().pair_message.text = ""
        self.sync_phones()
        self.refresh(force=True)

    def give_the_rest(self):
        """Every seat placed on this tablet still without a dashboard gets one on its screen (a seat on a phone waits
        for its phone: it links and is paired by itself)."""
        if not virtual_mod.available():
            return
        ref, seats = self.seats()
        for seat, *_ in seats:
            if seat not in ref.pairs and self._place(seat) == TABLET:
                self.give_virtual(seat)

    def start(self):
        """The screen's Go: the game begins (the seats still without a dashboard get theirs)."""
        self.app.game_in_play().begin()

    def close_dashboards(self):
        """The open game's virtual dashboards stop and its phones are told; their state stays with it. What the
        pairing screen said of that game goes with it (a new game's has other players)."""
        if getattr(self.app, "sm", None) is not None:
            self._ids().pair_message.text = ""
        self.chosen_dev = None
        if self.ports is not None and hasattr(self.ports, "virtual"):
            self.ports.stop()
        if self.phones is not None:
            self.phones.close_game()

    def press(self, dev, button):
        """A tap on a virtual dashboard's button drawn on this tablet (either game's). OK on a covered hand that
        its player has not looked at asks first: it would play a card nobody saw chosen."""
        d = self.ports.virtual.get(dev) if self.ports is not None and dev else None
        if d is None:
            return
        oled = getattr(self.app.game_in_play(), "oleds", {}).get(dev)
        if button == "OK" and oled is not None and oled.unseen():
            self.app.confirm("Play the card chosen on this covered dashboard without looking? Hold a finger on its "
                             "screen to see it first.", lambda: d.tap(button), yes="Play it", no="Look first")
            return
        d.tap(button)
