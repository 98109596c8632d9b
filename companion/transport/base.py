"""The transport engine, whatever the backend: port scanning, one reader thread per port, a queue for the app.

A backend is a PortSource: scan() lists the ports that may hold a dashboard, open(key) returns a
pyserial-like object (read(n) with a short timeout, write, in_waiting, close). Everything the protocol does
lives in shared_rules.link.tablet; this module only adds threads, time and the queue.
"""

import itertools
import os
import queue
import threading
import time

from shared_rules.link import notes as note
from shared_rules.link import tablet, wifi

CONNECTED = tablet.CONNECTED
SILENT = tablet.SILENT
LOST = tablet.LOST

SCAN_S = 0.25  # ports are listed this often: appearing and disappearing are noticed well within a second
LOST_SCAN_S = 0.1  # ...and this often while a dashboard is lost (its cable may be back any moment)
READ_TIMEOUT_S = 0.02


class PortSource:
    def scan(self):
        """{key: description} of the ports that may hold a dashboard now."""
        raise NotImplementedError

    def open(self, key):
        """An open pyserial-like port (DTR asserted: the Pico sends nothing without it)."""
        raise NotImplementedError


class AllPorts(PortSource):
    """Several sources as one (USB serial and phones' link sockets): each lists its own ports, and a port is
    opened by the source that listed it. A source whose listing fails keeps its last one (a flaky enumeration
    must not look like every one of its dashboards unplugged)."""

    def __init__(self, *sources):
        self.sources = list(sources)
        self.listed = [{} for _ in self.sources]  # each source's last listing
        self.owner = {}  # key -> the source that listed it last

    def scan(self):
        found, owner = {}, {}
        for i, source in enumerate(self.sources):
            try:
                self.listed[i] = dict(source.scan())
            except Exception:
                pass
            for key, what in self.listed[i].items():
                found.setdefault(key, what)
                owner.setdefault(key, source)
        self.owner = owner
        return found

    def open(self, key):
        source = self.owner.get(key)
        if source is None:
            raise OSError("%s is not listed" % key)
        return source.open(key)


def _now_ms():
    return int(time.monotonic() * 1000)


