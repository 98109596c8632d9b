"""shared_rules must run unchanged on MicroPython: a static scan for what it lacks, then a real import."""

import ast
import os

import pytest

from tests import mpy

ROOT = mpy.ROOT
PACKAGE = os.path.join(ROOT, "shared_rules")
# Modules both runtimes have (MicroPython's versions are subsets: use only their common parts).
# collections: for namedtuple, which MicroPython has (fields named by a tuple of strings; no _replace, no _asdict):
# the transport's notes (shared_rules/link/notes.py) are read by field name on both runtimes.
ALLOWED_IMPORTS = {"shared_rules", "binascii", "json", "sys", "gc", "errno", "struct", "time", "micropython", "os", "random",
                   "select", "io", "collections"}
FORBIDDEN_NAMES = {"__slots__", "dataclass", "Enum", "IntEnum", "TypedDict", "NamedTuple"}


def sources():
    for folder, _dirs, files in os.walk(PACKAGE):
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(folder, f)


def problems_in(source, name="<src>"):
    """Every construct in `source` that MicroPython lacks or that breaks the integers-only rule."""
    found = []
    tree = ast.parse(source, name)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for m in mods:
                if m.split(".")[0] not in ALLOWED_IMPORTS:
                    found.append((line, "import of %s" % m))
        elif isinstance(node, ast.Constant) and isinstance(node.value, float):
            found.append((line, "float literal (integers only)"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            found.append((line, "true division makes floats; use //"))
        elif isinstance(node, ast.JoinedStr):
            found.append((line, "f-string (MicroPython's are partial); use %"))
        elif isinstance(node, ast.Match):
            found.append((line, "match statement"))
        elif isinstance(node, (ast.AnnAssign,)) or (isinstance(node, ast.arg) and node.annotation is not None):
            found.append((line, "annotation (no typing at run time)"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            found.append((line, "annotation (no typing at run time)"))
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            found.append((line, "%s is not on MicroPython" % node.id))
        elif isinstance(node, ast.Attribute) and node.attr in ("__dict__",):
            found.append((line, "__dict__ differs on MicroPython"))
        elif isinstance(node, ast.Attribute) and node.attr in ("_replace", "_asdict", "_fields", "_make"):
            found.append((line, "a namedtuple's %s is not on MicroPython" % node.attr))
    return found


@pytest.mark.parametrize("path", list(sources()), ids=lambda p: os.path.relpath(p, ROOT))
def test_no_construct_micropython_lacks(path):
    with open(path) as f:
        assert problems_in(f.read(), path) == []


def test_the_scan_catches_what_it_should():
    bad = "import typing\nfrom dataclasses import dataclass\nx = 1.5\ny = 3 / 2\nz = f'{y}'\n" \
          "def f(a: int) -> int:\n    return a\nclass C:\n    __slots__ = ()\n"
    kinds = " ".join(k for _line, k in problems_in(bad))
    for word in ("typing", "dataclasses", "float", "division", "f-string", "annotation", "__slots__"):
        assert word in kinds


def module_names():
    for path in sources():
        rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
        yield rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


@pytest.mark.parametrize("module", list(module_names()))
def test_module_imports_on_micropython_in_64k(module):
    # One process per module, compiled from source, as on a Pico that was given .py files.
    proc = mpy.run(["-c", "import %s\nprint('imported')" % module], heap="64K")
    out = proc.stdout.decode() + proc.stderr.decode()
    assert proc.returncode == 0 and "imported" in out, out
