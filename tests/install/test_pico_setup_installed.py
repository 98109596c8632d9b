"""Picos set up from the pairing screen by the INSTALLED app (its wheel in a fresh venv, run from a folder that is
not the checkout), on the emulated Pico: the pairing screen's code path (companion.pico_setup, no window).

- a Pico with MicroPython only is offered "Install the dashboard" and then boots to the dashboard's first frame;
- "Update" over an older dashboard holding a race says first that the race is kept, and keeps it;
- the emulator stopped mid-copy (a cable pulled) is said in words; plugged in again it is offered "Repair",
  repaired, and boots;
- a Pico in BOOTSEL (a folder laid out like its RPI-RP2 drive) gets MicroPython's UF2 whole, the app waits for
  it to come back as a serial port (picosim started after the copy: the same official UF2) and installs the
  dashboard.

Skipped, with the reason, where ../shared/picosim is absent. Each costs 5-20 s of picosim at full speed (load 4)."""

import hashlib
import json
import os
import subprocess

import pytest

from companion.flashing import bootsel
from companion.pico_setup import ACTION, INSTALL, MICROPYTHON, RACE_KEPT, REPAIR, UPDATE
from tests.install.setup_run import SetupRun
from tests.pico import picosim

pytestmark = [pytest.mark.picosim, pytest.mark.slow]
INSTALL_WALL_S = 600


@pytest.fixture
def boards(tmp_path):
    reason = picosim.missing()
    if reason:
        pytest.skip(reason)
    started = []

    def start(flash=None):
        p = picosim.Pico(flash=flash, speed=0)
        started.append(p)
        return p.start()

    yield start
    for p in started:
        p.stop()


def boots_to_the_dashboard(boards, board, image):
    """The flash after the install's final reset (which parks picosim's core) powered on again: its first frame."""
    board.saveflash(image)
    board.stop()
    again = boards(flash=image)
    again.settled(quiet_ms=1000)
    return again


def board_version(board):
    done = board.mpremote("exec", "print(open('dashboard.json').read())", timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])["version"]


def test_a_pico_with_micropython_only_is_offered_the_dashboard_and_then_boots_to_it(installed, user, boards,
                                                                                     tmp_path):
    _wheel, bin_dir = installed
    env, folder = user
    board = boards()  # MicroPython, nothing else
    run = SetupRun(bin_dir, env, folder, board.tty)
    entries = run.finish(INSTALL_WALL_S)
    offered = next(e for e in entries if e and e["state"] == "offered")
    assert offered["kind"] == INSTALL and ACTION[INSTALL] == "Install the dashboard"
    assert offered["notice"] == ""  # nothing saved on it to keep
    steps = [e["words"] for e in entries if e and e["state"] == "running"]
    assert any(w.startswith("Copying 1 of ") for w in steps), steps
    assert any(w.endswith(": firmware/app.mpy") for w in steps), steps
    dones = [e["done"] for e in entries if e and e["state"] == "running"]
    assert dones == sorted(dones), dones  # the bar only moves forward
    assert entries[-1]["state"] == "done", entries[-1]
    assert entries[-1]["done"] == entries[-1]["total"] > 30
    again = boots_to_the_dashboard(boards, board, str(tmp_path / "installed.bin"))
    rows = again.rows()
    assert rows[0].startswith("WAIT") and "MPH" in rows[3], rows
    from companion import __version__

    assert board_version(again) == __version__


def test_update_over_an_older_dashboard_says_first_that_its_race_is_kept_and_keeps_it(installed, user, boards,
                                                                                       tmp_path, flashed_image):
    from shared_rules.f1.car import Car
    from tests.pico import play

    _wheel, bin_dir = installed
    env, folder = user
    board = boards(flash=flashed_image)  # the dashboard flashed from the checkout (the run's image, made once)
    board.settled()
    car = Car(3)
    car.speed, car.tyre, car.laps_left = 80, 1, 2
    play.put_state(board, {"car": car.snapshot(), "done": [], "ev": [], "gen": 4})
    old = play.mpremote(board, "exec", "import json\nwith open('dashboard.json', 'w') as f:\n"
                                       " json.dump({'app': 'formula1-companion', 'version': '0.1.0'}, f)")
    assert old == ""
    board = boots_to_the_dashboard(boards, board, str(tmp_path / "old.bin"))  # the old dashboard, mid-race
    assert play.big(board) == " 80" and board.rows()[0].endswith("LAPS 2"), board.rows()

    run = SetupRun(bin_dir, env, folder, board.tty)
    entries = run.finish(INSTALL_WALL_S)
    states = [e["state"] for e in entries if e]
    offered = entries[states.index("offered")]
    assert offered["kind"] == UPDATE and "0.1.0" in offered["words"], offered
    assert offered["notice"] == RACE_KEPT == "The race in progress on this dashboard is kept."
    assert "running" not in states[: states.index("offered")]  # said before it starts
    assert entries[-1]["state"] == "done", entries[-1]

    again = boots_to_the_dashboard(boards, board, str(tmp_path / "updated.bin"))
    assert play.big(again) == " 80" and again.rows()[0].endswith("LAPS 2"), again.rows()  # the same race
    saved = play.saved_state(again)["car"]
    assert [saved[k] for k in ("speed", "tyre", "laps_left")] == [80, 1, 2], saved
    from companion import __version__

    assert board_version(again) == __version__


