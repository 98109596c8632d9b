"""The app's reader of firmware/manifest.py (companion/flashing/manifest.py), for the tests that import it from here."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from companion.flashing.manifest import Manifest, Options, pico_modules, run_manifest  # noqa: E402

FIRMWARE_MANIFEST = os.path.join(ROOT, "firmware", "manifest.py")
__all__ = ["FIRMWARE_MANIFEST", "Manifest", "Options", "pico_modules", "run_manifest"]
