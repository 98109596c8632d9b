"""Link figures over real ptys with the firmware's link loop on the `micropython` command:

link.rtt_p50_ms / link.rtt_p99_ms   a tablet command until its ack reaches the app's queue, whole stack
link.bare_rtt_p50_ms                same-run baseline: one line echoed by a bare MicroPython poll loop, same pty
link.six_dashboards_ok              1 when 6 dashboards x 20 state frames/s for 30 s arrive with no loss, no backlog
link.rtt_unsaved_p50_ms             diagnostic: the command RTT with the dashboard's journal append before the ack
                                    switched off (unsafe, bench only): what the rest of the stack costs
(Before the command journal, a whole atomic save preceded each ack: 0.956 ms against 0.453 ms bare, 2.1x.)
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.results import record  # noqa: E402
from tests import mpy  # noqa: E402
from tests.link.harness import FakeUsb, Notes, direct_dashboard, raw_pty, soak, transport  # noqa: E402

SAMPLES = 300

# The baseline: the same poll-then-read-one-byte loop as firmware/ondemand/link.py, echoing each line unchanged.
ECHO = """
import select, sys
p = select.poll()
p.register(sys.stdin, select.POLLIN)
buf = bytearray()
while True:
    p.poll(50)
    b = sys.stdin.buffer.read(1)
    if not b:
        break
    buf.extend(b)
    if b == b"\\n":
        sys.stdout.buffer.write(buf)
        buf = bytearray()
"""


def _percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def link_rtt(tmpdir, save=True):
    dev = "rtt" if save else "rtt-unsaved"
    dash, path = direct_dashboard(tmpdir, dev, env=None if save else {"F1_LINK_NOSAVE": "1"})
    usb = FakeUsb()
    usb.paths.append(path)
    t = transport(usb)
    notes = Notes(t)
    try:
        deadline = time.monotonic() + 10
        while t.status(dev) != "connected" and time.monotonic() < deadline:
            time.sleep(0.01)
        notes.drain()
        rtts = []
        for i in range(SAMPLES):
            args = {"card": "SS"}
            name = "deal" if i % 2 == 0 else "take"
            t0 = time.perf_counter()
            cid = t.send(dev, name, args)
            while True:
                n = t.events.get(timeout=5)
                if n[0] in ("done", "refused") and n[2] == cid:
                    break
            rtts.append((time.perf_counter() - t0) * 1000)
        return rtts
    finally:
        t.stop()
        dash.kill()
        os.close(dash.slave)


def bare_rtt(tmpdir):
    import serial

    m, s = raw_pty()
    script = os.path.join(str(tmpdir), "echo.py")
    with open(script, "w") as f:
        f.write(ECHO)
    env = dict(os.environ, MICROPYPATH=mpy.micropypath())
    proc = subprocess.Popen([mpy.micropython_path(), "-X", "heapsize=192K", script], stdin=m, stdout=m, env=env)
    os.close(m)
    port = serial.Serial(os.ttyname(s), timeout=5)
    line = b"~" + b"x" * 70 + b"\n"  # about the size of a command frame
    try:
        rtts = []
        for _ in range(SAMPLES):
            t0 = time.perf_counter()
            port.write(line)
            got = port.read_until(b"\n")
            rtts.append((time.perf_counter() - t0) * 1000)
            assert got == line
        return rtts
    finally:
        port.close()
        proc.kill()
        proc.wait()
        os.close(s)


def main(seconds=30.0):
    with tempfile.TemporaryDirectory() as tmp:
        bare = bare_rtt(tmp)
        rtts = link_rtt(tmp)
        unsaved = link_rtt(tmp, save=False)
        s = soak(tmp, dashboards=6, hz=20, seconds=seconds)
    figures = {
        "link.rtt_p50_ms": round(statistics.median(rtts), 3),
        "link.rtt_p99_ms": round(_percentile(rtts, 0.99), 3),
        "link.bare_rtt_p50_ms": round(statistics.median(bare), 3),
        "link.six_dashboards_ok": s["ok"],
        "link.rtt_unsaved_p50_ms": round(statistics.median(unsaved), 3),
    }
    record(figures)
    print("link:", figures, "soak:", s)
    return figures


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0)
