"""Links to the dashboards: a Transport finds them, keeps their link status and carries commands and events.

    from companion.transport import open_transport
    t = open_transport()            # pyserial on desktops, usbserial4a on Android (imported only there);
                                    # open_transport(None, link_ports): phones' link sockets too
    t.start()
    cid = t.send(dev, "deal", {"card": "SS"})   # queued until acknowledged, across reconnects
    note = t.events.get_nowait()    # on the UI thread (e.g. a Kivy Clock callback); see Transport
    t.stop()
"""

import logging
import os

from companion.transport.base import CONNECTED, LOST, SILENT, AllPorts, PortSource, Transport

log = logging.getLogger(__name__)

__all__ = ["CONNECTED", "LOST", "SILENT", "AllPorts", "NoPorts", "PortSource", "Transport", "on_android",
           "open_transport", "usb_ports"]


def on_android():
    return "ANDROID_ARGUMENT" in os.environ or "ANDROID_PRIVATE" in os.environ


def open_transport(timing=None, *more):
    """The tablet's transport over its USB serial ports and the sources in `more` (the phones' link sockets,
    companion/transport/websocket_backend.py)."""
    usb = usb_ports()
    return Transport(AllPorts(usb, *more) if more else usb, timing)


def usb_ports():
    """The USB serial ports: usbserial4a on Android, pyserial elsewhere, none where pyserial cannot load."""
    if on_android():
        from companion.transport.android import AndroidPorts  # needs usb4a/usbserial4a: Android only

        return AndroidPorts()
    from companion.transport.pyserial_backend import PyserialPorts, usable

    why = usable()
    if why is not None:
        log.warning("no USB serial port can be opened here (pyserial does not load: %s): phones only", why)
        return NoPorts()
    return PyserialPorts()


class NoPorts(PortSource):
    def scan(self):
        return {}

    def open(self, key):
        raise OSError("no port here")
