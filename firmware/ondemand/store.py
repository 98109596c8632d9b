# The saved state: one small file, replaced atomically. Write a temp file, then rename it over the old one
# (rename is atomic on littlefs and POSIX), never delete first: a power cut at any instant leaves either the
# old file or the new one, whole. A checksum line after the state catches a damaged file; at power-on
# (firmware/restore.py) a damaged file is moved aside (kept for inspection, never overwritten) and the
# dashboard starts from defaults with a clear message.
#
# The file: "F1DASH2", the state as JSON, then the crc32 of that JSON in hex, a line each. The checksum comes
# last so that the state can be written as it is encoded: late in a race, with the tablet's last 64 command
# ids in it, the save is 2 KB, and a fragmented heap may have no free block that large (a dashboard with a
# tablet ran out of memory there, with 20 KB free).
import binascii
import io
import json
import os

MAGIC = b"F1DASH2"


class _Checksummed(io.IOBase):
    """A file that takes the crc32 of what goes through it. An IOBase, so that MicroPython's json.dump writes
    to it piece by piece (as CPython's does to any object with a write method)."""

    def __init__(self, f):
        self.f = f
        self.crc = 0

    def write(self, piece):
        try:
            self.crc = binascii.crc32(piece, self.crc)  # MicroPython: a str is a buffer of its UTF-8 bytes
        except TypeError:
            piece = piece.encode()  # CPython's json.dump writes str
            self.crc = binascii.crc32(piece, self.crc)
        return self.f.write(piece)


def steps(path, data):
    """save() as a generator, one step a next(): the state encoded and written; the file closed (littlefs programs
    what it buffered, and may erase a block first); the rename (littlefs commits its directory, and may erase).
    The caller handles the buttons between the steps (firmware/app.py): none of them changes what is written."""
    tmp = path + ".tmp"
    f = open(tmp, "wb")
    try:
        f.write(MAGIC + b"\n")
        out = _Checksummed(f)
        json.dump(data, out)
        f.write(b"\n%08x\n" % out.crc)
        yield
    finally:
        f.close()
    yield
    os.rename(tmp, path)


def save(path, data):
    """Atomically replace `path` with `data` (a JSON-able dict), encoded straight into the file."""
    for _ in steps(path, data):
        pass


def encode(data):
    """The bytes save() writes for `data` (tests and tools write saves with it)."""
    body = json.dumps(data).encode()
    return b"%s\n%s\n%08x\n" % (MAGIC, body, binascii.crc32(body))
