"""The air between Wi-Fi dashboards and the table, with its faults: a TCP relay on loopback that a test can make cut a
dashboard's connection, stall it for a while, or turn it into a black hole (bytes go in, nothing comes out, no side is
told), as a Wi-Fi network does on a bad night. Each connection is told apart by the key in its first request line
(GET /dashboard/<key>/link), so a fault hits one dashboard.

    proxy = FaultProxy(upstream_port).start()     # listens on 127.0.0.1:proxy.port, relays to 127.0.0.1:upstream_port
    proxy.cut(key); proxy.stall(key, 1.5); proxy.black_hole(key)
    proxy.move(new_upstream_port)                  # the table moved: the relay listens on a new port of its own too
    proxy.stop()
"""

import re
import select
import socket
import threading
import time

KEY = re.compile(rb"GET /dashboard/([a-z0-9]+)/link")


class _Pipe:
    def __init__(self, down, up):
        self.down = down  # the dashboard's side
        self.up = up  # the table's side
        self.key = None
        self.stalled_until = 0.0
        self.hole = False
        self.closed = False

    def close(self):
        if not self.closed:
            self.closed = True
            for s in (self.down, self.up):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()


class FaultProxy:
    def __init__(self, upstream_port):
        self.upstream = upstream_port
        self.listener = None
        self.port = None
        self.pipes = []
        self.lock = threading.Lock()
        self.running = False
        self.counts = {"cut": 0, "stall": 0, "black_hole": 0}

    def start(self):
        self.running = True
        self._listen()
        return self

    def _listen(self):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        self.listener, self.port = listener, listener.getsockname()[1]
        threading.Thread(target=self._accept, args=(listener,), name="proxy-accept", daemon=True).start()

    def _accept(self, listener):
        while self.running:
            try:
                down, _ = listener.accept()
            except OSError:
                return  # closed: moved or stopped
            try:
                up = socket.create_connection(("127.0.0.1", self.upstream), timeout=2)
            except OSError:
                down.close()  # no table there now: the dashboard sees a refused dial
                continue
            pipe = _Pipe(down, up)
            with self.lock:
                self.pipes.append(pipe)
            threading.Thread(target=self._relay, args=(pipe,), name="proxy-pipe", daemon=True).start()

    def _relay(self, pipe):
        try:
            while self.running and not pipe.closed:
                if time.monotonic() < pipe.stalled_until:
                    time.sleep(0.01)  # a poll period: the stall's own end is the point
                    continue
                ready, _, _ = select.select([pipe.down, pipe.up], [], [], 0.05)
                for s in ready:
                    data = s.recv(4096)
                    if not data:
                        pipe.close()
                        return
                    if pipe.key is None and s is pipe.down:
                        m = KEY.search(data)
                        pipe.key = m.group(1).decode() if m else ""
                    if pipe.hole:
                        continue  # swallowed: neither side hears a thing
                    (pipe.up if s is pipe.down else pipe.down).sendall(data)
        except OSError:
            pipe.close()
        finally:
            with self.lock:
                if pipe in self.pipes:
                    self.pipes.remove(pipe)

    def _of(self, key):
        with self.lock:
            return [p for p in self.pipes if p.key == key and not p.closed and not p.hole]

    def cut(self, key):
        """The connection breaks: both sides see it closed."""
        self.counts["cut"] += 1
        for p in self._of(key):
            p.close()

    def stall(self, key, seconds):
        """Nothing moves either way for `seconds`, then everything held moves on (TCP keeps it)."""
        self.counts["stall"] += 1
        for p in self._of(key):
            p.stalled_until = time.monotonic() + seconds

    def black_hole(self, key):
        """From now on the connection swallows everything; neither side is told. Only a side that notices the silence
        gets out (the dashboard drops it and dials again; the table's socket times out)."""
        self.counts["black_hole"] += 1
        for p in self._of(key):
            p.hole = True

    def move(self, upstream_port):
        """The table is on another port now; the relay takes a new port of its own (the table's address changed).
        The connections to the old table were closed by it already."""
        old = self.listener
        self.upstream = upstream_port
        self._listen()
        old.close()

    def stop(self):
        self.running = False
        if self.listener is not None:
            self.listener.close()
        with self.lock:
            pipes = list(self.pipes)
        for p in pipes:
            p.close()
