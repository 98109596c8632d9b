"""The dashboard reads the cards' texts (shared_rules/f1/card_texts.py) only while it shows one: firmware.ui's
card_texts imports the module, reads, and drops it again, so that its code and texts go back to the heap. Checked
on MicroPython with the firmware as it is flashed (.mpy files)."""

import os
import subprocess

from tests import mpy

SCRIPT = """
import gc, sys
import shared_rules.f1 as f1
from firmware import ui
gc.collect()
start = gc.mem_alloc()
print(ui.card_texts(("GOOD80", "SD", "XX")))
print(ui.card_texts(["ORDERS"]))
print("shared_rules.f1.card_texts" in sys.modules, hasattr(f1, "card_texts"))
gc.collect()
print("left", gc.mem_alloc() - start)
import shared_rules.f1.card_texts
gc.collect()
print("kept", gc.mem_alloc() - start)
"""


def test_card_texts_are_read_and_dropped_again(built):
    env = dict(os.environ, MICROPYPATH=".frozen:" + built)
    proc = subprocess.run([mpy.micropython_path(), "-X", "heapsize=256K", "-c", SCRIPT], env=env, cwd=built,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    said, orders, loaded, left, kept = proc.stdout.splitlines()
    assert said == "['Good Pit Work. Starting speed is 80. Do not miss move.', 'Superb Driving', '']"
    assert orders == "['New Instructions. Extra tactic card from the discard pile. Miss one move.']"
    assert loaded == "False False"  # neither sys.modules nor the package holds it
    left, kept = int(left.split()[1]), int(kept.split()[1])
    # What stays is the few names it interned for good (qstrs); the module itself, kept, is over 1 KB.
    assert left < 200 and kept - left > 1000, (left, kept)
