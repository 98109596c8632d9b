"""Fuzzing the frame parser: hypothesis on CPython, seeded random bytes on MicroPython with a small heap."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules.f1 import car as f1car
from shared_rules.link import codec, tablet
from shared_rules.link.dashboard import DashboardProtocol
from tests import mpy

SAFE = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7D, exclude_characters='"\\'),
               max_size=12)
LEAF = st.one_of(st.integers(min_value=-(2**40), max_value=2**40), SAFE)
VALUE = st.one_of(LEAF, st.lists(LEAF, max_size=30), st.dictionaries(SAFE, LEAF, max_size=30))
MESSAGE = st.dictionaries(SAFE, VALUE, max_size=8).map(lambda d: dict(d, t="x"))


def _dashboard():
    car = f1car.Car(laps=5)
    sent = []
    d = DashboardProtocol("fuzz", "0.1.0", car.snapshot, lambda n, a: f1car.apply_command(car, n, a),
                          sent.append, None, (), 0)
    return car, d, sent


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=1200))
def test_arbitrary_bytes_never_crash_or_change_the_dashboard(data):
    car, d, sent = _dashboard()
    before = car.snapshot()
    d.feed(data, 0)
    assert car.snapshot() == before and d.done_ids() == []
    assert len(d.reader.buf) == codec.MAX_FRAME
    for data in sent:
        assert b"\x03" not in data
        for frame in data.split(b"\n")[:-1]:
            assert len(frame) < codec.MAX_FRAME


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600), MESSAGE)
def test_any_message_survives_noise_before_it(noise, msg):
    try:
        frames = tablet.frames(msg, 3)
    except ValueError:
        return  # too big to send at all: refused at the sender
    reader, assembler = tablet.LineReader(), codec.Receiver()
    got = []
    for line in reader.feed(noise + b"\n" + b"".join(frames)):
        try:
            m = assembler.add(codec.decode(line))
        except codec.FrameError:
            continue
        if m is not None:
            got.append(m)
    assert got[-1:] == [msg]
    for f in frames:
        assert len(f) <= codec.MAX_FRAME and all(0x20 <= b <= 0x7E for b in f[:-1])


def test_random_bytes_on_micropython_with_a_small_heap():
    # 128K: the parser plus the car rules compiled from source (about 100K), well under the ~190K a Pico has.
    proc = mpy.run(["tests/portable/runner.py", "tests.portable.test_link_fuzz"], heap="128K")
    out = proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")
    assert proc.returncode == 0, out
    assert out.strip().splitlines()[-1] == "4 passed, 0 failed", out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=300), st.sampled_from([b"~", b"\n", b"~" + b"a" * 254 + b"\n"])),
                max_size=12), st.integers(min_value=1, max_value=64))
def test_chunked_reading_finds_exactly_the_lines_byte_reading_finds(parts, chunk):
    stream = b"".join(parts)
    one, many = codec.Receiver(), tablet.LineReader()  # the dashboard's byte reader, the tablet's bulk one
    expected = [line for line in (one.feed_byte(b) for b in stream) if line is not None]
    got = []
    for i in range(0, len(stream), chunk):
        got += many.feed(stream[i : i + chunk])
    assert got == expected
    assert many.n == one.n  # the same partial line, or both skipping one too long (-1)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=1200))
def test_arbitrary_bytes_never_crash_the_tablet_or_invent_a_dashboard(data):
    sent = []
    devices = {}
    s = tablet.Session(sent.append, devices, 0)
    assert s.feed(data, 10) == []
    s.tick(5000)
    assert devices == {} and s.device is None


JSON = st.recursive(LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(SAFE, inner, max_size=4)),
                    max_leaves=8)
COMMANDS = ["turn", "pen", "speed", "deal", "take", "lap", "pit", "sync", "f5"]


@st.composite
def tablet_messages(draw):
    """What a tablet sends, each field right, missing or any JSON at all (a list for an id, an object for args)."""
    t = draw(st.sampled_from(["cmd", "cmd", "cmd", "ack", "hi", "get", "hb", "frag", "zz"]))
    msg = {"t": t}
    good = {"id": "t.%d" % draw(st.integers(0, 10**6)), "c": draw(st.sampled_from(COMMANDS)),
            "a": {"card": "SS"}, "p": 1, "f": 1, "i": 0, "k": 2, "d": "e30="}
    for key in good:
        if draw(st.integers(0, 3)):
            msg[key] = draw(st.one_of(st.just(good[key]), JSON))
    if "id" in msg and draw(st.integers(0, 9)) == 0:
        msg["id"] = "L" * 60  # an id too long to keep among the done ids, save and journal
    return msg


@settings(max_examples=200, deadline=None)
@given(st.lists(tablet_messages(), min_size=1, max_size=4))
def test_well_formed_frames_of_any_shape_leave_the_dashboard_answering(msgs):
    # Each frame is valid for the codec; whatever its fields hold, the dashboard stays up, answers every command
    # (ack or err), changes only through commands it acknowledged, and the next good command works.
    car, d, sent = _dashboard()
    for m in msgs:
        try:
            frames = tablet.frames(m, 7)
        except ValueError:
            continue
        d.feed(b"".join(frames), 0)
    before = car.snapshot()
    sent.clear()
    d.feed(tablet.encode({"t": "cmd", "id": "good.1", "c": "deal", "a": {"card": "QR"}}), 10)
    rx = codec.Receiver()
    got = [rx.add(codec.decode(f[:-1])) for f in sent]
    acks = [m for m in got if m is not None and m.get("id") == "good.1"]
    assert acks and acks[-1]["t"] in ("ack", "err"), got
    if acks[-1]["t"] == "ack" and not acks[-1]["dup"]:
        assert car.hand == before["hand"] + ["QR"]
    for entry in d.done_ids():
        assert isinstance(entry[0], str) and 0 < len(entry[0]) <= 40  # only ids it can keep and save
