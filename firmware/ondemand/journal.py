# The command journal: what makes a tablet command safe to acknowledge without rewriting the whole save.
#
# Before the ack, ONE line is appended for the applied command: its id, name and args, with a crc32 of its own,
# so a line torn by a power cut is detected and skipped (its command was never acked: the tablet resends it).
# At boot (firmware/restore.py): load the last full save, then re-apply, in order and through the same
# apply_command, the journaled commands whose ids are not in the save's done ids. The full atomic save
# (store.py) happens rarely and folds the journal in: once the new save is renamed into place, a fresh journal
# replaces the old one (temp file, then rename). The first line of a journal names the save generation it
# follows, so a journal left over from an older save (a crash between the two renames, or a save lost or set
# aside) is never replayed onto another.
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
    j.restart(gen)           a fresh, empty journal following save `gen` (call after that save is in place)
    j.count                  lines appended since the last restart
    """

    def __init__(self, path):
        self.path = path
        self.f = None
        self.count = 0

    def append(self, cid, name, args):
        if self.f is None:
            self.f = open(self.path, "ab")
        self.f.write(line(cid, name, args))
        if _FLUSH:
            self.f.flush()  # littlefs: flush is a sync, the line is on flash once this returns
        self.count += 1

    def restart(self, gen):
        self.close()
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(line(MAGIC, gen))
            f.flush()
        os.rename(tmp, self.path)  # never delete first: a cut before this leaves the old journal, still valid
        self.count = 0

    def close(self):
        if self.f is not None:
            self.f.close()
            self.f = None
