"""The seat page's script copies a few constants from the Python side (it cannot import them): the buttons in the
board's bit order (firmware/board.py), the OLED's width and height (the same), and the close codes of the seat's
link socket (companion/phones/server.py). Each copy is read from seat.js and held to its source here, so a change on
one side that the other missed fails this test rather than a phone at the table."""

import os
import re

from companion.phones import server
from firmware import board

SEAT_JS = os.path.join(os.path.dirname(server.__file__), "static", "seat.js")


def _source():
    with open(SEAT_JS) as f:
        return f.read()


def read_constants(js):
    """{name: value} of seat.js's top-level `const NAME = <number or list of strings>` (both `const A = 1, B = 2;`)."""
    found = {}
    for line in js.splitlines():
        m = re.match(r"const ([A-Z][A-Z0-9_]*\s*=.*?);", line)
        if not m:
            continue
        for part in re.split(r",\s*(?=[A-Z][A-Z0-9_]*\s*=)", m.group(1)):
            name, value = (s.strip() for s in part.split("=", 1))
            if re.fullmatch(r"\d+", value):
                found[name] = int(value)
            elif value.startswith("["):
                found[name] = re.findall(r'"([^"]*)"', value)
    return found


def expected():
    """What each copied constant must be: read from the Python side."""
    return {
        "BUTTONS": list(board.BUTTONS),
        "W": board.WIDTH,
        "H": board.HEIGHT,
        "PAGES": board.PAGES,
        "TAKEN": server.TAKEN,
        "GONE": server.GONE,
        "LEFT": server.LEFT,
    }


def mismatches(js):
    got = read_constants(js)
    return {name: (got.get(name), want) for name, want in expected().items() if got.get(name) != want}


def test_the_seat_pages_constants_are_the_python_sides():
    assert mismatches(_source()) == {}


def test_a_constant_copied_wrong_is_caught():
    js = _source()
    for planted in (js.replace("const TAKEN = %d" % server.TAKEN, "const TAKEN = 4009"),
                    js.replace('"CARD", "BACK"', '"BACK", "CARD"'),
                    js.replace("W = %d" % board.WIDTH, "W = 132")):
        assert planted != js  # the plant took
        assert mismatches(planted), planted[:200]
