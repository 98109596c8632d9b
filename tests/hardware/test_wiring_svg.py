"""hardware/wiring.svg is generated from pinout.md, reproducibly, and the committed copy is current."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from hardware import pinout, wiring_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_generator_is_deterministic():
    table = pinout.read()
    assert wiring_svg.render(table) == wiring_svg.render(pinout.read())


def test_committed_svg_is_up_to_date():
    with open(wiring_svg.WIRING_SVG, encoding="utf-8") as f:
        committed = f.read()
    assert committed == wiring_svg.render(pinout.read()), "run: python -m hardware.wiring_svg"


def test_check_mode_reports_up_to_date():
    cmd = [sys.executable, "-m", "hardware.wiring_svg", "--check"]
    proc = subprocess.run(cmd, cwd=os.path.dirname(pinout.HERE), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_svg_draws_one_wire_per_connection_and_every_used_pin():
    table = pinout.read()
    root = ET.fromstring(wiring_svg.render(table))
    titles = [p.find(SVG + "title").text for p in root.iter(SVG + "polyline")]
    assert titles == ["%s to %s: %s" % (a, b, signal) for a, b, _, _, signal in table.connections]
    labels = {t.text for t in root.iter(SVG + "text")}
    for number, name in pinout.PICO_HEADER.items():
        label = name.split(".")[0]
        assert ("%d %s" % (number, label) if number <= 20 else "%s %d" % (label, number)) in labels


def test_svg_follows_the_pin_table():
    # Moving a wire in pinout.md moves it in the picture: the drawing is not hand-made.
    text = open(pinout.PINOUT_MD, encoding="utf-8").read()
    moved = re.sub(r"^\| `pico:GP16`", "| `pico:GP17`", text, flags=re.M)
    assert moved != text
    before = wiring_svg.render(pinout.parse(text))
    after = wiring_svg.render(pinout.parse(moved))
    assert before != after
    assert "pico:GP17 to piezo:2" in after and "pico:GP17 to piezo:2" not in before
