"""What six phone seats cost the tablet, against six dashboards run on the tablet itself, in the same run:

tablet.cpu_six_phones_vs_unix   the tablet's CPU time through one scripted race with six phone seats (each the
                                dashboard's own firmware on its seat page, in a tab of Debian's headless Chromium,
                                linked over its seat's WebSocket; the phones' CPU is theirs, not counted), over its
                                CPU time through the same race with the six dashboards as unix-port `micropython`
                                processes on the tablet (today's virtual dashboards, on ptys; their CPU counted)
tablet.cpu_six_phones_s         the first (s of CPU: user + system, every thread of the tablet's process)
tablet.cpu_six_unix_s           the second (the tablet's process and its six micropython children)
tablet.rss_six_phones_mb        the tablet's resident memory at the race's end, with phones
tablet.rss_six_unix_mb          the same with the six dashboards on it (its process and the six children)
tablet.six_seat_race_turns      the race's turns (the same in both: one seed, one script)

The race: tests/table/table.py's scripted race (one seed; players press their dashboards' buttons for speeds and
cards, the referee's operator makes the tablet's decisions), 3 laps of a 12-space stand-in lap as tests/table plays
it. The tablet is the same in both ways: Referee, Transport, LinkBridge, in this process; with phones also the
phones server (companion/phones/server.py: the seat pages, their files, the link sockets), forced onto the
firmware-page path whether or not this machine has micropython. Each way runs in a fresh process of its own.

Left out of the tablet's CPU, in both ways, because no tablet does it: the script's own work as the players (their
taps and reads of the dashboards: WebDriver calls for the pages, the viewer channel's socket for the unix port;
timed with the thread's own clock around each), the test relays between each unix dashboard's pty and the
transport's (a stand-in for the USB cable; their threads' CPU read from /proc), Chromium and its driver. Counted:
everything else in the tablet's process (/proc/self/stat: the referee, the transport's threads, the bridge, the
phones server's thread; for the unix way the viewer readers that the app's on-tablet dashboards have too).

Takes about 2 minutes (two races of some 45-55 s, six page loads; measured at load 11-15 on 2 cores).
"""

import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

SEED = 1962
RACE = dict(laps=3, lap_spaces=12)
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

# What the page's firmware shows, as the unix port's viewer channel reports it (the car, the screen's mode): the
# players' script reads it to find its way on the dashboard. Installed in the page through its test hook (dash.python),
# it runs on the phone: App.settle runs after every press and command, and on the clock task's ticks.
_SPY = """
import js, json
from firmware import app as _app
_settle = _app.App.settle
def _spied(self):
    _settle(self)
    js.globalThis.f1state = json.dumps({"car": self.report(), "mode": self.ui.mode})
_app.App.settle = _spied
"""

# A finger's tap: down and up, each an input event (the page handles each press in its event).
_TAP = """
const el = document.getElementById(arguments[0]);
el.dispatchEvent(new PointerEvent("pointerdown", {bubbles: true}));
el.dispatchEvent(new PointerEvent("pointerup", {bubbles: true}));
"""


