"""The pairing screen's Pico set-up without a Pico (companion/pico_setup.py): only Raspberry Pi devices are touched,
what each board is offered, the drives of Picos in BOOTSEL where each system mounts them, and the wait for a Pico
to come back after MicroPython's copy, with a deadline, said in words. The installs themselves run on picosim from
the installed app: tests/install/test_pico_setup_installed.py."""

import hashlib
import os
import queue

from serial.tools.list_ports_common import ListPortInfo

from companion import pico_setup
from companion.flashing import bootsel
from companion.pico_setup import INSTALL, MICROPYTHON, RACE_KEPT, REPAIR, UPDATE, PicoSetup
from companion.transport import pyserial_backend
from tests.wait import until

RP2040_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
RP2350_INFO = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n"


def port(device, vid, pid=0x0005):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


def drive(root, name, info):
    path = os.path.join(str(root), name)
    os.makedirs(path)
    with open(os.path.join(path, bootsel.INFO), "w") as f:
        f.write(info)
    return path


def test_a_device_of_another_vendor_is_refused_in_words_and_never_probed(tmp_path):
    ftdi = port("/dev/ttyUSB0", 0x0403, 0x6001)  # a USB-serial adapter
    why = pico_setup.refused(ftdi)
    assert why == ("/dev/ttyUSB0 is not a Raspberry Pi device (USB vendor id 0403): the app leaves it alone. "
                   "A Pico says 2E8A.")
    assert pico_setup.refused(port("/dev/ttyACM0", 0x2E8A)) is None
    calls = []
    setup = PicoSetup(calls.append, list_ports=lambda: [ftdi, port("/dev/ttyS0", None)], roots=[str(tmp_path)])
    setup.look()
    assert setup.entries == {} and calls == [] and pyserial_backend.HELD == set()  # nothing probed, nothing held
    assert setup.refuse(ftdi) == why
    assert setup.entries["/dev/ttyUSB0"]["state"] == "refused" and setup.entries["/dev/ttyUSB0"]["kind"] is None
    assert setup.start("/dev/ttyUSB0") is False


def test_what_each_board_is_offered():
    bare = {"version": None, "files": False, "race": False}
    cut_short = {"version": None, "files": True, "race": True}
    assert pico_setup.offer(bare, "0.2.0") == INSTALL
    assert pico_setup.offer(cut_short, "0.2.0") == REPAIR
    assert pico_setup.offer({"version": "0.1.9", "files": True, "race": False}, "0.2.0") == UPDATE
    assert pico_setup.offer({"version": "0.2.0", "files": True, "race": False}, "0.2.0") is None
    assert pico_setup.offer({"version": "0.10.0", "files": True, "race": False}, "0.2.0") is None  # newer
    assert pico_setup.notice(cut_short) == RACE_KEPT == "The race in progress on this dashboard is kept."
    assert pico_setup.notice(bare) == ""


def test_bootsel_drives_are_found_where_linux_macos_and_windows_mount_them(tmp_path):
    linux = drive(tmp_path / "media" / "player", "RPI-RP2", RP2040_INFO)
    fedora = drive(tmp_path / "run" / "media" / "player", "RPI-RP2", RP2040_INFO)
    mac = drive(tmp_path / "Volumes", "RPI-RP2", RP2040_INFO)
    windows_e = drive(tmp_path, "E", RP2040_INFO)  # a drive letter is the drive itself: E:\INFO_UF2.TXT
    stick = tmp_path / "media" / "player" / "STICK"
    stick.mkdir()  # a USB stick: no INFO_UF2.TXT, not listed
    rp2350 = drive(tmp_path / "media" / "player", "RP2350", RP2350_INFO)
    roots = [str(tmp_path / "media" / "player"), str(tmp_path / "run" / "media" / "player"),
             str(tmp_path / "Volumes"), windows_e, str(tmp_path / "F"), str(tmp_path / "nowhere")]
    found = dict(pico_setup.bootsel_drives(roots))
    assert set(found) == {linux, fedora, mac, windows_e, rp2350}
    assert {p for p, why in found.items() if not why} == {linux, fedora, mac, windows_e}
    assert "another board (Board-ID RP2350)" in found[rp2350] and "nothing was copied" in found[rp2350]

    setup = PicoSetup(lambda fn: fn(), list_ports=list, roots=roots)
    setup.look()
    assert setup.entries[linux]["kind"] == MICROPYTHON and setup.entries[linux]["state"] == "offered"
    assert setup.entries[rp2350]["state"] == "refused" and setup.entries[rp2350]["kind"] is None
    assert setup.start(rp2350) is False
    assert os.listdir(rp2350) == [bootsel.INFO]  # untouched


def test_default_roots_follow_the_system(monkeypatch):
    monkeypatch.setenv("USER", "player")
    monkeypatch.setattr(pico_setup.sys, "platform", "linux")
    assert pico_setup.default_roots()[:2] == ["/media/player", "/run/media/player"]
    monkeypatch.setattr(pico_setup.sys, "platform", "darwin")
    assert pico_setup.default_roots() == ["/Volumes"]
    monkeypatch.setattr(pico_setup.sys, "platform", "win32")
    assert "E:\\" in pico_setup.default_roots() and "C:\\" not in pico_setup.default_roots()


def test_after_micropythons_copy_a_pico_that_never_comes_back_is_said_with_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setattr(pico_setup, "COMES_BACK_S", 0.5)
    rp2 = drive(tmp_path / "media" / "player", "RPI-RP2", RP2040_INFO)
    clock = queue.Queue()
    setup = PicoSetup(clock.put, list_ports=list, roots=[str(tmp_path / "media" / "player")])
    setup.look()
    assert setup.start(rp2)
    seen = []

    def ended():
        while not clock.empty():
            clock.get()()
            seen.append(dict(setup.entries[rp2]))
        return setup.entries[rp2]["state"] in ("done", "failed")

    until(ended, 60, "the BOOTSEL install to end")
    e = setup.entries[rp2]
    assert e["state"] == "failed" and e["kind"] == MICROPYTHON
    assert e["words"] == ('The Pico did not come back as a serial port in 0.5 s. Unplug it and plug it in again '
                          '(without BOOTSEL): it is then offered "Install the dashboard".')
    assert any("Waiting for the Pico to restart as a serial port (up to 0.5 s)" in s["words"] for s in seen), seen
    with open(os.path.join(rp2, os.path.basename(bootsel.uf2_path())), "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == bootsel.pin()["sha256"]  # copied whole first


def test_the_link_leaves_a_pico_alone_while_it_is_set_up():
    from companion.transport.pyserial_backend import PyserialPorts

    ports = PyserialPorts(lambda: [port("/dev/ttyACM0", 0x2E8A)], named=["/dev/ttyACM0"])
    assert list(ports.scan()) == ["/dev/ttyACM0"]
    pyserial_backend.HELD.add("/dev/ttyACM0")  # mpremote has it: neither listed by its id nor as a named port
    try:
        assert ports.scan() == {}
    finally:
        pyserial_backend.HELD.discard("/dev/ttyACM0")
    assert list(ports.scan()) == ["/dev/ttyACM0"]
