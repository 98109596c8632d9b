# The command journal: what makes a tablet command safe to acknowledge without rewriting the whole save.
#
# Before the ack, ONE line is appended for the applied command: its id, name and args, with a crc32 of its own,
# so a line torn by a power cut is detected and skipped (its command was never acked: the tablet resends it).
# At boot (firmware/restore.py): load the last full save, then re-apply, in order and through the same
# apply_command, the journaled commands whose ids are not in the save's done ids. The full atomic save
# (store.py) happens rarely and folds the journal in: once the new save is renamed into place, a fresh journal
# replaces the old one (temp file, then rename). The first line of a journal names the save generation it
# follows, so a journal left over from an older save (a crash between the two renames, or a save lost or set
# aside) is never replayed onto another. A command may come while a full save is under way (its state already
# taken, its files not yet in place): before the first such line, one naming the save under way is appended (boot
# replays what follows the last line naming its save), and the fresh journal after that save keeps those lines.
# Portable: the same module on MicroPython (the dashboard) and CPython (tests, the tablet's tools).
import binascii
import json
import os
import sys


# flush() is where littlefs commits the appended line to flash (a Pico): it must return before the ack. On the
# MicroPython unix port a write is already a write(2) that a killed process (our power cut there) cannot lose,
# and flush() would only add an fsync() against the host machine's own crash, costing more than the whole ack.
# CPython buffers its files: it flushes.
_FLUSH = not (sys.implementation.name == "micropython" and sys.platform in ("linux", "darwin"))

MAGIC = "F1J1"  # the first line: [MAGIC, generation of the save it follows]


def line(*fields):
    """One journal line: the hex crc32 of the JSON array of `fields`, a space, that JSON."""
    body = json.dumps(fields).encode()
    return b"%08x %s\n" % (binascii.crc32(body), body)


class Journal:
    """j = Journal(path)
    j.append(id, name, args)  one command, flushed to the file before this returns (call before the ack)
    j.saving(gen)            save `gen` has taken its state: the lines appended from now on follow it
    j.restart(gen)           a fresh journal following save `gen` (call after that save is in place), holding the
                             lines appended since j.saving(gen)
    j.count                  lines in the journal since the last restart
    """

    def __init__(self, path):
        self.path = path
        self.f = None
        self.count = 0
        self.mark = None  # the generation of a save under way, named before the next line appended
        self.kept = None  # the lines appended since j.saving(): the journal after that save starts with them

    def saving(self, gen):
        self.mark = gen
        self.kept = []

    def append(self, cid, name, args):
        if self.f is None:
            self.f = open(self.path, "ab")
        entry = line(cid, name, args)
        if self.mark is not None:
            # The save under way is named first, in the same flush: at power-on, the save in place (this one or the
            # one before) tells which lines are not in it. A mark left by a save that failed names no save in place.
            self.f.write(line(MAGIC, self.mark))
            self.mark = None
        self.f.write(entry)
        if _FLUSH:
            self.f.flush()  # littlefs: flush is a sync, the line is on flash once this returns
        if self.kept is not None:
            self.kept.append(entry)
        self.count += 1

    def restart(self, gen):
        kept = self.kept or ()
        self.close()
        self.mark = gen  # should this fail, the next line appended names the save in place
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(line(MAGIC, gen))
            for entry in kept:
                f.write(entry)
            f.flush()
        os.rename(tmp, self.path)  # never delete first: a cut before this leaves the old journal, still valid
        self.mark = self.kept = None
        self.count = len(kept)

    def close(self):
        if self.f is not None:
            self.f.close()
            self.f = None
