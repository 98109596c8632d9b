"""No frame can stop the tablet, and nothing a dashboard says is taken twice or undone: the real Transport (its
threads and sessions), LinkBridge and Referee, with a dashboard at the far end of an in-memory port (the real
protocol, shared_rules/link/dashboard.py, over a Car), and frames of every JSON shape thrown at them.

Cost: about 10 s (the fuzz: 300 frames, each followed by a probe the bridge must see).
"""

import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.link_bridge import LinkBridge
from companion.f1.referee import Referee
from companion.transport import PortSource, Transport
from shared_rules.errors import RuleError
from shared_rules.f1 import car as f1car
from shared_rules.f1.car import Car
from shared_rules.link import tablet
from shared_rules.link.dashboard import DashboardProtocol
from tests.wait import poll

FAST = {"hello_retry": 150, "command_retry": 250, "heartbeat": 400, "silent": 1000, "scan_s": 0.05}


def now_ms():
    return int(time.monotonic() * 1000)


class MemPort:
    """A pyserial-like port whose far end is a dashboard (a function taking what the tablet writes)."""

    def __init__(self, far_end):
        self.far_end = far_end
        self.buf = bytearray()
        self.cv = threading.Condition()
        self.closed = False

    @property
    def in_waiting(self):
        with self.cv:
            return len(self.buf)

    def read(self, n):
        with self.cv:
            if not self.buf and not self.closed:
                self.cv.wait(0.02)
            if self.closed:
                raise OSError("port closed")
            out = bytes(self.buf[:n])
            del self.buf[:n]
            return out

    def write(self, data):
        self.far_end(data)

    def inject(self, data):
        with self.cv:
            self.buf += data
            self.cv.notify()

    def close(self):
        with self.cv:
            self.closed = True
            self.cv.notify()


class MemDashboard(PortSource):
    """One dashboard on one port: the protocol over a Car, fed on the transport's thread; a lock keeps the
    test's own calls (hello, events) apart from it."""

    def __init__(self, dev):
        self.lock = threading.RLock()
        self.car = Car(3)
        self.port = None
        self.proto = DashboardProtocol(dev, "0.1.0", self.car.snapshot,
                                       lambda name, args: f1car.apply_command(self.car, name, args),
                                       self._write, None, (), now_ms())

    def _write(self, frame):
        if self.port is not None:
            self.port.inject(frame)

    def _take(self, data):
        with self.lock:
            self.proto.feed(data, now_ms())
            self.proto.tick(now_ms())

    def scan(self):
        return {"mem": "in-memory dashboard"}

    def open(self, key):
        self.port = MemPort(self._take)
        return self.port

    def inject(self, data):
        self.port.inject(data)  # type: ignore[union-attr]


def pump(bridge, pred, timeout=10.0):
    return poll(pred, timeout, 0.005, meanwhile=bridge.poll)  # whatever the frames held: nothing may escape


class Rig:
    def __init__(self, path):
        self.ref = Referee.new(path, ["Ann", "Bob"], 3, seed=1)
        self.dash = MemDashboard("fz")
        self.transport = Transport(self.dash, FAST)
        self.transport.start()
        self.bridge = LinkBridge(self.transport, self.ref)
        self.ref.pair(1, "fz")  # seat 1: not its turn, so no event of it can change the game
        self.bridge.push()
        self.probes = 0
        assert self.in_step()

    def in_step(self):
        return pump(self.bridge, lambda: not self.transport.pending()
                    and self.dash.car.snapshot() == self.ref.race.cars[1].snapshot())

    def probe(self):
        """A good frame after the bad one: the bridge must see it."""
        self.probes += 1
        fw = "probe-%d" % self.probes
        with self.dash.lock:
            self.dash.proto.firmware = fw
            self.dash.proto.hello(now_ms())
        return pump(self.bridge, lambda: self.bridge.seen.get("fz", {}).get("fw") == fw)

    def close(self):
        self.transport.stop()
        self.ref.close()


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    r = Rig(str(tmp_path_factory.mktemp("night") / "g.db"))
    yield r
    r.close()


def _throw(rig, msg, frag_id):
    rig.probes += 1
    if msg.get("id") == GOOD["id"]:
        msg["id"] = "fz.9.%d" % rig.probes  # a new event each time, not a repeat of one already taken
    if msg.get("n") == GOOD["n"]:
        msg["n"] = 1000 + rig.probes  # not the number of the frame before (a repeated frame is ignored)
    try:
        frames = tablet.frames(msg, frag_id)
    except ValueError:
        return False  # cannot travel at all: refused at its sender
    game = (rig.ref.race.snapshot(), len(rig.ref.stack))
    rig.dash.inject(b"".join(frames))
    assert rig.probe(), msg
    assert (rig.ref.race.snapshot(), len(rig.ref.stack)) == game, msg  # the game is unchanged
    return True


