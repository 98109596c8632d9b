"""firmware/board.py states what a board offers (INTERFACE); each of the three boards (the Pico's, the unix port's,
the phone's) has every member, methods with the same parameters, coroutines where the app awaits one. Read from
the source (board_pico needs `machine` and a panel, board_web a page): a board that lacks a member fails here.
A board reaches the app only through what the app hands it: no board imports the app's modules."""

import ast
import os

import pytest

from tests.mpy import ROOT

FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = ("board_pico.py", "host/board_host.py", "board_web.py")
APP_MODULES = {"firmware.app", "firmware.ui", "firmware.screens", "firmware.ondemand.store", "firmware.ondemand.journal",
               "firmware.ondemand.link", "firmware.restore", "firmware.ondemand.solo", "firmware.ondemand.f5_ui", "firmware.ondemand.f5_screens",
               "firmware.ondemand.selftest", "firmware.display", "firmware.main"}


def _tree(name):
    with open(os.path.join(FIRMWARE, name)) as f:
        return ast.parse(f.read(), name)


def interface():
    """board.INTERFACE as {name: None for an attribute, or (is_async, [parameters]) for a method}."""
    for node in _tree("board.py").body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["INTERFACE"]:
            members = {}
            for spec in ast.literal_eval(node.value):
                is_async = spec.startswith("async ")
                spec = spec.removeprefix("async ")
                if "(" in spec:
                    name, params = spec[:-1].split("(")
                    members[name] = (is_async, [p.strip() for p in params.split(",") if p.strip()])
                else:
                    members[spec] = None
            return members
    raise AssertionError("firmware/board.py states no INTERFACE")


def offered(tree):
    """What the module's Board class offers: {name: None (attribute) or (is_async, [parameters]) (method)}."""
    board = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Board")
    members = {}
    for node in board.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = [a.arg for a in node.args.args][1:]  # self left out
            members[node.name] = (isinstance(node, ast.AsyncFunctionDef), params)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(t, ast.Name):
                    members[t.id] = None
    for node in ast.walk(board):  # self.x = ... anywhere in its methods
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                    members.setdefault(t.attr, None)
    return members


def contract_problems(tree):
    have = offered(tree)
    problems = []
    for name, want in interface().items():
        if name not in have:
            problems.append("lacks " + name)
        elif want is not None and have[name] != want:
            problems.append("%s is %s, the interface says %s" % (name, have[name], want))
        elif want is None and have[name] is not None:
            problems.append("%s is a method, the interface says an attribute" % name)
    return problems


def test_the_interface_lists_what_the_app_uses():
    members = interface()
    assert {"send", "buttons", "latch", "flag", "led", "tone", "serve", "state_path"} <= set(members)
    assert members["serve"] == (True, ["app"]) and members["send"] == (False, ["rects", "n"])


@pytest.mark.parametrize("name", BOARDS)
def test_each_board_offers_the_whole_interface(name):
    assert contract_problems(_tree(name)) == []


@pytest.mark.parametrize("name", BOARDS)
def test_no_board_imports_the_app(name):
    imported = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported |= {node.module} | {node.module + "." + a.name for a in node.names}
    assert not imported & APP_MODULES


def test_the_check_catches_a_board_without_a_member_or_with_another_signature():
    with open(os.path.join(FIRMWARE, "board_pico.py")) as f:
        source = f.read()
    no_tone = source.replace("    def tone(self, hz):", "    def beep(self, hz):")
    assert contract_problems(ast.parse(no_tone)) == ["lacks tone"]
    sync_serve = source.replace("    async def serve(self, app):", "    def serve(self, app):")
    assert contract_problems(ast.parse(sync_serve)) == [
        "serve is (False, ['app']), the interface says (True, ['app'])"]
    no_flag = source.replace("self.flag = ", "self.other = ")
    assert contract_problems(ast.parse(no_flag)) == ["lacks flag"]
