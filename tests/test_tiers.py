"""The tiers see what they sort: a test module that starts a real browser (tests/web/engines.py's open_engine, or
tests/phones/browser.py's Browser) carries the `browser` marker, so `make check`'s fast tier never waits on one."""

import ast
import os

TESTS = os.path.dirname(os.path.abspath(__file__))
LAUNCHERS = {"tests.web.engines": "open_engine", "tests.phones.browser": "Browser"}


def starts_a_browser(tree):
    """Whether the module imports one of the ways a test starts a browser."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in LAUNCHERS:
            if any(alias.name == LAUNCHERS[node.module] for alias in node.names):
                return True
    return False


def marks_browser(tree):
    """Whether `pytest.mark.browser` appears anywhere in the module (on the module, a class or a test)."""
    return any(isinstance(node, ast.Attribute) and node.attr == "browser" and isinstance(node.value, ast.Attribute)
               and node.value.attr == "mark" for node in ast.walk(tree))


def unmarked(sources):
    """The names among `sources` ({name: source text}) that start a browser without the marker."""
    return sorted(name for name, text in sources.items()
                  if starts_a_browser(ast.parse(text)) and not marks_browser(ast.parse(text)))


def module_sources():
    found = {}
    for folder, _dirs, files in os.walk(TESTS):
        for name in files:
            if name.startswith("test_") and name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    found[os.path.relpath(path, TESTS)] = f.read()
    return found


def test_every_module_that_starts_a_browser_is_in_the_browser_tier():
    sources = module_sources()
    assert len(sources) > 100 and any(starts_a_browser(ast.parse(t)) for t in sources.values())
    assert unmarked(sources) == []


def test_a_browser_started_without_the_marker_is_caught():
    planted = {
        "unmarked.py": "from tests.web.engines import MISSING, open_engine\n\ndef test_x():\n    pass\n",
        "chromium.py": "from tests.phones.browser import Browser\n",
        "marked.py": "import pytest\nfrom tests.web.engines import open_engine\n\npytestmark = [pytest.mark.browser]\n",
        "no_browser.py": "from tests.web.engines import MISSING\n",
    }
    assert unmarked(planted) == ["chromium.py", "unmarked.py"]
