"""The dashboard says the version it was flashed from: its hello to the table (`fw`, over USB and over Wi-Fi) and
its manifest carry the app's version, the one the flash writes to /dashboard.json and the pairing screen compares.
The firmware holds it as a constant of its own (no version module to import on a Pico: a module costs heap)."""

import os
import re

from companion import __version__

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _read(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def test_the_dashboards_hello_and_manifest_carry_the_apps_version():
    for rel in ("firmware/ondemand/link.py", "firmware/ondemand/wifi_link.py"):
        said = re.findall(r'^_FIRMWARE = const\("([^"]+)"\)', _read(rel), re.M)
        assert said == [__version__], (rel, said, __version__)
    assert re.findall(r'version="([^"]+)"', _read("firmware/manifest.py")) == [__version__]
