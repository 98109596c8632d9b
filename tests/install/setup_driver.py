"""Run by the installed app's own Python (python -I, from a folder that is not the checkout): the pairing screen's
Pico set-up (companion.pico_setup.PicoSetup, as pico_setup_view.py drives it, without a window) on one port or
BOOTSEL drive. The app's Clock is stood in for by a queue this script pumps, as Kivy's Clock would on its frames.

    python -I setup_driver.py PORT [start] [--drive DIR] [--new-port PATH_FILE]

Prints every change of the entry as a line "ENTRY {json}"; with `start`, starts what it is offered and runs until
it is done or failed. --drive: the entry is that BOOTSEL folder; PORT then is the port the Pico comes back as, listed
once the file PATH_FILE exists (the test starts the emulator after the copy and then creates it).
Standard library and the app only: nothing of the tests is importable here."""

import json
import os
import queue
import sys
import time

from serial.tools.list_ports_common import ListPortInfo

from companion.pico_setup import RPI_VID, PicoSetup

port = sys.argv[1]
go = "start" in sys.argv[2:]
drive = sys.argv[sys.argv.index("--drive") + 1] if "--drive" in sys.argv else None
appears = sys.argv[sys.argv.index("--new-port") + 1] if "--new-port" in sys.argv else None
DEADLINE = time.monotonic() + 600


def listed():
    if appears is not None and not os.path.exists(appears):
        return []
    info = ListPortInfo(port, skip_link_detection=True)
    info.vid, info.pid = RPI_VID, 0x0005
    return [info]


clock = queue.Queue()
setup = PicoSetup(clock.put, list_ports=listed, roots=[os.path.dirname(drive)] if drive else [])
key = drive or port
started = False


def show():
    print("ENTRY " + json.dumps(setup.entries.get(key)), flush=True)


setup.on_change = show
setup.look()
while time.monotonic() < DEADLINE:
    e = setup.entries.get(key)  # a BOOTSEL drive is offered by look() itself, a port once its probe is back
    if e is not None:
        if e["state"] == "offered" and go and not started:
            started = setup.start(key)
        elif e["state"] in ("done", "failed", "current", "refused") or (e["state"] == "offered" and not go):
            sys.exit(0)
    try:
        clock.get(timeout=1)()
    except queue.Empty:
        continue
print("ENTRY timeout", flush=True)
sys.exit(1)
