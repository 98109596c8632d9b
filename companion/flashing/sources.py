"""Where the files a Pico runs come from: the firmware and shared_rules sources, under the names they have on the
board (firmware/app.py, shared_rules/f1/race.py).

An installed app carries them as package data in files/ beside this module (pyproject.toml maps the checkout's
firmware/ and shared_rules/ there), so it flashes Picos, serves phones and runs virtual dashboards with nothing but
itself. Run from a checkout (`make run`), the same folders are the checkout's own.
"""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
PACKED = os.path.join(HERE, "files")
CHECKOUT = os.path.dirname(os.path.dirname(HERE))


def root():
    """The folder holding firmware/ and shared_rules/ (the folder the board's paths are relative to)."""
    return PACKED if os.path.isfile(os.path.join(PACKED, "firmware", "manifest.py")) else CHECKOUT


def firmware_manifest():
    return os.path.join(root(), "firmware", "manifest.py")
