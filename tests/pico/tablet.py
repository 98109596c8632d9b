"""The tablet's end of the link spoken by hand over the emulated Pico's USB serial (shared_rules.link.codec frames),
for tests and benches that time one answer: a command goes out once, never resent, and the time to its answer is
read on picosim's clock (emulated), from just before the command is written to just after its answer is read
(host-side delays only add to it). The dashboard's events are acknowledged as they come, as the tablet does.

    with RawTablet(pico) as tablet:
        tablet.hello()                                  # "hi" until the dashboard says hello
        answer, ms = tablet.command("turn", {"on": 1})   # its ack (or err) and the emulated ms it took
"""

import os
import time

from shared_rules.link import codec


class RawTablet:
    def __init__(self, pico):
        self.pico = pico
        self.port = pico.serial(timeout=0)
        self.reader = codec.Receiver()
        self.seq = 0
        self.seen = []  # every message the dashboard sent, in order
        self.prefix = os.urandom(3).hex()  # command ids unique across runs, as the tablet's are

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.port.close()

    def send(self, msg):
        self.seq += 1
        codec.frames(msg, self.seq, self.port.write)
        self.port.flush()

    def _read(self):
        """The messages in what has arrived (events acknowledged at once)."""
        out = []
        data = self.port.read(4096)
        for b in data:
            line = self.reader.feed_byte(b)
            if line is None:
                continue
            try:
                msg = self.reader.add(codec.decode(line))
            except codec.FrameError:
                continue
            if msg is None:
                continue
            if msg["t"] == "ev":
                self.send({"t": "ack", "id": msg["id"]})
            self.seen.append(msg)
            out.append(msg)
        return out

    def wait(self, match, wall_s=30, resend=None):
        """The first message from now on that matches; `resend` (a message) is sent again every 0.5 s wall."""
        end = time.monotonic() + wall_s
        again = time.monotonic() + 0.5
        while True:
            for msg in self._read():
                if match(msg):
                    return msg
            now = time.monotonic()
            if now > end:
                raise AssertionError("no such message from the dashboard in %d s; the last: %r" % (wall_s,
                                                                                                  self.seen[-5:]))
            if resend is not None and now > again:
                self.send(resend)
                again = now + 0.5
            time.sleep(0.001)  # the poll period: how often to read the Pico, not a wait for anything

    def hello(self):
        hi = {"t": "hi", "p": codec.PROTOCOL}
        self.send(hi)
        return self.wait(lambda m: m["t"] == "hello", resend=hi)

    def command(self, name, args, wall_s=30):
        """`name` sent once; returns (the dashboard's answer, emulated ms from the write to the answer read)."""
        cid = "%s.%d" % (self.prefix, self.seq + 1)
        self._read()  # what came before is not the answer
        t0 = self.pico.t_ns()
        self.send({"t": "cmd", "id": cid, "c": name, "a": args})
        answer = self.wait(lambda m: m["t"] in ("ack", "err") and m.get("id") == cid, wall_s)
        return answer, (self.pico.t_ns() - t0) / 1e6
