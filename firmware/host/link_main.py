# The dashboard link on its own: a real Car driven only by the tablet, kept on flash exactly as the dashboard keeps
# it (firmware/keeper.py: the same save file with its checksum, the same journal, the same fold rule, the same
# restore at boot). Tests and the bench run it on the unix port (`micropython firmware/host/link_main.py`):
#   F1_DASH_ID      the dashboard id (machine.unique_id() on a Pico)
#   F1_LINK_STORE   the save file (default link_state.json); the journal is that name + ".journal"
#   F1_LINK_STATE_HZ  push this many state frames a second (load testing; default 0)
#   F1_LINK_NOSAVE  1: keep nothing before the ack (bench only, to show what keeping costs; NOT safe)
#   F1_LINK_FOLD_LINES  fold the journal into a full save after this many commands (default 16; tests: often)
import os
import time

from shared_rules.f1 import car as f1car
from firmware.keeper import FOLD_LINES, Keeper
from firmware.ondemand.link import DashboardLink

LAPS = 5  # a fresh car's, when there is no save


def _env(name, default):
    try:
        return os.getenv(name) or default  # type: ignore[attr-defined]
    except AttributeError:
        return default


def main():
    hz = int(_env("F1_LINK_STATE_HZ", "0"))
    keeper = Keeper(_env("F1_LINK_STORE", "link_state.json"), int(_env("F1_LINK_FOLD_LINES", str(FOLD_LINES))))
    car = f1car.Car(LAPS)
    done, events, error = keeper.restore(car)
    if error:
        print("save damaged (%s): moved to %s.bad, the car reset" % (error, keeper.path))
    if keeper.replayed:
        keeper.save(car, done, events)  # the commands replayed from the journal, folded in before a fresh journal
    keeper.open_journal()

    def apply(name, args):
        f1car.apply_command(car, name, args)

    nosave = _env("F1_LINK_NOSAVE", "") == "1"
    link = DashboardLink(car.snapshot, apply, done=done, on_journal=None if nosave else keeper.journaled)
    if events:
        link.restore_events(events)
    period = 1000 // hz if hz else 0
    next_push = time.ticks_ms()
    while not link.eof:
        link.poll(5 if period or keeper.journal.count else 50)  # type: ignore[union-attr]
        if keeper.fold_due():
            keeper.save(car, link.done_ids(), link.pending_events())
        if period and time.ticks_diff(time.ticks_ms(), next_push) >= 0:
            next_push = time.ticks_add(next_push, period)
            link.state_changed()


main()
