"""The tablet's parts, wired as companion/app.py wires them but without its window: virtual dashboards (the real
firmware on the micropython unix port), the link over their ptys, the Formula 1 referee with its log, and the
phones' server on loopback. A thread polls the link bridge as the app's Clock does.

    t = Table(tmp_path).start()           # a new 2-car race, every seat on a phone
    t.urls[seat]; t.dash(seat) (the VirtualDashboard); t.ref
    t.stop()                               # as if the app were killed: its files stay
    Table(tmp_path, path=t.path).start()   # resumed from them: the same addresses on the same port
"""

import threading
import time

from companion import storage, theme
from companion.f1 import view as f1_view
from companion.link_bridge import LinkBridge
from companion.phones import table as phone_table
from companion.f1.referee import Referee
from companion.transport import Transport
from companion.virtual import VirtualPorts
from tests.link.harness import FAST


class Table:
    def __init__(self, tmp_path, players=2, seed=7, path=None):
        self.tmp = tmp_path
        self.players = players
        self.seed = seed
        self.path = path
        self.ref = None
        self.urls = {}
        self.running = False

    def start(self):
        self.ports = VirtualPorts(real=False)
        self.transport = Transport(self.ports, FAST)
        self.transport.start()
        self.bridge = LinkBridge(self.transport)
        self.phones = phone_table.Phones(self.ports, host="127.0.0.1")
        self.running = True
        self.ready = threading.Event()
        self.failed = None
        self.poller = threading.Thread(target=self._run, daemon=True)  # the app's UI thread: SQLite is its own
        self.poller.start()
        self.ready.wait(30)
        if self.failed is not None:
            raise self.failed
        return self

    def _open(self):
        if self.path is None:
            self.tmp.mkdir(parents=True, exist_ok=True)
            self.path = str(self.tmp / "race.db")
            form = f1_view.SetupForm()
            form.set_count(self.players)
            self.ref = form.start(self.path, seed=self.seed)
        else:
            self.ref = Referee.open(self.path)
        self.bridge.attach(self.ref)
        folder = storage.dashboards_dir(self.path)
        self.phones.open_game(folder)
        race = self.ref.race
        for seat in range(len(race.cars)):
            dev = "virtual-%d" % (seat + 1)
            self.ports.add(folder, dev)
            if self.ref.pairs.get(seat) != dev:
                self.ref.pair(seat, dev)
            self.urls[seat] = self.phones.address(seat)
        self.bridge.push()
        self.phones.sync([(seat, "virtual-%d" % (seat + 1), race.names[seat], race.colours[seat],
                           phone_table.rgb_hex(theme.CAR_RGBA[race.colours[seat]])) for seat in range(len(race.cars))])

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
            time.sleep(0.01)
        self.ref.close()

    def dash(self, seat):
        return self.ports.virtual["virtual-%d" % (seat + 1)]

    def wait(self, pred, timeout=20, what="the table"):
        end = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > end:
                raise TimeoutError("%s: condition not met" % what)
            time.sleep(0.02)

    def stop(self):
        self.running = False
        self.poller.join(2)
        self.phones.stop()
        self.transport.stop()
        self.ports.stop()