def _cpu_s(pid="self", task=None):
    """utime + stime of a process (or of one of its threads), in seconds, from /proc."""
    path = "/proc/%s/task/%s/stat" % (pid, task) if task else "/proc/%s/stat" % pid
    with open(path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _rss_mb(pid="self"):
    with open("/proc/%s/statm" % pid) as f:
        return int(f.read().split()[1]) * PAGE / (1024 * 1024)


class DriverClock:
    """The CPU the players' script spends in this process (the thread's own clock around each of its calls)."""

    def __init__(self):
        self.s = 0.0
        self.wall = {}  # call name -> its wall time, s (where a slower race's time went)

    def timed(self, fn):
        def call(*args, **kw):
            t0, w0 = time.thread_time(), time.monotonic()
            try:
                return fn(*args, **kw)
            finally:
                self.s += time.thread_time() - t0
                self.wall[fn.__name__] = self.wall.get(fn.__name__, 0.0) + time.monotonic() - w0

        return call


PLAYER_CALLS = ("tap", "car", "screen", "rows", "big", "read_state")  # those a dashboard has
PACE_S = 0.15  # a player's taps, one every this long in both ways (a quick thumb; the seat page bench's pace): the
# race then takes about the same time both ways, whatever a tap costs the script (a WebDriver call is slower than
# the viewer channel's), so the tablet's cost per second (its readers' polls, its clock) weighs alike on both
POLL_S = 1 / 30.0  # the app's Clock polls the bridge this often (companion/app.py POLL_S); tests/table's 5 ms
# would charge the tablet a poll loop six times busier than the app's


def _players(dash, clock):
    """The players' calls on one dashboard: their CPU timed (left out of the tablet's), each tap at PACE_S."""
    for name in PLAYER_CALLS:
        if hasattr(dash, name):
            setattr(dash, name, clock.timed(getattr(dash, name)))
    tap = dash.tap
    last = [0.0]

    def paced(*names):
        for name in names:  # PACE_S after the last tap began: the reads of the screen in between take none of it
            time.sleep(max(0.0, last[0] + PACE_S - time.monotonic()))
            last[0] = time.monotonic()
            tap(name)

    dash.tap = paced


def _at_the_apps_pace(table_class):
    """A tests/table Table whose waits poll the bridge at the app's rate, its transport on the app's timing (the
    protocol's own: tests/table compresses time, heartbeats and resends several times as often)."""
    from tests.table import table

    table.TIMING = {}  # what companion/app.py gives its Transport

    class Paced(table_class):
        def pump(self, pred, timeout=None):
            end = time.monotonic() + (self.timeout if timeout is None else timeout)
            while True:
                self.bridge.poll()
                if pred():
                    return True
                if time.monotonic() > end:
                    return False
                time.sleep(POLL_S)

    return Paced


class PageDash:
    """A seat page in a Chromium tab, as the race's players use a dashboard (tests/firmware/dash.py's names)."""

    def __init__(self, page):
        self.page = page

    @property
    def state(self):
        return self.read_state()

    def read_state(self):
        raw = self.page.js("return window.f1state || null")
        return None if raw is None else json.loads(raw)

    def car(self):
        return self.state["car"]

    def tap(self, *names):
        for name in names:
            self.page.js(_TAP, name)

    def buf(self):
        return bytes.fromhex(self.page.js("return window.dash.fb()"))

    def rows(self):
        from tests.firmware.dash import text_rows

        return text_rows(self.buf())

    def screen(self):
        return "\n".join(self.rows())

    def big(self, x=0, y=10, n=3):
        from tests.firmware.dash import big_text

        return big_text(self.buf(), x, y, n)

    def blocked_in(self):
        return "a page in Chromium"


def _phone_table(workdir, browser, clock):
    from companion.phones import server as phones_server
    from companion.phones.seats import new_token
    from companion.transport import CONNECTED
    from companion.transport.websocket_backend import LinkPorts
    from tests.table.table import NAMES, Table
    from tests.web.engines import phone_id, visit

    tabs = []

    class PageSeat:
        def __init__(self, url):
            self.url = url
            self.page = None
            self.dash = None
            self.dev = None

        def start(self):
            if tabs:
                browser.driver.switch_to.new_window("tab")  # a phone each: a tab of its own
            tabs.append(self.url)
            self.page = visit(browser, self.url)
            self.page.wait(lambda: (self.page.dash() or {}).get("booted"), timeout=120, what="the firmware's frame")
            self.page.js("window.dash.python(arguments[0])", _SPY)
            self.dash = PageDash(self.page)
            _players(self.dash, clock)
            self.page.wait(lambda: self.dash.state, timeout=30, what="the dashboard's state")

        def plug(self):
            pass

        def unplug(self):
            pass

        def close(self):
            pass

    class PagesTable(_at_the_apps_pace(Table)):
        def __init__(self, workdir, seed, **kw):
            self.tokens = [new_token() for _ in range(6)]
            self.server = phones_server.PhoneServer(LinkPorts())
            self.web_port = self.server.start("127.0.0.1", 0)
            self.server.serve({t: phones_server.Seat(t, NAMES[i]) for i, t in enumerate(self.tokens)})
            super().__init__(workdir, seed, players=6, **kw)

        def open(self):
            # Table.open, but each page's dashboard id is known only once the tablet spoke to it (the firmware
            # asks for it when its link starts): the tablet first, then the pairs
            from companion.f1.referee import Referee

            for s in self.seats:
                s.start()
            self.ref = Referee.new(self.path, NAMES[:6], self.laps, seed=self.seed)
            self._watch_syncs(self.ref)
            self._start_tablet()
            for seat, s in enumerate(self.seats):
                s.page.wait(lambda: s.page.dash()["linked"], timeout=60, what="the page linked")  # noqa: B023
                s.dev = phone_id(s.page)
                self.ref.pair(seat, s.dev)
            self.settle()
            return self

        def _seat(self, i, dashboard):
            return PageSeat("http://127.0.0.1:%d/%s/" % (self.web_port, self.tokens[i]))

        def _ports(self):
            return self.server.links

        def _noisy_lines(self):
            pass

        def in_step(self):
            # What each page's firmware last told the tablet over its link, not a WebDriver read per seat each 5 ms
            t = self.transport
            if t.pending():
                return False
            return all(t.status(s.dev) == CONNECTED and t.snapshot(s.dev) == self.ref.race.cars[i].snapshot()
                       for i, s in enumerate(self.seats))

        def _cable(self, s):
            return "page " + s.url

        def close(self):
            try:
                super().close()
            finally:
                self.server.stop()

    return PagesTable(workdir, SEED, **RACE)


def _race(table):
    """The race after its set-up; returns (turns, wall s)."""
    t0 = time.monotonic()
    while not table.ref.race.game_over:
        table.play_turn()
        table.counts["turns"] += 1
    table.settle()
    return table.counts["turns"], time.monotonic() - t0


def way_phones():
    from tests.web.engines import open_engine

    clock = DriverClock()
    with tempfile.TemporaryDirectory() as work, open_engine("chromium") as browser:
        table = _phone_table(work, browser, clock)
        try:
            table.open()
            cpu0, driver0 = _cpu_s(), clock.s
            turns, wall = _race(table)
            cpu = _cpu_s() - cpu0 - (clock.s - driver0)
            rss = _rss_mb()
        finally:
            table.close()
    return {"cpu_s": cpu, "rss_mb": rss, "turns": turns, "wall_s": wall, "driver_s": clock.s - driver0,
            "driver_wall_s": {k: round(v, 1) for k, v in clock.wall.items()}}


def way_unix():
    from tests.table.table import Table

    clock = DriverClock()
    with tempfile.TemporaryDirectory() as work:
        table = _at_the_apps_pace(Table)(work, SEED, players=6, **RACE)
        for s in table.seats:
            _players(s.dash, clock)
        try:
            table.open()
            pids = [s.dash.proc.pid for s in table.seats]
            relays = [s.relay.thread.native_id for s in table.seats]

            def tablet():
                own = _cpu_s() - sum(_cpu_s("self", tid) for tid in relays)
                return own + sum(_cpu_s(pid) for pid in pids)

            cpu0, driver0 = tablet(), clock.s
            turns, wall = _race(table)
            if [s.dash.proc.pid for s in table.seats] != pids:
                raise RuntimeError("a dashboard restarted during the race: its CPU would be lost")
            cpu = tablet() - cpu0 - (clock.s - driver0)
            rss = _rss_mb() + sum(_rss_mb(pid) for pid in pids)
        finally:
            table.close()
    return {"cpu_s": cpu, "rss_mb": rss, "turns": turns, "wall_s": wall, "driver_s": clock.s - driver0,
            "driver_wall_s": {k: round(v, 1) for k, v in clock.wall.items()}}


def _in_a_process(way):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), way], cwd=ROOT, capture_output=True,
                         text=True, timeout=1800)
    if out.returncode != 0:
        raise RuntimeError("%s way failed:\n%s" % (way, out.stderr[-3000:]))
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    from bench.results import record
    from tests import mpy
    from tests.web.engines import MISSING

    if MISSING["chromium"]:
        print("tablet phones bench skipped: " + MISSING["chromium"])
        return
    if not mpy.micropython_path():
        print("tablet phones bench skipped: no micropython unix port for the baseline")
        return
    t0 = time.monotonic()
    unix = _in_a_process("unix")
    phones = _in_a_process("phones")
    if phones["turns"] != unix["turns"]:
        raise RuntimeError("not the same race: %d turns with phones, %d with unix dashboards" % (
            phones["turns"], unix["turns"]))
    figures = {
        "tablet.cpu_six_phones_vs_unix": round(phones["cpu_s"] / unix["cpu_s"], 3),
        "tablet.cpu_six_phones_s": round(phones["cpu_s"], 2),
        "tablet.cpu_six_unix_s": round(unix["cpu_s"], 2),
        "tablet.rss_six_phones_mb": round(phones["rss_mb"], 1),
        "tablet.rss_six_unix_mb": round(unix["rss_mb"], 1),
        "tablet.six_seat_race_turns": phones["turns"],
    }
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-36s %s" % (k, v))
    print("  races: phones %.0f s (players' script %.1f s CPU), unix %.0f s (%.1f s); bench %.0f s" % (
        phones["wall_s"], phones["driver_s"], unix["wall_s"], unix["driver_s"], time.monotonic() - t0))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(json.dumps(way_phones() if sys.argv[1] == "phones" else way_unix()))
    else:
        main()
