# The dashboard link on its own: a real Car driven only by the tablet, saved atomically after every applied
# command. Tests and the bench run it on the unix port (`micropython firmware/link_main.py`):
#   F1_DASH_ID      the dashboard id (machine.unique_id() on a Pico)
#   F1_LINK_STORE   the save file (default link_state.json)
#   F1_LINK_STATE_HZ  push this many state frames a second (load testing; default 0)
#   F1_LINK_NOSAVE  1: skip the save before the ack (bench only, to show what the save costs; NOT safe)
import json
import os
import time

from shared_rules.f1 import car as f1car
from firmware.link import DashboardLink


def _env(name, default):
    try:
        return os.getenv(name) or default  # type: ignore[attr-defined]
    except AttributeError:
        return default


def load(path):
    """(car, done ids) from the save file, or a fresh car when there is none."""
    try:
        with open(path) as f:
            data = json.load(f)
        return f1car.Car.from_snapshot(data["car"]), data["done"]
    except OSError:
        return f1car.Car(laps=5), []


def save(path, car, done):
    # Temp file then rename: a crash at any moment leaves the old save or the new one, whole.
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps({"car": car.snapshot(), "done": done}))
    os.rename(tmp, path)


def main():
    path = _env("F1_LINK_STORE", "link_state.json")
    hz = int(_env("F1_LINK_STATE_HZ", "0"))
    car, done = load(path)

    def apply(name, args):
        f1car.apply_command(car, name, args)

    def applied(ids):
        if not nosave:
            save(path, car, ids)

    nosave = _env("F1_LINK_NOSAVE", "") == "1"
    link = DashboardLink(car.snapshot, apply, on_applied=applied, done=done)
    period = 1000 // hz if hz else 0
    next_push = time.ticks_ms()
    while not link.eof:
        link.poll(5 if period else 50)
        if period and time.ticks_diff(time.ticks_ms(), next_push) >= 0:
            next_push = time.ticks_add(next_push, period)
            link.state_changed()


main()
