"""What the app asks of the phones: the open game's seats, which of them a phone holds, their addresses.

Every phone runs the dashboard's own firmware in its browser (the seat page), linked on its seat's socket: a port
of the transport, paired to its seat by the socket's token. Nothing runs on the tablet for a phone.

    phones = Phones(link_ports)                 # the transport's LinkPorts (companion/transport/websocket_backend.py)
    phones.open_game(storage.dashboards_dir(path))   # its tokens and port, kept with the game
    phones.address(seat)                        # "http://192.168.1.20:8765/<token>/" for the QR code
    phones.sync([(seat, name), ...])            # the seats served to phones now (their pages and link sockets)
    phones.seat_of_token(token); phones.phone_dev(seat); phones.set_phone_dev(seat, dev)   # which seat a link
                                                # socket's token is, the phone (its dashboard id) that holds it
    phones.close_game(); phones.stop()

The same server takes the game's Wi-Fi dashboards (Pico W) on their keys, and while any is paired to the game the
beacon says where the table is (companion/dashboards_wifi.py WifiDashboards: phones.wifi). A Wi-Fi dashboard that
links keeps the seat its dashboard id was given on the pairing screen (its key was made for it there).

The server listens on the tablet's LAN address ($F1_PHONE_HOST to choose another: tests use 127.0.0.1), on
the port the game was first served on, else on the one served last, else on PORT ($F1_PHONE_PORT; 0 = any).
"""

import os

from companion.dashboards_wifi import WifiDashboards, table_id
from companion.phones.seats import PHONE, TABLET, PhoneSeats
from companion.phones.server import LEFT, PhoneServer, Seat, lan_address

PORT = 8765

__all__ = ["PHONE", "TABLET", "Phones"]


