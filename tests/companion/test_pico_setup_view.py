"""The pairing screen's panel of Picos to set up, drawn in a real Kivy window (SDL offscreen, a process of its own:
pico_setup_panel_probe.py): an offer's row says what the Pico holds, what the table must know first and the button
of its offer, which starts it; an install under way shows its step in words and its bar; a refused device says
why and has no button."""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
pytestmark = pytest.mark.window


def test_the_panel_shows_each_picos_offer_notice_step_and_bar():
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_WINDOW="sdl2", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, os.path.join(HERE, "pico_setup_panel_probe.py")], env=env,
                          capture_output=True, text=True, timeout=180)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("PANEL ")), None)
    assert line, done.stdout[-2000:] + done.stderr[-3000:]
    seen = json.loads(line[6:])
    update, running, refused = seen["rows"]
    assert [w[:2] for w in update] == [["SetupLine", "ttyACM0: Dashboard 0.1.0: this app brings 0.2.0."],
                                       ["SetupLine", "The race in progress on this dashboard is kept."],
                                       ["SetupAction", "Update"]]
    assert seen["started"] == ["/dev/ttyACM0"]  # its button starts it
    assert running[0][:2] == ["SetupLine", "ttyACM1: Copying 12 of 50: firmware/app.mpy"]
    assert running[1][0] == "SetupBar" and running[1][2:] == [12, 50]
    assert [w[0] for w in running] == ["SetupLine", "SetupBar"]  # no button while it runs
    assert [w[:2] for w in refused] == [["SetupLine", "ttyUSB0: /dev/ttyUSB0 is not a Raspberry Pi device"]]
