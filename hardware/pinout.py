"""Read hardware/pinout.md (the source of truth for pins) and check other files against it.

Each check returns a list of human-readable problems; an empty list means the files agree.
"""

import json
import os
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))
PINOUT_MD = os.path.join(HERE, "pinout.md")
DIAGRAM_JSON = os.path.join(HERE, "diagram.json")
PINS_PY = os.path.join(os.path.dirname(HERE), "firmware", "pins.py")

# The header of the Pico and Pico 2, pin 1 to 40 (left side top to bottom, then right side bottom to top).
_HEADER = (
    "GP0 GP1 GND GP2 GP3 GP4 GP5 GND GP6 GP7 GP8 GP9 GND GP10 GP11 GP12 GP13 GND GP14 GP15 "
    "GP16 GP17 GND GP18 GP19 GP20 GP21 GND GP22 RUN GP26 GP27 GND GP28 ADC_VREF 3V3 3V3_EN GND VSYS VBUS"
).split()


def _wokwi_names(names):
    # Wokwi numbers the ground pins GND.1 to GND.8 in header order.
    out, grounds = {}, 0
    for number, name in enumerate(names, 1):
        if name == "GND":
            grounds += 1
            name = "GND.%d" % grounds
        out[number] = name
    return out


PICO_HEADER = _wokwi_names(_HEADER)  # header pin number -> Wokwi pin name
HEADER_PIN = {name: number for number, name in PICO_HEADER.items()}
# GPIOs on the header; GP23-25 and GP29 are used inside the board.
HEADER_GPIOS = tuple(sorted(int(n[2:]) for n in HEADER_PIN if n.startswith("GP")))
# Which GPIOs can carry each I2C bus's SDA and SCL (RP2040 and RP2350 alike, header GPIOs only).
I2C_SDA_PINS = {0: (0, 4, 8, 12, 16, 20, 28), 1: (2, 6, 10, 14, 18, 26)}
I2C_SCL_PINS = {0: (1, 5, 9, 13, 17, 21), 1: (3, 7, 11, 15, 19, 27)}
# Constants whose value is a GPIO number (everything else is a bus id, address, size or frequency).
GPIO_CONSTANTS = (
    "I2C_SDA", "I2C_SCL", "BTN_UP", "BTN_DOWN", "BTN_OK", "BTN_CARD", "BTN_BACK", "LED", "PIEZO",
)
NONE = ("", "—", "-")


class Pinout:
    """The three tables of pinout.md, in file order."""

    def __init__(self, constants, parts, connections):
        self.constants = constants  # [(name, value, header_pin or None, wired_to or None)]
        self.parts = parts  # [(id, description, wokwi_type)]
        self.connections = connections  # [(from, to, header_pin or None, colour, signal)]

    def values(self):
        return {name: value for name, value, _, _ in self.constants}

    def wires(self):
        """The connections as a set of unordered pairs of "part:pin" ends."""
        return {frozenset((a, b)) for a, b, _, _, _ in self.connections}


def _sections(text):
    sections, current = {}, None
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip().lower()
            sections[current] = []
        elif current and line.strip().startswith("|"):
            sections[current].append(line)
    return sections


