"""hardware/bom.csv parses, every line adds up, the total is the sum, and it lists the parts pinout.md wires."""

import csv
import os
from decimal import Decimal

import pytest

from hardware import pinout

BOM = os.path.join(pinout.HERE, "bom.csv")
COLUMNS = ["item", "quantity", "unit", "description", "unit_cost_usd", "line_cost_usd"]


def read_bom(path=BOM):
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        rows = list(reader)
    *parts, total = rows
    return parts, total


def check(parts, total):
    """Problems with a parsed BOM, as a list of strings (empty when it adds up)."""
    found = []
    for row in parts:
        quantity = Decimal(row["quantity"])
        unit_cost = Decimal(row["unit_cost_usd"])
        line = Decimal(row["line_cost_usd"])
        if quantity <= 0 or unit_cost <= 0 or not row["description"]:
            found.append("%s: needs a quantity, a unit cost and a description" % row["item"])
        if quantity * unit_cost != line:
            found.append("%s: %s x %s is not %s" % (row["item"], quantity, unit_cost, line))
    if total["item"] != "TOTAL":
        found.append("the last row must be the TOTAL")
    elif sum(Decimal(r["line_cost_usd"]) for r in parts) != Decimal(total["line_cost_usd"]):
        found.append("TOTAL %s is not the sum of the lines" % total["line_cost_usd"])
    return found


def test_bom_adds_up():
    assert check(*read_bom()) == []


def test_a_wrong_total_or_line_is_detected():
    parts, total = read_bom()
    assert check(parts, dict(total, line_cost_usd="1.00")) == ["TOTAL 1.00 is not the sum of the lines"]
    wrong = [dict(r, line_cost_usd="9.99") if r["item"] == "led" else r for r in parts]
    assert "led: 1 x 0.05 is not 9.99" in check(wrong, total)


def test_bom_items_are_unique_and_total_is_plausible():
    parts, total = read_bom()
    items = [r["item"] for r in parts]
    assert len(items) == len(set(items))
    assert Decimal("5") < Decimal(total["line_cost_usd"]) < Decimal("50")


@pytest.mark.parametrize(
    "wokwi_type, item",
    [
        ("board-pi-pico", "pico"),
        ("board-ssd1306", "oled"),
        ("wokwi-pushbutton", "button"),
        ("wokwi-led", "led"),
        ("wokwi-resistor", "resistor"),
        ("wokwi-buzzer", "piezo"),
    ],
)
def test_bom_has_as_many_of_each_wired_part_as_pinout(wokwi_type, item):
    parts, _ = read_bom()
    quantity = {r["item"]: int(r["quantity"]) for r in parts}
    wired = sum(1 for _, _, t in pinout.read().parts if t == wokwi_type)
    assert quantity[item] == wired


def test_bom_resistor_matches_the_diagram():
    parts, _ = read_bom()
    description = next(r["description"] for r in parts if r["item"] == "resistor")
    value = next(p["attrs"]["value"] for p in pinout.load_diagram()["parts"] if p["id"] == "r_led")
    assert description.startswith(value + " ohm")


def test_bom_has_the_fasteners_the_enclosure_needs():
    parts, _ = read_bom()
    quantity = {r["item"]: int(r["quantity"]) for r in parts}
    assert quantity["screw_m3"] == 4  # lid to the four corner posts
    assert quantity["screw_m2"] == 12  # four posts each for the Pico, the OLED and the button board
