"""The dashboard flashed onto the emulated Pico (tests/pico/picosim.py), played through its buttons: fast taps on a fixed
beat while it saves (littlefs erasing a block every few saves), every one handled; and a power-on with a save and a
journal of tablet commands, back where it was, then with a damaged save. About 60 s of wall time on a quiet machine
(the damaged save some 10 s of it; and the session's flashed image)."""

import time

import pytest

from firmware.ondemand import store
from shared_rules.f1.car import Car
from tests.pico import play

TURNS = 10  # 70 taps, 30 saves (about ten with a block erase)


@pytest.mark.slow
def test_fast_taps_while_it_saves_are_all_handled(pico):
    # A player tapping ten times a second, each tap held 30 ms. The save after each OK held the core 30 ms, 140 ms
    # when littlefs erased a block, and the buttons went unread meanwhile: a tap that came and went then was lost
    # (the old firmware lost one within the first six turns; bench/pico_bench.py taps 600 times 150 ms apart). The
    # speed reached each turn shows every UP and DOWN, and the turn's end the OKs and the menu's DOWNs.
    # The saves' steps wait for the shadow of a press (app.py: _SHADOW_MS), so a save may span several taps: what
    # each tap changed is on flash once the taps stop, in the order they came (the saved car is the one the taps
    # make, not one a tap during a save left behind).
    board = pico()
    board.settled()
    taps, wrong = play.burst(board, TURNS, period_ms=100, hold_ms=30)
    assert not wrong, "a tap was lost (turn, speed expected, speed shown, top row, footer): %r" % wrong
    assert taps == TURNS * play.TURN_TAPS + sum(abs(play.DELTAS[n % len(play.DELTAS)]) for n in range(TURNS))
    car = Car(3)
    for n in range(TURNS):
        play.turn_speed(car, play.DELTAS[n % len(play.DELTAS)])
    board.wait_emu(1000)  # quiet: the last save's steps run
    saved = play.saved_state(board)["car"]
    want = car.snapshot()
    assert [saved[k] for k in ("speed", "my_turn", "speed_set", "laps_left")] == [
        want[k] for k in ("speed", "my_turn", "speed_set", "laps_left")], (saved, want)


def test_power_on_restores_the_save_and_replays_the_journal_then_sets_a_damaged_save_aside(pico, tmp_path):
    board = pico()
    board.settled()
    car = Car(3)
    car.speed = 80
    car.tyre = 1
    # The tablet's commands acknowledged since that save: a turn with a lap crossed and a corner's penalty. The
    # first was in the save already (its id among the done ones): it must not be applied twice.
    commands = [["t0", "lap", {}], ["t1", "turn", {"on": 1}], ["t2", "lap", {}],
                ["t3", "pen", {"spin": 0, "tyre": 2, "brake": 1, "dice": 0}], ["t4", "turn", {"on": 0}]]
    play.put_state(board, {"car": car.snapshot(), "done": [["t0", ""]], "ev": [], "gen": 7}, commands)
    board = play.power_on(pico, board, str(tmp_path / "saved.bin"))
    board.settled()
    rows = board.rows()
    assert rows[0].startswith("WAIT") and rows[0].endswith("LAPS 2"), rows
    assert rows[5].startswith("TYRE 3/8") and rows[6].startswith("BRAKE 1/5"), rows
    assert play.big(board) == " 80", rows
    # folded into a full save after the first frame (the journal names the save before it: never replayed again)
    board.wait_emu(1000)
    assert play.saved_state(board)["car"]["laps_left"] == 2
    # Then a save cut in half (tests/firmware/test_damaged_save.py has the other kinds of damage): one page a
    # player reads, the reason on the USB console for a maker, and the dashboard plays on. On the same board,
    # restarted with a soft reset (main.py again, the same boot code): a third boot would cost a minute under load.
    _damaged_save_reported(board, str(tmp_path / "cut"))


def _damaged_save_reported(board, path):
    save = store.encode({"car": Car(3).snapshot(), "done": [], "ev": [], "gen": 1})
    with open(path, "wb") as f:
        f.write(save[: len(save) // 2])
    play.mpremote(board, "fs", "cp", path, ":data/state.json")
    port = board.serial(timeout=0.2)
    try:
        port.write(b"\x02\x04")  # what board.start_main sends; the port kept open to read the console
        port.flush()
        said, end = b"", time.monotonic() + 60
        while b".bad" not in said and time.monotonic() < end:
            said += port.read(200)
    finally:
        port.close()
    assert b"save damaged (" in said, said
    board.wait_rows(lambda r: r[0] == "SAVE DAMAGED")
    board.settled()
    rows = board.rows()
    assert rows[7] == "OK", rows  # one page
    assert " ".join(" ".join(rows[1:7]).split()) == (
        "Saved race could not be read. Dashboard reset to a fresh car. Press OK.")
    board.tap_seen("OK")
    assert board.rows()[0].startswith("WAIT"), board.rows()
    board.wait_emu(900, board.press("BACK"))  # a long BACK: a new race
    board.release("BACK")
    board.settled()
    assert board.rows()[0] == "NEW RACE", board.rows()


@pytest.mark.whole
def test_a_whole_race_is_played_through_the_buttons_as_the_bench_plays_it(pico):
    # bench/pico_bench.py's figures for real play come from tests/pico/play.Race reading the OLED before each tap: the
    # day the dashboard's words move (the speed dial's NOW went to row 1, DN became DOWN) the player must still know
    # every screen, or the bench measures a race where no speed is ever dialled (it did, once, unnoticed).
    import random

    board = pico()
    board.settled(quiet_ms=1000)
    race = play.Race(board, play.BeatPace(board, 150, 40), random.Random(1962))
    race.play(2)
    assert race.stats["turns"] >= 2 and race.stats["laps"] >= 1, race.stats
    assert all(t["full_ms"] is not None for t in race.taps), "a tap drew nothing"
