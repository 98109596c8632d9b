"""The rules keep their longer messages in tables of texts, one a line, numbered by `_NAME = const(n)` lines
right after the table (shared_rules/errors.py: text). A line added or removed without renumbering would give
the wrong message."""

import ast
import os

import pytest

from shared_rules.errors import text
from tests import mpy

MODULES = ("shared_rules/f1/car_state.py", "shared_rules/f1/car.py")


def table_and_numbers(path):
    """The module's _TEXTS table, and the numbers 0, 1, 2... given to names right after it."""
    with open(os.path.join(mpy.ROOT, path)) as f:
        body = ast.parse(f.read()).body
    at = next(i for i, node in enumerate(body) if isinstance(node, ast.Assign)
              and getattr(node.targets[0], "id", "") == "_TEXTS")
    table = body[at].value.value  # type: ignore[attr-defined]
    numbers = []
    for node in body[at + 1:]:
        call = getattr(node, "value", None)
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", "") == "const"):
            break
        if ast.literal_eval(call.args[0]) != len(numbers):
            break  # the next constants are not line numbers
        numbers.append(len(numbers))
    return table, numbers


@pytest.mark.parametrize("path", MODULES)
def test_every_line_of_the_table_has_its_number(path):
    table, numbers = table_and_numbers(path)
    lines = table.split("\n")
    assert lines[-1] == ""  # every line ends in a newline, the last one too
    assert len(numbers) == len(lines) - 1 > 0
    for n in numbers:
        assert text(table, n) == lines[n] != ""


def test_text_gives_the_line_asked_for():
    table = "first\nsecond %d\n"
    assert text(table, 0) == "first"
    assert text(table, 1) % 3 == "second 3"
    with pytest.raises(ValueError):
        text(table, 2)  # no such line
