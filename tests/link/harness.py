"""Real pieces for link tests: dashboards running firmware/host/link_main.py on the `micropython` command over
pseudo-terminals, a fault-injecting relay between two ptys, and a USB port list that shows the relay's tablet
end as a Pico (the one stand-in: pyserial cannot enumerate ptys as USB devices)."""

import os
import random
import select
import signal
import subprocess
import threading
import time
import tty
import types

from companion.transport import Transport
from firmware.restore import decode, read_journal, replay
from shared_rules.f1.car import Car, apply_command
from companion.transport.pyserial_backend import PICO_PID, PICO_VID, PyserialPorts
from tests import mpy
from tests.wait import poll, until

FAST = {"hello_retry": 150, "command_retry": 250, "heartbeat": 400, "silent": 1000, "scan_s": 0.1}


def raw_pty():
    m, s = os.openpty()
    tty.setraw(s)
    tty.setraw(m)
    return m, s


class Dashboard:
    """One dashboard process; its state is saved in `store` (what the firmware would keep in flash)."""

    def __init__(self, tmpdir, dev="dash-1", heap="192K", state_hz=0, env=None):
        self.dev = dev
        self.env = env or {}
        self.store = os.path.join(str(tmpdir), dev + ".json")
        self.heap = heap
        self.state_hz = state_hz
        self.proc = None
        self.master = None
        self._dead_master = None

    def start(self, stdio_fd=None):
        """Start on a new pty (returns its master), or directly on stdio_fd when given."""
        if stdio_fd is None:
            self.master, slave = raw_pty()
        else:
            slave = stdio_fd
        env = dict(os.environ, MICROPYPATH=mpy.micropypath(), F1_DASH_ID=self.dev, F1_LINK_STORE=self.store,
                   F1_LINK_STATE_HZ=str(self.state_hz), **self.env)
        cmd = [mpy.micropython_path(), "-X", "heapsize=" + self.heap, "firmware/host/link_main.py"]
        self.proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=mpy.ROOT)
        if stdio_fd is None:
            os.close(slave)
        return self.master

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        # The master stays open until the next kill: a relay may still be selecting on it, and a closed fd number
        # is soon reused (by the test opening the save file, say), which the relay would then read from.
        if self._dead_master is not None:
            os.close(self._dead_master)
        self._dead_master, self.master = self.master, None

    def pause(self):
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self):
        self.proc.send_signal(signal.SIGCONT)

    def saved(self):
        """(snapshot, done ids) as the dashboard would restore them after a power cut now: its last full save
        plus the commands journaled since (firmware/ondemand/journal.py, the same code it boots with), or (None, [])
        while it has kept nothing."""
        return restored(self.store)


def restored(store):
    """What a link_main dashboard keeping its state in `store` restores at boot: (snapshot, done ids). Its save is
    the Pico's (firmware/keeper.py: store.py's checksummed file), read with the Pico's code (firmware/restore.py):
    a save without its checksum fails here as it would at the dashboard's power-on."""
    try:
        with open(store, "rb") as f:
            data = decode(f.read())
        car, done, gen = Car.from_snapshot(data["car"]), data["done"], data.get("gen", 0)
    except OSError:
        car, done, gen = None, [], 0
    entries = read_journal(store + ".journal", gen)
    if car is None and not entries:
        return None, []
    car = car or Car(laps=5)
    applied = replay(entries, done, lambda name, args: apply_command(car, name, args))
    return car.snapshot(), [d[0] for d in done] + applied


class Faults:
    """What the relay does to each complete line going one way. Rates are percentages."""

    def __init__(self, drop=0, dup=0, corrupt=0, truncate=0, garbage=0, delay=0, delay_ms=80):
        self.drop, self.dup, self.corrupt, self.truncate = drop, dup, corrupt, truncate
        self.garbage, self.delay, self.delay_ms = garbage, delay, delay_ms
        self.blackhole = False  # lose everything (a cable that is in but dead)


