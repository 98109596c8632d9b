"""Android backend: USB host serial through usbserial4a (python-for-android recipe). Imported only on Android.

The first open of a dashboard asks the user for USB permission; until it is granted open() fails and the
transport simply tries again at the next scan.
"""

from usb4a import usb  # type: ignore[import-not-found]
from usbserial4a import serial4a  # type: ignore[import-not-found]

from companion.transport.base import READ_TIMEOUT_S, PortSource
from companion.transport.pyserial_backend import PICO_PID, PICO_VID


class AndroidPorts(PortSource):
    def __init__(self, ids=((PICO_VID, PICO_PID),)):
        self.ids = tuple(ids)

    def scan(self):
        out = {}
        for dev in usb.get_usb_device_list():
            if (dev.getVendorId(), dev.getProductId()) in self.ids:
                out[dev.getDeviceName()] = dev.getProductName() or ""
        return out

    def open(self, key):
        device = usb.get_usb_device(key)
        if not usb.has_usb_permission(device):
            usb.request_usb_permission(device)
            raise OSError("waiting for USB permission")
        port = serial4a.get_serial_port(key, 115200, 8, "N", 1, timeout=READ_TIMEOUT_S)
        port.dtr = True
        return port
