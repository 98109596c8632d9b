"""The dashboard's longer texts sit in one table string per module (firmware/ui.py, firmware/screens.py: a string
constant of its own would be a ~72-byte heap object, a line of the table costs its length), looked up by a numbered
name. Each name must still give the text the player saw before, and no line may be left without a name."""

import ast
import os

from tests import mpy

UI = {
    "_TABLE_PLAYS": "TABLE PLAYS",
    "_NOT_YOUR_TURN": "NOT YOUR TURN",
    "_MISS_A_MOVE": "MISS A MOVE",
    "_NEW_RACE": "%d laps. Five tactic cards dealt.",
    "_NO_MORE_TURNS": "No more turns for this car.",
    "_PIT_MISS": "Pit card: this move is missed. %d more to miss.",
    "_MISS": "This move is missed. %d more to miss.",
    "_BRAKING_SPIN": "Braking too hard: the car spins off. Speed 0.",
    "_MOVE": "Move %d spaces forward.",
    "_ANY_SPEED": "Take one corner at any speed.",
    "_LAPS_TO_GO": "%d laps to go.",
    "_CHEQUERED": "Chequered flag!",
    "_DEALT": "Card dealt: %s. %s",
    "_SPUN": "Spun off! Speed 0.",
    "_WEAR": "Tyre +%d, brake +%d.",
    "_SAFE": "Safe speed.",
    "_NO_PENALTY": "No penalty.",
}

SCREENS = {
    "_SET_SPEED_HINT": "OK:SET SPEED",
    "_WAIT_TABLE_HINT": "WAIT FOR TABLE",
    "_MOVE_MENU_HINT": "OK:MOVE MENU",
    "_START_TURN_HINT": "OK:START TURN",
    "_WAIT_HINT": "OK:WAIT BACK:NO",
    "_GO_WAIT_HINT": "OK:GO BACK:WAIT",
    "_SET_HINT": "OK:SET BACK:NO",
    "_PLAY_HINT": "OK:PLAY BACK",
    "_START_HINT": "OK:START BACK",
    "_SAFETY_SPEED": "SAFETY SPEED",
    "_SUPERB_FREE": "SUPERB: FREE",
    "_HAND_CARDS": "HAND %d CARDS",
    "_MOVE_SPACES": "MOVE %d SPACES",
    "_WEAR": "BRAKE+%d TYRE+%d",
    "_NEW_RACE_HINT": "OK:NEW RACE",
}


def consts(module):
    """{name: value} of the module's `_NAME = const(value)` lines."""
    with open(os.path.join(mpy.ROOT, "firmware", module)) as f:
        tree = ast.parse(f.read())
    found = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", "") == "const"):
            found[node.targets[0].id] = ast.literal_eval(node.value.args[0])
    return found


def check(module, expected):
    found = consts(module)
    lines = found["_TEXTS"].split("\n")
    assert lines[-1] == "", "the table ends with a newline: say() finds a line's end by it"
    assert len(lines) - 1 == len(expected), "a line without a name, or a name without a line"
    for name, text in expected.items():
        assert lines[found[name]] == text, name
        assert len(text) > 10, "%r would be interned anyway: no need to keep it in the table" % text


def test_ui_texts_keep_their_names():
    check("ui.py", UI)


def test_screens_texts_keep_their_names():
    check("screens.py", SCREENS)
