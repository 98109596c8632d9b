"""Flash a dashboard from a checkout: `make flash [PORT=/dev/ttyACM0] [INDEX=DIR]`, the same code as the installed
app's `formula1 flash` (companion/flashing/flash.py, whose --help says every option)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from companion.flashing.flash import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(prog="tools/flash.py"))