NOISE = [b"MPY: soft reboot\r\n", b">>> ", b"Traceback (most recent call last):\r\n  File \"main.py\"\r\n",
         b"\x00\xff\xfe garbage ~~ |\r\n", b"~" + b"x" * 700 + b"\n"]


class Relay:
    """Copies bytes between a dashboard's pty and the tablet's pty, line by line, applying Faults."""

    def __init__(self, dash_fd, seed=1):
        self.rng = random.Random(seed)
        self.up = Faults()  # dashboard -> tablet
        self.down = Faults()  # tablet -> dashboard
        self.lock = threading.Lock()
        self.dash_fd = dash_fd
        self.tab_fd = None
        self.tab_slave = None
        self.path = None
        self.partial = {"up": b"", "down": b""}
        self.queue = {"up": [], "down": []}  # [release_time, bytes], in order
        self.sieve = None  # a test's (way, line) -> the lines to pass on instead, before the faults (losing one message)
        self.writing = None  # "up" or "down" while a write is under way (test diagnostics)
        # The last lines the dashboard wrote that are not frames (what firmware/main.py prints: the traceback of an
        # error that made it start the app again), as they came, before any fault (test diagnostics)
        self.printed = []
        self.running = True
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    # -- cable ---------------------------------------------------------------------------------------------
    def plug(self):
        m, s = raw_pty()
        with self.lock:
            self.tab_fd, self.tab_slave, self.path = m, s, os.ttyname(s)
        return self.path

    def unplug(self):
        with self.lock:
            fds = (self.tab_fd, self.tab_slave)
            self.tab_fd = self.tab_slave = self.path = None
            self.queue["up"] = []
            self.queue["down"] = []
            self.partial = {"up": b"", "down": b""}
        for fd in fds:
            if fd is not None:
                os.close(fd)

    def attach_dashboard(self, fd):
        with self.lock:
            self.dash_fd = fd
            self.partial["up"] = b""

    def inject(self, way, data):
        with self.lock:
            self.queue[way].append([time.monotonic(), data])

    def close(self):
        self.running = False
        self.thread.join(2)
        self.unplug()

    # -- copying -------------------------------------------------------------------------------------------
    def _mangle(self, faults, line):
        r = self.rng.random
        if faults.blackhole or r() * 100 < faults.drop:
            return [], 0
        out = []
        if r() * 100 < faults.garbage:
            out.append(self.rng.choice(NOISE))
        if r() * 100 < faults.truncate:
            line = line[: self.rng.randrange(1, len(line))] + b"\n"
        elif r() * 100 < faults.corrupt and len(line) > 3:
            i = self.rng.randrange(1, len(line) - 1)
            line = line[:i] + bytes([(line[i] + 1 - 0x20) % 0x5E + 0x20]) + line[i + 1 :]
        out.append(line)
        if r() * 100 < faults.dup:
            out.append(line)
        delay = faults.delay_ms / 1000.0 if r() * 100 < faults.delay else 0
        return out, delay

    def _take(self, way, data, faults):
        buf = self.partial[way] + data
        lines = buf.split(b"\n")
        self.partial[way] = lines.pop()
        if len(self.partial[way]) > 2048:  # endless noise without a newline: pass it on as it is
            lines.append(self.partial[way])
            self.partial[way] = b""
        now = time.monotonic()
        q = self.queue[way]
        if way == "up":
            self.printed = (self.printed + [ln[:300] for ln in lines if ln and not ln.startswith(b"~")])[-12:]
        for line in lines:
            for kept in [line + b"\n"] if self.sieve is None else self.sieve(way, line + b"\n"):
                out, delay = self._mangle(faults, kept)
                release = max(now + delay, q[-1][0] if q else 0)
                for chunk in out:
                    q.append([release, chunk])

    def _flush(self, way, fd):
        now = time.monotonic()
        q = self.queue[way]
        while q and q[0][0] <= now:
            data = q.pop(0)[1]
            if fd is not None:
                self.writing = way  # a write blocks while the reader on the other side takes nothing
                try:
                    os.write(fd, data)
                except OSError:
                    pass
                self.writing = None

    def _loop(self):
        while self.running:
            with self.lock:
                dash, tab = self.dash_fd, self.tab_fd
            fds = [fd for fd in (dash, tab) if fd is not None]
            try:
                ready = select.select(fds, [], [], 0.005)[0] if fds else []
            except (OSError, ValueError):
                ready = []
                time.sleep(0.005)  # the relay's own pace while a closed fd is swapped out: a loop period, no wait
            with self.lock:
                for fd in ready:
                    if fd not in (self.dash_fd, self.tab_fd):
                        continue  # unplugged or detached since the select: its number may be reused already
                    try:
                        if not select.select([fd], [], [], 0)[0]:
                            continue  # a reused number with nothing to read: never block with the lock held
                        data = os.read(fd, 4096)
                    except (OSError, ValueError):  # the other end is closed (dashboard killed): nothing to read
                        data = b""
                    if fd == self.dash_fd and data:
                        self._take("up", data, self.up)
                    elif fd == self.tab_fd and data:
                        self._take("down", data, self.down)
                self._flush("up", self.tab_fd)
                self._flush("down", self.dash_fd)


