"""MicroPython onto a Pico held in BOOTSEL mode: its RPI-RP2 drive gets the official RP2040 UF2 shipped with the app.

A Pico plugged in with BOOTSEL held shows a USB drive (RPI-RP2) holding INFO_UF2.TXT, whose Board-ID names the chip's
boot ROM. Only an RP2040's drive (Board-ID: RPI-RP2) is written to: another board's (an RP2350, an Adafruit board)
is refused in words, its drive untouched. The UF2 (micropython/, PIN.json: version, SHA-256; MIT) is checked
against its pin, then copied whole, and the Pico restarts into MicroPython by itself: `formula1 flash` then puts
the dashboard on it.

    is_rp2040_drive(path)       (True, "") or (False, why in words)
    install_micropython(path)   copy the UF2 onto the drive; returns its SHA-256 (ValueError in words if refused)
"""

import hashlib
import json
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "micropython")
INFO = "INFO_UF2.TXT"
RP2040_BOARD = "RPI-RP2"
RP2040_FAMILY = 0xE48BFF56  # the UF2 family id of RP2040 images


def pin():
    with open(os.path.join(HERE, "PIN.json")) as f:
        return json.load(f)


def uf2_path():
    return os.path.join(HERE, pin()["file"])


def is_rp2040_drive(path):
    """Whether `path` is the drive of an RP2040 in BOOTSEL mode, and if not, why (words for the table)."""
    try:
        with open(os.path.join(path, INFO), encoding="ascii", errors="replace") as f:
            info = dict(line.split(":", 1) for line in f.read().splitlines() if ":" in line)
    except OSError:
        return False, "%s is not a Pico in BOOTSEL mode (no %s on it)." % (path, INFO)
    board = info.get("Board-ID", "").strip()
    if board != RP2040_BOARD:
        return False, ("This drive belongs to another board (Board-ID %s), not a Raspberry Pi Pico (RP2040): "
                       "nothing was copied. Hold BOOTSEL on a Pico while plugging it in." % (board or "unknown"))
    return True, ""


def install_micropython(path):
    """Copy MicroPython's UF2 whole onto the RP2040 drive at `path`; returns the SHA-256 of what was written."""
    ok, why = is_rp2040_drive(path)
    if not ok:
        raise ValueError(why)
    with open(uf2_path(), "rb") as f:
        data = f.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != pin()["sha256"] or int.from_bytes(data[28:32], "little") != RP2040_FAMILY:
        raise ValueError("The MicroPython file shipped with the app is damaged: install the app again.")
    target = os.path.join(path, os.path.basename(uf2_path()))
    # One file, written in one go and flushed: the boot ROM takes the blocks as they come and restarts the Pico
    # once the last is in (a temp name and a rename mean nothing to it).
    with open(target, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return digest
