"""The firmware's seams, each named once and crossed by one call: one App call switches the game on the dashboard
(screens, buttons, the turn LED and what the link reports) and neither game reaches into the other, the app's
state or the link; the viewer's state line names whether the secret hand is shown; modes, buttons and card
constants come from one source."""

import ast
import os
import re

from tests import mpy
from tests.firmware.dash import modes
from tests.firmware.test_flows import new_race

FIRMWARE = os.path.join(mpy.ROOT, "firmware")


def _tree(name):
    with open(os.path.join(FIRMWARE, name)) as f:
        return ast.parse(f.read())


def _source(name):
    with open(os.path.join(FIRMWARE, name)) as f:
        return f.read()


def _modules():
    """Every module of firmware/, its folders' included, by its path there ("app.py", "ondemand/link.py")."""
    found = []
    for folder, dirs, names in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found += [os.path.relpath(os.path.join(folder, n), FIRMWARE) for n in names if n.endswith(".py")]
    return sorted(found)


# Formula 1, then Formula 5 dealt by the tablet, a Formula 1 command, Formula 5 again and a long BACK once its race
# is over: after each, which game has the dashboard, what the link would report, the turn LED, the hand flag.
SWITCH = """
from firmware import app as A
from firmware.host import board_host
from firmware.board import BACK, OK
from firmware.buttons import LONG, PRESS

leds = []

class Board(board_host.Board):
    def led(self, on):
        leds.append(on)

board = Board()
board.state_path = 'state.json'
app = A.App(board)

def show(what):
    app.refresh()
    r = app.report()
    game = 'f1' if app.ui is app.f1 else 'f5' if app.ui is app._f5 else '?'
    said = r.get('game', 'f1') if r != app.car.snapshot() else 'car'
    print(what, game, said, app.ui.mode, leds[-1] if leds else '-', app.ui.hand_shown())

show('START')
view = {'car': 2, 'hand': [0, 1, 15, 70], 'col': [3], 'pos': 1, 'speed': 2, 'ahead': 2, 'round': 1, 'k': 1,
        'turn': 1, 'deal': 1}
app._apply('f5', view)
show('F5')
app._apply('turn', {'on': 1})
show('F1')
view.update(k=2, turn=0, over=1, deal=0)
app._apply('f5', view)
app._on_button(OK, PRESS)  # the race-over message closed: its main screen
show('F5 OVER')
app._on_button(BACK, LONG)
show('BACK')
"""


def test_one_app_call_switches_the_game():
    proc = mpy.run(["-c", SWITCH], heap="256K", cwd=None, timeout=60)
    out = proc.stdout.decode().splitlines()
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    f1, f5 = modes("ui.py"), modes("ondemand/f5_ui.py")
    assert out == [
        "START f1 car %d 0 0" % f1["MAIN"],
        "F5 f5 f5 %d 1 1" % f5["MESSAGE"],  # its deal's message; the LED lit: its turn in Formula 5
        "F1 f1 car %d 1 0" % f1["SPEED"],  # the car's turn: the speed dial, the LED lit by the car
        "F5 OVER f5 f5 %d 0 1" % f5["MAIN"],
        "BACK f1 car %d 1 0" % f1["MAIN"],  # Formula 1 from its main screen; the car's turn still on
    ]


def _assigned_attributes(tree):
    """(attribute, the function it is assigned in) for every `x.attr = ...` in the module."""
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            for node in ast.walk(fn):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                    node, ast.AugAssign) else []
                for t in targets:
                    if isinstance(t, ast.Attribute):
                        found.append((ast.unparse(t), fn.name))
    return found


def test_only_the_switch_changes_the_game_and_no_game_reaches_into_another():
    every = []
    for name in _modules():
        every += [(name, a, fn) for a, fn in _assigned_attributes(_tree(name))]
    assert [(n, fn) for n, a, fn in every if a.endswith(".ui")] == [("app.py", "__init__"), ("app.py", "play")]
    # a game sets its own state only (self.x; `ui.x` in the helpers both games call with themselves: refuse,
    # next_page): never the app's, the other game's or the link's
    for game in ("ui.py", "ondemand/f5_ui.py"):
        assert [a for n, a, fn in every if n == game and not a.startswith(("self.", "ui."))] == []
    f5 = _source("ondemand/f5_ui.py")
    for reach in (r"led_on", r"\.link\b", r"\.proto\b", r"get_snapshot", r"app\.ui\b", r"(?<!self)\.mode ="):
        assert not re.search(reach, f5), reach
    assert not re.search(r"\.proto\b", _source("ondemand/link.py"))  # `link.proto = self` was there only for Formula 5 to rewire


def test_the_state_line_names_whether_the_hand_is_shown(dash):
    d = dash().start()
    assert d.state["hand"] == 0
    new_race(d, 3)  # five cards dealt
    assert d.state["hand"] == 0 and len(d.car()["hand"]) == 5
    d.tap("CARD")
    d.wait(lambda: d.rows()[0] == "HAND 5 CARDS")
    assert d.state["hand"] == 1
    d.tap("BACK")
    d.wait(lambda: d.state["hand"] == 0)


