"""The pairing screen in the real app (offscreen window): a Formula 1 race with one car on the tablet and one
left to a phone (only the tablet's is drawn and runs there; the phone's seat is served), then Formula 5 in the
same run: its pairing takes none of the race's virtual dashboards (on the old tablet it gave them to the Formula 5
cars, never shown), a player put on the tablet and back on a phone leaves nothing running on the tablet, and a
player put on the tablet deliberately is warned and gets a dashboard drawn on the table screen. Cost: one app
run, ~20 s."""

import pytest
import json
import os
import subprocess
import sys

pytestmark = [pytest.mark.window]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_formula5_after_formula1_takes_no_leftover_and_the_tablet_choice_warns(tmp_path):
    out = tmp_path / "seen.json"
    env = dict(os.environ, F1_COMPANION_DATA=str(tmp_path / "data"), PYTHONPATH=ROOT, F1_PHONE_HOST="127.0.0.1",
               F1_PHONE_PORT="0", F1_COMPANION_SEED="7")
    proc = subprocess.run([sys.executable, "-m", "tests.phones.phone_window", "f1_then_f5", str(out),
                           str(tmp_path / "shots")], cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert out.exists(), proc.stderr.decode(errors="replace")[-3000:]
    seen = json.loads(out.read_text())
    assert "error" not in seen, seen["error"]
    assert seen["f1_pairs"] == {"0": "virtual-1"}  # the second car waits for its phone: nothing runs here for it
    assert seen["f1_drawn"] == ["virtual-1"] and seen["f1_on_phones"] == [] and seen["f1_served"] == [1]
    assert seen["f5_running"] == [] and seen["f5_pairs"] == {}  # nothing left over from the race
    assert seen["f5_cards"] == [0]  # one player's car: the bots need no dashboard
    assert seen["f5_url"] != seen["f1_url"] and seen["f5_url"].split("/")[2] == seen["f1_url"].split("/")[2]
    words, on_its_card = seen["link_words"]
    assert words.startswith("this tablet: linked") and on_its_card, seen["link_words"]
    assert seen["use_phone"] == "Use a phone"  # back to a phone: nothing left running here, the seat served
    assert seen["back_to_phone"] == {"running": [], "pairs": {}, "served": [0]}
    assert "its cards are covered" in seen["warning"] and "the table may see them too" in seen["warning"]
    assert seen["f5_dev"] == "f5-virtual-1" and seen["f5_drawn"] == ["f5-virtual-1"]
    assert seen["f5_card_pressed"] is True  # its five buttons on the table screen work
