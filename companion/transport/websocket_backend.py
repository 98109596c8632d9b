"""Phones' link sockets as dashboard ports: a phone running the firmware in its browser is one more port.

The phones' web server (companion/phones/server.py) accepts a seat's link socket (GET /<token>/link) and hands
it here with connect(); from then on the transport sees a port like a USB one: listed by scan(), opened once,
read and written by its reader thread, gone when the socket closes. A page that reconnects (a reload, its
Wi-Fi back) opens a new socket, which is a new port: a replug, and the protocol's hello, resent command and
dup answers do the rest (docs/protocol.md §4, §12).

This module knows nothing of aiohttp: the server gives each port a send function that is safe to call from
any thread (it hands the bytes to the server's loop) and a close function, and feeds it what the page sent.
"""

import itertools
import threading

from companion.transport.base import PortSource

INBOX_MAX = 64 * 1024  # bytes from a page not read yet; past this a flood is dropped like noise on a line
# How long the reader waits for a page's bytes before it ticks its session anyway (a USB port's is base's
# READ_TIMEOUT_S, 20 ms). A socket wakes its reader on each message and on its close, and never delivers a damaged
# frame (no 40 ms fast resend to time), so only the session's own timers need these wakes: heartbeats (1 s), resends
# (250 ms), silence (2.5 s); a tenth of a second is plenty for them. Five times fewer wakes for every phone: at 20 ms
# the six readers' polls were most of what six phones cost the tablet (bench/tablet_phones_bench.py).
READ_WAIT_S = 0.1


class LinkPort:
    """One phone's link socket, pyserial-like for the transport's reader (read, in_waiting, write, close)."""

    def __init__(self, key, label, send, close, token=None):
        self.key = key
        self.label = label  # what the port list says of it ("phone link: Ann")
        self.token = token  # the seat's token (the server's, so the app can tell which seat a phone holds)
        self._send = send
        self._close = close
        self.inbox = bytearray()
        self.cv = threading.Condition()
        self.closed = False
        self.opened = False  # by the transport: a port is opened once; a reconnect is another port
        self.dropped = 0  # bytes from the page dropped because the reader fell behind by INBOX_MAX

    # ---- the server's side (its loop's thread) ---------------------------------------------------------
    def received(self, data):
        with self.cv:
            if len(self.inbox) + len(data) > INBOX_MAX:
                self.dropped += len(data)
                return
            self.inbox += data
            self.cv.notify()

    def ended(self):
        """The socket closed (the page went, or was taken over): the reader sees the cable pulled."""
        with self.cv:
            self.closed = True
            self.cv.notify()

    # ---- the transport's side (its reader thread) ------------------------------------------------------
    @property
    def in_waiting(self):
        with self.cv:
            return len(self.inbox)

    def read(self, n):
        """Up to n bytes, waiting at most READ_WAIT_S for the first; what came before a close is read
        first, then OSError (the port is gone)."""
        with self.cv:
            if not self.inbox and not self.closed:
                self.cv.wait(READ_WAIT_S)
            if not self.inbox and self.closed:
                raise OSError("the phone's link socket closed")
            out = bytes(self.inbox[:n])
            del self.inbox[:n]
            return out

    def write(self, data):
        if self.closed:
            raise OSError("the phone's link socket closed")
        self._send(bytes(data))

    def close(self):
        """The transport is done with this port (its reader ended): the socket goes too, and the page dials
        again, which makes a new port."""
        with self.cv:
            was = self.closed
            self.closed = True
            self.cv.notify()
        if not was:
            self._close()


class LinkPorts(PortSource):
    """Every phone link socket open now, as ports keyed "link:<n>" (n counts the sockets since the start)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.ports = {}  # key -> LinkPort, while its socket is open
        self.numbers = itertools.count(1)

    def connect(self, label, send, close, token=None):
        """A link socket opened (from the server's loop): its port, listed from now until it closes."""
        with self.lock:
            key = "link:%d" % next(self.numbers)
            port = LinkPort(key, label, send, close, token)
            self.ports[key] = port
        return port

    def scan(self):
        with self.lock:
            for key in [k for k, p in self.ports.items() if p.closed]:
                del self.ports[key]
            return {key: p.label for key, p in self.ports.items()}

    def open(self, key):
        with self.lock:
            port = self.ports.get(key)
            if port is None or port.closed or port.opened:
                raise OSError("no such link socket (closed, or opened already)")
            port.opened = True
            return port

    def token_of(self, key):
        """The seat token behind a port key (None for a key of no link socket open now)."""
        with self.lock:
            port = self.ports.get(key)
            return port.token if port is not None else None
