"""A dashboard event is taken once, even across a tablet crash that ate its ack.

The dashboard resends an event until the tablet acknowledges it. The tablet remembers the ids it took, and
that memory must outlive the app: here the real firmware (micropython unix port) posts an event, the tablet
takes it, every frame back to the dashboard is lost (so the ack never arrives), the tablet dies and reopens
its game log, and the dashboard resends the same event id. The table must apply it exactly once.
"""

import os
import queue
import sqlite3
import time

import pytest

from companion.f5.referee import F5Referee
from companion.link_bridge import LinkBridge
from companion.eventlog import LogError
from companion.f1.referee import Referee
from companion.transport import CONNECTED, Transport
from companion.transport.pyserial_backend import PyserialPorts
from shared_rules.f5 import bot
from shared_rules.f5.game import RACE
from shared_rules.link import codec, tablet
from tests.f5_devices.test_f5_full_game import press_move
from tests.firmware.dash import restored
from tests.firmware.race_script import dial
from tests.link.harness import FAST, FakeUsb, heard_to_now
from tests.table.table import TIMING, Seat, Table
from tests.wait import poll

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs ptys")


def pending_events(dash):
    """The events the dashboard's last save still holds unacknowledged (firmware/app.py saves them as 'ev')."""
    try:
        return restored(dash.state_path).get("ev")
    except (OSError, ValueError, KeyError):
        return None


def until(pred, timeout=10, meanwhile=None):
    """Wait for pred(), calling meanwhile() as the app's Clock would; whether it came."""
    return bool(poll(pred, timeout, meanwhile=meanwhile))


def resends_counted(relay, eid):
    """A list that grows by one each time the dashboard behind `relay` sends event `eid` up the line from now on.

    The dashboard resends an event only while it holds it unacknowledged (every 500 ms, shared_rules/link/
    dashboard.py), so resends that keep coming are the signal that no ack reached it, where a fixed wait could
    only hope the ack would have come by then."""
    sent = []
    reader = tablet.LineReader()  # the tablet's own: an event carrying the state comes in fragments

    def sieve(way, line):
        if way == "up":
            for frame in reader.feed(line):
                try:
                    msg = reader.add(codec.decode(frame))
                except codec.FrameError:
                    continue
                if msg is not None and msg.get("t") == "ev" and msg.get("id") == eid:
                    sent.append(msg)
        return [line]

    relay.sieve = sieve
    return sent


def still_resent(relay, eid, meanwhile=None, times=2, timeout=10):
    """Whether the dashboard sent event `eid` `times` more times: between two resends it has read its line (an ack
    sent before the first would have been taken by the second, and stopped it)."""
    sent = resends_counted(relay, eid)
    try:
        return until(lambda: len(sent) >= times, timeout, meanwhile)
    finally:
        relay.sieve = None


def test_formula1_event_taken_before_a_tablet_crash_is_not_applied_again(tmp_path):
    table = Table(str(tmp_path), 7, players=2, laps=3, lap_spaces=12).open()
    try:
        ref = table.ref
        seat = ref.race.seat
        s = table.seats[seat]
        d = s.dash
        car = table.car(seat)
        v = [x for x in car.speed_choices() if x and car.braking_cost(x) == (0, 0, 0)][0]
        s.relay.down.blackhole = True  # from now on nothing reaches the dashboard: no ack either
        d.tap("OK")
        dial(d, v)
        d.tap("OK")
        assert table.pump(lambda: table.car(seat).speed_set == 1, 10), "the table never took the speed"
        assert table.car(seat).speed == v
        assert until(lambda: pending_events(d), 5, table.bridge.poll)  # saved as still unacknowledged
        eid = pending_events(d)[0][0]
        # The table plays on: this turn ends, the other car moves, and it is this car's turn again, speed not
        # yet set: a second "speed" event for this seat would now be legal.
        ref.end_turn()
        other = ref.race.seat
        ref.set_speed([x for x in table.car(other).speed_choices() if x][0])
        ref.end_turn()
        table.bridge.push()
        assert ref.race.seat == seat and table.car(seat).speed_set == 0
        taken = len([e for e in ref.entries if e.get("t") == "speed" and e["seat"] == seat])
        table.kill_tablet()  # the app dies with the ack never delivered; it reopens its log
        assert table.ref.race.seat == seat and table.car(seat).speed_set == 0
        s.relay.down.blackhole = False
        table.settle()
        # The dashboard sent the same id again and got its ack this time...
        assert until(lambda: pending_events(d) == [], 10, table.bridge.poll), pending_events(d)
        heard_to_now(table.transport, s.dev, table.bridge.poll)  # a note passed on, if any, is taken now
        # ...and the table did not apply it a second time.
        after = [e for e in table.ref.entries if e.get("t") == "speed" and e["seat"] == seat]
        assert len(after) == taken == 1, [e for e in table.ref.entries if e.get("t") != "pair"]
        assert table.car(seat).speed_set == 0 and table.ref.race.seat == seat
        assert table.bridge.errors == []
        assert eid in table.transport.devices[s.dev].events
        table.settle()  # and every dashboard shows the table's car
    finally:
        table.close()


