"""Every text the dashboard shows is written where it is shown: a reader greps the words on the OLED and lands on
the line that shows them. No numbered table of texts (a `_TEXTS` string read by line index) is left in the firmware
or in the link code it loads: each of these texts must still read as the player saw it, in its own file."""

import ast
import glob
import os

import pytest

from tests import mpy

SHOWN = {
    "ui.py": [
        "TABLE PLAYS",
        "NOT YOUR TURN",
        "MISS A MOVE",
        "%d laps. Five tactic cards dealt.",
        "No more turns for this car.",
        "Pit card: this move is missed. %d more to miss.",
        "This move is missed. %d more to miss.",
        "Braking too hard: the car spins off. Speed 0.",
        "Move %d spaces forward.",
        "Take one corner at any speed.",
        "%d laps to go.",
        "Chequered flag!",
        "Card dealt: %s. %s",
        "Spun off! Put the car on the Spin Off Point. Speed 0.",
        "Blocked: braking too hard. Put the car beside the track where it stands. Speed 0.",
        "Tyre +%d, brake +%d.",
        "Safe speed.",
        "No penalty.",
    ],
    "screens.py": [
        "OK:SET SPEED",
        "WAIT FOR TABLE",
        "OK:MOVE MENU",
        "OK:START TURN",
        "OK:WAIT BACK:NO",
        "OK:GO BACK:WAIT",
        "OK:SET BACK:NO",
        "OK:PLAY BACK",
        "OK:START BACK",
        "SAFETY SPEED",
        "SUPERB: FREE",
        "HAND %d CARDS",
        "MOVE %d SPACES",
        "BRAKE+%d TYRE+%d",
        "OK:NEW RACE",
    ],
}


def strings(path):
    """Every string literal in the module at `path`."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    return {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def text_tables(path):
    """Names of the module's text tables: a module-level string of several lines kept in a constant (`_TEXTS =
    const(\"\"\"...\"\"\")`), which is only ever read by line number."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and node.value.args:
            value = node.value.args[0]
            if (getattr(node.value.func, "id", "") == "const" and isinstance(value, ast.Constant)
                    and isinstance(value.value, str) and value.value.count("\n") > 1):
                found.append(node.targets[0].id)
    return found


@pytest.mark.parametrize("module", sorted(SHOWN))
def test_each_text_is_written_where_it_is_shown(module):
    found = strings(os.path.join(mpy.ROOT, "firmware", module))
    assert [text for text in SHOWN[module] if text not in found] == []


MODULES = sorted(glob.glob(os.path.join(mpy.ROOT, "firmware", "*.py"))
                 + glob.glob(os.path.join(mpy.ROOT, "shared_rules", "link", "*.py")))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: os.path.relpath(p, mpy.ROOT))
def test_no_numbered_table_of_texts(path):
    assert text_tables(path) == []
    assert "say(" not in open(path).read()


def test_the_check_notices_a_table(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('_TEXTS = const("""\\\nTABLE PLAYS\nNOT YOUR TURN\n""")\n_TABLE_PLAYS = const(0)\n')
    assert text_tables(str(bad)) == ["_TEXTS"]
