"""Links to the dashboards: a Transport finds them, keeps their link status and carries commands and events.

    from companion.transport import open_transport
    t = open_transport()            # pyserial on desktops, usbserial4a on Android (imported only there)
    t.start()
    cid = t.send(dev, "deal", {"card": "SS"})   # queued until acknowledged, across reconnects
    note = t.events.get_nowait()    # on the UI thread (e.g. a Kivy Clock callback); see Transport
    t.stop()
"""

import os

from companion.transport.base import CONNECTED, LOST, SILENT, PortSource, Transport

__all__ = ["CONNECTED", "LOST", "SILENT", "PortSource", "Transport", "open_transport", "on_android"]


def on_android():
    return "ANDROID_ARGUMENT" in os.environ or "ANDROID_PRIVATE" in os.environ


def open_transport(timing=None):
    if on_android():
        from companion.transport.android import AndroidPorts  # needs usb4a/usbserial4a: Android only

        return Transport(AndroidPorts(), timing)
    from companion.transport.pyserial_backend import PyserialPorts

    return Transport(PyserialPorts(), timing)