def test_a_cable_pulled_mid_install_is_said_and_the_next_plug_offers_repair(installed, user, boards, tmp_path):
    _wheel, bin_dir = installed
    env, folder = user
    board = boards()
    run = SetupRun(bin_dir, env, folder, board.tty)
    try:
        run.until(lambda e: e and e["state"] == "running" and e["done"] >= 10, INSTALL_WALL_S)
        board.saveflash(str(tmp_path / "cut.bin"))  # what the flash holds as the cable comes out
        board.stop()
        entries = run.finish(INSTALL_WALL_S)
    finally:
        run.stop()
    failed = entries[-1]
    assert failed["state"] == "failed", failed
    assert "Plug it in again" in failed["words"] and "Repair" in failed["words"], failed["words"]

    board = boards(flash=str(tmp_path / "cut.bin"))  # plugged in again
    entries = SetupRun(bin_dir, env, folder, board.tty).finish(INSTALL_WALL_S)
    offered = next(e for e in entries if e and e["state"] == "offered")
    assert offered["kind"] == REPAIR and ACTION[REPAIR] == "Repair", offered
    assert "did not finish" in offered["words"], offered
    assert entries[-1]["state"] == "done", entries[-1]
    again = boots_to_the_dashboard(boards, board, str(tmp_path / "repaired.bin"))
    assert again.rows()[0].startswith("WAIT"), again.rows()


def test_a_pico_in_bootsel_gets_micropython_whole_then_comes_back_and_gets_the_dashboard(installed, user, boards,
                                                                                          tmp_path):
    _wheel, bin_dir = installed
    env, folder = user
    official = os.path.join(picosim.HOME, "fw.uf2")  # what picosim runs: it must be the UF2 the app ships
    with open(official, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == bootsel.pin()["sha256"]
    drive = tmp_path / "media" / "player" / "RPI-RP2"
    drive.mkdir(parents=True)
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
    port = str(tmp_path / "ttyACM0")  # the serial port the Pico comes back as (a link to picosim's pty)
    run = SetupRun(bin_dir, env, folder, port, drive=str(drive), new_port=port)
    try:
        offered = run.until(lambda e: e and e["state"] == "offered", 120)
        assert offered["kind"] == MICROPYTHON and ACTION[MICROPYTHON] == "Install MicroPython"
        waiting = run.until(lambda e: e and "Waiting for the Pico" in e["words"], 120)
        assert "up to 30 s" in waiting["words"]
        copied = drive / os.path.basename(bootsel.uf2_path())
        assert hashlib.sha256(copied.read_bytes()).hexdigest() == bootsel.pin()["sha256"]  # whole, byte-identical
        board = boards()  # the Pico restarts into MicroPython: a serial port
        os.symlink(board.tty, port)
        entries = run.finish(INSTALL_WALL_S)
    finally:
        run.stop()
    assert entries[-1]["state"] == "done", entries[-1]
    assert any(e["words"].startswith("Copying") for e in entries if e), entries
    again = boots_to_the_dashboard(boards, board, str(tmp_path / "bootsel.bin"))
    assert again.rows()[0].startswith("WAIT"), again.rows()


def test_the_driver_is_run_by_the_installed_app_not_the_checkout(installed, user):
    _wheel, bin_dir = installed
    env, folder = user
    done = subprocess.run([os.path.join(bin_dir, "python"), "-I", "-c",
                           "import companion.pico_setup as m; print(m.__file__)"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(os.path.realpath(os.path.join(bin_dir, ".."))), done.stdout


def test_a_dashboard_of_this_version_is_left_alone_and_runs_again_after_it_was_read(installed, user, boards,
                                                                                    flashed_image):
    from tests.wait import until

    _wheel, bin_dir = installed
    env, folder = user
    board = boards(flash=flashed_image)
    board.settled()
    drawn = board.frames()[0]
    entries = SetupRun(bin_dir, env, folder, board.tty).finish(INSTALL_WALL_S)
    assert [e["state"] for e in entries if e] == ["probing", "current"], entries
    assert entries[-1]["kind"] is None and "up to date" in entries[-1]["words"]
    # read with mpremote (which stopped it), then started again: its boot draws its first frame anew, and its link
    # answers the tablet (stopped at the REPL it would answer nothing)
    until(lambda: board.frames()[0] > drawn, 120, "the dashboard to draw again after it was read",
          seen=board.rows)
    board.settled()
    assert board.rows()[0].startswith("WAIT"), board.rows()
    from tests.pico.tablet import RawTablet

    with RawTablet(board) as tablet:
        assert tablet.hello()["t"] == "hello"