class FakeUsb:
    """serial.tools.list_ports.comports() for ptys: each listed path looks like a Pico running MicroPython."""

    def __init__(self):
        self.paths = []
        self.others = []  # ports with another USB id: must be ignored

    def __call__(self):
        ports = [types.SimpleNamespace(device=p, vid=PICO_VID, pid=PICO_PID, description="Board in FS mode")
                 for p in self.paths]
        ports += [types.SimpleNamespace(device=p, vid=0x1234, pid=0x5678, description="other")
                  for p in self.others]
        return [p for p in ports if os.path.exists(p.device)]


def transport(usb, timing=None):
    t = Transport(PyserialPorts(usb), dict(FAST, **(timing or {})))
    t.start()
    return t


def wait_for(fn, timeout=10.0, step=0.02):
    """fn()'s first truthy value within timeout seconds, else its last (the caller asserts and says what)."""
    return poll(fn, timeout, step)


class Notes:
    """Drains a transport's queue (as the UI thread would) and keeps everything for assertions."""

    def __init__(self, t):
        self.t = t
        self.all = []

    def drain(self):
        while True:
            try:
                self.all.append(self.t.events.get_nowait())
            except Exception:
                return self.all

    def of(self, kind, dev=None):
        self.drain()
        return [n for n in self.all if n[0] == kind and (dev is None or n[1] == dev)]

    def answered(self, dev=None):
        return [n[2] for n in self.all if n[0] in ("done", "refused") and (dev is None or n[1] == dev)]


def _quiet(notes, gap, limit):
    """1 once no note has come for `gap` seconds (within `limit` seconds), else 0."""
    end = time.monotonic() + limit
    seen = len(notes.drain())
    while time.monotonic() < end:
        time.sleep(gap)  # real time is the point: a soak's figure, quiet for `gap` seconds
        now = len(notes.drain())
        if now == seen:
            return 1
        seen = now
    return 0


def direct_dashboard(tmpdir, dev, state_hz=0, env=None):
    """A dashboard on one pty with no relay: micropython on the master side, the slave path for pyserial."""
    m, s = raw_pty()
    d = Dashboard(tmpdir, dev, state_hz=state_hz, env=env)
    d.start(stdio_fd=m)
    os.close(m)
    d.slave = s  # kept open so the pty lives while the tablet reopens it
    return d, os.ttyname(s)


def _revisions(notes, dev):
    return {n[3] for n in notes if n[0] == "state" and n[1] == dev}


