"""The whole table with every player on a phone: tests/table/table.py's race, each dashboard's line to the tablet
being its seat's link socket instead of a USB cable.

Each seat is the real firmware (firmware/main.py with the host board, on the `micropython` unix port: what a
phone's page runs in its browser) whose serial link, a pty, is carried by a page's WebSocket
(tests/link/ws_page.py, aiohttp's client) to the tablet's phones server (companion/phones/server.py,
GET /<token>/link); the tablet is the phones server, the ordinary Transport over its WebSocket ports
(companion/transport/websocket_backend.py), LinkBridge and Referee. Loopback only.

Its faults are a phone's: the connection breaks (both ends see it) and the page dials again; the phone drops off
the Wi-Fi without a word and dials again on a new connection, which takes the seat from the old one the tablet
still holds; the page is reloaded (the firmware starts again from its saved state, on a new socket); the tablet
app dies and starts again (its server too, on the same port: every page dials again).
"""

import os

from companion.phones.seats import new_token
from companion.phones import server as phones_server
from companion.transport.websocket_backend import LinkPorts
from tests.firmware.dash import VirtualDashboard
from tests.link.ws_page import PageLink, PageLoop
from tests.table.table import NAMES, Seat, Table

PHONE_FAULTS = ("drop", "drop", "vanish", "reload", "reload", "kill_tablet")
LINK_FAULTS = ("drop", "drop", "vanish")  # the Wi-Fi only: nothing restarts


class PhoneSeat(Seat):
    """One player's phone: the firmware on a pty (its page's runtime) and the page's link socket (its cable)."""

    def __init__(self, workdir, dev, pages, url, seed, dashboard=None):  # no Seat.__init__: no relay, no USB
        self.dev = dev
        self.dash = VirtualDashboard(workdir, dev=dev, **(dashboard or {}))
        self.page = PageLink(pages, url, seed)
        self.master = None
        self.tty = None
        self.plug()

    def _attach(self, master):
        self.page.attach(master)  # on the page's loop, before it returns: nothing reads the old pty after this

    def kill(self):
        self.dash.kill()
        self._attach(None)
        if self.master is not None:
            os.close(self.master)
            self.master = None

    def plug(self):
        self.page.plug()

    def unplug(self):
        self.page.unplug()

    def close(self):
        self.unplug()
        self.kill()


class PhoneTable(Table):
    def __init__(self, workdir, seed, players=6, **kw):
        self.pages = PageLoop()
        self.tokens = [new_token() for _ in range(players)]
        self.server = None
        self.web_port = 0
        self._serve()  # bound now: the seats' pages need its address
        kw.setdefault("fault_kinds", PHONE_FAULTS)
        super().__init__(workdir, seed, players=players, **kw)

    def _serve(self):
        """The tablet's phones server (again after a restart: on the same port, with a new set of link ports)."""
        self.server = phones_server.PhoneServer(LinkPorts())
        self.web_port = self.server.start("127.0.0.1", self.web_port)
        self.server.serve({t: phones_server.Seat(t, NAMES[i]) for i, t in enumerate(self.tokens)})

    def _seat(self, i, dashboard):
        url = "http://127.0.0.1:%d/%s/link" % (self.web_port, self.tokens[i])
        return PhoneSeat(self.workdir, "phone-%d" % (i + 1), self.pages, url, self.seed + i, dashboard)

    def _ports(self):
        if self.server is None:
            self._serve()
        return self.server.links

    def _noisy_lines(self):
        pass  # a WebSocket neither corrupts nor reorders: its faults are whole connections (fault())

    def fault(self, kind, s):
        if kind == "drop":
            s.page.drop()
            self.pump(lambda: False, self.frng.uniform(0.0, 1.0))
        elif kind == "vanish":
            s.page.vanish()
            self.pump(lambda: False, self.frng.uniform(0.0, 1.0))
        elif kind == "reload":
            s.unplug()
            s.kill()
            self.pump(lambda: False, self.frng.uniform(0.0, 0.6))
            s.start()
            s.plug()
        else:
            super().fault(kind, s)

    def kill_tablet(self):
        self.server.stop()  # the app's process ends: its server with it (the pages see their sockets close)
        self.server = None
        super().kill_tablet()

    def _cable(self, s):
        w = [k for k, p in self.server.links.ports.items() if p.token == self.tokens[self.seats.index(s)]]
        return "page %s after %d connections; tablet ports %s" % (
            "connected" if s.page.connected() else "dialling" if s.page.wanted else "closed", s.page.connects, w)

    def close(self):
        try:
            super().close()
        finally:
            if self.server is not None:
                self.server.stop()
            self.pages.close()


def run(workdir, seed, **kw):
    """One whole race with every seat on a phone; returns Table.result()."""
    os.makedirs(workdir, exist_ok=True)
    table = PhoneTable(workdir, seed, **kw)
    try:
        table.open()
        return table.play()
    finally:
        table.close()
