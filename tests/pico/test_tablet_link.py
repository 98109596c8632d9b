"""The tablet's own Transport (pyserial, its scan loop and reader thread, tablet.Session) against the dashboard
flashed onto the emulated Pico, found through a port named as `python -m companion --port PATH` names it (the
pty has no USB id): the hello, a command applied and one refused, and an event from a button press. About 10 s.
And the tablet's command a moment after a player's press, while the save that press started waits for a pause in
play: answered before the tablet would resend it, and kept across a power cut then (spoken by hand: tablet.py)."""

import queue
import time

from companion.transport import Transport
from companion.transport.pyserial_backend import PyserialPorts
from shared_rules.link.tablet import COMMAND_RETRY_MS
from tests.pico import play
from tests.pico.tablet import RawTablet


class Notes:
    """The Transport's notes, read in order; wait() returns the first one after the last returned that matches."""

    def __init__(self, transport):
        self.t = transport
        self.seen = []

    def wait(self, match, wall_s=60):
        end = time.monotonic() + wall_s
        while time.monotonic() < end:
            try:
                n = self.t.events.get(timeout=0.1)
            except queue.Empty:
                continue
            self.seen.append(n)
            if match(n):
                return n
        raise AssertionError("no such note in %d s; notes: %r" % (wall_s, self.seen))


def test_the_tablets_transport_talks_to_the_emulated_pico_through_a_named_port(pico):
    board = pico()
    board.settled(quiet_ms=1000)  # booted, and its first save written
    ports = PyserialPorts(list_ports_fn=lambda: [], named=[board.tty])  # no USB port at all: only the named one
    assert ports.scan() == {board.tty: "named port"}
    t = Transport(ports)
    notes = Notes(t)
    t.start()
    try:
        hello = notes.wait(lambda n: n[0] == "hello")
        dev = hello[1]
        assert hello[2]["s"]["speed"] == 0 and hello[2]["fw"], hello
        notes.wait(lambda n: n[0] == "status" and n[2] == "connected", 30)
        board.wait_rows(lambda rows: rows[1].endswith("TABLET"))  # the dashboard shows it is linked

        cid = t.send(dev, "turn", {"on": 1})
        done = notes.wait(lambda n: n[0] in ("done", "refused") and n[2] == cid, 30)
        assert done[0] == "done", done
        cid = t.send(dev, "take", {"card": "FG"})  # a card not in the hand: refused, nothing changed
        refused = notes.wait(lambda n: n[0] in ("done", "refused") and n[2] == cid, 30)
        assert refused[0] == "refused" and refused[4], refused

        # the turn opens the speed dial by itself; the player dials 20 (UP) and sets it (OK)
        board.wait_rows(lambda rows: rows[0].startswith("SET SPEED"))
        board.tap_seen("UP")
        board.tap_seen("OK")
        event = notes.wait(lambda n: n[0] == "event", 30)
        assert event[1] == dev and event[3] == "speed" and event[4]["v"] == 20, event
        # the state the change made, carried by the event itself (docs/protocol.md section 6): right after it
        state = notes.wait(lambda n: n[0] == "state", 30)
        assert state[2]["speed"] == 20 and state[2]["speed_set"] and state[4], state  # settled: nothing else waits
        assert t.snapshot(dev)["speed"] == 20
    finally:
        t.stop()


def test_a_command_just_after_a_press_is_answered_at_once_and_kept_across_a_power_cut(pico, tmp_path):
    # The player sets the speed (OK: a save starts, its steps waiting for a pause in play) and 300 ms later the
    # tablet ends the turn. The dashboard read nothing from the tablet until the save was done, a second after the
    # press: the ack came 0.76 s late and the tablet resent the command three times a second meanwhile.
    board = pico()
    board.settled(quiet_ms=1000)  # booted, and its first save written
    with RawTablet(board) as tablet:
        tablet.hello()
        for turn in range(2):
            answer, ms = play.command_after_press(board, tablet)
            assert answer["t"] == "ack", answer
            assert ms < COMMAND_RETRY_MS, "turn %d: the ack came %.0f ms (emulated) after the command" % (turn, ms)
        # The power cut a moment after the ack, the save most likely still waiting: the turn's end is kept
        board = play.power_on(pico, board, str(tmp_path / "cut.bin"))
    board.settled()
    rows = board.rows()
    assert play.big(board).strip() == "40" and rows[7] == "OK:START TURN", rows
