"""`make run` (python -m companion): the tablet app.

With nothing plugged in it offers virtual dashboards (the real firmware on the `micropython` unix port), so a
new table works at once. A desktop window opens at a 10-inch tablet's size.
"""

import os
import sys


def main():
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if "ANDROID_ARGUMENT" not in os.environ:
        from kivy.config import Config

        Config.set("graphics", "width", "1280")
        Config.set("graphics", "height", "800")
    from companion.app import run

    run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