class Transport:
    """All dashboards of one tablet.

    events: queue.Queue of notes, read on the UI thread (Kivy is not thread-safe): the named records of
    shared_rules/link/notes.py (Port, Hello, Status, Done, Refused, State, Event, Rejected, Bad), listed with
    their meaning in docs/protocol.md §10.

    An event is acknowledged to its dashboard as it arrives, unless the app called hold_events(): then only
    when the app calls ack_event() once it has kept it (applied and logged), so one lost in an app that died
    before keeping it is sent again by the dashboard.
    """

    def __init__(self, source, timing=None):
        self.source = source
        self.timing = timing or {}
        self.events = queue.Queue()
        self.devices = {}
        self.lock = threading.RLock()
        self.workers = {}  # port key -> _PortWorker
        self.statuses = {}
        self.running = False
        self.thread = None
        self.ids = itertools.count(1)
        self.prefix = os.urandom(3).hex()  # command ids stay unique across tablet restarts
        self.holding = False  # see hold_events()

    # -- the app's side ----------------------------------------------------------------------------------
    def start(self):
        self.running = True
        self.thread = threading.Thread(target=self._scan_loop, name="link-scan", daemon=True)
        self.thread.start()

    def stop(self):
        self.running = False
        if self.thread is not None:
            self.thread.join(2)
        for w in list(self.workers.values()):
            w.stop()
        self.workers = {}

    def send(self, dev, name, args, cmd_id=None):
        """Queue a command for dashboard dev; it is resent until answered, across reconnects. Returns its id.

        Give cmd_id when resending a command saved before a tablet restart: the dashboard then drops it if it
        had already applied it."""
        with self.lock:
            if cmd_id is None:
                cmd_id = "%s.%d" % (self.prefix, next(self.ids))
            d = self.devices.get(dev)
            if d is None:
                d = self.devices[dev] = tablet.Device(dev)
            d.submit(cmd_id, name, args)
            session = d.session
            if session is not None:
                session.pump(_now_ms())
        self._flush(session)
        return cmd_id

    def set_wifi(self, dev, ssid, password, table_id, key):
        """Give a dashboard plugged in now the Wi-Fi network to join, its table's id and its key (a Pico W's pairing,
        docs/protocol.md §15a). Answered by a `wifi` note; sent again until answered, never saved: the password is
        held in memory only until the answer. Returns the message's id, or None when dev is linked on no port."""
        msg = wifi.message("%s.w%d" % (self.prefix, next(self.ids)), ssid, password, table_id, key)
        tablet.frames(msg)  # ValueError now for what could never be sent
        with self.lock:
            d = self.devices.get(dev)
            session = d.session if d is not None else None
            if session is None:
                return None
            d.wifi_out = msg
            d.wifi_tries = 0
            wifi.send(session, d, _now_ms())
        self._flush(session)
        return msg["id"]

    def wifi_of(self, dev):
        """A dashboard's Wi-Fi as its hello said: None no radio (or not heard yet), "" no network set, else its name."""
        with self.lock:
            d = self.devices.get(dev)
            return d.wifi if d is not None else None

    def hold_events(self):
        """From now on a new event is acknowledged only when the app calls ack_event (it has kept it); until
        then a resend of it is neither acknowledged nor passed on again. A repeat of one kept is acked at once."""
        with self.lock:
            self.holding = True
            for w in list(self.workers.values()):
                w.session.hold_events = True

    def ack_event(self, dev, eid):
        """The app has kept event eid of dashboard dev (applied and logged it, or logged it as refused, or it
        will never apply it): acknowledge it now. The dashboard stops resending it."""
        with self.lock:
            d = self.devices.get(dev)
            if d is None:
                return
            d.kept(eid, _now_ms())
            session = d.session
        self._flush(session)

    def retry_event(self, dev, eid):
        """The app could not keep event eid of dashboard dev (its log failed): not acknowledged, and its next
        resend is passed on again."""
        with self.lock:
            d = self.devices.get(dev)
            if d is not None:
                d.forget(eid)

    def _flush(self, session):
        """Write now what session queued rather than at its reader's next turn."""
        if session is not None:
            for w in list(self.workers.values()):
                if w.session is session:
                    w.flush()

    def remember_events(self, dev, ids):
        """Event ids dashboard dev had sent and the game took before this app started (from its log): a
        resend of one is acknowledged and not posted again. Oldest first (tablet.Device.remember)."""
        with self.lock:
            d = self.devices.get(dev)
            if d is None:
                d = self.devices[dev] = tablet.Device(dev)
            d.remember(ids)

    def pending(self, dev=None):
        """Commands not yet answered, [[dev, id, name, args], ...]. Not kept across an app restart: the resumed
        game syncs a dashboard whose hello differs from the table (docs/protocol.md §9)."""
        with self.lock:
            return [[d.dev, p[0], p[1], p[2]] for d in self.devices.values() for p in d.pending
                    if dev is None or d.dev == dev]

    def status(self, dev):
        with self.lock:
            return self._status(dev, _now_ms())

    def snapshot(self, dev):
        with self.lock:
            d = self.devices.get(dev)
            return d.snapshot if d is not None else None

    def dashboards(self):
        with self.lock:
            return sorted(d for d in self.devices if self.devices[d].firmware is not None)

    def port_of(self, dev):
        """The key of the port dashboard dev is linked on now (None while it is on none): a phone's link port
        tells the app which seat's token it came in on."""
        with self.lock:
            d = self.devices.get(dev)
            session = d.session if d is not None else None
            if session is None:
                return None
            return next((key for key, w in self.workers.items() if w.session is session), None)

    def link_info(self, dev):
        """What the link of dashboard `dev` is like now, for the tablet to say in words (companion/link_words.py):
        {"port": its port's key (None: on none), "heard_ms": since it last said anything (None: never on this
        port), "acked_ms": since its last answer to a command (None: none yet), "waiting": commands not answered,
        "waited_ms": how long the one in flight has waited (None: none), "resends": commands sent again}."""
        now = _now_ms()
        with self.lock:
            d = self.devices.get(dev)
            if d is None:
                return None
            session = d.session
            port = None if session is None else next(
                (key for key, w in self.workers.items() if w.session is session), None)
            last_rx = session.last_rx if session is not None else None
            return {"port": port, "heard_ms": None if last_rx is None else now - last_rx,
                    "acked_ms": None if d.acked_ms is None else now - d.acked_ms, "waiting": len(d.pending),
                    "waited_ms": None if d.sent_ms is None else now - d.sent_ms, "resends": d.resends}

    # -- threads -----------------------------------------------------------------------------------------
    def _status(self, dev, now):
        d = self.devices.get(dev)
        if d is None or d.session is None:
            return LOST
        return d.session.status(now)

    def _post(self, notes):
        for n in notes:
            self.events.put(n)

    def _scan_loop(self):
        while self.running:
            listed = time.monotonic()
            try:
                ports = self.source.scan()
            except Exception:  # a flaky enumeration must not end discovery
                ports = None
            if ports is not None:
                for key in ports:
                    # A port whose reader ended after this listing is left to the next one: its path may name
                    # another device by now (a freed pty number or ttyACM node goes to the next one opened).
                    w = self.workers.get(key)
                    if w is None or w.ended is not None and w.ended < listed:
                        self._open(key)
                for key in list(self.workers):
                    if key not in ports:
                        self.workers.pop(key).stop()
                        self.events.put(note.port(key, note.GONE))
            self._update_statuses()
            pause = self.timing.get("scan_s", SCAN_S)
            if LOST in self.statuses.values():
                pause = min(pause, LOST_SCAN_S)
            time.sleep(pause)

    def _open(self, key):
        try:
            port = self.source.open(key)
        except Exception:  # busy or vanished already: try again at the next scan
            return
        with self.lock:  # created and listed at once: hold_events() sees every session or sets up the next
            w = _PortWorker(self, key, port)
            self.workers[key] = w
        self.events.put(note.port(key, note.OPEN))
        w.start()

    def _update_statuses(self):
        now = _now_ms()
        with self.lock:
            for dev in self.devices:
                if self.devices[dev].firmware is None:
                    continue  # commands queued for a dashboard never seen: nothing to show yet
                st = self._status(dev, now)
                if self.statuses.get(dev) != st:
                    self.statuses[dev] = st
                    self.events.put(note.status(dev, st))


