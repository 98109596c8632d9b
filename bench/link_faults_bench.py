"""The link on a bad night: the real firmware (`micropython` unix port) behind a fault-injecting relay,
the tablet's Transport with its own timing (tablet.py's, not the tests' compressed one).

link.replug_to_ack_s_p90 / _max   the cable back in to the first command (queued while it was out) acknowledged,
                                  over REPLUGS replugs on a line that drops, duplicates, corrupts, truncates,
                                  delays and garbles 3 to 5 % of its lines each way (BAD_NIGHT; s; targets 1, 2)
link.faulty_syncs_ratio           a whole 3-car, 4-lap race over such lines with cables pulled and bad bursts
                                  (tests/table/table.py, LINE_FAULTS), against the same race on clean lines:
                                  syncs applied, faulty / clean (target <= 1.1)
link.faulty_refused               commands refused in the faulty race that the clean one applied (target 0)
link.dup_fragment_loss            messages lost when fragments repeat (each fragment doubled with 30 % chance,
                                  stale fragments of older messages in between), of MESSAGES (target 0)
"""

import os
import random
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.results import record  # noqa: E402
from shared_rules.f1.car import Car  # noqa: E402
from shared_rules.link import codec, tablet  # noqa: E402
from tests.link.harness import FakeUsb, Notes  # noqa: E402
from tests.table.table import LINE_FAULTS, Seat, run  # noqa: E402

REPLUGS = 30
# The bad night, per line each way (%): 4,628 lines of which 198 dropped, 211 duplicated, 229 corrupted,
# 145 truncated, 194 garbage; 0-40 ms delays.
BAD_NIGHT = dict(drop=4, dup=5, corrupt=5, truncate=3, garbage=4, delay=30, delay_ms=40)
MESSAGES = 2000
RACE = dict(players=3, laps=4, lap_spaces=24)


def _percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def replug_to_ack(workdir, replugs=REPLUGS, seed=16):
    """Seconds from each replug to the ack of a command queued while the cable was out."""
    from companion.transport import Transport
    from companion.transport.pyserial_backend import PyserialPorts

    rng = random.Random(seed)
    os.makedirs(workdir, exist_ok=True)
    usb = FakeUsb()
    seat = Seat(workdir, "replug-1", usb, seed)
    for f in (seat.relay.up, seat.relay.down):
        for k, v in BAD_NIGHT.items():
            setattr(f, k, v)
    seat.start()
    t = Transport(PyserialPorts(usb))  # the product's timing
    t.start()
    notes = Notes(t)
    times = []
    try:
        end = time.monotonic() + 20
        while t.status(seat.dev) != "connected" and time.monotonic() < end:
            time.sleep(0.02)
        for i in range(replugs):
            seat.unplug()
            while t.status(seat.dev) != "lost":
                time.sleep(0.01)
            cid = t.send(seat.dev, "deal" if i % 2 == 0 else "take", {"card": "SS"})
            time.sleep(rng.uniform(0.2, 1.0))
            seat.plug()
            plugged = time.monotonic()
            while cid not in notes.answered(seat.dev):
                notes.drain()
                if time.monotonic() - plugged > 30:
                    raise AssertionError("no answer 30 s after a replug")
                time.sleep(0.005)
            times.append(time.monotonic() - plugged)
            time.sleep(rng.uniform(0.1, 0.5))
        return times
    finally:
        t.stop()
        seat.close()


def faulty_race(workdir, seed=1962):
    clean = run(os.path.join(workdir, "clean"), seed, **RACE)
    faulty = run(os.path.join(workdir, "faulty"), seed, faults=1, fault_rate=0.05, fault_kinds=LINE_FAULTS,
                 line_noise=BAD_NIGHT, **RACE)
    for key in ("dashboards", "saved", "table", "log", "results"):
        if faulty[key] != clean[key]:
            raise AssertionError("the faulty race ended otherwise: " + key)

    def syncs(r):
        return sum(n for (_dev, name), n in r["applied"].items() if name == "sync")

    refused = sum(max(0, n - clean["refused"].get(key, 0)) for key, n in faulty["refused"].items())
    return syncs(faulty) / max(1, syncs(clean)), refused, clean, faulty


def dup_fragment_loss(messages=MESSAGES, seed=3):
    """Fragmented messages through a line that repeats fragments and slips in stale ones: how many are lost."""
    rng = random.Random(seed)
    snap = dict(Car(5).snapshot(), hand=["FG"] * 30)
    rx = codec.Receiver()
    old = []
    got = 0
    for i in range(messages):
        msg = {"t": "ack", "id": "b.%d" % i, "dup": 0, "r": i, "s": snap, "n": i + 1}
        lines = [f[:-1] for f in tablet.frames(msg, i % 1000)]
        for line in lines:
            if old and rng.random() < 0.1:
                _add(rx, rng.choice(old))  # a late copy of a fragment of the message before
            if _add(rx, line) == msg:
                got += 1
            if rng.random() < 0.3:
                _add(rx, line)  # the line repeats it
        old = lines[1:]  # (its first fragment would start a message: a stale one never does on a real line)
    return (messages - got) / messages


def _add(rx, line):
    try:
        return rx.add(codec.decode(line))
    except codec.FrameError:
        return None


def main():
    with tempfile.TemporaryDirectory() as tmp:
        times = replug_to_ack(os.path.join(tmp, "replug"))
        ratio, refused, clean, faulty = faulty_race(os.path.join(tmp, "race"))
    figures = {
        "link.replug_to_ack_s_p90": round(_percentile(times, 0.9), 3),
        "link.replug_to_ack_s_max": round(max(times), 3),
        "link.faulty_syncs_ratio": round(ratio, 3),
        "link.faulty_refused": refused,
        "link.dup_fragment_loss": dup_fragment_loss(),
    }
    record(figures)
    print("link faults:", figures, "replug median %.3f s" % statistics.median(times),
          "turns", clean["counts"]["turns"], "faults", {k: faulty["counts"][k] for k in set(LINE_FAULTS)})
    return figures


if __name__ == "__main__":
    main()
