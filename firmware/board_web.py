# The phone's board: the same firmware in the phone's browser, on MicroPython's WebAssembly port (what that port
# lacks is filled by firmware/webport.py, before this loads). The page (companion/phones/static/seat.js) is the
# hardware, reached through its JS module `dashpage`:
#   buttons    five on the page; each press and release is an edge, latched and flagged as a Pico's pin
#              interrupt does (firmware/buttons.py)
#   OLED       a canvas at a whole-number scale: each frame goes to it in one call, the buffer as hex (made by
#              bytearray.hex(), in C: the port's binascii is pure Python) and the mask of the pages that changed
#   LED, piezo a light on the page; a short tone (Web Audio) or a vibration where the phone has one
#   storage    /data, in the port's in-memory filesystem, copied whole into the browser's storage (one
#              localStorage item per seat, written in one step) after each save and before ANY byte goes out on
#              the link: an ack never leaves before its journal line is stored, as on a Pico's flash
#   the link   stdin and stdout: the seat's WebSocket carries the bytes a Pico's USB serial line would
import asyncio
import os
import time

import dashpage  # type: ignore[import-not-found]  # registered by the seat page
import framebuf

from firmware import board as b
from firmware.buttons import Latch


class Board:
    name = "web"
    viewer = 0  # no viewer channel: the page's canvas is the screen
    narrow = 0  # the canvas takes whole pages (a page of hex is cheap; cells would only cost calls)
    poll_ms = 10  # while a button is held: long press and auto-repeat timing
    debounce_ms = 5  # a touch screen does not bounce; the page sends each edge once
    state_path = "/data/state.json"

    def __init__(self):
        try:
            os.mkdir("/data")
        except OSError:
            pass  # the page restored it from the browser's storage
        self.latch = Latch()
        self.flag = asyncio.ThreadSafeFlag()  # set by the page's button events
        self.buf = bytearray(b.WIDTH * b.PAGES)
        self.fb = framebuf.FrameBuffer(self.buf, b.WIDTH, b.HEIGHT, framebuf.MONO_VLSB)
        mv = memoryview(self.buf)
        self.pages = [mv[p * b.WIDTH : (p + 1) * b.WIDTH] for p in range(b.PAGES)]
        self.levels = 0  # bit i: BUTTONS[i] held down on the page
        dashpage.attach(self)  # the page calls edge(); a board made after an error replaces the one before

    def edge(self, key, down):
        """A button of the page went down or up (the page calls this between two steps of the loop)."""
        bit = 1 << key
        self.levels = self.levels | bit if down else self.levels & ~bit
        self.latch.push(key, down, time.ticks_ms())
        self.flag.set()

    def buttons(self):
        return self.levels

    def send(self, rects, n):
        # One call into the page per frame (each call costs more than the hex of the whole buffer); the page
        # redraws only the pages in the mask
        dashpage.frame(b.page_mask(rects, n), self.buf.hex())

    def led(self, on):
        dashpage.led(1 if on else 0)

    def tone(self, hz):
        dashpage.tone(hz)

    def emit(self, line):
        # The viewer channel's lines; with viewer = 0 the app sends only "W n" (save n is in place): store /data.
        dashpage.persist()

    async def serve(self, app):
        return  # the page's buttons come through latch and flag: nothing to serve

    async def wait_viewer(self, ms):
        return
