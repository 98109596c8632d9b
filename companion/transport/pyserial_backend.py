"""Desktop backend: USB serial ports through pyserial, dashboards picked by their USB id."""

import serial
from serial.tools import list_ports

from companion.transport.base import READ_TIMEOUT_S, PortSource

PICO_VID = 0x2E8A  # Raspberry Pi
PICO_PID = 0x0005  # MicroPython's USB CDC on a Pico


class PyserialPorts(PortSource):
    """Ports whose USB id is a Pico running MicroPython; a port becomes a dashboard once it says hello.

    list_ports() returns objects with .device, .vid and .pid (serial.tools.list_ports.comports by default);
    ids lists the (vid, pid) pairs to accept.
    """

    def __init__(self, list_ports_fn=None, ids=((PICO_VID, PICO_PID),)):
        self.list_ports = list_ports_fn or list_ports.comports
        self.ids = tuple(ids)

    def scan(self):
        ports = self.list_ports()
        return {p.device: getattr(p, "description", "") for p in ports if (p.vid, p.pid) in self.ids}

    def open(self, key):
        port = serial.Serial()
        port.port = key
        port.baudrate = 115200  # ignored by USB CDC, needed by real UARTs
        port.timeout = READ_TIMEOUT_S
        port.write_timeout = 0.5  # a dashboard that stops reading must not hold its port's thread for long
        port.dtr = True  # the Pico sends nothing until the host asserts DTR
        port.open()
        return port
