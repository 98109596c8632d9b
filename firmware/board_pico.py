# The real dashboard: a Pico (or Pico 2), an SSD1306 on I2C, five buttons to GND, a turn LED, a piezo.
# Pin numbers come from firmware/pins.py (checked against hardware/pinout.md).
import asyncio
import os
import time

import framebuf
import machine
from micropython import const

from firmware import board as b
from firmware import pins
from firmware.buttons import Latch

BUTTON_PINS = (pins.BTN_UP, pins.BTN_DOWN, pins.BTN_OK, pins.BTN_CARD, pins.BTN_BACK)  # order of b.BUTTONS
_FALL = const(4)  # machine.Pin.IRQ_FALLING on the RP2040: pressed (pulled up, a press pulls to GND)
_RISE = const(8)  # machine.Pin.IRQ_RISING: released


# The panel's set-up, in one I2C write (control byte 0x00: commands follow), as micropython-lib's ssd1306 driver
# sends it for a 128x64 panel on its own charge pump: display off, horizontal addressing, start line 0, column 127
# on SEG0, 64 rows, COM scan from the bottom, no offset, COM pins 0x12, clock 0x80, precharge 0xF1, VCOM 0x30,
# contrast 0xFF, output from RAM, not inverted, internal IREF, charge pump on, display on. That driver is not
# loaded: the app only needs its set-up (it sends the framebuffer's changes itself, Board.send), and the module
# held 3 KB of a Pico's heap and 39 interned names, which tipped a linked dashboard's qstr pool into its next
# block (3.9 KB).
_PANEL_SETUP = const(b"\x00\xae\x20\x00\x40\xa1\xa8\x3f\xc8\xd3\x00\xda\x12\xd5\x80\xd9\xf1\xdb\x30\x81\xff\xa4\xa6"
                     b"\xad\x30\x8d\x14\xaf")


class Board:
    name = "pico"
    viewer = 0
    narrow = 1  # a rectangle of the framebuffer goes to the panel in one I2C write (display.py)
    poll_ms = 10  # while a button is held: long press and auto-repeat timing (idle, the pin interrupts wake the app)
    debounce_ms = 20  # longer than a switch bounces, shorter than a tap: see firmware/buttons.py
    # The save and its journal in a folder of their own: each save is a few commits to its folder's littlefs log,
    # and every file lookup in a folder reads its log. At the root they slowed every import of the boot (the code's
    # folders are found there): a mid-race power-on took 160 ms longer than a fresh one.
    state_path = "/data/state.json"

    def __init__(self):
        try:
            os.mkdir("/data")
            for name in ("/state.json", "/state.json.journal"):  # where an earlier firmware kept them
                try:
                    os.rename(name, "/data" + name)
                except OSError:
                    pass
        except OSError:
            pass  # already there
        self.latch = Latch()
        self.flag = asyncio.ThreadSafeFlag()  # set by the pin interrupts: the app's button task waits on it
        self._buttons = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in BUTTON_PINS]
        for i, pin in enumerate(self._buttons):
            self._watch(i, pin)
        self._led = machine.Pin(pins.LED, machine.Pin.OUT, value=0)
        self._piezo = machine.PWM(machine.Pin(pins.PIEZO), freq=2000, duty_u16=0)
        i2c = machine.I2C(pins.I2C_ID, sda=machine.Pin(pins.I2C_SDA), scl=machine.Pin(pins.I2C_SCL),
                          freq=pins.I2C_FREQ)
        self.i2c = i2c
        i2c.writeto(pins.OLED_ADDR, _PANEL_SETUP)  # no blank frame: the app's first frame covers the panel
        self.buf = bytearray(b.WIDTH * b.PAGES)
        self.fb = framebuf.FrameBuffer(self.buf, b.WIDTH, b.HEIGHT, framebuf.MONO_VLSB)
        mv = memoryview(self.buf)
        self.pages = [mv[p * b.WIDTH : (p + 1) * b.WIDTH] for p in range(b.PAGES)]
        # One I2C write of commands (control byte 0x00: all that follow are commands): the column window (0x21)
        # and the page window (0x22) of a rectangle; then one write of its data (control byte 0x40), page after
        # page, which the panel's horizontal addressing puts in that window.
        self._window = bytearray((0x00, 0x21, 0, 127, 0x22, 0, 7))
        self._data = [[b"\x40"] + [None] * (k + 1) for k in range(b.PAGES)]  # by page count - 1: reused

    def _watch(self, i, pin):
        latch = self.latch
        flag = self.flag

        def edge(p):
            # A hard interrupt: it runs at the edge, even in the middle of drawing or saving, and allocates
            # nothing. Both edges at once: they were latched while interrupts were off (a flash erase), and the
            # level now tells their order.
            f = p.irq().flags()
            now = time.ticks_ms()
            if f & (_FALL | _RISE) == _FALL | _RISE:
                up = p.value()
                latch.push(i, up, now)
                latch.push(i, not up, now)
            else:
                latch.push(i, f & _FALL, now)
            flag.set()

        pin.irq(edge, _FALL | _RISE, hard=True)

    def unique_id(self):
        return "".join("%02x" % x for x in machine.unique_id())

    def buttons(self):
        levels = 0
        for i, pin in enumerate(self._buttons):
            if not pin.value():  # pulled up: pressed reads 0
                levels |= 1 << i
        return levels

    def send(self, rects, n):
        """Put `n` rectangles of the framebuffer on the panel: rects[k] = [first page, last page, first cell, end
        cell] (a cell is 8 columns, a grid character). Two I2C writes each, the whole rectangle in one of them."""
        i2c = self.i2c
        addr = pins.OLED_ADDR
        window = self._window
        pages = self.pages
        for k in range(n):
            p0, p1, a, e = rects[k]
            window[2] = a * 8
            window[3] = e * 8 - 1
            window[5] = p0
            window[6] = p1
            i2c.writeto(addr, window)
            data = self._data[p1 - p0]
            for p in range(p0, p1 + 1):
                # A view of the span, garbage after the frame (a few per frame): kept, the views of every span
                # ever sent grew the heap through the race (a cache of them held KBs of a linked Pico's heap)
                data[1 + p - p0] = pages[p][a * 8 : e * 8]
            i2c.writevto(addr, data)

    def led(self, on):
        self._led.value(1 if on else 0)

    def tone(self, hz):
        if hz:
            self._piezo.freq(hz)
            self._piezo.duty_u16(32768)
        else:
            self._piezo.duty_u16(0)

    def emit(self, line):
        pass  # no viewer channel on the device: the screen is the screen

    async def serve(self, app):
        return

    async def wait_viewer(self, ms):
        return
