"""A Wi-Fi that can fail: a TCP relay on loopback between the phones' browser and the tablet's server. cut()
makes it a black hole (what a phone walking out of range sees: nothing arrives, nothing is refused, no
connection is closed); restore() brings the network back (connections made meanwhile stay dead, as a real
network's would have timed out)."""

import select
import socket
import threading


class Relay:
    def __init__(self, port):
        self.upstream = ("127.0.0.1", port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.cut_now = False
        self.swallowed = 0  # bytes from the phones the black hole took
        self.pairs = []
        self.lock = threading.Lock()
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url):
        """The same page, through the relay."""
        return url.replace(":%d/" % self.upstream[1], ":%d/" % self.port)

    def _accept(self):
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            pair = {"client": client, "server": None, "dead": self.cut_now}
            if not pair["dead"]:
                try:
                    pair["server"] = socket.create_connection(self.upstream)
                except OSError:  # the tablet is not there (the test is ending): refused, as it would be
                    client.close()
                    continue
            with self.lock:
                self.pairs.append(pair)
            threading.Thread(target=self._pump, args=(pair,), daemon=True).start()

    def _pump(self, pair):
        ends = [s for s in (pair["client"], pair["server"]) if s is not None]
        try:
            while self.running:
                ready, _, _ = select.select(ends, [], [], 0.2)
                for s in ready:
                    data = s.recv(65536)
                    if not data:
                        return
                    if pair["dead"] or self.cut_now:
                        pair["dead"] = True
                        if s is pair["client"]:
                            self.swallowed += len(data)
                        continue  # swallowed: the black hole
                    other = pair["server"] if s is pair["client"] else pair["client"]
                    other.sendall(data)
                if pair.get("close"):
                    return
        except OSError:
            pass
        finally:
            for s in ends:
                s.close()

    def cut(self):
        self.cut_now = True

    def restore(self):
        with self.lock:
            for pair in self.pairs:
                if pair["dead"] or pair["server"] is None:
                    pair["close"] = True
        self.cut_now = False

    def close(self):
        self.running = False
        self.listener.close()