def test_the_tablet_covers_the_hand_by_its_named_field():
    from companion.f1.screens import hand_shown

    f1 = modes("ui.py")
    assert hand_shown({"mode": f1["MAIN"], "hand": 1}) and not hand_shown({"mode": f1["HAND"], "hand": 0})
    assert not hand_shown(None) and not hand_shown({"mode": f1["HAND"]})  # a mode number says nothing to it
    companion = os.path.join(mpy.ROOT, "companion")
    for root, _dirs, files in os.walk(companion):
        for f in files:
            if f.endswith(".py"):
                with open(os.path.join(root, f)) as src:
                    assert not re.search(r"""["']mode["']""", src.read()), f  # the firmware's modes are its own


def test_modes_buttons_and_cards_each_come_from_one_source():
    f1, f5 = modes("ui.py"), modes("ondemand/f5_ui.py")
    assert len(set(f1.values())) == len(f1) and len(set(f5.values())) == len(f5)
    assert not set(f1.values()) & set(f5.values())  # the viewer's "mode" says which game's screen it is
    # the keys: firmware/board.py's, imported; no module numbers them again
    for name in _modules():
        if name != "board.py":
            src = _source(name)
            assert not re.search(r"^_?(UP|DOWN|OK|CARD|BACK)\b.*=", src, re.M), name
            assert "UP, DOWN, OK, CARD, BACK =" not in src, name
    for game in ("ui.py", "ondemand/f5_ui.py"):
        assert "from firmware.board import BACK, CARD, DOWN, OK, UP" in _source(game)
    # Formula 5's cards: shared_rules.f5.cards' constants and names, no number of its own
    for f in ("ondemand/f5_ui.py", "ondemand/f5_screens.py"):
        src = _source(f)
        assert not re.search(r"\b(14|70|76)\b", src), f
        assert '"RED"' not in src and '"WHITE"' not in src, f
    # the screens are listed once, by mode, in firmware/ui.py; screens.py knows no mode number
    assert not re.search(r"_(MAIN|SPEED|HAND|MENU|CORNER|SETUP|MESSAGE|WAIT)\b", _source("screens.py"))
    table = re.search(r"_SCREENS = \((.*?)\)\n", _source("ui.py"), re.S).group(1)
    order = [n.strip().replace("screens.", "").replace("_screen", "").upper() for n in table.split(",")]
    assert order == sorted(f1, key=f1.get)  # each mode's number indexes its own screen


def _consts(name):
    """A module's constants as written in it (`_COLS = const(16)`, `WIDTH = 128`), by name."""
    found = {}
    for node in _tree(name).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "const":
                value = value.args[0]
            if isinstance(value, ast.Constant):
                found[node.targets[0].id] = value.value
    return found


def test_each_constant_copied_across_modules_is_bound_to_its_source():
    # A MicroPython const() is inlined where its own module uses it and no other module can import it as one:
    # the copies that remain for that are bound here to their source.
    board, screens, display = _consts("board.py"), _consts("screens.py"), _consts("display.py")
    assert screens["COLS"] == display["_CELLS"] == board["WIDTH"] // 8  # text columns, display cells: 8 pixels
    assert _consts("ondemand/f5_ui.py")["MESSAGE_MS"] == _consts("ui.py")["_MESSAGE_MS"]  # a message's time, both games
    for name in ("screens.py", "ondemand/f5_screens.py"):  # the screen's width in columns or pixels: from COLS, not again
        tree = _tree(name)
        defined = {id(n.value.args[0]) for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                   and getattr(n.value.func, "id", "") == "const"}
        width = (128, 16) if name == "ondemand/f5_screens.py" else (128,)  # screens.py's 16s are pixel rows
        again = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in width
                 and type(n.value) is int and id(n) not in defined]
        assert again == [], "%s: lines %s" % (name, again)


# App's state by concern (firmware/app.py): App holds named parts, each a concern; a part holds a few values of its
# own. A new value goes into the part it concerns (or a new, named part), never into App as one more loose attribute.
APP_PARTS = {
    "board", "car", "keeper", "buttons",  # the hardware, the car, its saving (firmware/keeper.py), the key scan
    "screen", "sound", "pauses", "tablet",  # app.py's Screen, Sound, Pauses, Tablet
    "f1", "_f5", "ui", "_solo",  # the games: Formula 1's, Formula 5's once dealt, the one playing (App.play); solo.py
}
PART_MAX = 5  # values a part of app.py holds: few enough to read at once


def _state_by_class(tree):
    """{class: the attributes its methods assign on self}, for each class of the module."""
    state = {}
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef):
            state[cls.name] = {a[5:] for a, _fn in _assigned_attributes(cls) if re.match(r"self\.\w+$", a)}
    return state


def test_the_app_is_a_short_composition_of_named_concerns():
    state = _state_by_class(_tree("app.py"))
    assert state.pop("App") == APP_PARTS
    assert set(state) == {"Screen", "Sound", "Pauses", "Tablet"}
    for part, values in state.items():
        assert len(values) <= PART_MAX, (part, sorted(values))
    # no one else writes into the app or its parts: a game or a board calls the app's methods
    for name in _modules():
        if name != "app.py":
            written = [a for a, _fn in _assigned_attributes(_tree(name)) if re.match(r"(self\.)?(app|host)\.", a)]
            assert written == [], (name, written)
