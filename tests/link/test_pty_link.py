"""The firmware's link loop on the real `micropython` command, the tablet's pyserial transport, real ptys."""

import random
import time

import pytest

from companion import __version__
from companion.transport import CONNECTED, LOST, SILENT
from tests.link.harness import Dashboard, FakeUsb, Notes, Relay, restored, transport, wait_for
from tests.portable import link_script


@pytest.fixture
def rig(tmp_path):
    dash = Dashboard(tmp_path)
    relay = Relay(dash.start())
    usb = FakeUsb()
    usb.paths.append(relay.plug())
    t = transport(usb)
    notes = Notes(t)
    yield dash, relay, usb, t, notes
    t.stop()
    relay.close()
    dash.kill()


def _all_answered(notes, cmds, timeout=20):
    ids = [c[0] for c in cmds]
    return wait_for(lambda: (notes.drain() and set(ids) <= set(notes.answered())), timeout)


def _check_exactly_once(dash, t, notes, cmds):
    """Every command answered once, the dashboard's saved state is the state after applying each once, and the
    tablet's view equals the dashboard's."""
    ids = [c[0] for c in cmds]
    assert notes.answered("dash-1") == ids
    expected = link_script.expected(cmds)
    assert wait_for(lambda: dash.saved()[0] == expected, 5), (dash.saved()[0], expected)
    assert dash.saved()[1] == [i for i in ids if i in dash.saved()[1]]
    assert wait_for(lambda: t.snapshot("dash-1") == expected, 5)


def test_hello_then_commands_over_a_clean_line(rig):
    dash, relay, usb, t, notes = rig
    hello = wait_for(lambda: notes.of("hello"), 10)
    assert hello[0][1] == "dash-1" and hello[0][2]["p"] == 1 and hello[0][2]["fw"] == __version__
    assert hello[0][2]["s"]["laps_left"] == 5
    cmds = link_script.commands(8)
    for cid, name, args in cmds:
        t.send("dash-1", name, args, cid)
    assert _all_answered(notes, cmds)
    _check_exactly_once(dash, t, notes, cmds)
    assert t.status("dash-1") == CONNECTED


def test_garbage_truncation_corruption_duplicates_drops_and_delays_lose_nothing(rig):
    dash, relay, usb, t, notes = rig
    for f in (relay.up, relay.down):
        f.drop, f.dup, f.corrupt, f.truncate, f.garbage, f.delay = 10, 10, 10, 10, 10, 10
    cmds = link_script.commands(20)
    for cid, name, args in cmds:
        t.send("dash-1", name, args, cid)
    assert _all_answered(notes, cmds, 40)
    relay.up.__init__()
    relay.down.__init__()
    _check_exactly_once(dash, t, notes, cmds)


def test_unplug_and_replug_mid_command(rig):
    dash, relay, usb, t, notes = rig
    wait_for(lambda: notes.of("hello"), 10)
    relay.up.blackhole = True  # the acks of what follows are lost: unplugged mid-command
    cmds = link_script.commands(6)
    for cid, name, args in cmds:
        t.send("dash-1", name, args, cid)
    assert wait_for(lambda: dash.saved()[1][:1] == [cmds[0][0]], 5)
    usb.paths.remove(relay.path)
    relay.unplug()
    assert wait_for(lambda: ("port", "gone") in [(n[0], n[2]) for n in notes.of("port")], 1.0)
    assert wait_for(lambda: t.status("dash-1") == LOST, 1.0)
    relay.up.blackhole = False
    path = relay.plug()  # a new device node, as after a real replug
    usb.paths.append(path)
    assert wait_for(lambda: (path, "open") in [(n[1], n[2]) for n in notes.of("port")], 1.0)
    assert _all_answered(notes, cmds)
    _check_exactly_once(dash, t, notes, cmds)
    assert len(notes.of("hello")) >= 2


@pytest.mark.parametrize("when", ["after_save", "before_arrival"])
def test_dashboard_restart_mid_command_applies_nothing_twice(rig, when):
    dash, relay, usb, t, notes = rig
    wait_for(lambda: notes.of("hello"), 10)
    cmds = link_script.commands(3)
    if when == "after_save":
        relay.up.blackhole = True
        t.send("dash-1", cmds[0][1], cmds[0][2], cmds[0][0])
        assert wait_for(lambda: dash.saved()[1] == [cmds[0][0]], 5)  # applied and saved, ack lost
    else:
        relay.down.blackhole = True
        lost = []  # the command's frames the dead line swallowed

        def watch(way, line):
            if way == "down" and cmds[0][0].encode() in line:
                lost.append(line)
            return [line]

        relay.sieve = watch
        t.send("dash-1", cmds[0][1], cmds[0][2], cmds[0][0])
        # sent, and resent, into a dead line: the dashboard never saw it
        assert wait_for(lambda: len(lost) >= 2, 5), "the command was not sent and resent"
        relay.sieve = None
        assert dash.saved() == (None, [])
    dash.kill()
    relay.inject("up", b"Traceback (most recent call last):\r\nKeyboardInterrupt\r\nMPY: soft reboot\r\n")
    relay.attach_dashboard(dash.start())
    relay.up.blackhole = relay.down.blackhole = False
    for cid, name, args in cmds[1:]:
        t.send("dash-1", name, args, cid)
    assert _all_answered(notes, cmds)
    _check_exactly_once(dash, t, notes, cmds)


