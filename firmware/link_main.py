# The dashboard link on its own: a real Car driven only by the tablet. Each applied command is journaled (one
# line appended, firmware/journal.py) before its ack; the full atomic save folds the journal in now and then.
# Tests and the bench run it on the unix port (`micropython firmware/link_main.py`):
#   F1_DASH_ID      the dashboard id (machine.unique_id() on a Pico)
#   F1_LINK_STORE   the save file (default link_state.json); the journal is that name + ".journal"
#   F1_LINK_STATE_HZ  push this many state frames a second (load testing; default 0)
#   F1_LINK_NOSAVE  1: keep nothing before the ack (bench only, to show what keeping costs; NOT safe)
#   F1_LINK_FOLD_LINES  fold the journal into a full save after this many commands (default 16; tests: often)
import json
import os
import time

from shared_rules.f1 import car as f1car
from firmware.journal import Journal
from firmware.restore import read_journal, replay
from firmware.link import DashboardLink

FOLD_MS = 3000  # fold journaled commands into a full save at most this long after the first of them
FOLD_LINES = 16  # ...or once this many are journaled


def _env(name, default):
    try:
        return os.getenv(name) or default  # type: ignore[attr-defined]
    except AttributeError:
        return default


def load(path):
    """(car, done ids, save generation) from the save file, or a fresh car when there is none."""
    try:
        with open(path) as f:
            data = json.load(f)
        return f1car.Car.from_snapshot(data["car"]), data["done"], data.get("gen", 0)
    except OSError:
        return f1car.Car(laps=5), [], 0


def save(path, car, done, gen):
    # Temp file then rename: a crash at any moment leaves the old save or the new one, whole.
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps({"car": car.snapshot(), "done": done, "gen": gen}))
    os.rename(tmp, path)


class Keeper:
    """The save and its journal: what makes an acked command survive a restart."""

    def __init__(self, path, car, gen, fold_lines=FOLD_LINES):
        self.path = path
        self.fold_lines = fold_lines
        self.car = car
        self.gen = gen
        self.journal = Journal(path + ".journal")
        self.fold_at = 0

    def boot(self, done):
        """Re-apply the commands journaled since the save, before the link says hello with the state; returns
        the done ids, theirs included."""

        def apply(name, args):
            f1car.apply_command(self.car, name, args)

        applied = replay(read_journal(self.journal.path, self.gen), done, apply)
        done = list(done) + [[cid, ""] for cid in applied]
        if applied:
            self.fold(done)
        else:
            self.journal.restart(self.gen)
        return done

    def journaled(self, cid, name, args):
        self.journal.append(cid, name, args)
        if self.journal.count == 1:
            self.fold_at = time.ticks_add(time.ticks_ms(), FOLD_MS)

    def due(self):
        n = self.journal.count
        return n and (n >= self.fold_lines or time.ticks_diff(time.ticks_ms(), self.fold_at) >= 0)

    def fold(self, done):
        save(self.path, self.car, done, self.gen + 1)
        self.gen += 1
        self.journal.restart(self.gen)  # after the rename: a cut between leaves a journal of the old save


def main():
    path = _env("F1_LINK_STORE", "link_state.json")
    hz = int(_env("F1_LINK_STATE_HZ", "0"))
    car, done, gen = load(path)
    keeper = Keeper(path, car, gen, int(_env("F1_LINK_FOLD_LINES", str(FOLD_LINES))))

    def apply(name, args):
        f1car.apply_command(car, name, args)

    nosave = _env("F1_LINK_NOSAVE", "") == "1"
    done = keeper.boot(done)
    link = DashboardLink(car.snapshot, apply, done=done, on_journal=None if nosave else keeper.journaled)
    period = 1000 // hz if hz else 0
    next_push = time.ticks_ms()
    while not link.eof:
        link.poll(5 if period or keeper.journal.count else 50)
        if keeper.due():
            keeper.fold(link.done_ids())
        if period and time.ticks_diff(time.ticks_ms(), next_push) >= 0:
            next_push = time.ticks_add(next_push, period)
            link.state_changed()


main()
