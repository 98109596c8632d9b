# The saved state: one small file, replaced atomically. Write a temp file, then rename it over the old one
# (rename is atomic on littlefs and POSIX), never delete first: a power cut at any instant leaves either the
# old file or the new one, whole. A checksum line in front catches a damaged file; at power-on
# (firmware/restore.py) a damaged file is moved aside (kept for inspection, never overwritten) and the
# dashboard starts from defaults with a clear message.
import binascii
import json
import os

MAGIC = b"F1DASH1"
# binascii.crc32 is unsigned on both runtimes (CPython 3, MicroPython): no masking needed.


def encode(data):
    body = json.dumps(data).encode()
    return b"%s %08x\n%s\n" % (MAGIC, binascii.crc32(body), body)


def save(path, data):
    """Atomically replace `path` with `data` (a JSON-able dict): the bytes encode() gives, written in pieces so
    that the save never holds two copies of itself in RAM (the largest allocation a dashboard makes)."""
    body = json.dumps(data)
    try:
        crc = binascii.crc32(body)  # MicroPython: a str is a buffer of its UTF-8 bytes, no encoded copy needed
    except TypeError:
        body = body.encode()  # CPython
        crc = binascii.crc32(body)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(b"%s %08x\n" % (MAGIC, crc))
        f.write(body)
        f.write(b"\n")
        f.flush()
    os.rename(tmp, path)
