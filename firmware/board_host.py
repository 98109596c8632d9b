# The host stand-in board: the same firmware on the `micropython` unix port, a "virtual dashboard".
# Only what cannot exist here is replaced: five buttons, the OLED, the LED and the piezo. They reach the
# outside through a channel of their own, a unix stream socket whose path is $F1DASH_UI (the game link
# stays on stdin/stdout, exactly as on a Pico). The dashboard listens; one client at a time, a newer
# client replaces an older one. Protocol, one ASCII line per message (see firmware/README.md):
#   client -> dashboard:  P <BTN>  press and hold    R <BTN>  release    T <BTN>  tap (press, release)
#                         Q        resend the whole screen and state
#   dashboard -> client:  H <id> 128 64     hello, on connect
#                         G <page> <hex>    one 128-byte SSD1306 page (MONO_VLSB), for each changed page
#                         F <n>             end of frame n
#                         S <json>          the dashboard state after a change
#                         W <n>             save n is on disk (renamed into place)
#                         L <0|1>  B <hz>   turn LED, piezo tone (0 = off)
#                         A <n> <us>        client line n (counting from 1) fully handled, screen included;
#                                           us: its last button edge to the frame it drew (-1: none)
# pyright: basic
import asyncio
import binascii
import os
import socket
import time

from micropython import const
import framebuf

from firmware import board as b

_ENV_UI = const("F1DASH_UI")  # path of the channel's unix socket
_ENV_STATE = const("F1DASH_STATE")  # path of the saved state file
_ENV_HELD = const("F1DASH_HELD")  # buttons held down at power-on, e.g. "BACK" (self-test)
_ENV_ID = const("F1_DASH_ID")  # the dashboard id, as firmware/link.py reads it (a Pico: machine.unique_id())
_AF_UNIX = const(1)


def _sockaddr(path):
    # struct sockaddr_un on Linux: a native-endian 16-bit family, then the NUL-terminated path.
    return bytes((_AF_UNIX, 0)) + path.encode() + b"\x00"


def _button_bit(name):
    try:
        return 1 << b.BUTTONS.index(name)
    except ValueError:
        return 0


async def _readable(s):
    # Park this task until the socket has something to read (how asyncio's own streams wait).
    yield asyncio.core._io_queue.queue_read(s)  # type: ignore


class Board:
    name = "host"
    viewer = 1  # the viewer channel wants state lines too
    poll_ms = 5  # button scan period
    debounce_ms = 5

    def __init__(self):
        self.buf = bytearray(b.WIDTH * b.PAGES)
        self.fb = framebuf.FrameBuffer(self.buf, b.WIDTH, b.HEIGHT, framebuf.MONO_VLSB)
        mv = memoryview(self.buf)
        self._pages = [mv[p * b.WIDTH : (p + 1) * b.WIDTH] for p in range(b.PAGES)]
        self.state_path = os.getenv(_ENV_STATE) or "f1dash-state.json"
        self._levels = 0
        for name in (os.getenv(_ENV_HELD) or "").split(","):
            self._levels |= _button_bit(name.strip())
        self._path = os.getenv(_ENV_UI)
        self._client = None
        self._frame = 0
        self._handled = 0
        self._last_edge = time.ticks_ms()
        self._frame_us = 0
        self._press_us = -1
        self._led = 0
        self._tone = 0

    def unique_id(self):
        return os.getenv(_ENV_ID) or "host"

    # --- buttons -------------------------------------------------------------------------------------
    def buttons(self):
        """Bit i set while BUTTONS[i] is held down."""
        return self._levels

    # --- screen ----------------------------------------------------------------------------------------
    def send_pages(self, mask):
        self._frame += 1
        self._frame_us = time.ticks_us()
        if self._client is None:
            return
        for p in range(b.PAGES):
            if mask & (1 << p):
                self._send(b"G %d %s\n" % (p, binascii.hexlify(self._pages[p])))
        self._send(b"F %d\n" % self._frame)

    def contrast(self, level):
        pass

    # --- LED and piezo -----------------------------------------------------------------------------------
    def led(self, on):
        self._led = 1 if on else 0
        self.emit(b"L %d\n" % self._led)

    def tone(self, hz):
        self._tone = hz
        self.emit(b"B %d\n" % hz)

    # --- the channel ---------------------------------------------------------------------------------------
    def emit(self, line):
        if self._client is not None:
            self._send(line)

    def _send(self, data):
        try:
            self._client.write(data)  # type: ignore
        except OSError:
            self._drop()

    def _drop(self):
        if self._client is not None:
            try:
                self._client.close()
            except OSError:
                pass
        self._client = None

    async def wait_viewer(self, ms):
        """Give a viewer up to `ms` to connect (the self-test's light show is for someone to see)."""
        while self._path and self._client is None and ms > 0:
            await asyncio.sleep_ms(10)
            ms -= 10

    async def serve(self, app):
        """Accept viewer clients and feed their button lines to the app; returns at once without $F1DASH_UI."""
        if not self._path:
            return
        try:
            os.remove(self._path)  # a socket file left by a previous (killed) run
        except OSError:
            pass
        ls = socket.socket(_AF_UNIX, socket.SOCK_STREAM)
        ls.bind(_sockaddr(self._path))
        ls.listen(2)
        while True:
            await _readable(ls)
            conn, _ = ls.accept()
            self._drop()
            self._client = conn
            self._handled = 0
            asyncio.create_task(self._read_client(conn, app))

    async def _read_client(self, conn, app):
        self._send(b"H %s %d %d\n" % (self.unique_id().encode(), b.WIDTH, b.HEIGHT))
        app.resend()
        while self._client is conn:
            await _readable(conn)
            try:
                line = conn.readline()
            except OSError:
                line = b""
            if not line:
                if self._client is conn:
                    self._drop()
                return
            self._press_us = -1
            await self._handle(line.strip(), app)
            self._handled += 1
            self.emit(b"A %d %d\n" % (self._handled, self._press_us))

    async def _handle(self, line, app):
        parts = line.split()
        if not parts:
            return
        op = parts[0]
        bit = _button_bit(parts[1].decode()) if len(parts) > 1 else 0
        if op == b"Q":
            app.resend()
        elif op == b"P" and bit:
            await self._set(bit, 1, app)
        elif op == b"R" and bit:
            await self._set(bit, 0, app)
        elif op == b"T" and bit:
            await self._set(bit, 1, app)
            await self._set(bit, 0, app)

    async def _set(self, bit, down, app):
        # Edges closer together than the debounce time would be ignored as contact bounce, as on the
        # real board: space them out so that every line of the client counts.
        wait = self.debounce_ms + 1 - time.ticks_diff(time.ticks_ms(), self._last_edge)
        if wait > 0:
            await asyncio.sleep_ms(wait)
        if down:
            self._levels |= bit
        else:
            self._levels &= ~bit
        self._last_edge = time.ticks_ms()
        frame = self._frame
        t0 = time.ticks_us()
        app.scan_buttons()
        # time from the button edge to its frame out (the state frame to the link is written before it)
        self._press_us = time.ticks_diff(self._frame_us, t0) if self._frame != frame else -1
