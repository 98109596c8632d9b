# The host stand-in board: the same firmware on the `micropython` unix port, a "virtual dashboard".
# Only what cannot exist here is replaced: five buttons, the OLED, the LED and the piezo. They reach the
# outside through a channel of their own, a unix stream socket whose path is $F1DASH_UI (the game link
# stays on stdin/stdout, exactly as on a Pico). The dashboard listens; one client at a time, a newer
# client replaces an older one: a line per message (P/R/T a button, Q, C; H, G, F, S, W, L, B, A back), specified
# in docs/protocol.md, section 14 (tests/link/test_protocol_doc.py checks every line kind is there).
# pyright: basic
import asyncio
import binascii
import gc
import os
import socket
import time

from micropython import const
import framebuf

from firmware import board as b
from firmware.buttons import Latch
from firmware.mpy_internals import readable

_ENV_UI = const("F1DASH_UI")  # path of the channel's unix socket
_ENV_STATE = const("F1DASH_STATE")  # path of the saved state file
_ENV_HELD = const("F1DASH_HELD")  # buttons held down at power-on, e.g. "BACK" (self-test)
_ENV_ID = const("F1_DASH_ID")  # the dashboard id, as firmware/ondemand/link.py reads it (a Pico: machine.unique_id())
_AF_UNIX = const(1)


def _button_bit(name):
    return 1 << b.BUTTONS.index(name) if name in b.BUTTONS else 0


_running = None  # the board of the app's run now: firmware/main.py makes a new one when it starts the app again


class Board:
    viewer = 1  # the viewer channel wants state lines too
    narrow = 0  # the viewer takes whole pages
    poll_ms = 5  # button scan period while one is held
    debounce_ms = 5
    state_path = os.getenv(_ENV_STATE) or "f1dash-state.json"  # read once, at import

    def __init__(self):
        global _running
        if _running is not None:
            _running.close()  # the run before ended in an error: its viewer sees the channel close
        _running = self
        self._listener = None
        # The viewer's button lines are this board's pin interrupts: each edge is latched, then the app is told
        # (as on a Pico, see firmware/buttons.py)
        self.latch = Latch()
        self.flag = asyncio.ThreadSafeFlag()
        self.buf = bytearray(b.WIDTH * b.PAGES)
        self.fb = framebuf.FrameBuffer(self.buf, b.WIDTH, b.HEIGHT, framebuf.MONO_VLSB)
        mv = memoryview(self.buf)
        self.pages = []
        for p in range(b.PAGES):
            self.pages.append(mv[p * b.WIDTH : (p + 1) * b.WIDTH])
        self.levels = 0  # bit i: BUTTONS[i] held down, as the viewer's lines left it
        for name in (os.getenv(_ENV_HELD) or "").split(","):
            self.levels |= _button_bit(name.strip())
        self._client = None
        self._frame = 0
        self._frame_us = 0  # when the last frame went out
        self._last_edge = time.ticks_ms()

    def buttons(self):
        return self.levels

    def send(self, rects, n):
        """The rectangles display.py found changed, as the whole pages they cover."""
        self.send_pages(b.page_mask(rects, n))

    def send_pages(self, mask):
        self._frame += 1
        self._frame_us = time.ticks_us()
        if self._client is None:
            return  # nobody to show it to: not even the hex text is made
        for p in range(b.PAGES):
            if mask & (1 << p):
                hexed = binascii.hexlify(self.pages[p])  # made before the line starts: no half line if memory runs out
                self.emit("G %d " % p)
                self.emit(hexed)  # not copied into a line of its own: one 256-byte block per page, not two
                self.emit("\n")
        self.emit("F %d\n" % self._frame)

    # The board's own lines are str: a MicroPython str is a buffer of its bytes, and a str constant costs a
    # quarter of a bytes one (an interned string instead of an object of its own).
    def led(self, on):
        self.emit("L %d\n" % (1 if on else 0))

    def tone(self, hz):
        self.emit("B %d\n" % hz)

    # --- the channel ---------------------------------------------------------------------------------------
    def emit(self, line):
        """Send one line (bytes or str) to the viewer, if there is one."""
        if self._client is not None:
            try:
                self._client.write(line)
            except OSError:
                self._drop()

    def _drop(self):
        if self._client is not None:
            try:
                self._client.close()
            except OSError:
                pass
        self._client = None

    def close(self):
        """Close the viewer channel, the client and the socket it connected to (nothing closes them otherwise)."""
        self._drop()
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    async def wait_viewer(self, ms):
        """Give a viewer up to `ms` to connect (the self-test's light show is for someone to see)."""
        while os.getenv(_ENV_UI) and self._client is None and ms > 0:
            await asyncio.sleep_ms(10)
            ms -= 10

    async def serve(self, app):
        """Accept viewer clients and feed their button lines to the app; returns at once without $F1DASH_UI."""
        path = os.getenv(_ENV_UI)
        if not path:
            return
        try:
            os.remove(path)  # a socket file left by a previous (killed) run
        except OSError:
            pass
        ls = socket.socket(_AF_UNIX, socket.SOCK_STREAM)
        # struct sockaddr_un on Linux: a native-endian 16-bit family, then the NUL-terminated path.
        ls.bind(("\x01\x00%s\x00" % path).encode())  # family 1 (_AF_UNIX), little-endian
        ls.listen(2)
        self._listener = ls
        while True:
            await readable(ls)
            conn, _ = ls.accept()
            self._drop()
            self._client = conn
            asyncio.create_task(self._read_client(conn, app))

    async def _read_client(self, conn, app):
        self.emit("H %s %d %d\n" % (os.getenv(_ENV_ID) or "host", b.WIDTH, b.HEIGHT))
        app.resend()
        handled = 0
        while self._client is conn:
            await readable(conn)
            try:
                line = conn.readline()
            except OSError:
                line = None
            if not line:
                if self._client is conn:
                    self._drop()
                return
            try:
                parts = line.decode().split()
            except UnicodeError:
                parts = []  # not ASCII: not a line of ours, nothing happens
            op = parts[0] if parts else ""
            bit = _button_bit(parts[1]) if len(parts) > 1 else 0
            us = -1
            if op == "C":
                gc.collect()
            if op == "Q" or op == "C":
                app.resend()
            elif bit:
                if op == "P" or op == "T":
                    us = await self._edge(bit, 1, app)
                if op == "R" or op == "T":  # a tap: the release follows the press
                    us = await self._edge(bit, 0, app)
            handled += 1
            self.emit("A %d %d\n" % (handled, us))

    async def _edge(self, bit, down, app):
        """Press or release one button and let the app take it; returns the time from the edge to the frame it
        drew, in us (-1: no frame). Then waits until the app has saved what it changed: the client's `A` line
        means the line is handled to the end, the save included (a test may cut the power after it)."""
        # Edges closer together than the debounce time would be ignored as contact bounce, as on the
        # real board: space them out so that every line of the client counts.
        wait = self.debounce_ms + 1 - time.ticks_diff(time.ticks_ms(), self._last_edge)
        if wait > 0:
            await asyncio.sleep_ms(wait)
        self.levels = self.levels | bit if down else self.levels & ~bit
        self._last_edge = now = time.ticks_ms()
        key = 0
        while not bit & (1 << key):
            key += 1
        self.latch.push(key, down, now)
        self.flag.set()
        frame = self._frame
        t0 = time.ticks_us()
        app.scan_buttons()
        # (the state frame to the link is written before the screen's frame)
        us = time.ticks_diff(self._frame_us, t0) if self._frame != frame else -1
        await app.saved()
        return us
