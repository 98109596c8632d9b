"""The tiers see what they sort: a test module that starts a real browser (tests/web/engines.py's open_engine, or
tests/phones/browser.py's Browser) carries the `browser` marker, and one that runs the app in its window through
tests/companion/test_app_window.py's run (or tests/companion/app_host.py's played) carries `window`, so `make check`'s fast tier never waits on either."""

import ast
import os

TESTS = os.path.dirname(os.path.abspath(__file__))
# marker: {module: the name that starts it}
LAUNCHERS = {"browser": {"tests.web.engines": "open_engine", "tests.phones.browser": "Browser"},
             "window": {"tests.companion.test_app_window": "run", "tests.companion.app_host": "played"}}


def starts(tree, marker):
    """Whether the module imports one of the ways a test starts what `marker` names."""
    launchers = LAUNCHERS[marker]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in launchers:
            if any(alias.name == launchers[node.module] for alias in node.names):
                return True
    return False


def marks(tree, marker):
    """Whether `pytest.mark.<marker>` appears anywhere in the module (on the module, a class or a test)."""
    return any(isinstance(node, ast.Attribute) and node.attr == marker and isinstance(node.value, ast.Attribute)
               and node.value.attr == "mark" for node in ast.walk(tree))


def unmarked(sources, marker="browser"):
    """The names among `sources` ({name: source text}) that start what `marker` names without the marker."""
    return sorted(name for name, text in sources.items()
                  if starts(ast.parse(text), marker) and not marks(ast.parse(text), marker))


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
    assert len(sources) > 100 and any(starts(ast.parse(t), "browser") for t in sources.values())
    assert unmarked(sources, "browser") == []


def test_every_module_that_runs_the_apps_window_is_in_the_window_tier():
    sources = module_sources()
    assert any(starts(ast.parse(t), "window") for t in sources.values())
    assert unmarked(sources, "window") == []


def test_a_browser_started_without_the_marker_is_caught():
    planted = {
        "unmarked.py": "from tests.web.engines import MISSING, open_engine\n\ndef test_x():\n    pass\n",
        "chromium.py": "from tests.phones.browser import Browser\n",
        "marked.py": "import pytest\nfrom tests.web.engines import open_engine\n\npytestmark = [pytest.mark.browser]\n",
        "no_browser.py": "from tests.web.engines import MISSING\n",
    }
    assert unmarked(planted, "browser") == ["chromium.py", "unmarked.py"]


def test_a_window_run_without_the_marker_is_caught():
    planted = {
        "unmarked.py": "from tests.companion.test_app_window import run\n",
        "marked.py": "import pytest\nfrom tests.companion.test_app_window import run\n\npytestmark = [pytest.mark.window]\n",
        "no_window.py": "from tests.companion.test_app_window import stale_screenshots\n",
        "shared.py": "from tests.companion.app_host import played\n",
    }
    assert unmarked(planted, "window") == ["shared.py", "unmarked.py"]
