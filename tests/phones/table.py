"""The tablet's parts, wired as companion/app.py wires them but without its window: the phones' server on
loopback (each seat's firmware page and its link socket), the transport over the link sockets, the Formula 1
referee with its log, a phone paired to its seat by its socket's token (Phones.linked, as the app does on a
hello). Nothing runs on the tablet for a phone. A thread polls the link bridge as the app's Clock does.

    t = Table(tmp_path).start()           # a new 2-car race, every seat on a phone
    t.urls[seat]; t.ref; t.paired(seat)   # the seat's page address; the dashboard id of the phone it is paired to
    t.on_table(fn)                         # fn run on the table's thread, as the app runs it on its UI thread
    t.stop()                               # as if the app were killed: its files stay
    Table(tmp_path, path=t.path).start()   # resumed from them: the same addresses on the same port
"""

import queue
import threading
import time

from companion import storage
from companion.f1 import view as f1_view
from companion.f1.referee import Referee
from companion.link_bridge import LinkBridge
from companion.phones import assets
from companion.phones import table as phone_table
from companion.transport import AllPorts, NoPorts, Transport
from companion.transport.websocket_backend import LinkPorts
from tests.link.harness import FAST
from tests.wait import poll


_FILES = []


def seat_page_files():
    """The seat page's files, made once for every Table of this process (mpy-cross takes seconds; the app makes them
    at each start, the tests need them once), before any page asks for them."""
    if not _FILES:
        _FILES.append(assets.Assets())
    return _FILES[0]


class Table:
    def __init__(self, tmp_path, players=2, seed=7, path=None, laps=None):
        self.tmp = tmp_path
        self.players = players
        self.seed = seed
        self.laps = laps
        self.path = path
        self.ref = None
        self.urls = {}
        self.running = False
        self.polls = 0  # passes of the bridge poll (the app's Clock) so far

    def start(self):
        self.links = LinkPorts()
        self.transport = Transport(AllPorts(NoPorts(), self.links), FAST)
        self.transport.start()
        self.bridge = LinkBridge(self.transport)
        self.phones = phone_table.Phones(self.links, host="127.0.0.1", files=seat_page_files())
        self.running = True
        self.calls = queue.Queue()
        self.ready = threading.Event()
        self.failed = None
        self.poller = threading.Thread(target=self._run, daemon=True)  # the app's UI thread: SQLite is its own
        self.poller.start()
        self.ready.wait(30)
        if self.failed is not None:
            raise self.failed
        return self

    def seats(self):
        """The pairing screen's seats: [(seat, name)]."""
        return [(seat, name) for seat, name in enumerate(self.ref.race.names)]

    def _hello(self, dev):
        if self.phones.linked(dev, self.transport, self.links, self.ref, self.seats()):
            self.bridge.push()
        self.phones.sync(self.phones.seats_to_serve(self.ref, self.seats()))

    def _open(self):
        if self.path is None:
            self.tmp.mkdir(parents=True, exist_ok=True)
            self.path = str(self.tmp / "race.db")
            form = f1_view.SetupForm()
            form.set_count(self.players)
            if self.laps is not None:
                form.set_laps(self.laps)
            self.ref = form.start(self.path, seed=self.seed)
        else:
            self.ref = Referee.open(self.path)
        self.bridge.attach(self.ref)
        self.bridge.on_hello = self._hello
        self.phones.open_game(storage.dashboards_dir(self.path))
        self.urls = {seat: self.phones.address(seat) for seat, _ in self.seats()}
        self.phones.sync(self.phones.seats_to_serve(self.ref, self.seats()))

    def _run(self):
        try:
            self._open()
        except Exception as e:
            self.failed = e
            return
        finally:
            self.ready.set()
        while self.running:
            self.bridge.poll()
            self.polls += 1
            while not self.calls.empty():
                fn, done = self.calls.get()
                done.append(fn())
            time.sleep(0.01)  # the app's Clock period: this thread pumps the bridge, it waits for nothing
        self.ref.close()

    def on_table(self, fn, timeout=30):
        """fn() run on the table's thread between two polls (never in the middle of a hello's pairing, as on the
        app's UI thread); its result."""
        done = []
        self.calls.put((fn, done))
        self.wait(lambda: done, timeout, what="a call on the table's thread")
        return done[0]

    def paired(self, seat):
        """The dashboard id the seat is paired to (its phone's), None while no phone has linked on it."""
        return self.ref.pairs.get(seat)

    def wait(self, pred, timeout=30, what="the table"):
        if not poll(pred, timeout, 0.02):
            raise TimeoutError("%s: condition not met" % what)

    def stop(self):
        self.running = False
        self.poller.join(2)
        self.phones.stop()
        self.transport.stop()
