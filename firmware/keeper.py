# What a dashboard keeps on flash, and when: the one save path of both runners (firmware/app.py on a Pico or the
# unix port, firmware/host/link_main.py for the link's tests and bench). At power-on the last full save is read and
# the tablet commands journaled since are replayed (firmware/restore.py); a tablet command is journaled, one line,
# before its ack (firmware/ondemand/journal.py); the full atomic save (firmware/ondemand/store.py: checksum, temp
# file, rename) folds the journal in: on a turn's end, after FOLD_LINES commands, or _FOLD_MS after the first of them.
# A command is journaled and acked whatever a save is doing: one that comes while a save is under way (its state
# taken, its steps waiting for a pause in play) goes into the journal after a line naming that save, and the fresh
# journal that follows the save keeps it (journal.py, restore.read_journal).
# The caller decides when a save runs and what runs between its steps (the app handles the buttons there).
import gc
import sys
import time

from micropython import const

_FOLD_MS = const(3000)  # journaled commands are folded into a full save at most this long after the first of them
FOLD_LINES = 16  # ...or once this many are journaled (keeps the journal and its replay at boot short)


class Keeper:
    """k = Keeper(path)
    k.restore(car)         power-on: the save and its journal put back into car; (done ids, events, error or None)
    k.open_journal()       before the first tablet command is journaled (the link's start; not while k.replayed)
    k.journaled(id, name, args)   a tablet command applied: one line on flash, before its ack
    k.dirty = 1            the car changed: a full save is due
    k.due()                a full save is due (the car changed, or the journal is due to be folded in)
    k.steps(car, done, events)   the full save, one step a next(); k.save(...) all at once
    k.saving, k.saves, k.gen     a save is under way; saves written since boot; the last save's generation
    """

    def __init__(self, path, fold_lines=FOLD_LINES):
        self.path = path
        self.fold_lines = fold_lines
        self.gen = 0  # the generation of the last full save (the journal names the one it follows)
        self.journal = None  # ondemand/journal.py's Journal: opened with the link (a standalone dashboard has none)
        self.dirty = 0
        self.saving = 0
        self.saves = 0
        self.fold_at = 0
        self.fold_now = 0
        self.replayed = 0  # commands replayed at power-on and not yet in a full save: the journal holds them

    def restore(self, car):
        """Power-on (firmware/restore.py): the save at self.path and its journal put back into `car`. Returns
        (done ids, unacknowledged events, what is wrong with the save or None); the journaled commands replayed
        are added to the done ids, and a save that folds them in is due. restore.py's code is imported for this
        once and then forgotten: it would be garbage for the rest of the race."""
        import firmware
        from firmware import restore

        try:
            self.gen, done, events, applied, error = restore.restore(self.path, car)
        finally:
            del sys.modules["firmware.restore"]
            del firmware.restore  # type: ignore[attr-defined]  # the package holds its submodules too
        for cid in applied:
            done.append([cid, ""])
        self.replayed = len(applied)
        if applied or not self.gen:
            self.dirty = 1  # folds them in (or, first boot, writes the first save)
        return done, events, error

    def open_journal(self):
        """A fresh journal following the last save, before any command can be journaled (an old one may end in a
        torn line: never append after one). Until now saves left it alone: one naming an older save is ignored.
        Not while it holds commands replayed at power-on (self.replayed): the save that folds them in comes first."""
        assert not self.replayed, "save first: the journal holds the commands replayed at power-on"
        from firmware.ondemand.journal import Journal

        self.journal = Journal(self.path + ".journal")
        self.journal.restart(self.gen)
        if self.saving:  # a save under way took its state without the commands to come: they follow it
            self.journal.saving(self.gen + 1)

    def journaled(self, cid, name, args):
        """A tablet command applied: its line appended (and on flash) before the ack. A turn's end folds the
        journal in at once, while the player waits for the others."""
        journal = self.journal
        assert journal is not None, "open_journal() first"
        journal.append(cid, name, args)
        if journal.count == 1:
            self.fold_at = time.ticks_add(time.ticks_ms(), _FOLD_MS)
        if journal.count >= self.fold_lines or (name == "turn" and not args.get("on")):
            self.fold_now = 1

    def fold_due(self):
        n = self.journal.count if self.journal is not None else 0
        return n and (self.fold_now or time.ticks_diff(time.ticks_ms(), self.fold_at) >= 0)

    def due(self):
        return self.dirty or self.fold_due()

    def steps(self, car, done, events):
        """The full atomic save, as a generator (call it right before its first next(): the done ids and events are
        taken at the call, the car and the dirty flag at the first next()). The state is written in steps (see
        store.steps: where littlefs may erase a block), then the journal restarted after the new save. A change
        made between the steps sets dirty again and is saved by the next save; a command journaled between them
        stays in the journal that follows the save (and is folded in by the next)."""
        data = {"car": car.snapshot(), "done": done, "ev": events, "gen": self.gen + 1}
        self.dirty = 0
        self.fold_now = 0
        self.saving = 1
        if self.journal is not None:
            self.journal.saving(self.gen + 1)
        if "firmware.ondemand.store" not in sys.modules:
            gc.collect()  # its code is placed in a clean heap, not among the boot's garbage (where, after a power
            # cut with commands journaled, it left the link no room to load in the unix port's 128 KB guard)
        from firmware.ondemand import store  # loaded by the first save, after the first frame (the boot is quicker)

        try:
            yield from store.steps(self.path, data)
            self.gen += 1
            self.replayed = 0
            if self.journal is not None:
                yield
                # a cut before this: the old journal, whose commands after the line naming this save are replayed
                self.journal.restart(self.gen)
                if self.journal.count:  # commands that came during the save: folded in by the next
                    self.fold_at = time.ticks_add(time.ticks_ms(), _FOLD_MS)
        finally:
            self.saving = 0
        self.saves += 1

    def save(self, car, done, events):
        for _ in self.steps(car, done, events):
            pass
