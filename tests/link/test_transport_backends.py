"""Choosing the backend: pyserial on desktops; usbserial4a only on Android, and only imported there."""

import os
import subprocess
import sys
import types

from companion.transport.pyserial_backend import PICO_PID, PICO_VID, PyserialPorts
from tests.mpy import ROOT


def test_desktop_gets_pyserial_and_never_imports_the_android_modules():
    code = ("import sys; from companion.transport import open_transport; t = open_transport(); "
            "print(type(t.source).__name__, 'usb4a' in sys.modules, 'usbserial4a' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.split() == ["PyserialPorts", "False", "False"], out.stderr


def test_pyserial_backend_lists_only_picos_running_micropython():
    ports = [types.SimpleNamespace(device="/dev/ttyACM0", vid=PICO_VID, pid=PICO_PID, description="Board"),
             types.SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001, description="FTDI"),
             types.SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None, description="n/a")]
    assert PyserialPorts(lambda: ports).scan() == {"/dev/ttyACM0": "Board"}


def test_a_named_port_is_scanned_whatever_its_usb_id_while_it_exists(tmp_path):
    pico = types.SimpleNamespace(device="/dev/ttyACM0", vid=PICO_VID, pid=PICO_PID, description="Board")
    bt = types.SimpleNamespace(device="/dev/rfcomm0", vid=None, pid=None, description="Bluetooth")
    link = tmp_path / "by-id-pico"
    link.symlink_to("/dev/ttyACM0")  # the Pico again, by another name: one port, opened once
    ports = PyserialPorts(lambda: [pico, bt], named=["/dev/rfcomm0", str(tmp_path / "unplugged"), str(link)])
    assert ports.scan() == {"/dev/ttyACM0": "Board", "/dev/rfcomm0": "named port"}
    (tmp_path / "unplugged").touch()  # plugged in: found at the next scan
    assert str(tmp_path / "unplugged") in ports.scan()


def test_python_m_companion_port_adds_to_the_scan_of_the_apps_transport(tmp_path):
    from companion import __main__ as app_main

    assert app_main.parse(["--port", "/dev/rfcomm0", "--port", "COM5"]).port == ["/dev/rfcomm0", "COM5"]
    assert app_main.parse([]).port == []
    # main() as `python -m companion --port PATH` runs it (the window left out: its own process, Kivy stays out
    # of this one), then the transport the app makes (open_transport; VirtualPorts is a PyserialPorts too)
    code = ("import sys, types; sys.modules['companion.app'] = types.SimpleNamespace(run=lambda: None); "
            "from companion.__main__ import main; main(['--port', sys.argv[1]]); "
            "from companion.transport import open_transport; print(sorted(open_transport().source.scan()))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy")))
    assert str(tmp_path) in out.stdout, out.stdout + out.stderr


class _AndroidDevice:
    def __init__(self, name, vid, pid):
        self.name, self.vid, self.pid = name, vid, pid

    def getDeviceName(self):  # noqa: N802 (the Java API's spelling)
        return self.name

    def getVendorId(self):  # noqa: N802
        return self.vid

    def getProductId(self):  # noqa: N802
        return self.pid

    def getProductName(self):  # noqa: N802
        return "Board in FS mode"


def test_android_backend_asks_for_usb_permission_then_opens_with_dtr(monkeypatch):
    # usb4a and usbserial4a exist only inside an Android build: these stand-ins copy their call signatures.
    devices = [_AndroidDevice("/dev/bus/usb/001/002", PICO_VID, PICO_PID),
               _AndroidDevice("/dev/bus/usb/001/003", 0x1A86, 0x7523)]
    granted = set()
    opened = []
    usb = types.SimpleNamespace(
        get_usb_device_list=lambda: devices,
        get_usb_device=lambda name: next(d for d in devices if d.name == name),
        has_usb_permission=lambda d: d.name in granted,
        request_usb_permission=lambda d: granted.add(d.name),
    )

    def get_serial_port(name, baud, bits, parity, stop, timeout=1):
        port = types.SimpleNamespace(name=name, dtr=False, timeout=timeout)
        opened.append(port)
        return port

    monkeypatch.setitem(sys.modules, "usb4a", types.SimpleNamespace(usb=usb))
    monkeypatch.setitem(sys.modules, "usbserial4a", types.SimpleNamespace(
        serial4a=types.SimpleNamespace(get_serial_port=get_serial_port)))
    monkeypatch.setenv("ANDROID_ARGUMENT", "/data/app")
    sys.modules.pop("companion.transport.android", None)
    from companion.transport import open_transport

    t = open_transport()
    assert type(t.source).__name__ == "AndroidPorts"
    assert t.source.scan() == {"/dev/bus/usb/001/002": "Board in FS mode"}
    try:
        t.source.open("/dev/bus/usb/001/002")
        raise AssertionError("opened without permission")
    except OSError:
        pass
    port = t.source.open("/dev/bus/usb/001/002")
    assert port.dtr is True and opened == [port]
    sys.modules.pop("companion.transport.android", None)
