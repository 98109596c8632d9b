# A Pico W's seat over Wi-Fi: while USB does not link the dashboard (never plugged into the table, or unplugged: the
# USB link's tablet_present() is over, nothing heard for 3 s), and a network was stored at pairing
# (firmware/ondemand/wifi_conf.py), the seat's link is the Wi-Fi link (firmware/ondemand/wifi_link.py). The table
# speaking on USB takes the seat back (firmware/app.py, Tablet.listen). One link at a time, and the new one starts
# from what the old one held: its command ids and unacknowledged events, the same journal (link.py take_seat), so a move
# loses and doubles nothing.
# Only a board with a `network` module loads this (firmware/app.py, App.run).
import asyncio
import gc
import os
from time import ticks_diff, ticks_ms

from firmware.ondemand.link import take_seat
from firmware.ondemand.wifi_conf import WifiConf, load, path_beside

_IDLE_MS = 250  # how often it looks while USB holds the seat, or nothing is stored
_LINKED_MS = 10  # the socket read this often while linked or dialling (a command's ack waits at most this)
_AWAY_MS = 50  # joining, dialling, hearing beacons
_SIGNAL_MS = 2000  # the signal read again this often (a real radio's changes at every reading: no redraw for each)


def _beacon():
    """Where tables' beacons are heard: port 8766 of every address; on the unix port $F1_BEACON ("host:port",
    tests: loopback only)."""
    getenv = getattr(os, "getenv", None)  # the unix port's; a Pico has no environment
    spec = getenv("F1_BEACON") if getenv is not None else None
    if spec:
        host, port = spec.rsplit(":", 1)
        return host, int(port)
    return "0.0.0.0", 8766


class WifiSeat:
    """seat.step(tablet, keeper, report, apply) -> (ms until the next step, 1 if the screen's words changed)."""

    def __init__(self, state_path):
        self.conf = WifiConf(path_beside(state_path))  # its answer is the USB link's on_wifi: pairing sets it
        self.made = -1  # the settings (conf.changed) the Wi-Fi link was made with
        self.words = None  # what the screen says of the link (draw, over_wifi), read at most every _SIGNAL_MS
        self.state = None  # the link's state when they were read
        self.read_at = 0
        self.tablet = None  # the app's Tablet and Formula 1's screens (run): draw looks at them
        self.main_ui = None

    async def run(self, app):
        """The seat's task (firmware/app.py starts it on a board with a radio): a step, then what it changed shown."""
        self.tablet = app.tablet
        self.main_ui = app.f1
        tablet = app.tablet
        keeper = app.keeper
        while True:
            wait, words = self.step(tablet, keeper, app.report, app._apply)
            if words:
                app.refresh()  # the link's state or signal in words
            app.settle()
            await asyncio.sleep_ms(wait)

    def over_wifi(self, tablet):
        """The screen's words for the Wi-Fi link holding the seat (its signal, or why it has no table), else None."""
        link = tablet.link
        return self.words if link is not None and not link.usb else None

    def draw(self, fb, ui):
        """Over Formula 1's main screen (firmware/app.py Screen.draw), while the Wi-Fi link holds the seat: WI-FI where
        USB says TABLET, the signal under MPH once linked, else why it has no table in the footer's place (the player
        waits for the table; a refusal shown there keeps it)."""
        from firmware import screens
        from firmware import ui as f1

        words = self.over_wifi(self.tablet)
        if words is None or ui is not self.main_ui or f1._SCREENS[ui.mode] is not screens.main_screen:
            return
        line = screens.line
        RIGHT = screens.RIGHT
        COLS = screens.COLS

        fb.fill_rect(80, 8, 48, 8, 0)  # row 1's right: TABLET or SOLO
        line(fb, 1, "WI-FI", RIGHT)
        if len(words) <= 7:
            line(fb, 4, words, RIGHT)
        elif not ui.error:
            fb.fill_rect(0, 56, COLS * 8, 8, 0)
            line(fb, 7, words)

    def step(self, tablet, keeper, report, apply):
        link = tablet.link
        if link is None or link.usb or self.made != self.conf.changed:
            if link is not None and link.usb and link.tablet_present():
                return _IDLE_MS, 0  # plugged into the table: USB holds the seat
            if keeper.replayed:
                return _IDLE_MS, 0  # the journal's commands replayed at power-on are saved first (as for USB)
            conf = load(self.conf.path) if self.conf.ssid else None
            if conf is None:
                return _IDLE_MS, 0  # nothing stored: plug it into the table once
            self._make(tablet, keeper, report, apply, conf)
            link = tablet.link
        waiting = len(link.outbox)
        link.poll(0)
        if len(link.outbox) < waiting:
            keeper.dirty = 1  # an event acknowledged: saved without it (as the USB link's task does)
        changed = 0
        now = ticks_ms()
        if link.state != self.state or ticks_diff(now, self.read_at) >= _SIGNAL_MS:
            self.state = link.state
            self.read_at = now
            words = link.words()
            changed = words != self.words
            self.words = words
        return (_LINKED_MS if link.sock is not None or link.dialing is not None else _AWAY_MS), changed

    def _make(self, tablet, keeper, report, apply, conf):
        gc.collect()  # its code and buffers in a clean heap
        from firmware.ondemand.link import _device_id
        from firmware.ondemand.wifi_link import WifiLink

        bind, port = _beacon()
        self.made = self.conf.changed
        take_seat(tablet, keeper, lambda done: WifiLink(
            report, apply, conf["ssid"], conf["password"], None, 0, "/dashboard/%s/link" % conf["key"],
            _device_id(), done=done, on_journal=keeper.journaled, table_id=conf["table"], beacon_port=port,
            beacon_bind=bind, on_wifi=self.conf.answer_unplugged))