def test_formula5_move_taken_before_a_tablet_crash_is_not_played_again(tmp_path):
    usb = FakeUsb()
    path = str(tmp_path / "f5.db")
    seat = Seat(str(tmp_path), "f5-x", usb, 1)
    seat.start()
    transports = []
    refs = []
    try:
        ref = F5Referee.new(path, [0, 1], bots=[1], seed=4)
        refs.append(ref)
        ref.pair(0, "f5-x")
        transport = Transport(PyserialPorts(usb), FAST)
        transport.start()
        transports.append(transport)
        bridge = LinkBridge(transport, ref)
        d = seat.dash

        def pump(pred, timeout=20):
            return until(pred, timeout, bridge.poll)

        while ref.auto_move() is not None:
            bridge.push()
        assert pump(lambda: not transport.pending() and transport.status("f5-x") == CONNECTED)
        n = len(ref.game.events)
        ev = bot.choose(ref.game)
        seat.relay.down.blackhole = True  # nothing reaches the dashboard any more: the ack is lost
        press_move(d, ref.game.hand(0), ev)
        assert pump(lambda: len(ref.game.events) == n + 1), "the table never took the move"
        assert ref.game.events[-1] == ev
        assert until(lambda: pending_events(d), 5, bridge.poll)
        moves = list(ref.game.events)
        # The app dies (nothing closed cleanly) and reopens its log; the dashboard still resends its move.
        transport.stop()
        ref = F5Referee.open(path)
        refs.append(ref)
        transport = Transport(PyserialPorts(usb), FAST)
        transport.start()
        transports.append(transport)
        bridge = LinkBridge(transport, ref)
        assert ref.game.events == moves
        seat.relay.down.blackhole = False
        assert pump(lambda: transport.status("f5-x") == CONNECTED)
        assert until(lambda: pending_events(d) == [], 10, bridge.poll), pending_events(d)
        heard_to_now(transport, "f5-x", bridge.poll)  # a note passed on, if any, is taken now
        assert pump(lambda: not transport.pending())
        # Taken once: not played again, and not refused as a stale move either (the table sees no error).
        assert ref.game.events == moves
        assert bridge.errors == []
    finally:
        for t in transports:
            t.stop()
        seat.close()
        for r in refs:
            r.close()


# ---- the ack follows the effect: a tablet that dies before applying an event is sent it again ---------------


