# The saved state: one small file, replaced atomically. Write a temp file, then rename it over the old one
# (rename is atomic on littlefs and POSIX), never delete first: a power cut at any instant leaves either the
# old file or the new one, whole. A checksum line in front catches a damaged file; a damaged file is moved
# aside (kept for inspection, never overwritten) and the dashboard starts from defaults with a clear message.
import binascii
import json
import os

MAGIC = b"F1DASH1"
# binascii.crc32 is unsigned on both runtimes (CPython 3, MicroPython): no masking needed.


class StoreError(Exception):
    pass


def encode(data):
    body = json.dumps(data).encode()
    return b"%s %08x\n%s\n" % (MAGIC, binascii.crc32(body), body)


def decode(raw):
    """The saved dict from a file's bytes; StoreError if it is not exactly what encode() wrote."""
    nl = raw.find(b"\n")
    head = raw[:nl].split()
    if nl < 1 or len(head) != 2 or head[0] != MAGIC:
        raise StoreError("not a dashboard save")
    body = raw[nl + 1 :].rstrip(b"\n")
    try:
        if int(head[1], 16) != binascii.crc32(body):
            raise ValueError("checksum mismatch")
        data = json.loads(body)
    except ValueError as e:  # also a checksum field that is not hex, or a checked text that is not JSON
        raise StoreError(e)
    if not isinstance(data, dict):
        raise StoreError("not an object")
    return data


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


def load(path):
    """(data, None) when a good save exists, (None, None) when there is none, (None, message) when the save is
    damaged: the damaged file is then renamed to `path + ".bad"` so that nothing is lost and the next save
    cannot overwrite it."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        return None, None
    try:
        return decode(raw), None
    except StoreError as e:
        try:
            os.rename(path, path + ".bad")
        except OSError:
            pass
        return None, "SAVE DAMAGED: %s" % e


def check(data, key, kind):
    """data[key] if it is of type `kind`, else StoreError (a save from another firmware version, say)."""
    v = data.get(key)
    if not isinstance(v, kind):
        raise StoreError("missing or bad %s" % key)
    return v
