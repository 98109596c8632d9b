"""hardware/pinout.md is the source of truth: firmware/pins.py and diagram.json must agree with it."""

import os
import re
import tomllib

import pytest

from hardware import pinout
from tests import mpy


@pytest.fixture(scope="module")
def table():
    return pinout.read()


def test_pinout_is_consistent_with_itself_and_the_pico(table):
    assert pinout.problems(table) == []


def test_pinout_has_every_constant_the_firmware_needs(table):
    needed = {"I2C_ID", "I2C_SDA", "I2C_SCL", "I2C_FREQ", "OLED_ADDR", "LED", "PIEZO"}
    needed |= {"BTN_UP", "BTN_DOWN", "BTN_OK", "BTN_CARD", "BTN_BACK"}
    assert needed <= set(table.values())
    assert table.values()["I2C_FREQ"] == 1_000_000
    assert table.values()["OLED_ADDR"] == 0x3C


def test_no_pin_is_internal_to_the_pico(table):
    used = {table.values()[name] for name in pinout.GPIO_CONSTANTS}
    assert used.isdisjoint({23, 24, 25, 29})


def test_firmware_pins_agree_with_pinout(table):
    assert pinout.compare_pins(table, pinout.load_pins()) == []


def test_an_altered_copy_of_pins_py_is_detected(table, tmp_path):
    text = open(pinout.PINS_PY, encoding="utf-8").read()
    altered = tmp_path / "pins.py"

    def check(altered_text):
        altered.write_text(altered_text, encoding="utf-8")
        return pinout.compare_pins(table, pinout.load_pins(str(altered)))

    assert check(text) == []
    assert check(re.sub(r"^BTN_OK = \d+", "BTN_OK = 22", text, flags=re.M)) == [
        "BTN_OK is 22 in pins.py but 8 in pinout.md"
    ]
    assert check(text.replace("PIEZO = 16\n", "")) == ["PIEZO is in pinout.md but not in pins.py"]
    assert check(text + "BUZZER = 17\n") == ["BUZZER is in pins.py but not in pinout.md"]
    assert check(text.replace("LED = 15", "LED = 15.0")) == ["LED in pins.py is 15.0, not a plain int"]


def test_an_altered_copy_of_pinout_md_is_detected(tmp_path):
    text = open(pinout.PINOUT_MD, encoding="utf-8").read()
    # Move LED to GP14 in the Constants table only: the pins and the wiring no longer match.
    altered = re.sub(r"^\| LED( +)\| 15 ", r"| LED\1| 14 ", text, flags=re.M)
    assert altered != text
    table = pinout.parse(altered)
    assert pinout.compare_pins(table, pinout.load_pins()) == ["LED is 15 in pins.py but 14 in pinout.md"]
    found = pinout.problems(table)
    assert "LED: GP14 is header pin 19, not 20" in found
    assert "LED: no connection from pico:GP14 to r_led:1" in found


def test_pinout_rejects_a_pin_used_twice_and_a_bad_i2c_pin(tmp_path):
    text = open(pinout.PINOUT_MD, encoding="utf-8").read()
    twice = pinout.parse(re.sub(r"^\| BTN_DOWN( +)\| 7 ", r"| BTN_DOWN\1| 6 ", text, flags=re.M))
    assert "BTN_UP and BTN_DOWN both use GP6" in pinout.problems(twice)
    bad_bus = pinout.parse(re.sub(r"^\| I2C_ID( +)\| 0 ", r"| I2C_ID\1| 1 ", text, flags=re.M))
    assert "GP4 cannot be SDA of I2C1" in pinout.problems(bad_bus)


def test_pins_py_runs_on_micropython(table):
    # The firmware imports it on the Pico: it must be portable MicroPython and give the same integers.
    script = "import pins\nfor n in %r:\n    print(n, getattr(pins, n))\n" % sorted(table.values())
    proc = mpy.run(["-c", script], path_extra=("firmware",))
    assert proc.returncode == 0, proc.stderr.decode()
    got = dict(line.split() for line in proc.stdout.decode().splitlines())
    assert {k: int(v) for k, v in got.items()} == table.values()


def test_diagram_json_is_wired_exactly_like_pinout(table):
    assert pinout.compare_diagram(table, pinout.load_diagram()) == []


def test_an_altered_diagram_is_detected(table):
    diagram = pinout.load_diagram()
    wires = diagram["connections"]
    i = next(n for n, c in enumerate(wires) if c[:2] == ["pico:GP8", "btn_ok:1.l"])
    wires[i] = ["pico:GP11", "btn_ok:1.l", "green", []]
    assert pinout.compare_diagram(table, diagram) == [
        "wire btn_ok:1.l - pico:GP8 is in pinout.md but not in diagram.json",
        "wire btn_ok:1.l - pico:GP11 is in diagram.json but not in pinout.md",
    ]


def test_diagram_uses_only_real_pin_names(table):
    # Wokwi silently ignores a wire to a pin that does not exist, so check the names the docs give.
    part_pins = {
        "board-pi-pico": set(pinout.HEADER_PIN),
        "board-ssd1306": {"GND", "VCC", "SCL", "SDA"},
        "wokwi-pushbutton": {"1.l", "1.r", "2.l", "2.r"},
        "wokwi-resistor": {"1", "2"},
        "wokwi-led": {"A", "C"},
        "wokwi-buzzer": {"1", "2"},
    }
    diagram = pinout.load_diagram()
    types = {p["id"]: p["type"] for p in diagram["parts"]}
    for wire in diagram["connections"]:
        for end in wire[:2]:
            part, pin = end.split(":")
            assert pin in part_pins[types[part]], end


def test_wokwi_toml_points_at_a_pico_firmware():
    with open(os.path.join(os.path.dirname(pinout.PINOUT_MD), "wokwi.toml"), "rb") as f:
        config = tomllib.load(f)["wokwi"]
    assert config["version"] == 1
    assert config["firmware"].endswith(".uf2")
    # mpremote copies the firmware in over this port (see hardware/README.md).
    assert config["rfc2217ServerPort"] == 4000
