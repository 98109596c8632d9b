"""The transport's threads run ahead of their notes: a port's reader takes an answer (and forgets the command it
answers) under the transport's lock, then posts that answer's notes to the queue, one by one, after the lock is
released; the bridge drains the queue on the UI thread whenever its Clock fires. On a loaded machine a thread
can be held between those steps for tens of milliseconds. Whatever the bridge sees in that gap, it must not
compare with the table a state the dashboard has already left: that sync undoes nothing the dashboard holds,
and is the "one sync too many" seen once in tests/table/test_line_faults.py under two suites running side by
side. Each test holds the reader thread at one such instant (HeldNotes) and polls the bridge there:

- a command answered, none of its notes posted yet (the transport holds nothing for that dashboard);
- its "done" posted, the "state" that follows it (the ack's snapshot) not yet;
- a player's event posted, the state it carries not yet, drained with the answer of a command before it.

Real parts throughout (tests/table/table.py: the firmware on the `micropython` unix port, the pyserial
Transport, LinkBridge, Referee; the two-car `table` of conftest.py). Cost: about 3 s each on a quiet machine.
"""

import threading

import pytest

from tests.table.test_one_truth import press_speed, syncs
from tests.wait import poll


class HeldNotes:
    """Hold a port's reader thread in Transport._post at the first batch of notes holding one that `pick(note)`
    chooses: before that note (after=False) or just after it (after=True), until release()."""

    def __init__(self, transport, pick, after):
        self.pick, self.after = pick, after
        self.held = threading.Event()
        self.go = threading.Event()
        self.post = transport._post
        transport._post = self._post

    def _post(self, notes):
        at = next((i for i, n in enumerate(notes) if self.pick(n)), None)
        if at is None or self.held.is_set():
            return self.post(notes)
        at += self.after
        self.post(notes[:at])
        self.held.set()
        self.go.wait(20)
        self.post(notes[at:])

    def release(self):
        self.go.set()


def _cheap_speed(car):
    return next(v for v in car.speed_choices() if v and car.braking_cost(v) == (0, 0, 0))


def _speed_set(table, seat):
    table.dash_speed(seat, _cheap_speed(table.car(seat)), 0)
    table.settle()


def _corner_then_end(table, seat, after):
    """A corner taken at no risk, then the end of the turn: a `pen` then a `turn` off for one dashboard, handed to
    the transport together, so the pen's answer (with its state) comes while the turn is still in flight. The
    turn's answer is held (`after`: just after its "done") and the bridge polled there. Returns the dashboard."""
    s = table.seats[seat]
    hold = HeldNotes(table.transport, lambda n: n[0] == "done" and n[1] == s.dev and table.names.get(n[2]) == "turn",
                     after)
    table.ref.corner(table.car(seat).speed)
    table.ref.end_turn()
    table.bridge.push()
    assert table.pump(hold.held.is_set)  # (polling: the pen's answer is taken, the turn's is held)
    for _ in range(3):
        table.bridge.poll()  # the transport holds nothing for that dashboard now, yet the notes have not said so
    hold.release()
    table.settle()
    return s


@pytest.mark.parametrize("after", [False, True], ids=["nothing-posted", "done-posted"])
def test_a_command_answered_but_not_yet_in_the_notes_costs_no_sync(table, after):
    seat = table.ref.race.seat
    _speed_set(table, seat)
    before = syncs(table, table.seats[seat].dev)
    s = _corner_then_end(table, seat, after)
    assert s.dash.car()["my_turn"] == 0 and table.car(seat).my_turn == 0
    assert syncs(table, s.dev) == before


def test_an_event_behind_an_answer_is_compared_on_the_state_it_carries(table):
    seat = table.ref.race.seat
    _speed_set(table, seat)
    nxt = (seat + 1) % len(table.seats)
    s = table.seats[nxt]
    v = _cheap_speed(table.car(nxt))
    before = syncs(table, s.dev)
    # The next dashboard's "turn" on is answered; the bridge is not polled, so its notes wait in the queue while
    # the player sets a speed at once: its event is posted, the state it carries held back.
    table.ref.end_turn()
    table.bridge.push()
    assert wait(lambda: not table.transport.pending() and s.dash.car()["my_turn"] == 1)
    hold = HeldNotes(table.transport, lambda n: n[0] == "event" and n[1] == s.dev, True)
    press_speed(table, nxt, v)
    assert hold.held.wait(20)
    table.bridge.poll()  # the answer's done and state (its turn on, no speed), then the event: the table takes it...
    assert table.car(nxt).speed == v
    table.bridge.poll()  # ...and compares nothing until the event's own state
    hold.release()
    table.settle()
    assert s.dash.car()["speed"] == v
    assert syncs(table, s.dev) == before


def wait(pred, timeout=20):
    """Until pred() holds, without polling the bridge (the notes pile up in the queue)."""
    return bool(poll(pred, timeout, 0.005))
