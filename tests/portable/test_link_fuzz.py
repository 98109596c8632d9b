# Random input never crashes the dashboard's parser and never changes its state (both runtimes; on MicroPython
# tests/link/test_fuzz.py also runs this module with a small heap).
import gc

from shared_rules.f1 import car as f1car
from shared_rules.link import codec, tablet
from shared_rules.link.dashboard import DashboardProtocol
from shared_rules.rng import Rng

ROUNDS = 300


def _dashboard():
    car = f1car.Car(laps=5)
    sent = []
    d = DashboardProtocol("fuzz", "0.1.0", car.snapshot, lambda n, a: f1car.apply_command(car, n, a),
                          sent.append, None, (), 0)
    return car, d, sent


def _bytes(rng, n, alphabet=None):
    out = bytearray(n)  # filled in place: no list of n ints on a small heap
    for i in range(n):
        x = rng.next32()
        out[i] = x & 0xFF if alphabet is None else alphabet[x % len(alphabet)]
    return out


def _with_crc(body):
    return b"~" + body + b"|" + tablet.crc_hex(body).encode() + b"\n"


def _check_unchanged(car, d, before):
    assert car.snapshot() == before
    assert d.done_ids() == []


def test_random_bytes_change_nothing():
    rng = Rng(11)
    car, d, _sent = _dashboard()
    before = car.snapshot()
    for i in range(ROUNDS):
        d.feed(_bytes(rng, 1 + rng.next32() % 400), i)
        if i % 20 == 0:
            gc.collect()
    _check_unchanged(car, d, before)


def test_json_like_noise_with_a_correct_checksum_changes_nothing():
    rng = Rng(12)
    car, d, sent = _dashboard()
    before = car.snapshot()
    alphabet = b'{}[]":,0123456789-tcmdaeinp. "'
    for i in range(ROUNDS):
        d.feed(_with_crc(bytes(_bytes(rng, 1 + rng.next32() % 200, alphabet))), i)
        if i % 20 == 0:
            gc.collect()
    _check_unchanged(car, d, before)
    for line in tablet.LineReader().feed(b"".join(sent)):  # whatever it answered was well-formed frames
        assert codec.decode(line)["t"] in ("hello", "err", "hb", "frag", "st")


def test_corrupted_commands_are_dropped_and_wrong_ones_refused():
    rng = Rng(13)
    car, d, _sent = _dashboard()
    before = car.snapshot()
    good = tablet.encode({"t": "cmd", "id": "z.1", "c": "deal", "a": {"card": "SS"}})
    for i in range(ROUNDS):
        f = bytearray(good)
        for _ in range(1 + rng.next32() % 3):
            f[1 + rng.next32() % (len(f) - 2)] = 0x20 + rng.next32() % 0x5E
        if bytes(f) != good:
            d.feed(bytes(f), i)
    # A mutation that keeps the checksum right is astronomically unlikely; any that did would be refused.
    assert car.snapshot() == before
    for name, args in (("deal", {"card": "XX"}), ("pen", {"tyre": -1}), ("sync", {"speed": 7}), ("no", {})):
        d.feed(tablet.encode({"t": "cmd", "id": "w." + name, "c": name, "a": args}), 0)
    assert car.snapshot() == before
    assert [x[1] for x in d.done_ids()] == ["card", "args", "snapshot", "command"]


def test_fragments_in_the_wrong_order_or_oversized_are_dropped():
    rng = Rng(14)
    car, d, _sent = _dashboard()
    before = car.snapshot()
    snap = dict(before, hand=["FG"] * 40, tyre=3)
    frames = tablet.frames({"t": "cmd", "id": "s.1", "c": "sync", "a": snap}, 1)
    assert len(frames) > 2
    for i in range(ROUNDS // 3):
        order = [frames[rng.next32() % len(frames)] for _ in range(len(frames))]
        if order != frames:
            d.feed(b"".join(order), i)
            d.feed(tablet.encode({"t": "hb"}), i)  # ends any half-built message
    for k in (16, 0, 1):  # 2048 bytes in 144-byte slices make at most 15 fragments
        d.feed(tablet.encode({"t": "frag", "f": 9, "i": 0, "k": k, "d": "e30="}), 0)
    assert car.snapshot() == before
