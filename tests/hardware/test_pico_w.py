"""The Pico W dashboard's documents: the same pins as a Pico (none on the Wi-Fi chip's GPIOs), its LED by the name the
Wi-Fi chip gives it, a BOM that adds up with a battery, its charger and a power switch, and an enclosure whose base
holds the battery (rendered with openscad, refused with a message when the cell does not fit)."""

import os
import re
import shutil

import pytest

from hardware import pinout
from tests.hardware.test_bom import check, read_bom
from tests.hardware.test_enclosure import read_stl, render, size

BOM_PICO_W = os.path.join(pinout.HERE, "bom_picow.csv")
CYW43_GPIOS = (23, 24, 25, 29)  # the Pico W's Wi-Fi chip: power, data, chip select, clock (and VSYS/3 on ADC3)
openscad = pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad is not installed (CI installs it "
                              "from .ci/apt-deps)")


def section():
    with open(os.path.join(pinout.HERE, "README.md"), encoding="utf-8") as f:
        text = f.read()
    return text.split("## A Pico W dashboard", 1)[1].split("\n## ", 1)[0]


def test_no_dashboard_pin_is_one_the_wi_fi_chip_uses():
    values = pinout.read().values()
    used = {values[name] for name in pinout.GPIO_CONSTANTS}
    assert used and not used & set(CYW43_GPIOS)


def test_the_readme_says_the_same_pins_the_led_pin_name_and_both_power_sources():
    text = section()
    assert "The same pins" in text and 'Pin("LED")' in text
    assert "power bank" in text and "LiPo" in text and "charger" in text
    for name, number in re.findall(r"\b(VSYS|GND) \[(\d+)\]", text):
        assert pinout.PICO_HEADER[int(number)].split(".")[0] == name, (name, number)
    assert "-D battery=1" in text


def test_the_pico_w_bom_adds_up_and_lists_the_battery_parts():
    parts, total = read_bom(BOM_PICO_W)
    assert check(parts, total) == []
    items = {r["item"]: int(r["quantity"]) for r in parts}
    for part in ("pico_w", "lipo", "charger", "switch", "diode"):
        assert items[part] == 1, part
    assert "pico" not in items
    pico_parts, _ = read_bom()
    for r in pico_parts:  # everything else a Pico dashboard has, as many
        if r["item"] != "pico":
            assert items[r["item"]] == int(r["quantity"]), r["item"]


@pytest.mark.slow
@openscad
def test_the_base_with_the_battery_renders_and_is_as_large_as_without(tmp_path):
    with_battery, out = render(tmp_path, 'part="base"', "battery=1")
    assert with_battery.returncode == 0, with_battery.stderr
    battery_base = size(read_stl(out))
    plain, out = render(tmp_path, 'part="base"')
    assert plain.returncode == 0, plain.stderr
    assert battery_base == size(read_stl(out))  # the same box: the cell fits inside it


@pytest.mark.slow
@openscad
def test_a_cell_too_large_for_the_base_is_refused(tmp_path):
    proc, out = render(tmp_path, 'part="base"', "battery=1", "cell_w=40")
    assert proc.returncode != 0
    assert "the battery does not fit inside the walls" in proc.stderr
    assert not out.exists()
