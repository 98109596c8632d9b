"""firmware/board.py states what a board offers (INTERFACE); each of the three boards (the Pico's, the unix port's,
the phone's) has every member, methods with the same parameters, coroutines where the app awaits one. Read from
the source (board_pico needs `machine` and a panel, board_web a page): a board that lacks a member fails here.
A board reaches the app only through what the app hands it: no board imports the app's modules, and what a board
calls on that app is named in board.APP_INTERFACE (the host's board calls all of it, no board anything else)."""

import ast
import os

import pytest

from tests.mpy import ROOT

FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = ("board_pico.py", "host/board_host.py", "board_web.py")
APP_MODULES = {"firmware.app", "firmware.ui", "firmware.screens", "firmware.ondemand.store", "firmware.ondemand.journal",
               "firmware.ondemand.link", "firmware.restore", "firmware.ondemand.solo", "firmware.ondemand.f5_ui", "firmware.ondemand.f5_screens",
               "firmware.ondemand.selftest", "firmware.display", "firmware.main"}


APPS = (("app.py", "App"), ("ondemand/selftest.py", None))  # what serve(app) is handed: the app, the self-test's


def _tree(name):
    with open(os.path.join(FIRMWARE, name)) as f:
        return ast.parse(f.read(), name)


def interface(name="INTERFACE"):
    """board.INTERFACE (or APP_INTERFACE) as {name: None for an attribute, or (is_async, [parameters]) for a
    method}."""
    for node in _tree("board.py").body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [name]:
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
    raise AssertionError("firmware/board.py states no " + name)


def offered(tree, cls="Board"):
    """What the module's class `cls` offers: {name: None (attribute) or (is_async, [parameters]) (method)}."""
    board = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
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


def calls_on_the_app(tree):
    """What a board module does with the app it is handed (every name `app`): {method called: is it awaited}, and
    the lines where the app is used otherwise (kept, passed to anything but the board's own methods), which would
    let calls escape this check."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    calls, escapes = {}, []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id == "app" and isinstance(node.ctx, ast.Load)):
            continue
        up = parents[node]
        if isinstance(up, ast.Attribute) and isinstance(parents[up], ast.Call) and parents[up].func is up:
            calls[up.attr] = calls.get(up.attr, False) or isinstance(parents[parents[up]], ast.Await)
        elif isinstance(up, ast.Call) and node in up.args and isinstance(up.func, ast.Attribute) and \
                isinstance(up.func.value, ast.Name) and up.func.value.id == "self":
            pass  # handed on to one of the board's own methods, where it is `app` again
        else:
            escapes.append(node.lineno)
    return calls, escapes


def app_contract_problems(tree):
    declared = interface("APP_INTERFACE")
    calls, escapes = calls_on_the_app(tree)
    problems = ["calls app.%s, which the contract does not name" % n for n in sorted(set(calls) - set(declared))]
    problems += ["awaits app.%s, which the contract says is not a coroutine" % n for n in sorted(calls)
                 if n in declared and calls[n] and not declared[n][0]]
    problems += ["the app is kept or passed on at line %d" % n for n in escapes]
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


@pytest.mark.parametrize("name", BOARDS)
def test_a_board_calls_only_what_the_contract_names_on_the_app(name):
    assert app_contract_problems(_tree(name)) == []


def test_the_host_board_calls_the_whole_app_contract():
    calls, _ = calls_on_the_app(_tree("host/board_host.py"))
    assert calls == {name: spec[0] for name, spec in interface("APP_INTERFACE").items()}


@pytest.mark.parametrize("module,cls", APPS)
def test_every_app_a_board_is_handed_offers_the_app_contract(module, cls):
    tree = _tree(module)
    classes = [cls] if cls else [n.name for n in tree.body if isinstance(n, ast.ClassDef)
                                 and any(getattr(f, "name", None) == "resend" for f in n.body)]
    assert classes
    for c in classes:
        have = offered(tree, c)
        assert {n: have.get(n) for n in interface("APP_INTERFACE")} == interface("APP_INTERFACE"), c


def test_the_check_catches_a_board_calling_an_undeclared_app_method():
    with open(os.path.join(FIRMWARE, "host", "board_host.py")) as f:
        source = f.read()
    assert "        app.resend()\n" in source
    undeclared = source.replace("        app.resend()\n", "        app.redraw_all()\n", 1)
    assert app_contract_problems(ast.parse(undeclared)) == ["calls app.redraw_all, which the contract does not name"]
    kept = source.replace("        app.resend()\n", "        self.app = app\n", 1)
    assert app_contract_problems(ast.parse(kept)) == ["the app is kept or passed on at line %d"
                                                      % (source[:source.index("        app.resend()")].count("\n") + 1)]
    awaited = source.replace("        app.scan_buttons()\n", "        await app.scan_buttons()\n", 1)
    assert app_contract_problems(ast.parse(awaited)) == [
        "awaits app.scan_buttons, which the contract says is not a coroutine"]


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
