# Dashboard and tablet protocol state machines wired back to back through a lossy in-memory line.
from shared_rules.errors import RuleError
from shared_rules.f1 import car as f1car
from shared_rules.link import codec, tablet
from shared_rules.link.dashboard import DashboardProtocol
from shared_rules.rng import Rng
from tests.portable import link_script


class Line:
    """Frames between the two sides; each may be dropped, doubled or corrupted (seeded, reproducible)."""

    def __init__(self, seed=1, drop=0, dup=0, corrupt=0):
        self.rng = Rng(seed)
        self.drop, self.dup, self.corrupt = drop, dup, corrupt
        self.to_dash = []
        self.to_tablet = []

    def _chance(self, percent):
        return percent and self.rng.next32() % 100 < percent

    def deliver(self, frames):
        out = []
        for f in frames:
            if self._chance(self.drop):
                continue
            if self._chance(self.corrupt):
                i = 1 + self.rng.next32() % (len(f) - 2)
                f = f[:i] + (b"#" if f[i:i + 1] != b"#" else b"%") + f[i + 1:]
            out.append(f)
            if self._chance(self.dup):
                out.append(f)
        return b"".join(out)


def messages(frames):
    """The whole messages in a list of frames (fragments put back together)."""
    a = codec.Receiver()
    out = []
    for line in tablet.LineReader().feed(b"".join(frames)):
        m = a.add(codec.decode(line))
        if m is not None:
            out.append(m)
    return out


class Table:
    def __init__(self, line=None, car=None, done=()):
        self.line = line or Line()
        self.saved = None
        self.car = car or f1car.Car(laps=5)
        self.now = 0
        self.devices = {}
        self.notes = []
        self.session = tablet.Session(self.line.to_dash.append, self.devices, self.now)
        self.start_dashboard(done)

    def start_dashboard(self, done=()):
        self.dash = DashboardProtocol("dash-1", "0.1.0", self.car.snapshot, self._apply,
                                      self.line.to_tablet.append, self._save, done, self.now)

    def _apply(self, name, args):
        f1car.apply_command(self.car, name, args)

    def _save(self, done):
        self.saved = [self.car.snapshot(), done]

    def run(self, ms, step=50):
        end = self.now + ms
        while self.now < end:
            self.now += step
            data = self.line.deliver(self.line.to_dash)
            self.line.to_dash[:] = []
            self.dash.feed(data, self.now)
            self.dash.tick(self.now)
            data = self.line.deliver(self.line.to_tablet)
            self.line.to_tablet[:] = []
            self.notes.extend(self.session.feed(data, self.now))
            self.session.tick(self.now)

    def device(self):
        return self.devices["dash-1"]

    def submit(self, cmds):
        d = self.devices.get("dash-1") or tablet.Device("dash-1")
        self.devices["dash-1"] = d
        for cid, name, args in cmds:
            d.submit(cid, name, args)
        self.session.pump(self.now)

    def done_ids(self):
        return [n[2] for n in self.notes if n[0] in ("done", "refused")]


def test_hello_tells_the_tablet_who_the_dashboard_is_and_its_state():
    t = Table()
    t.run(200)
    hello = [n for n in t.notes if n[0] == "hello"]
    assert hello and hello[0][1] == "dash-1"
    assert hello[0][2]["p"] == codec.PROTOCOL and hello[0][2]["fw"] == "0.1.0"
    assert t.device().snapshot == t.car.snapshot()
    assert t.session.status(t.now) == tablet.CONNECTED


def test_a_command_is_applied_once_and_acknowledged_with_the_new_state():
    t = Table()
    t.run(100)
    t.submit([["a.1", "deal", {"card": "SS"}]])
    t.run(200)
    assert t.car.hand == ["SS"]
    assert ("done", "dash-1", "a.1", t.car.snapshot()) in t.notes
    assert t.saved == [t.car.snapshot(), [["a.1", ""]]]


def test_a_repeated_command_id_is_answered_but_not_applied_again():
    t = Table()
    t.run(100)
    cmd = tablet.encode({"t": "cmd", "id": "a.1", "c": "deal", "a": {"card": "SS"}})
    t.dash.feed(cmd + cmd + cmd, t.now)
    assert t.car.hand == ["SS"]
    assert [m.get("dup") for m in messages(t.line.to_tablet) if m["t"] == "ack"] == [0, 1, 1]