# -- the shapes the issue found, one by one ----------------------------------------------------------------
SNAP = Car(3).snapshot()
ODD = [
    {"t": "ev", "id": "fz.1.1", "e": ["speed"], "a": {"v": 20}, "n": 90},
    {"t": "ev", "id": "fz.1.2", "e": "card", "a": {"card": ["FG"]}, "n": 91},
    {"t": "ev", "id": "fz.1.3", "e": {"x": 1}, "a": [], "n": 92},
    {"t": "ev", "id": ["fz.1.4"], "e": "speed", "a": {"v": 20}, "n": 93},
    {"t": "hello", "p": 1, "dev": "fz", "fw": "x", "r": 0, "s": dict(SNAP, hand=[[]]), "n": 1},
    {"t": "hello", "p": 1, "dev": ["fz"], "fw": "x", "r": 0, "s": SNAP, "n": 1},
    {"t": "st", "r": 5, "s": dict(SNAP, hand=[{}]), "n": 2},
    {"t": "st", "r": 6, "s": dict(SNAP, speed=[1]), "n": 3},
    {"t": "ack", "id": {"a": 1}, "dup": 0, "r": 1, "s": SNAP, "n": 4},
    {"t": "hb", "r": [1], "n": 5},
]


@pytest.mark.parametrize("msg", ODD, ids=[str(i) for i in range(len(ODD))])
def test_an_odd_frame_is_dropped_or_refused_and_the_next_one_works(rig, msg):
    assert _throw(rig, msg, 800)
    assert rig.in_step()  # and the dashboard is back to the table's car (an unreadable state is synced)


def test_the_referee_refuses_odd_shapes_it_is_handed_directly(tmp_path):
    # The reproduction: each of these raised TypeError in the referee.
    ref = Referee.new(str(tmp_path / "g.db"), ["Ann", "Bob"], 3, seed=1)
    try:
        ref.pair(0, "d1")
        ref.take_commands()
        before = ref.race.snapshot()
        for name, args, eid in ((["speed"], {"v": 20}, "e1"), ("speed", {"v": 20, "card": ["FG"]}, "e2"),
                                ("card", {"card": {}}, "e3")):
            err = ref.on_dashboard_event(0, name, args, ("d1", eid))
            assert isinstance(err, RuleError) and err.code == "event"
        assert ref.race.snapshot() == before
        ref.take_commands()
        assert ref.reconcile(0, dict(Car(3).snapshot(), hand=[[]])) == 1
        assert [c[2] for c in ref.take_commands()] == ["sync"]
    finally:
        ref.close()


# -- every JSON shape ----------------------------------------------------------------------------------------
SAFE = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7D, exclude_characters='"\\~'),
               max_size=8)
LEAF = st.one_of(st.integers(min_value=-(2**33), max_value=2**33), SAFE)
JSON = st.recursive(LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(SAFE, inner, max_size=4)),
                    max_leaves=8)
GOOD = {"dev": "fz", "fw": "1", "p": 1, "r": 1, "s": SNAP, "id": "fz.9.1", "e": "speed", "a": {"v": 20},
        "dup": 0, "m": "x", "q": 0, "n": 7, "k": 2, "i": 0, "f": 3, "d": "e30="}


FIELDS = {"hello": "dev fw p r s q n", "st": "r s q n", "ev": "id e a r s q n", "ack": "id dup r s q n",
          "err": "id e m n", "hb": "r q n", "frag": "f i k d", "get": "n", "zz": "id a n"}


@st.composite
def messages(draw):
    """A message of a type the tablet knows (or not), each of its fields left out, right, or any JSON at all."""
    t = draw(st.sampled_from(sorted(FIELDS)))
    msg = {"t": t}
    for key in FIELDS[t].split():
        if draw(st.integers(0, 9)):  # mostly there: a message with half its fields gone is dropped early
            msg[key] = draw(st.one_of(st.just(GOOD[key]), JSON))
    if "s" in msg and isinstance(msg["s"], dict) and draw(st.booleans()):
        field = draw(st.sampled_from(sorted(SNAP)))
        msg["s"] = dict(msg["s"], **{field: draw(JSON)})  # a snapshot wrong in one field
    return msg


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(messages())
def test_no_frame_of_any_shape_stops_the_tablet_or_changes_the_game(rig, msg):
    _throw(rig, msg, 900)


def test_after_the_fuzz_the_dashboard_is_in_step_and_its_own_action_still_counts(rig):
    assert rig.in_step()
    # Its turn comes (the table plays seat 0's), and the player sets a speed on the dashboard: taken, once.
    rig.ref.set_speed(20)
    rig.ref.end_turn()
    rig.bridge.push()
    assert rig.in_step() and rig.ref.race.seat == 1
    with rig.dash.lock:
        rig.dash.car.set_speed(40)
        rig.dash.proto.post_event("speed", {"v": 40}, now_ms())
        rig.dash.proto.state_changed(now_ms())
    assert pump(rig.bridge, lambda: rig.ref.race.cars[1].speed_set == 1)
    assert rig.in_step() and rig.ref.race.cars[1].speed == 40


def test_an_event_no_rule_can_read_is_logged_once_with_its_dashboard(rig, caplog):
    msg = {"t": "ev", "id": "fz.7.1", "e": "card", "a": {"card": ["FG"]}, "n": 70}
    with caplog.at_level("WARNING", logger="companion.link_bridge"):
        for n in (70, 71, 72):  # sent, and resent twice (its first ack lost)
            assert _throw(rig, dict(msg, n=n), 700)
    said = [r.getMessage() for r in caplog.records if "fz.7.1" in r.getMessage()]
    assert len(said) == 1 and "dashboard fz" in said[0], said