def _rows(lines, width, section):
    rows = []
    for line in lines[2:]:  # skip the header and the |---| rule
        cells = [c.strip().strip("`").strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != width:
            raise ValueError("pinout.md, %s: expected %d cells in %r" % (section, width, line))
        rows.append(cells)
    return rows


def _int_or_none(cell, what):
    if cell in NONE:
        return None
    try:
        return int(cell, 0)
    except ValueError:
        raise ValueError("pinout.md: %s %r is not an integer" % (what, cell))


def parse(text):
    sections = _sections(text)
    for needed in ("constants", "parts", "connections"):
        if not sections.get(needed):
            raise ValueError("pinout.md has no '## %s' table" % needed.capitalize())
    constants = []
    for name, value, pin, wired, _ in _rows(sections["constants"], 5, "Constants"):
        wired = None if wired in NONE else wired
        constants.append((name, _int_or_none(value, name), _int_or_none(pin, name + " pin"), wired))
    parts = [tuple(row) for row in _rows(sections["parts"], 3, "Parts")]
    connections = []
    for a, b, pin, colour, signal in _rows(sections["connections"], 5, "Connections"):
        connections.append((a, b, _int_or_none(pin, a + " pin"), colour, signal))
    return Pinout(constants, parts, connections)


def read(path=PINOUT_MD):
    with open(path, encoding="utf-8") as f:
        return parse(f.read())


def problems(pinout):
    """pinout.md against itself and the Pico: valid pins, no pin used twice, tables that agree."""
    found = []
    values = pinout.values()
    names = [c[0] for c in pinout.constants]
    if len(set(names)) != len(names):
        found.append("a constant is listed twice")
    part_ids = [p[0] for p in pinout.parts]
    wires = pinout.wires()
    gpios = {}
    for name, value, pin, wired in pinout.constants:
        if value is None:
            found.append("%s has no value" % name)
            continue
        if name not in GPIO_CONSTANTS:
            continue
        if value not in HEADER_GPIOS:
            found.append("%s = %d is not a GPIO on the Pico header" % (name, value))
        if value in gpios:
            found.append("%s and %s both use GP%d" % (gpios[value], name, value))
        gpios[value] = name
        header_pin = HEADER_PIN.get("GP%d" % value)
        if pin != header_pin:
            found.append("%s: GP%d is header pin %s, not %s" % (name, value, header_pin, pin))
        if frozenset(("pico:GP%d" % value, wired)) not in wires:
            found.append("%s: no connection from pico:GP%d to %s" % (name, value, wired))
    bus = values.get("I2C_ID")
    if bus not in I2C_SDA_PINS:
        found.append("I2C_ID must be 0 or 1")
    else:
        if values.get("I2C_SDA") not in I2C_SDA_PINS[bus]:
            found.append("GP%s cannot be SDA of I2C%d" % (values.get("I2C_SDA"), bus))
        if values.get("I2C_SCL") not in I2C_SCL_PINS[bus]:
            found.append("GP%s cannot be SCL of I2C%d" % (values.get("I2C_SCL"), bus))
    for a, b, pin, _, _ in pinout.connections:
        for end in (a, b):
            part, _, part_pin = end.partition(":")
            if part not in part_ids or not part_pin:
                found.append("connection end %r is not 'part:pin' of a listed part" % end)
            if part == "pico" and part_pin not in HEADER_PIN:
                found.append("%r is not a Pico pin" % end)
        pico_end = a if a.startswith("pico:") else b if b.startswith("pico:") else None
        expected = HEADER_PIN.get(pico_end[5:]) if pico_end else None
        if pin != expected:
            found.append("%s - %s: header pin column says %s, should be %s" % (a, b, pin, expected))
    if len(wires) != len(pinout.connections):
        found.append("a connection is listed twice")
    return found


def load_pins(path=PINS_PY):
    """The public constants of a pins.py, by running it (it has no imports, so this is side-effect free)."""
    module = runpy.run_path(path)
    return {k: v for k, v in module.items() if not k.startswith("_")}


def compare_pins(pinout, pins):
    """pinout.md's Constants table against the constants of firmware/pins.py."""
    found = []
    expected = pinout.values()
    for name in sorted(set(expected) | set(pins)):
        if name not in pins:
            found.append("%s is in pinout.md but not in pins.py" % name)
        elif name not in expected:
            found.append("%s is in pins.py but not in pinout.md" % name)
        elif type(pins[name]) is not int:
            found.append("%s in pins.py is %r, not a plain int" % (name, pins[name]))
        elif pins[name] != expected[name]:
            found.append("%s is %r in pins.py but %r in pinout.md" % (name, pins[name], expected[name]))
    return found


def load_diagram(path=DIAGRAM_JSON):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def compare_diagram(pinout, diagram):
    """The Wokwi diagram.json against pinout.md's Parts and Connections tables."""
    found = []
    want_parts = {pid: wokwi_type for pid, _, wokwi_type in pinout.parts}
    have_parts = {p["id"]: p["type"] for p in diagram.get("parts", [])}
    for pid in sorted(set(want_parts) | set(have_parts)):
        if want_parts.get(pid) != have_parts.get(pid):
            found.append("part %s: pinout.md says %s, diagram.json has %s" % (pid, want_parts.get(pid),
                                                                               have_parts.get(pid)))
    have = {frozenset(c[:2]) for c in diagram.get("connections", [])}
    want = pinout.wires()
    for wire in sorted(want - have, key=sorted):
        found.append("wire %s is in pinout.md but not in diagram.json" % " - ".join(sorted(wire)))
    for wire in sorted(have - want, key=sorted):
        found.append("wire %s is in diagram.json but not in pinout.md" % " - ".join(sorted(wire)))
    oled = [p for p in diagram.get("parts", []) if p.get("type") == "board-ssd1306"]
    addr = pinout.values().get("OLED_ADDR")
    for part in oled:
        have_addr = int(part.get("attrs", {}).get("i2cAddress", "0x3c"), 16)  # Wokwi's default is 0x3c
        if have_addr != addr:
            found.append("diagram.json OLED address 0x%02x, pinout.md says 0x%02x" % (have_addr, addr or 0))
    return found


def _main():
    pinout = read()
    found = problems(pinout) + compare_pins(pinout, load_pins()) + compare_diagram(pinout, load_diagram())
    for line in found:
        print(line)
    print("pinout.md, firmware/pins.py and diagram.json agree" if not found else "%d problem(s)" % len(found))
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(_main())
