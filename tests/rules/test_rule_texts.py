"""Every message a rule refuses with is written where it is raised: `RuleError(code, "the words")`, or the words
with a `%` filling. A reader greps the message a player saw and lands on the check that refused it."""

import ast
import os

import pytest

from tests import mpy
from tests.rules.test_portability import sources


def refusals(path):
    """(line, message node) of every RuleError(...) raised in the module."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RuleError":
            yield node.lineno, node.args[1] if len(node.args) > 1 else None


def written_in_place(message):
    if isinstance(message, ast.BinOp) and isinstance(message.op, ast.Mod):
        message = message.left
    return isinstance(message, ast.Constant) and isinstance(message.value, str) and message.value != ""


@pytest.mark.parametrize("path", [p for p in sources() if "raise RuleError(" in open(p).read()],
                         ids=lambda p: os.path.relpath(p, mpy.ROOT))
def test_every_refusal_says_its_words_where_it_is_raised(path):
    found = list(refusals(path))
    assert found
    assert [line for line, message in found if not written_in_place(message)] == []


def test_the_check_notices_a_message_read_from_elsewhere(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('raise RuleError("speed", text(_TEXTS, 3))\nraise RuleError("speed", "ok %d" % 3)\n')
    assert [written_in_place(m) for _line, m in refusals(str(bad))] == [False, True]