def soak(tmpdir, dashboards=6, hz=20, seconds=30.0):
    """`dashboards` dashboards pushing `hz` state frames a second each into one transport for `seconds`.

    Returns per-run figures: frames received, revisions missing (loss: from each dashboard's first frame on the
    link up to one it sends once resumed; told is 1 when all those came), notes still arriving after the dashboards were paused (backlog),
    drained (1 once they stopped coming within 10 s) and ok (1 when there was no loss, at least 95 % of the frames
    the rate makes and at most two late notes a dashboard: the bench's figure, timings that a loaded machine
    cannot promise)."""
    usb = FakeUsb()
    dashes = []
    for i in range(dashboards):
        d, path = direct_dashboard(tmpdir, "soak-%d" % i, state_hz=hz)
        dashes.append(d)
        usb.paths.append(path)
    t = transport(usb)
    notes = Notes(t)
    try:
        devs = [d.dev for d in dashes]
        wait_for(lambda: all(t.status(dev) == "connected" for dev in devs), 10)
        notes.drain()
        start = len(notes.all)
        time.sleep(seconds)  # real time is the point: the soak runs this long (a benchmark's figure)
        for d in dashes:
            d.pause()
        paused = time.monotonic()
        notes.drain()
        at_pause = len(notes.all)
        time.sleep(0.3)  # real time is the point: the frames still in flight within 300 ms are a soak's figure
        late = len(notes.drain()) - at_pause  # frames still in flight 0 to 300 ms after the senders stopped
        drained = _quiet(notes, 0.3, 10.0)  # whatever was still queued has come by then: nothing piles up
        drain_s = time.monotonic() - paused
        upto = len(notes.all)
        received = sum(len(_revisions(notes.all[start:upto], dev)) for dev in devs)
        # Then one frame more from each, sent after the pause: every revision from its first on the link up to that
        # one must be there, so none was lost at the end either (a loss there leaves no gap in what came).
        last = {dev: max(_revisions(notes.all[:upto], dev), default=-1) for dev in devs}
        for d in dashes:
            d.resume()
        told = wait_for(lambda: notes.drain() and all(max(_revisions(notes.all[upto:], dev), default=-1) > last[dev]
                                                       for dev in devs), 10)
        missing = 0
        for dev in devs:
            revs = sorted(_revisions(notes.all, dev))
            if revs:
                missing += (revs[-1] - revs[0] + 1) - len(revs)
        expected = dashboards * hz * seconds
        ok = int(told and missing == 0 and received >= 0.95 * expected and late <= 2 * dashboards)
        return {"received": received, "expected": expected, "missing": missing, "late": late, "told": int(told),
                "drain_s": drain_s, "drained": drained, "ok": ok}
    finally:
        t.stop()
        for d in dashes:
            d.resume()
            d.kill()
            os.close(d.slave)


def heard_to_now(transport, dev, meanwhile, timeout=10.0):
    """Returns once every frame dashboard `dev` wrote before now has reached the app (`meanwhile`, the bridge's
    poll, has taken its notes): the signal that a moment has passed, for "nothing more came" checks.

    The tablet asks the dashboard for its state ("get") twice. The line never reorders, so each answer comes after
    everything the dashboard wrote before it; and the transport's reader posts a read's notes before it reads
    again, so once the second answer is handled the notes up to the first are on the queue for `meanwhile`."""
    with transport.lock:
        session = transport.devices[dev].session
    answers = []
    handle = session._handle

    def spy(msg, now_ms, notes):
        handle(msg, now_ms, notes)
        if msg.get("t") == "st":
            answers.append(msg)

    session._handle = spy
    try:
        for k in (1, 2):
            with transport.lock:
                session._send({"t": "get"}, int(time.monotonic() * 1000))
            transport._flush(session)
            until(lambda k=k: len(answers) >= k, timeout, "dashboard %s's answer to a get" % dev, meanwhile=meanwhile)
    finally:
        del session._handle  # the class's own again
    meanwhile()