class _PortWorker:
    """Reads one port on its own thread and runs its protocol session."""

    def __init__(self, transport, key, port):
        self.t = transport
        self.key = key
        self.port = port
        self.running = True
        self.out = []  # frames the session wrote, guarded by transport.lock; sent by flush()
        self.wlock = threading.Lock()
        self.write_timeouts = 0
        self.ended = None  # time.monotonic() once the reader has closed the port
        with transport.lock:
            self.session = tablet.Session(self._write, transport.devices, _now_ms(), transport.timing,
                                          transport.holding)
        self.thread = threading.Thread(target=self._loop, name="link-" + str(key), daemon=True)

    def start(self):
        self.thread.start()

    def _write(self, data):
        self.out.append(data)  # called with transport.lock held: no I/O here

    def flush(self):
        """Write what the session queued, outside transport.lock: a dashboard that stops reading (hung, its
        USB buffer full) then blocks only its own port, never the others."""
        with self.wlock:
            with self.t.lock:
                data = b"".join(self.out)
                self.out = []
            if not data:
                return
            try:
                self.port.write(data)
            except Exception as e:
                if type(e).__name__ == "SerialTimeoutException":
                    self.write_timeouts += 1  # frames lost like on a bad line: the protocol resends
                else:
                    self.running = False  # unplugged: the reader notices and ends the session

    def _loop(self):
        t = self.t
        try:
            while self.running:
                waiting = self.port.in_waiting
                data = self.port.read(waiting if waiting else 1)
                now = _now_ms()
                with t.lock:
                    notes = self.session.feed(data, now) if data else []
                    self.session.tick(now)
                self.flush()
                t._post(notes)
        except Exception:  # the port went away (unplugged, dashboard reset): the scanner reopens it
            pass
        finally:
            self.running = False
            with t.lock:
                self.session.close()
            try:
                self.port.close()
            except Exception:
                pass
            self.ended = time.monotonic()
            t._update_statuses()

    def stop(self):
        self.running = False
        if threading.current_thread() is not self.thread:
            self.thread.join(1)