def test_an_invalid_command_gets_an_error_and_changes_nothing():
    t = Table()
    t.run(100)
    before = t.car.snapshot()
    t.submit([["a.1", "take", {"card": "SS"}], ["a.2", "fly", {}], ["a.3", "pen", {"tyre": "x"}]])
    t.run(500)
    assert t.car.snapshot() == before
    refused = [(n[2], n[3]) for n in t.notes if n[0] == "refused"]
    assert refused == [("a.1", "card"), ("a.2", "command"), ("a.3", "args")]


def test_malformed_and_unknown_frames_get_an_error_frame_and_change_nothing():
    t = Table()
    before = t.car.snapshot()
    t.dash.feed(tablet.encode({"t": "cmd", "id": 5, "c": "lap"}) + tablet.encode({"t": "zap", "id": "q"}), 0)
    msgs = messages(t.line.to_tablet)
    assert [(m["t"], m.get("e")) for m in msgs[1:]] == [("err", "proto"), ("err", "type")]
    assert t.car.snapshot() == before


def test_a_lossy_line_still_applies_every_command_exactly_once():
    line = Line(seed=7, drop=20, dup=15, corrupt=10)
    t = Table(line)
    cmds = link_script.commands(30)
    t.submit(cmds)
    t.run(60000)
    assert t.done_ids() == [c[0] for c in cmds]
    assert t.car.snapshot() == link_script.expected(cmds)
    t.line.drop = t.line.dup = t.line.corrupt = 0
    t.run(3000)
    assert t.device().snapshot == t.car.snapshot()


def test_a_dashboard_restarted_after_applying_but_before_acking_does_not_apply_again():
    t = Table()
    t.run(100)
    t.submit([["a.1", "deal", {"card": "SS"}]])
    t.dash.feed(b"".join(t.line.to_dash), t.now)  # applied and saved; the ack is lost with the restart
    t.line.to_dash[:] = []
    t.line.to_tablet[:] = []
    snap, done = t.saved
    t.car = f1car.Car.from_snapshot(snap)
    t.start_dashboard(done)
    t.run(1000)
    assert t.car.hand == ["SS"]
    assert t.done_ids() == ["a.1"]
    assert t.device().snapshot == t.car.snapshot()


def test_events_from_the_dashboard_reach_the_tablet_once_and_leave_the_outbox():
    line = Line(seed=3, drop=30, dup=30)
    t = Table(line)
    t.run(100)
    eid = t.dash.post_event("play", {"card": "GC"}, t.now)
    t.run(10000)
    events = [n for n in t.notes if n[0] == "event"]
    assert events == [("event", "dash-1", eid, "play", {"card": "GC"})]
    assert t.dash.pending_events() == []


def test_a_lost_state_frame_is_noticed_by_the_heartbeat_and_fetched_again():
    t = Table()
    t.run(100)
    t.car.hand.append("QR")  # a change made on the dashboard itself
    t.dash.state_changed(t.now)
    t.line.to_tablet[:] = []  # ... whose state frame is lost
    assert t.device().snapshot != t.car.snapshot()
    t.run(2500)
    assert t.device().snapshot == t.car.snapshot()


def test_the_tablet_sees_a_silent_dashboard_and_a_closed_port():
    t = Table()
    t.run(100)
    t.dash.write = lambda frame: None  # the dashboard stops talking (crashed into the REPL)
    t.run(tablet.SILENT_MS + 200)
    assert t.session.status(t.now) == tablet.SILENT
    t.session.close()
    assert t.session.status(t.now) == tablet.LOST


def test_a_dashboard_with_another_protocol_version_gets_no_commands():
    t = Table()
    t.line.to_tablet[:] = []
    t.dash.hello = lambda now: t.dash._send({"t": "hello", "p": 99, "dev": "dash-1", "fw": "9", "r": 0,
                                             "s": t.car.snapshot()}, now)
    t.run(400)
    t.submit([["a.1", "deal", {"card": "SS"}]])
    t.run(1000)
    assert t.session.incompatible and t.car.hand == []


def test_a_refusing_handler_must_use_rule_error_codes():
    t = Table()

    def refuse(name, args):
        raise RuleError("nope", 'not "now"')

    t.dash.apply_command = refuse
    t.run(100)
    t.submit([["a.1", "lap", {}]])
    t.run(300)
    assert [n[3:] for n in t.notes if n[0] == "refused"] == [("nope", "not ?now?")]


