"""What the app asks of the phones: the open game's seats, which of them a phone holds, their addresses.

    phones = Phones(ports)                      # ports: companion.virtual.VirtualPorts (frames come from it)
    phones = Phones(None, links=link_ports)     # no virtual dashboards on this tablet: each phone runs the
                                                # firmware itself (firmware_pages), linked on its seat's socket
    phones.open_game(storage.dashboards_dir(path))   # its tokens and port, kept with the game
    phones.address(seat)                        # "http://192.168.1.20:8765/<token>" for the QR code (the
                                                # firmware's seat page: ".../<token>/")
    phones.sync([(seat, dev, name, colour, rgb), ...])   # the seats on phones now (dev None: not running yet)
    phones.seat_of_token(token); phones.phone_dev(seat); phones.set_phone_dev(seat, dev)   # firmware pages:
                                                # which seat a link socket's token is, the phone that holds it
    phones.close_game(); phones.stop()

The server listens on the tablet's LAN address ($F1_PHONE_HOST to choose another: tests use 127.0.0.1), on
the port the game was first served on, else on the one served last, else on PORT ($F1_PHONE_PORT; 0 = any).
"""

import os

from companion.phones.seats import PHONE, TABLET, PhoneSeats
from companion.phones.server import PhoneServer, Seat, lan_address

PORT = 8765

__all__ = ["PHONE", "TABLET", "Phones"]


class Phones:
    def __init__(self, ports, host=None, links=None):
        """links: the transport's LinkPorts (companion/transport/websocket_backend.py): the seats' link sockets
        (GET /<token>/link) are served into it; None, not served."""
        self.ports = ports
        # Without virtual dashboards (no `micropython` on this tablet) a seat's phone runs the firmware itself
        self.firmware_pages = ports is None and links is not None
        self.server = PhoneServer(lambda dev: ports.virtual.get(dev) if ports is not None else None, page_colours(),
                                  links)
        if ports is not None:
            ports.on_frame = self.server.frame
            for d in ports.virtual.values():
                d.on_frame = self.server.frame
        self.host_given = host or os.environ.get("F1_PHONE_HOST")
        self.host = self.host_given or lan_address()
        self.preferred = int(os.environ.get("F1_PHONE_PORT", PORT))
        self.seats = None  # PhoneSeats of the open game
        self.served = {}  # seat -> dev (None while its dashboard is not running) of the seats on phones now
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
        # The seats this game had on phones are let in at once: a page reconnecting to a tablet just restarted
        # waits there for its dashboard rather than being refused while the game opens.
        self.server.serve({e["token"]: Seat(e["token"]) for e in self.seats.seats.values() if e["place"] == PHONE})

    def close_game(self):
        self.served = {}
        self.server.serve({})
        self.seats = None

    def stop(self):
        """The app ends: the pages are left to reconnect (to this game, resumed, on the same port)."""
        self.served = {}
        self.seats = None
        self.server.stop()

    def ready(self):
        return self.seats is not None and self.server.runner is not None

    def place(self, seat):
        return self.seats.place(seat) if self.seats is not None else PHONE

    def set_place(self, seat, place):
        self.seats.set_place(seat, place)

    def address(self, seat):
        """The seat's page: the firmware's own (".../<token>/") where phones run it, else the mirrored one."""
        return "http://%s:%d/%s%s" % (self.host, self.server.port, self.seats.token(seat),
                                      "/" if self.firmware_pages else "")

    def seat_of_token(self, token):
        return self.seats.seat_of(token) if self.seats is not None else None

    def phone_dev(self, seat):
        """The dashboard id of the phone that holds this seat (firmware pages; None: none yet)."""
        return self.seats.dev(seat) if self.seats is not None else None

    def set_phone_dev(self, seat, dev):
        self.seats.set_dev(seat, dev)

    def sync(self, seats):
        """Serve exactly these seats to phones: [(seat, dev or None, name, colour name, "#rrggbb")]."""
        if not self.ready():
            return
        self.served = {seat: dev for seat, dev, _n, _c, _r in seats}
        self.server.serve({self.seats.token(seat): Seat(self.seats.token(seat), dev, name, colour, rgb)
                           for seat, dev, name, colour, rgb in seats})

    def on_phones(self):
        """The dashboards (devs) a phone shows: the tablet must not draw them."""
        phones = {dev for dev in self.served.values() if dev}
        if self.seats is not None:
            phones |= {entry["dev"] for entry in self.seats.seats.values() if entry.get("dev")}
        return phones

    def connected(self, seat):
        return self.seats is not None and self.seats.token(seat) in self.server.connected()


def page_colours():
    """The page's colours, from the one theme (companion/theme.py)."""
    from companion import theme

    names = ("BG", "INK", "BUTTON", "BUTTON_DOWN", "WARN", "OLED_ON", "OLED_OFF")
    return {name: rgb_hex(getattr(theme, name)) for name in names}


def rgb_hex(rgba):
    return "#%02x%02x%02x" % tuple(int(round(c * 255)) for c in rgba[:3])
