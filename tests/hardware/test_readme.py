"""hardware/README.md: its links exist, its pin summary matches pinout.md, and it says how to self-test."""

import os
import re

from hardware import pinout

README = os.path.join(pinout.HERE, "README.md")


def readme():
    with open(README, encoding="utf-8") as f:
        return f.read()


def test_relative_links_exist():
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", readme()):
        assert os.path.exists(os.path.join(pinout.HERE, target)), target


def test_pin_summary_uses_real_header_numbers():
    text = readme()
    mentions = re.findall(r"\b(GP\d+|GND|3V3\(OUT\)) \[(\d+)\]", text)
    assert mentions
    for name, number in mentions:
        header = pinout.PICO_HEADER[int(number)]
        assert header.split(".")[0] == name.replace("(OUT)", ""), (name, number)


def test_pin_summary_names_every_gpio_in_pinout():
    text = readme()
    values = pinout.read().values()
    for name in pinout.GPIO_CONSTANTS:
        gp = "GP%d" % values[name]
        assert "%s [%d]" % (gp, pinout.HEADER_PIN[gp]) in text, name


def test_readme_says_how_to_run_the_self_test():
    text = readme()
    assert "Hold BACK while plugging the dashboard in" in text
    for name in ("UP", "DOWN", "OK", "CARD", "BACK"):
        assert name in text
