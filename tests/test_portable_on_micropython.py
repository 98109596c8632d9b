"""The portable tests (tests/portable/test_*.py) run again on the real MicroPython unix port."""

import os

import pytest

from tests import mpy

HERE = os.path.join(os.path.dirname(__file__), "portable")
MODULES = sorted(f[:-3] for f in os.listdir(HERE) if f.startswith("test_") and f.endswith(".py"))


@pytest.mark.parametrize("module", MODULES)
def test_module_passes_on_micropython(module):
    proc = mpy.run(["tests/portable/runner.py", "tests.portable." + module], heap="4M")
    out = proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")
    assert proc.returncode == 0, out
    assert " passed, 0 failed" in out.strip().splitlines()[-1], out
