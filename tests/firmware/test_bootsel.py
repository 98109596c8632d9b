"""MicroPython onto a Pico in BOOTSEL mode: a folder laid out like its RPI-RP2 drive (INFO_UF2.TXT) receives the
official RP2040 UF2 shipped with the app, whole and byte-identical (hash checked against its pin); a drive that is
not an RP2040's is refused in words and left untouched."""

import hashlib
import os

import pytest

from companion.flashing import bootsel

RP2040_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
RP2350_INFO = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n"


def drive(tmp_path, info):
    d = tmp_path / "RPI-RP2"
    d.mkdir()
    (d / "INDEX.HTM").write_text("<html>redirect</html>")
    (d / bootsel.INFO).write_text(info)
    return d


def test_an_rp2040_drive_receives_the_uf2_whole(tmp_path):
    d = drive(tmp_path, RP2040_INFO)
    digest = bootsel.install_micropython(str(d))
    pin = bootsel.pin()
    written = (d / pin["file"]).read_bytes()
    assert hashlib.sha256(written).hexdigest() == digest == pin["sha256"]
    assert pin["version"] == "1.27.0" and pin["license"] == "MIT"
    with open(os.path.join(bootsel.HERE, "LICENSE-micropython.txt")) as f:
        assert "Permission is hereby granted, free of charge" in f.read()


def test_another_boards_drive_is_refused_and_untouched(tmp_path):
    d = drive(tmp_path, RP2350_INFO)
    before = sorted(os.listdir(d))
    with pytest.raises(ValueError, match="not a Raspberry Pi Pico"):
        bootsel.install_micropython(str(d))
    assert sorted(os.listdir(d)) == before


def test_a_drive_without_info_uf2_is_refused(tmp_path):
    (tmp_path / "USBSTICK").mkdir()
    with pytest.raises(ValueError, match="not a Pico in BOOTSEL mode"):
        bootsel.install_micropython(str(tmp_path / "USBSTICK"))
    assert os.listdir(tmp_path / "USBSTICK") == []


def test_formula1_flash_micropython_copies_it_and_says_what_next(tmp_path, capsys):
    from companion.flashing.flash import main

    d = drive(tmp_path, RP2040_INFO)
    assert main(["--micropython", str(d)]) == 0
    assert "formula1 flash" in capsys.readouterr().out
    assert hashlib.sha256((d / bootsel.pin()["file"]).read_bytes()).hexdigest() == bootsel.pin()["sha256"]
    other = tmp_path / "other"
    other.mkdir()
    (other / bootsel.INFO).write_text(RP2350_INFO)
    assert main(["--micropython", str(other)]) == 2
    assert "not a Raspberry Pi Pico" in capsys.readouterr().err