class Phones:
    def __init__(self, links, host=None, files=None, table=None, beacon_to=None):
        """links: the transport's LinkPorts: the seats' link sockets (GET /<token>/link) are served into it.
        files: the seat page's files, made by the server when not given (tests share one set).
        table: this table's id (default: the install's, kept in the per-user data folder); beacon_to: where the
        beacon goes (default: the LAN's broadcast address; loopback when the server is on loopback)."""
        self.server = PhoneServer(links, files)
        self.table = table
        self.beacon_to = beacon_to
        self.wifi = None  # WifiDashboards, made with the first game
        self.host_given = host or os.environ.get("F1_PHONE_HOST")
        self.host = self.host_given or lan_address()
        self.preferred = int(os.environ.get("F1_PHONE_PORT", PORT))
        self.seats = None  # PhoneSeats of the open game
        self.served = {}  # seat -> its player's name, the seats served to phones now
        self.problem = ""  # why phones cannot be served, for the pairing screen

    def open_game(self, folder):
        self.close_game()
        self.seats = PhoneSeats(folder)
        if not self.host_given:
            self.host = lan_address()  # looked up again: the Wi-Fi may have come (or changed) since the start
        wanted = self.seats.port if self.seats.port is not None else (self.server.port or self.preferred)
        try:
            port = self.server.start(self.host, wanted)
        except OSError:
            try:  # taken by another program: any free port (phones of a resumed game scan again)
                port = self.server.start(self.host, 0)
            except OSError as e:
                self.problem = "Phones cannot reach the tablet: %s" % e.strerror
                return
        self.problem = ""
        if self.host.startswith("127."):
            self.problem = ("This tablet is on no network: phones cannot reach it. Join the Wi-Fi, then start "
                            "the game again or resume it.") if not self.host_given else ""
        self.seats.set_port(port)
        # The seats this game had on phones are let in at once: a page linking again to a tablet just restarted is
        # not refused while the game opens (its pairing waits for the game, by the token).
        self.server.serve({e["token"]: Seat(e["token"], holder=e.get("dev")) for e in self.seats.seats.values()
                           if e["place"] == PHONE})
        if self.wifi is None:
            from companion import storage

            self.wifi = WifiDashboards(self.server, self.table or table_id(storage.data_dir()), self.beacon_to)
        self.wifi.open_game(folder, self.host)

    def close_game(self):
        """The table leaves the game (Back, Leave, another game opened): its phones are told so (LEFT), and link
        again when it is continued."""
        self.served = {}
        self.server.serve({}, why=LEFT)
        if self.wifi is not None:
            self.wifi.close_game()
        self.seats = None

    def stop(self):
        """The app ends: the pages are left to reconnect (to this game, resumed, on the same port)."""
        self.served = {}
        self.seats = None
        if self.wifi is not None:
            self.wifi.close_game()
        self.server.stop()

    def ready(self):
        return self.seats is not None and self.server.runner is not None

    def place(self, seat):
        return self.seats.place(seat) if self.seats is not None else PHONE

    def set_place(self, seat, place):
        self.seats.set_place(seat, place)

    def address(self, seat):
        """The seat's page, the firmware's own: "http://<host>:<port>/<token>/"."""
        return "http://%s:%d/%s/" % (self.host, self.server.port, self.seats.token(seat))

    def leave_tablet(self, seat, ref, ports):
        """The seat goes back to a phone: the dashboard its player had on the tablet's screen stops, the seat is
        free for its phone (the referee keeps the car and gives it to the phone once it links)."""
        from companion.virtual import is_virtual

        dev = ref.pairs.get(seat)
        if dev is not None and is_virtual(dev):
            ref.pair(seat, None)
            if ports is not None and hasattr(ports, "remove"):
                ports.remove(dev)

    def linked(self, dev, transport, links, ref, seats):
        """Dashboard `dev` said hello; if on a seat's link socket (links: LinkPorts), it is that seat's phone:
        paired by the socket's token, never guessed. The same phone again (a reload, its Wi-Fi back) changes
        nothing; a new phone on the token takes the seat over. seats: the pairing screen's [(seat, ...)].
        Returns True when the table's pairing changed (the referee resyncs a new pair: push it)."""
        port_of = getattr(transport, "port_of", None)
        token = links.token_of(port_of(dev)) if port_of is not None and links else None
        # A Wi-Fi dashboard's token ("dashboard:<key>") is no phone seat's: it keeps the seat its dashboard id was
        # given on the pairing screen, as a Pico plugged into another port does (the referee pairs dashboard ids).
        seat = self.seat_of_token(token)
        if seat is None or ref is None or seat not in {s for s, *_ in seats} or self.place(seat) != PHONE:
            return False
        if ref.seat_of(dev) not in (None, seat):
            return False  # a dashboard id already another seat's: never moved by a page
        self.set_phone_dev(seat, dev)
        if ref.pairs.get(seat) == dev:
            return False
        ref.pair(seat, dev)  # the table's car goes to it
        return True

    def seat_of_token(self, token):
        return self.seats.seat_of(token) if self.seats is not None else None

    def phone_dev(self, seat):
        """The dashboard id of the phone that holds this seat (None: none yet)."""
        return self.seats.dev(seat) if self.seats is not None else None

    def set_phone_dev(self, seat, dev):
        self.seats.set_dev(seat, dev)

    def seats_to_serve(self, ref, seats):
        """Of the pairing screen's seats [(seat, name, ...)], those a phone may hold now: placed on a phone, with no
        dashboard yet or this seat's own phone's (not a Pico's, not one on the tablet's screen): [(seat, name)]."""
        return [(seat, name) for seat, name, *_ in seats if self.place(seat) == PHONE
                and ref.pairs.get(seat) in (None, self.phone_dev(seat))]

    def sync(self, seats):
        """Serve exactly these seats to phones: [(seat, its player's name)]."""
        if not self.ready():
            return
        self.served = dict(seats)
        self.server.serve({self.seats.token(seat): Seat(self.seats.token(seat), name, self.seats.dev(seat))
                           for seat, name in seats})

    def on_phones(self):
        """The dashboards (ids) a phone holds: the tablet must not draw them."""
        if self.seats is None:
            return set()
        return {entry["dev"] for entry in self.seats.seats.values() if entry.get("dev")}

    def connected(self, seat):
        """A page's link socket is open on this seat now."""
        return self.seats is not None and self.seats.token(seat) in self.server.connected()