def test_a_port_that_never_says_hello_is_asked_less_and_less_often():
    sent = []
    s = tablet.Session(sent.append, {}, 0)
    for now in range(0, 20000, 50):
        s.tick(now)
    his = [f for f in sent if b'"t":"hi"' in f]
    # every 150 ms for the first 1.8 s (a replugged dashboard is back at once), then 300, 600, 1200, then every
    # 2.4 s: not 133 times in 20 s
    assert 14 <= len(his) <= 24
    assert s.status(20000) == tablet.SILENT


def test_a_dashboard_restart_whose_hello_is_lost_is_still_noticed_and_served():
    t = Table()
    t.run(100)
    for _i in range(30):  # the count of frames from this boot grows
        t.dash.state_changed(t.now)
    t.run(100)
    snap, done = t.car.snapshot(), t.dash.done_ids()
    t.car = f1car.Car.from_snapshot(snap)
    t.start_dashboard(done)
    t.line.to_tablet[:] = []  # the new boot's hello is lost
    t.submit([["a.1", "deal", {"card": "GC"}]])
    t.run(3000)
    assert t.done_ids() == ["a.1"] and t.car.hand == ["GC"]
    assert t.device().snapshot == t.car.snapshot()


def _states(t):
    return [n for n in t.notes if n[0] == "state"]


def test_an_event_carries_the_state_it_made_and_no_state_frame_goes_with_it():
    # One message per change: the tablet never sees the state without the action that made it, in any order.
    t = Table()
    t.run(200)
    t.notes[:] = []
    t.car.hand.append("GC")  # the player's change, then its event, then the app's state_changed()
    eid = t.dash.post_event("play", {"card": "GC"}, t.now)
    t.dash.state_changed(t.now)
    t.run(200)
    kinds = [n[0] for n in t.notes]
    assert kinds == ["event", "state"], t.notes
    assert t.notes[0][2] == eid
    _, dev, snap, rev, settled = t.notes[1]
    assert snap == t.car.snapshot() and settled  # the event itself is the only one waiting: whole
    assert t.dash.outbox == []
    t.dash.state_changed(t.now)  # a later change of its own: a state frame again
    t.run(100)
    assert [n[0] for n in t.notes[2:]] == ["state"]


def test_a_state_sent_while_events_wait_counts_only_once_they_are_all_acknowledged():
    t = Table()
    t.run(200)
    t.notes[:] = []
    t.dash.post_event("play", {"card": "GC"}, t.now)
    t.dash.post_event("play", {"card": "SS"}, t.now)
    t.dash.state_changed(t.now)  # the change the last event carried: nothing more to send
    t.car.hand.append("GC")
    t.dash.state_changed(t.now)  # a change of its own: a state frame, two events waiting
    t.run(400)
    settled = [n[4] for n in _states(t)]
    # the first event (alone), the second (one more waiting), the state frame (both), then the heartbeat the
    # dashboard sends once both are acknowledged: that state is whole now
    assert settled == [True, False, False, True], t.notes
    assert _states(t)[-1][2] == t.car.snapshot()


def test_a_new_port_asks_for_hello_every_150_ms_at_first():
    # A replugged dashboard answers the first "hi" it hears: a lost one must not cost seconds.
    sent = []
    s = tablet.Session(sent.append, {}, 0)
    for now in range(0, 1850, 50):
        s.tick(now)
    assert len([f for f in sent if b'"t":"hi"' in f]) == 13  # 0, 150, ..., 1800


def test_a_damaged_frame_while_a_command_is_in_flight_resends_it_at_once():
    t = Table()
    t.run(200)
    t.line.to_dash[:] = []
    t.submit([["a.1", "deal", {"card": "SS"}]])  # sent; its answer is lost on the way
    assert len(t.line.to_dash) == 1
    t.session.feed(b'~{"t":"ack","id":"a.1"}|00000000\n', t.now + 10)  # too soon after sending: no resend
    assert len(t.line.to_dash) == 1
    t.session.feed(b'~{"t":"ack","id":"a.1"}|00000000\n', t.now + 60)  # its ack, spoiled: resent now
    assert len(t.line.to_dash) == 2 and b'"id":"a.1"' in t.line.to_dash[1]
