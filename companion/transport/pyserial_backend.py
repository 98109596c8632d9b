"""Desktop backend: USB serial ports through pyserial, dashboards picked by their USB id, and any port named."""

import os

from companion.transport.base import READ_TIMEOUT_S, PortSource

PICO_VID = 0x2E8A  # Raspberry Pi
PICO_PID = 0x0005  # MicroPython's USB CDC on a Pico

# Ports named on the command line (`python -m companion --port PATH`, `make run PORT=...`): every scan of this
# app lists them too, whatever their USB id (a Pico behind another adapter, a Bluetooth serial port, a pty).
NAMED_PORTS = []
# Ports the app is setting up (companion/pico_setup.py: mpremote has them): the link leaves them alone meanwhile.
HELD = set()


def comports():
    # Imported when first used: on POSIX pyserial needs termios and fcntl, and a tablet where it cannot load
    # still starts (open_transport says why it lists no USB port).
    from serial.tools import list_ports

    return list_ports.comports()


def usable():
    """None if pyserial loads here, else why not."""
    try:
        import serial  # noqa: F401
        from serial.tools import list_ports  # noqa: F401
    except ImportError as e:
        return str(e)
    return None


class PyserialPorts(PortSource):
    """Ports whose USB id is a Pico running MicroPython, and the named ones; a port becomes a dashboard once it
    says hello.

    list_ports() returns objects with .device, .vid and .pid (serial.tools.list_ports.comports by default);
    ids lists the (vid, pid) pairs to accept; named: ports to list whatever their id (default NAMED_PORTS),
    each while it exists (a path on the disk, or a port pyserial lists, e.g. COM5).
    """

    def __init__(self, list_ports_fn=None, ids=((PICO_VID, PICO_PID),), named=None):
        self.list_ports = list_ports_fn or comports
        self.ids = tuple(ids)
        self.named = NAMED_PORTS if named is None else list(named)

    def scan(self):
        ports = [p for p in self.list_ports() if p.device not in HELD]
        found = {p.device: getattr(p, "description", "") for p in ports if (p.vid, p.pid) in self.ids}
        listed = {p.device for p in ports}
        seen = {os.path.realpath(d) for d in found}  # a named symlink to a port already found is that port
        for name in self.named:
            if name not in HELD and (name in listed or os.path.exists(name)) and os.path.realpath(name) not in seen:
                found[name] = "named port"
                seen.add(os.path.realpath(name))
        return found

    def open(self, key):
        import serial

        port = serial.Serial()
        port.port = key
        port.baudrate = 115200  # ignored by USB CDC, needed by real UARTs
        port.timeout = READ_TIMEOUT_S
        port.write_timeout = 0.5  # a dashboard that stops reading must not hold its port's thread for long
        port.dtr = True  # the Pico sends nothing until the host asserts DTR
        port.open()
        return port
