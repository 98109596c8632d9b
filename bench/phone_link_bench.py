"""A phone's game link over its WebSocket against a Pico's over serial, in the same run, on loopback:

phone.command_to_ack_vs_serial      p99 of a tablet command until its ack reaches the app's queue over a seat's
                                    link socket (the real firmware's link loop, firmware/link_main.py on the
                                    unix port, behind aiohttp's WebSocket client as a page would be, in a process
                                    of its own; the phones server; the Transport over its WebSocket ports), over
                                    the same p99 over a pty
                                    read by pyserial (bench/link_bench.py's path)
phone.command_to_ack_ms_p99         the WebSocket's p99 (ms)
phone.command_to_ack_ms_p50         its median (ms)
phone.serial_command_to_ack_ms_p99  the same-run baseline: the serial link's p99 (ms)

The two alternate in rounds, so a loaded machine weighs on both alike.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.link_bench import _percentile  # noqa: E402
from bench.results import record  # noqa: E402
from companion.phones.server import PhoneServer, Seat  # noqa: E402
from companion.transport import Transport  # noqa: E402
from companion.transport.websocket_backend import LinkPorts  # noqa: E402
from tests.link.harness import FAST, FakeUsb, direct_dashboard, transport  # noqa: E402

ROUNDS = 10
PER_ROUND = 100
TOKEN = "b" * 26


def _connected(t, dev):
    deadline = time.monotonic() + 10
    while t.status(dev) != "connected":
        if time.monotonic() > deadline:
            raise TimeoutError("%s never said hello" % dev)
        time.sleep(0.01)
    while not t.events.empty():
        t.events.get_nowait()


def _commands(t, dev, n):
    """n commands one after another (deal a card, take it back): each one's time to its answer, in ms."""
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        cid = t.send(dev, "deal" if i % 2 == 0 else "take", {"card": "SS"})
        while True:
            note = t.events.get(timeout=5)
            if note.kind in ("done", "refused") and note.cmd_id == cid:
                break
        out.append((time.perf_counter() - t0) * 1000)
    return out


class SerialLink:
    def __init__(self, tmp):
        self.dash, path = direct_dashboard(tmp, "serial-1")
        usb = FakeUsb()
        usb.paths.append(path)
        self.t = transport(usb)
        _connected(self.t, "serial-1")

    def run(self, n):
        return _commands(self.t, "serial-1", n)

    def close(self):
        self.t.stop()
        self.dash.kill()
        os.close(self.dash.slave)


class PhoneLink:
    """The phone (its firmware and page, tests/link/ws_page.py) runs in a process of its own, as on a device of its
    own: only the tablet's side shares this process."""

    def __init__(self, tmp):
        links = LinkPorts()
        self.server = PhoneServer(links)
        port = self.server.start("127.0.0.1", 0)
        self.server.serve({TOKEN: Seat(TOKEN, "Ann")})
        self.t = Transport(links, FAST)
        self.t.start()
        url = "http://127.0.0.1:%d/%s/link" % (port, TOKEN)
        self.phone = subprocess.Popen([sys.executable, "-m", "tests.link.ws_page", url, tmp, "phone-1"],
                                      cwd=os.path.dirname(HERE))
        _connected(self.t, "phone-1")

    def run(self, n):
        return _commands(self.t, "phone-1", n)

    def close(self):
        self.phone.terminate()
        self.phone.wait(10)
        self.t.stop()
        self.server.stop()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        serial, phone = SerialLink(tmp), PhoneLink(tmp)
        try:
            on_serial, on_phone = [], []
            for _ in range(ROUNDS):
                on_serial += serial.run(PER_ROUND)
                on_phone += phone.run(PER_ROUND)
        finally:
            phone.close()
            serial.close()
    p99_serial, p99_phone = _percentile(on_serial, 0.99), _percentile(on_phone, 0.99)
    figures = {
        "phone.command_to_ack_vs_serial": round(p99_phone / p99_serial, 3),
        "phone.command_to_ack_ms_p99": round(p99_phone, 3),
        "phone.command_to_ack_ms_p50": round(statistics.median(on_phone), 3),
        "phone.serial_command_to_ack_ms_p99": round(p99_serial, 3),
    }
    record(figures)
    print("phone link:", figures, "serial p50 %.3f ms" % statistics.median(on_serial))
    return figures


if __name__ == "__main__":
    main()
