"""The tablet app's seams: the pairing screen's controller reaches the app through its public surface only (the game
in play, whether phones are served), never through what the app keeps to itself."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def private_reaches_into_the_app(source):
    """Every `app._name` (self.app._name too) the source uses: "line: name"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            if (isinstance(base, ast.Name) and base.id == "app") or (isinstance(base, ast.Attribute)
                                                                     and base.attr == "app"):
                found.append("%d: %s" % (node.lineno, node.attr))
    return found


def test_pairing_uses_the_apps_public_surface():
    with open(os.path.join(ROOT, "companion", "pairing.py")) as f:
        assert private_reaches_into_the_app(f.read()) == []


def test_the_check_sees_a_private_reach():
    assert private_reaches_into_the_app("def f(self):\n    return self.app._game().path\n") == ["2: _game"]
