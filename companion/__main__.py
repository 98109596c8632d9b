"""`formula1` (installed; from a checkout `make run`, python -m companion): the tablet app.

With nothing plugged in it offers virtual dashboards (the real firmware on the `micropython` unix port), so a
new table works at once. On a desktop the window takes the screen it is given: full screen on a small one (the
7-inch 800x480 display), else a 10-inch tablet's 1280x800 window; `--size WxH` chooses, `--fullscreen` forces
full screen (companion/window_size.py). `--port PATH` (repeatable; `make run
PORT=/dev/ttyACM0`) adds a port to the scan whatever its USB id: a Pico behind another adapter, a Bluetooth
serial port, an emulator's pty. `--install-desktop` puts the app in the applications menu, `--autostart on|off`
starts it full screen with the desktop session (companion/desktop.py). `formula1 --version` prints the version;
`formula1 flash [--port P]` flashes a dashboard onto a Pico from the command line (companion/flashing/flash.py,
`formula1 flash --help`).
"""

import argparse
import os
import sys


def parse(argv):
    from companion import __version__

    ap = argparse.ArgumentParser(
        prog="formula1", description="The Formula 1 companion (tablet app). `formula1 flash --help`: flashing a Pico.")
    ap.add_argument("--version", action="version", version="formula1 " + __version__)
    ap.add_argument("--port", action="append", default=[], metavar="PATH",
                    help="a serial port to scan for a dashboard besides the Picos found by USB id (repeatable)")
    ap.add_argument("--size", type=_size, default=None, metavar="WxH",
                    help="the window's size, e.g. 800x480 (default: the screen's if it is small, else 1280x800)")
    ap.add_argument("--fullscreen", action="store_true", help="full screen, whatever the screen's size")
    ap.add_argument("--install-desktop", action="store_true",
                    help="put the app in this user's applications menu, with its icon (Linux desktops), and exit")
    ap.add_argument("--autostart", choices=("on", "off"),
                    help="on: start full screen whenever this user's desktop session starts (a dedicated table, "
                         "the Raspberry Pi 7-inch display); off: no longer. Then exit")
    return ap.parse_args(argv)


def _size(text):
    from companion.window_size import parse_size

    try:
        return parse_size(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a size such as 800x480" % text) from None


def main(argv=None):
    from companion.transport import on_android

    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["flash"]:
        from companion.flashing.flash import main as flash

        return flash(argv[1:])
    args = None
    if not on_android():  # Android starts the app with no command line, and without pyserial
        args = parse(argv)
        if args.install_desktop or args.autostart:
            from companion import desktop

            return desktop.main(args.install_desktop, args.autostart)
        if args.port:
            from companion.transport import pyserial_backend

            pyserial_backend.NAMED_PORTS[:] = args.port
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if "ANDROID_ARGUMENT" not in os.environ:
        from companion import window_size
        from kivy.config import Config

        size, full = (args.size, args.fullscreen) if args is not None else (None, False)
        w, h, full = window_size.choose(size, full, None if size else window_size.display_size())
        Config.set("graphics", "width", str(w))
        Config.set("graphics", "height", str(h))
        Config.set("graphics", "fullscreen", "auto" if full else "0")
        from companion import storage

        Config.set("kivy", "log_dir", storage.log_dir())  # the system's per-user logs folder, not ~/.kivy
    from companion.app import run

    run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
