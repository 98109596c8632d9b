"""One truth per change: a player's action on the dashboard reaches the table as one message, so no loss or
delay makes the table undo it and do it again. The real firmware (two virtual dashboards on the `micropython`
unix port) behind its relay, the tablet's Transport, LinkBridge and Referee (tests/table/table.py); the relay
loses chosen messages whole (every fragment of them).

Cost: about 10 s (two short tables).
"""

from shared_rules.link import codec
from tests.firmware.race_script import dial
from tests.table.table import MAIN, SPEED, TableError


class LoseMessages:
    """A relay sieve: the dashboard's messages that `lose(msg)` picks are lost whole, the rest pass."""

    def __init__(self, lose):
        self.lose = lose
        self.rx = codec.Receiver()
        self.held = []  # the fragments of a message still coming
        self.lost = []

    def __call__(self, way, line):
        if way != "up":
            return [line]
        try:
            msg = self.rx.add(codec.decode(line.rstrip(b"\r\n")))
        except codec.FrameError:
            return [line]  # noise, or a fragment the tablet will drop too
        if msg is None:
            self.held.append(line)
            return []
        lines, self.held = self.held + [line], []
        if self.lose(msg):
            self.lost.append(msg)
            return []
        return lines


def syncs(table, dev):
    return table.applied.get((dev, "sync"), 0)


def press_speed(table, seat, v):
    d = table.seats[seat].dash
    table._to_main(d)
    assert d.state["mode"] == MAIN
    d.tap("OK")
    if d.state["mode"] != SPEED:
        raise TableError("no speed dial:\n" + d.screen())
    dial(d, v)
    d.tap("OK")


def test_a_late_event_is_not_undone_and_redone(table):
    seat = table.ref.race.seat
    s = table.seats[seat]
    before = syncs(table, s.dev)
    first = []
    s.relay.sieve = sieve = LoseMessages(lambda m: m["t"] == "ev" and not first and not first.append(m))
    press_speed(table, seat, 40)
    assert table.pump(lambda: table.car(seat).speed_set == 1)  # the event's resend, 500 ms later
    table.settle()
    assert [m["t"] for m in sieve.lost] == ["ev"]
    assert table.car(seat).speed == 40 and s.dash.car()["speed"] == 40
    assert syncs(table, s.dev) == before  # the dashboard was never sent the car without its speed


def test_a_replug_while_an_event_waits_does_not_undo_it(table):
    seat = table.ref.race.seat
    s = table.seats[seat]
    before = syncs(table, s.dev)
    cut = [True]
    s.relay.sieve = LoseMessages(lambda m: cut[0])  # nothing from the dashboard gets through...
    press_speed(table, seat, 40)
    table.pump(lambda: False, 0.3)
    s.unplug()  # ...and the cable is pulled before its event is resent
    table.pump(lambda: False, 0.4)
    cut[0] = False
    s.plug()  # its hello comes first, with the speed the table has not heard of yet
    assert table.pump(lambda: table.car(seat).speed_set == 1)
    table.settle()
    assert table.car(seat).speed == 40 and s.dash.car()["speed"] == 40
    assert syncs(table, s.dev) == before
