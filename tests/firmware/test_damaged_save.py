"""Power-on with a save damaged in the ways flash and people damage it, on the real firmware (the micropython unix
port): the dashboard comes up, tells the player in one OLED page what happened, what it did and what to press, prints
the technical reason to its console (the USB serial on a Pico) for a maker, and a new race can be started.
About 1.5 s a case on the unix port (12 s for the file)."""

import random
import subprocess

import pytest

from firmware.ondemand import store
from firmware.ondemand.journal import line
from shared_rules.f1.car import Car
from tests import mpy
from tests.firmware.dash import VirtualDashboard
from tests.firmware.race_script import new_race

GOOD = store.encode({"car": Car(3).snapshot(), "done": [], "ev": [], "gen": 1})

DAMAGED = {
    "truncated": GOOD[: len(GOOD) // 2],
    "erased flash": b"\xff" * 256,
    "garbage bytes": bytes(random.Random(5).randrange(256) for _ in range(300)),
    "a list, not a save": store.encode([1, 2, 3]),
    "a car of the wrong shape": store.encode({"car": {"speed": "fast"}, "done": [], "ev": []}),
    "done ids of the wrong shape": store.encode({"car": Car(3).snapshot(), "done": [5], "ev": [], "gen": 1}),
    "events of the wrong shape": store.encode({"car": Car(3).snapshot(), "done": [], "ev": [7], "gen": 1}),
}

# Read whole on the OLED, rows 1-6 under the title (what firmware/app.py shows)
WARNING = "Saved race could not be read. Dashboard reset to a fresh car. Press OK."


def _console(d):
    """What the firmware printed on its console (its stdout) until its power cut."""
    d.kill()
    return d.proc.stdout.read().decode(errors="replace")


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_a_damaged_save_is_one_page_a_player_reads_and_the_dashboard_plays_on(tmp_path, damage):
    # the heap the unix port's whole race must fit in (tests/firmware/test_race.py)
    d = VirtualDashboard(str(tmp_path), dev="hurt", heap=mpy.RACE_HEAP, stdout=subprocess.PIPE)
    with open(d.state_path, "wb") as f:
        f.write(DAMAGED[damage])
    try:
        d.start()
        rows = d.rows()
        assert rows[0] == "SAVE DAMAGED", d.screen()
        assert rows[7] == "OK", d.screen()  # one page: no "OK:MORE 1/4"
        assert " ".join(" ".join(rows[1:7]).split()) == WARNING
        d.tap("OK")
        assert d.rows()[0] != "SAVE DAMAGED", d.screen()
        new_race(d, 4)  # and a new race starts
        assert d.car()["laps"] == 4 and d.car()["speed"] == 0
        with open(d.state_path + ".bad", "rb") as f:
            assert f.read() == DAMAGED[damage]  # kept for a maker, never overwritten
    finally:
        said = _console(d)
    assert "save damaged" in said.lower() and ".bad" in said, said  # the reason is on the console, for a maker


def test_a_journal_line_cut_in_half_is_a_power_cut_not_damage(tmp_path):
    # A cut mid-append tears the journal's last line: its command was never acknowledged (the tablet sends it
    # again), so the save and the lines before it are restored with no warning at all.
    d = VirtualDashboard(str(tmp_path), dev="torn", stdout=subprocess.PIPE)
    with open(d.state_path, "wb") as f:
        f.write(GOOD)
    torn = line("c2", "deal", {"card": "QR"})
    with open(d.state_path + ".journal", "wb") as f:
        f.write(line("F1J1", 1) + line("c1", "deal", {"card": "QR"}) + torn[: len(torn) // 2])
    try:
        d.start()
        assert d.rows()[0] != "SAVE DAMAGED", d.screen()
        assert d.car()["hand"] == ["QR"]  # the whole line replayed, the torn one skipped
        new_race(d, 3)
    finally:
        said = _console(d)
    assert "damaged" not in said.lower(), said
