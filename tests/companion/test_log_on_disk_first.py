"""Nothing leaves the tablet before the decision it follows from is on disk (companion/eventlog.py sync, called
by companion/link_bridge.py): the game log is written at once and flushed to disk before a command or an ack
goes to a dashboard; the screen does not wait for the flush. Real virtual dashboards (the firmware on the
`micropython` unix port) over ptys, the real transport, the real SQLite log."""

import os

from companion.f1.view import RaceView
from tests.companion.test_link_bridge import agree, pump, table, taken  # noqa: F401  (table is a fixture)


def _watch_what_leaves(transport, log):
    """Each command and ack the bridge hands the transport, with whether the log had unflushed appends then."""
    seen = []
    send, ack = transport.send, transport.ack_event

    def watched_send(dev, name, args, cid):
        seen.append(("command", name, log.unsynced))
        return send(dev, name, args, cid)

    def watched_ack(dev, eid):
        seen.append(("ack", eid, log.unsynced))
        return ack(dev, eid)

    transport.send, transport.ack_event = watched_send, watched_ack
    return seen


def _one_dashboard_following(fixture):
    """The first seat's virtual dashboard, paired and showing the table's car."""
    ports, transport, ref, bridge, work = fixture
    ports.add(work, "virtual-1")
    assert pump(bridge, lambda: len(bridge.dashboards()) == 1)
    ref.pair(0, "virtual-1")
    bridge.push()
    assert pump(bridge, lambda: agree(ports, ref, transport))
    return ports, transport, ref, bridge


def test_a_command_or_an_ack_leaves_only_once_the_log_is_on_disk(table):  # noqa: F811
    ports, transport, ref, bridge, work = table
    first = ports.add(work, "virtual-1")
    ports.add(work, "virtual-2")
    assert pump(bridge, lambda: len(bridge.dashboards()) == 2)
    seen = _watch_what_leaves(transport, ref.log)
    ref.pair(0, "virtual-1")
    ref.pair(1, "virtual-2")
    assert ref.log.unsynced  # written, not yet flushed: nothing has left
    bridge.push()
    assert pump(bridge, lambda: agree(ports, ref, transport))
    for button in ("OK", "UP", "UP", "OK"):  # the first player sets 40 on the dashboard: an event, then its ack
        taken(first, button)
    assert pump(bridge, lambda: ref.race.cars[0].speed_set == 1)
    view = RaceView(ref, bridge)
    view.end_turn()  # decided on the table: its commands go to both dashboards
    assert pump(bridge, lambda: agree(ports, ref, transport))
    assert {kind for kind, _what, _unsynced in seen} == {"command", "ack"}
    assert [s for s in seen if s[2]] == []  # every one after the log's flush
    assert not ref.log.unsynced


def test_a_disk_that_refuses_the_flush_keeps_the_commands_and_says_so(table):  # noqa: F811
    ports, transport, ref, bridge = _one_dashboard_following(table)
    view = RaceView(ref, bridge)
    read_end, write_end = os.pipe()  # fsync on a pipe fails (EINVAL), as a failing disk's flush would
    real_wal, ref.log._wal_fd = ref.log._wal_fd, read_end
    try:
        view.set_speed(40)
        assert ref.race.cars[0].speed == 40  # decided and written: the table shows it
        assert ref.outbox  # ... but kept: no dashboard acts on what a power cut could take back
        assert transport.pending() == []
        assert bridge.errors == ["This tablet could not save the game to its storage: the dashboards wait for "
                                 "it, and it tries again at the next move."]  # in a player's words, no file name
    finally:
        ref.log._wal_fd = real_wal
        os.close(read_end)
        os.close(write_end)
    bridge.push()  # the disk works again: the next push flushes, then sends
    assert not ref.outbox
    assert pump(bridge, lambda: agree(ports, ref, transport))
    assert ports.virtual["virtual-1"].state["car"]["speed"] == 40


def test_a_tap_hands_its_commands_over_after_the_frame_that_shows_it(table):  # noqa: F811
    ports, transport, ref, bridge = _one_dashboard_following(table)
    after_the_frame = []
    bridge.defer = after_the_frame.append  # the app's: Kivy's Clock, next frame
    view = RaceView(ref, bridge)
    view.set_speed(40)
    view.pick(corner=0, lane=0)
    assert ref.outbox and transport.pending() == [] and ref.log.unsynced  # the screen first
    assert len(after_the_frame) == 1
    after_the_frame.pop()()  # the frame is drawn: flushed, then sent
    assert not ref.log.unsynced and not ref.outbox
    assert pump(bridge, lambda: agree(ports, ref, transport))
