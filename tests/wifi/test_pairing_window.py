"""The pairing screen's Wi-Fi form in the real app (a real window, SDL's offscreen driver) with a Pico W dashboard
plugged in (the firmware on the unix port, the stand-in radio, its USB link a pty): the screen says "Wi-Fi: not set",
the host types the network and its password, the Pico stores them and the screen says "Unplug it: it joins over
Wi-Fi" and the network's name. The password is in no widget's text once sent, in no file the app wrote (the game,
its keys, the data folder), in no log line and in no screenshot."""

import json
import os
import subprocess
import sys

import pytest

from tests.firmware.dash import VirtualDashboard
from tests.link.harness import Relay, raw_pty
from tests.wifi.harness import STANDIN, Air

pytestmark = [pytest.mark.window]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PASSWORD = "horse battery staple"


def test_the_pairing_screen_sets_a_pico_ws_wifi_and_the_password_stays_off_the_tablet(tmp_path):
    (tmp_path / "air").mkdir()
    air = Air(tmp_path / "air", ssid="track", password=PASSWORD)
    (tmp_path / "dash").mkdir()
    master, slave = raw_pty()
    dash = VirtualDashboard(str(tmp_path / "dash"), dev="picow-7", path_extra=(STANDIN,), stdin=slave, stdout=slave,
                            env={"F1_AIR": air.path, "F1_BEACON": "127.0.0.1:9"})  # no beacon heard: it stays on USB
    dash.start()
    os.close(slave)
    relay = Relay(master)
    port = relay.plug()
    data, out, shots = tmp_path / "data", tmp_path / "out.json", tmp_path / "shots"
    env = dict(os.environ, F1_COMPANION_DATA=str(data), PYTHONPATH=ROOT)
    try:
        proc = subprocess.run([sys.executable, "-m", "tests.wifi.form_window", str(out), port, PASSWORD, str(shots)],
                              cwd=ROOT, env=env, capture_output=True, timeout=180)
    finally:
        relay.close()
        dash.kill()
        os.close(master)
    assert out.exists(), proc.stderr.decode(errors="replace")[-3000:]
    seen = json.loads(out.read_text())
    assert "error" not in seen, seen["error"]

    assert "Wi-Fi: not set" in seen["before"], seen["before"]
    assert seen["hidden"] is True  # typed into a password field: dots on the screen
    assert "Unplug it: it joins over Wi-Fi" in seen["said"], seen["said"]
    assert "Unplug it" in seen["message"]
    assert "Wi-Fi: track" in seen["after"], seen["after"]
    assert seen["password_left"] == ""
    for key in ("before", "form", "after", "said", "message", "prefilled"):
        assert PASSWORD not in json.dumps(seen[key]), key

    with open(os.path.join(str(tmp_path / "dash"), "wifi.json")) as f:  # kept by the Pico only
        assert json.load(f)["password"] == PASSWORD
    written = [os.path.join(folder, name) for folder, _dirs, files in os.walk(str(tmp_path))
               for name in files if not folder.startswith(str(tmp_path / "dash")) and
               not folder.startswith(str(tmp_path / "air"))]
    assert any(p.endswith("wifi_keys.json") for p in written), written  # the key, kept with the game
    assert {"wifi-form-typed.png", "wifi-form-answered.png"} <= set(os.listdir(str(shots))), written
    for path in written:
        with open(path, "rb") as f:
            assert PASSWORD.encode() not in f.read(), path
    assert PASSWORD not in proc.stderr.decode(errors="replace")  # the app's log (Kivy's, through Python's logging)