def test_power_cuts_at_random_instants_lose_no_acked_command_and_apply_none_twice(tmp_path):
    """Commands stream in while the dashboard is killed at random instants: mid-append of a journal line,
    mid-compaction (it folds its journal into a full save every 3 commands here), mid-ack. What it would
    restore after each cut holds every acknowledged command once, plus at most the one in flight (applied, its
    ack not yet taken by the tablet: the cut fell between the two); in the end every command is applied exactly
    once."""
    dash = Dashboard(tmp_path, env={"F1_LINK_FOLD_LINES": "3"})
    relay = Relay(dash.start())
    usb = FakeUsb()
    usb.paths.append(relay.plug())
    t = transport(usb)
    notes = Notes(t)
    rnd = random.Random(1962)
    try:
        wait_for(lambda: notes.of("hello"), 10)
        cmds = link_script.commands(48)
        order = [c[0] for c in cmds]
        cuts_after = []
        for cut in range(12):
            hellos = len(notes.of("hello"))
            for cid, name, args in cmds[cut * 4 : cut * 4 + 4]:  # four more; the tablet sends one at a time
                t.send("dash-1", name, args, cid)
            time.sleep(rnd.uniform(0.0, 0.02))  # real time is the point: a few ms each, the cut falls in the middle of the four
            dash.kill()
            # Acknowledged: sent and no longer pending, as the tablet knows it. Not the notes drained so far: the
            # transport writes the next command before it posts the note of the ack that let it go, so on a busy
            # machine the dashboard may have applied that next command while the note still waits to be posted.
            waiting = [p[1] for p in t.pending("dash-1")]
            acked = [cid for cid in order[: cut * 4 + 4] if cid not in waiting]
            snap, done = restored(dash.store)
            assert set(acked) <= set(done), "an acknowledged command was lost"
            assert done == order[: len(done)] and len(done) <= len(set(acked)) + 1, (done, acked)
            assert snap in (None, link_script.expected(cmds[: len(done)])), "a command applied twice or half"
            cuts_after.append(len(done))
            relay.inject("up", b"MPY: soft reboot\r\n")
            relay.attach_dashboard(dash.start())
            assert wait_for(lambda h=hellos: notes.drain() and len(notes.of("hello")) > h, 10)  # back on the line
        assert _all_answered(notes, cmds, 60)
        assert len(set(cuts_after)) > 3  # the cuts fell all along the run, not all before or after it
        ids = [c[0] for c in cmds]
        assert [i for i in notes.answered("dash-1") if i in ids][-1] == ids[-1]
        expected = link_script.expected(cmds)
        assert wait_for(lambda: dash.saved()[0] == expected, 5), (dash.saved()[0], expected)
        assert wait_for(lambda: t.snapshot("dash-1") == expected, 5), (t.snapshot("dash-1"), expected)
    finally:
        t.stop()
        relay.close()
        dash.kill()


def test_tablet_restart_mid_command_resends_saved_commands_once(rig):
    dash, relay, usb, t, notes = rig
    wait_for(lambda: notes.of("hello"), 10)
    relay.up.blackhole = True
    cmds = link_script.commands(4)
    for cid, name, args in cmds:
        t.send("dash-1", name, args, cid)
    assert wait_for(lambda: dash.saved()[1][:1] == [cmds[0][0]], 5)
    saved = t.pending()  # what the app keeps in its own save
    assert [p[1] for p in saved] == [c[0] for c in cmds]
    t.stop()
    relay.up.blackhole = False
    t2 = transport(usb)
    notes2 = Notes(t2)
    try:
        for dev, cid, name, args in saved:
            t2.send(dev, name, args, cid)
        assert _all_answered(notes2, cmds)
        _check_exactly_once(dash, t2, notes2, cmds)
    finally:
        t2.stop()


def test_link_status_follows_a_silent_dashboard_and_ports_of_other_devices_are_ignored(rig, tmp_path):
    dash, relay, usb, t, notes = rig
    other = Relay(None)
    usb.others.append(other.plug())
    try:
        assert wait_for(lambda: t.status("dash-1") == CONNECTED, 10)
        dash.pause()  # hung dashboard: the port stays, the frames stop
        assert wait_for(lambda: t.status("dash-1") == SILENT, 3)
        assert wait_for(lambda: [n[2] for n in notes.of("status", "dash-1")][-1:] == [SILENT], 3)  # the UI heard of it
        dash.resume()
        assert wait_for(lambda: t.status("dash-1") == CONNECTED, 3)
        statuses = wait_for(lambda: [n[2] for n in notes.of("status", "dash-1")][-3:] == [CONNECTED, SILENT,
                                                                                      CONNECTED], 1)
        assert statuses, notes.of("status")
        assert other.path not in [n[1] for n in notes.of("port")]
    finally:
        other.close()


def test_invalid_command_is_refused_and_changes_nothing(rig):
    dash, relay, usb, t, notes = rig
    wait_for(lambda: notes.of("hello"), 10)
    t.send("dash-1", "take", {"card": "SS"}, "bad.1")
    t.send("dash-1", "deal", {"card": "SS"}, "ok.1")
    assert wait_for(lambda: notes.drain() and len(notes.answered()) == 2, 10)
    assert [n[2:4] for n in notes.of("refused")] == [("bad.1", "card")]
    assert dash.saved()[0]["hand"] == ["SS"]