def take_note_and_die(table, dev, timeout=10):
    """The app takes the dashboard's event note off the transport's queue, then dies before applying it (its
    bridge never sees the note). Returns the note."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            note = table.transport.events.get(timeout=0.1)
        except queue.Empty:
            continue
        if note[0] == "event" and note[1] == dev:
            table.transport.stop()  # dead: no more reading, writing or acking
            return note
    raise AssertionError("the tablet never took the event")


def speed_event(table):
    """The seat to move sets a speed the table takes as is on its dashboard; the tablet takes the event note
    and dies before applying it. Returns (seat, speed, note)."""
    seat = table.ref.race.seat
    s = table.seats[seat]
    car = table.car(seat)
    v = [x for x in car.speed_choices() if x and car.braking_cost(x) == (0, 0, 0)][0]
    d = s.dash
    d.tap("OK")
    dial(d, v)
    d.tap("OK")
    note = take_note_and_die(table, s.dev)
    assert note[3] == "speed" and table.car(seat).speed_set == 0  # taken by the link, not by the table
    # Not acknowledged: the dashboard still holds it (today's tablet acked it on arrival, and it was lost).
    assert still_resent(s.relay, note[2]), "acked before the table applied it: the dashboard stopped resending"
    assert [e[0] for e in pending_events(d)] == [note[2]]
    return seat, v, note


def speeds(ref, seat):
    return [e for e in ref.entries if e.get("t") == "speed" and e["seat"] == seat]


def applied_once(table, seat, v, note):
    """The resent event took effect on the reopened table exactly once, and was acknowledged."""
    d = table.seats[seat].dash
    assert table.pump(lambda: table.car(seat).speed_set == 1, 15), "the resent event was never applied"
    assert until(lambda: pending_events(d) == [], 10, table.bridge.poll), pending_events(d)
    heard_to_now(table.transport, table.seats[seat].dev, table.bridge.poll)  # more resends, if any: none applied again
    table.settle()
    assert [e["v"] for e in speeds(table.ref, seat)] == [v]
    assert table.car(seat).speed == v and table.ref.race.seat == seat
    assert ("dash-%d" % (seat + 1), note[2]) in table.ref.taken
    assert table.bridge.errors == []
    assert d.state["car"] == table.car(seat).snapshot()  # the player's action stands on the dashboard too


def test_formula1_event_the_tablet_died_before_applying_is_applied_once_when_it_reopens(tmp_path):
    table = Table(str(tmp_path), 7, players=2, laps=3, lap_spaces=12).open()
    try:
        seat, v, note = speed_event(table)
        log = Referee.open(table.path)
        assert speeds(log, seat) == []  # the log holds nothing of it
        log.close()
        table.old_refs.append(table.ref)
        table.ref = Referee.open(table.path)  # the app starts again from its log, the game open at once
        table._start_tablet()
        applied_once(table, seat, v, note)
    finally:
        table.close()


def test_an_event_that_comes_while_no_game_is_open_waits_for_the_game_resumed(tmp_path):
    # As the app starts: the link first, on the setup screen, and the game only when the player resumes it.
    table = Table(str(tmp_path), 7, players=2, laps=3, lap_spaces=12).open()
    try:
        seat, v, note = speed_event(table)
        d = table.seats[seat].dash
        table.old_refs.append(table.ref)
        table.ref = None
        table.transport = Transport(PyserialPorts(table.usb), TIMING)
        table.transport.start()
        table.bridge = LinkBridge(table.transport)
        # The dashboard resends it to a tablet with no game open: held, not acknowledged, not lost.
        assert until(lambda: table.bridge.held, 10, table.bridge.poll)
        assert still_resent(table.seats[seat].relay, note[2], table.bridge.poll), (
            "acked with no game to take it: the dashboard stopped resending")
        assert pending_events(d), "acked with no game to take it"
        assert [n[2] for n in table.bridge.held] == [note[2]]
        table.ref = Referee.open(table.path)  # the player resumes the game
        table.bridge.attach(table.ref)
        assert table.bridge.held == []
        applied_once(table, seat, v, note)
    finally:
        table.close()


def test_the_link_acks_a_held_event_when_the_app_has_kept_it_and_a_repeat_at_once():
    sent = []
    devices = {}

    def session(hold):
        s = tablet.Session(sent.append, devices, 0, hold_events=hold)
        s.feed(tablet.encode({"t": "hello", "dev": "dash-1", "p": codec.PROTOCOL, "n": 1}), 0)
        return s

    def acks():
        out = [codec.decode(line) for line in tablet.LineReader().feed(b"".join(sent))]
        del sent[:]
        return [m["id"] for m in out if m["t"] == "ack"]

    def ev(s, eid, n):
        return s.feed(tablet.encode({"t": "ev", "id": eid, "e": "play", "a": {}, "n": n}), 0)

    s = session(True)
    acks()
    assert ev(s, "e1", 2) == [("event", "dash-1", "e1", "play", {})] and acks() == []
    assert ev(s, "e1", 3) == [] and acks() == []  # a resend while the app has it: neither passed on nor acked
    s.close()
    s = session(True)  # the dashboard moved to another port meanwhile
    acks()
    devices["dash-1"].kept("e1", 0)
    assert acks() == ["e1"]  # acked on the port the dashboard is on now
    assert ev(s, "e1", 2) == [] and acks() == ["e1"]  # a repeat of one kept: acked at once, as ever
    devices["dash-1"].kept("e1", 0)
    assert acks() == []  # kept twice: one ack
    s = session(False)  # without holding, acked on arrival (a link with no app behind it, the tests')
    assert ev(s, "e2", 2) == [("event", "dash-1", "e2", "play", {})] and acks() == ["e2"]


# ---- the record itself: one transaction with the event's effect, checked, kept across reopening -------------


def _new_game(game, path):
    """A game whose first car to move (seat 0) is paired with dashboard 'dash-1'."""
    if game == "f1":
        ref = Referee.new(path, ["Ann", "Bob"], 3, seed=11)
    else:
        ref = F5Referee.new(path, [0, 1], bots=[1], seed=4)
    ref.pair(0, "dash-1")
    return ref


def _dashboard_move(ref):
    """A legal event for seat 0's dashboard now, as (name, args); the tablet plays the others' turns first."""
    if ref.GAME == "f1":
        return ("speed", {"v": 20}) if ref.race.cars[0].speed_set == 0 else ("end", {})
    while ref.auto_move() is not None:
        pass
    ev = bot.choose(ref.game)
    k = len(ref.game.events)
    if ev[0] == RACE:
        return "f5race", {"card": ev[2], "k": k}
    return "f5pit", {"card": ev[2], "d": ev[3], "k": k}


def _played(ref):
    return ref.race.snapshot() if ref.GAME == "f1" else ref.game.snapshot()


def _rows(path, table):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT * FROM %s" % table).fetchall()
    finally:
        db.close()


@pytest.mark.parametrize("game", ["f1", "f5"])
@pytest.mark.parametrize("failing", ["events", "taken"])
def test_an_event_and_its_id_are_kept_together_or_not_at_all(tmp_path, game, failing):
    path = str(tmp_path / "g.db")
    ref = _new_game(game, path)
    try:
        name, args = _dashboard_move(ref)
        assert ref.on_dashboard_event(0, name, args, ("dash-1", "e1")) is None
        name, args = _dashboard_move(ref)  # (the tablet plays the cars before seat 0's turn first)
        # The disk fails at one of the two writes (a trigger aborts it, as a full disk would).
        db = sqlite3.connect(path)
        db.execute("CREATE TRIGGER fail BEFORE INSERT ON %s BEGIN SELECT RAISE(ABORT, 'disk full'); END" % failing)
        db.commit()
        db.close()
        before = (_rows(path, "events"), _rows(path, "taken"), _played(ref), len(ref.entries))
        with pytest.raises(LogError, match="disk full"):
            ref.on_dashboard_event(0, name, args, ("dash-1", "e2"))
        # Neither: no entry, no id, and the table as it was.
        assert (_rows(path, "events"), _rows(path, "taken"), _played(ref), len(ref.entries)) == before
        assert ("dash-1", "e2") not in ref.taken
        db = sqlite3.connect(path)
        db.execute("DROP TRIGGER fail")
        db.commit()
        db.close()
        ref.close()
        # Reopened: e1 took effect and is known; e2 never did, so its resend is taken now, once.
        ref = type(ref).open(path)
        assert ref.taken.recent() == {"dash-1": ["e1"]}
        assert _played(ref) == before[2]
        assert ref.on_dashboard_event(0, "end" if game == "f1" else name, args, ("dash-1", "e1")) is None
        assert _played(ref) == before[2]  # e1 again: nothing
        assert ref.on_dashboard_event(0, name, args, ("dash-1", "e2")) is None
        moved = _played(ref)
        assert moved != before[2]
        assert ref.on_dashboard_event(0, name, args, ("dash-1", "e2")) is None
        assert _played(ref) == moved and ref.taken.recent() == {"dash-1": ["e1", "e2"]}
    finally:
        ref.close()


@pytest.mark.parametrize("game", ["f1", "f5"])
def test_a_refused_event_is_taken_too_and_the_link_is_seeded_on_reopening(tmp_path, game):
    path = str(tmp_path / "g.db")
    ref = _new_game(game, path)
    name, args = _dashboard_move(ref)
    bad = ("hold", {"v": 999}) if game == "f1" else ("f5race", {"card": 0, "k": -1})
    assert ref.on_dashboard_event(0, bad[0], bad[1], ("dash-1", "refused")) is not None
    assert ref.on_dashboard_event(0, name, args, ("dash-1", "ok")) is None
    played, entries = _played(ref), len(ref.entries)
    ref.close()
    ref = type(ref).open(path)
    try:
        # Judged once: the refused one is not judged again (nor its error shown again) after reopening.
        assert ref.on_dashboard_event(0, bad[0], bad[1], ("dash-1", "refused")) is None
        assert (_played(ref), len(ref.entries)) == (played, entries)
        transport = Transport(PyserialPorts(FakeUsb()), FAST)  # not started: only its memory is looked at
        transport.remember_events("dash-1", ["older"])  # an id the link took in this run already, kept
        LinkBridge(transport, ref)
        assert transport.devices["dash-1"].events == ["refused", "ok", "older"]
        other = LinkBridge(Transport(PyserialPorts(FakeUsb()), FAST))
        other.attach(ref)  # the app opens the game after the link started: seeded on attach
        assert other.transport.devices["dash-1"].events == ["refused", "ok"]
    finally:
        ref.close()


def test_the_link_is_handed_the_last_64_ids_of_each_dashboard(tmp_path):
    path = str(tmp_path / "g.db")
    ref = _new_game("f1", path)
    try:
        for i in range(70):
            ref.on_dashboard_event(0, "nonsense", {}, ("dash-1", "e%d" % i))  # refused, taken all the same
        ref.on_dashboard_event(0, "nonsense", {}, ("dash-2", "x"))
        assert ref.taken.recent() == {"dash-1": ["e%d" % i for i in range(6, 70)], "dash-2": ["x"]}
        assert ("dash-1", "e0") in ref.taken  # the game itself forgets none
    finally:
        ref.close()


def test_damaged_taken_ids_are_refused_and_an_older_log_without_them_opens(tmp_path):
    path = str(tmp_path / "g.db")
    ref = _new_game("f1", path)
    ref.on_dashboard_event(0, "speed", {"v": 20}, ("dash-1", "e1"))
    ref.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE taken SET eid='e2'")  # an id edited, its checksum left as it was
    db.commit()
    db.close()
    raw = open(path, "rb").read()
    with pytest.raises(LogError, match="damaged at taken event 1"):
        Referee.open(path)
    assert open(path, "rb").read() == raw
    # A log written before ids were kept: it opens with none, and the first one taken creates the table.
    db = sqlite3.connect(path)
    db.execute("DROP TABLE taken")
    db.commit()
    db.close()
    ref = Referee.open(path)
    try:
        assert ref.taken.recent() == {} and ref.race.cars[0].speed == 20
        assert ref.on_dashboard_event(0, "end", {}, ("dash-1", "e3")) is None
        assert _rows(path, "taken")[0][1:3] == ("dash-1", "e3")
    finally:
        ref.close()
