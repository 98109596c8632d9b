"""The command journal (firmware/ondemand/journal.py) on both runtimes: the cases in journal_cases.py run on CPython and
again on the real MicroPython unix port, with a Pico-sized heap."""

import pytest

from tests import mpy
from tests.firmware import journal_cases

CASES = sorted(n for n in dir(journal_cases) if n.startswith("test_"))


@pytest.mark.parametrize("name", CASES)
def test_on_cpython(name, tmp_path, monkeypatch):
    monkeypatch.setattr(journal_cases, "DIR", str(tmp_path))
    getattr(journal_cases, name)()


def test_on_micropython(tmp_path, monkeypatch):
    monkeypatch.setenv("F1_TEST_DIR", str(tmp_path))
    proc = mpy.run(["tests/portable/runner.py", "tests.firmware.journal_cases"], heap="96K")
    out = proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")
    assert proc.returncode == 0, out
    assert out.strip().splitlines()[-1] == "%d passed, 0 failed" % len(CASES), out
