"""`make run` (python -m companion): the tablet app.

With nothing plugged in it offers virtual dashboards (the real firmware on the `micropython` unix port), so a
new table works at once. A desktop window opens at a 10-inch tablet's size. `--port PATH` (repeatable; `make run
PORT=/dev/ttyACM0`) adds a port to the scan whatever its USB id: a Pico behind another adapter, a Bluetooth
serial port, an emulator's pty.
"""

import argparse
import os
import sys


def parse(argv):
    ap = argparse.ArgumentParser(prog="python -m companion", description="The Formula 1 companion (tablet app).")
    ap.add_argument("--port", action="append", default=[], metavar="PATH",
                    help="a serial port to scan for a dashboard besides the Picos found by USB id (repeatable)")
    return ap.parse_args(argv)


def main(argv=None):
    from companion.transport import on_android

    if not on_android():  # Android starts the app with no command line, and without pyserial
        ports = parse(sys.argv[1:] if argv is None else argv).port
        if ports:
            from companion.transport import pyserial_backend

            pyserial_backend.NAMED_PORTS[:] = ports
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
