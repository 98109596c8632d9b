# The bench check of a finished dashboard (hold BACK while plugging it in): every pixel lit, then the LED
# and the piezo, then each button's name as it is pressed. All five seen: "ALL BUTTONS OK"; BACK held
# for a second leaves the test for the dashboard itself (run_then).
import asyncio
import time

from firmware import board as b
from firmware.buttons import LONG, PRESS, Buttons
from firmware.display import Display
from firmware.screens import line


class SelfTest:
    def __init__(self, board):
        self.board = board
        self.display = Display(board)
        self.seen = 0
        self.last = ""
        self.done = asyncio.Event()
        self.touched = 0
        self.lit = 1
        self.buttons = Buttons(len(b.BUTTONS), self._on_button, debounce_ms=board.debounce_ms,
                               long_mask=1 << b.BACK)
        self.buttons.ignore_held(board.buttons())  # the BACK still held from power-on is not a press

    def _on_button(self, key, event):
        if event == PRESS:
            self.seen |= 1 << key
            self.last = b.BUTTONS[key]
            self.touched = 1
            asyncio.create_task(self._beep(880 + 110 * key, 60))
        elif event == LONG and key == b.BACK and self.seen:
            self.done.set()

    async def _beep(self, hz, ms):
        self.board.tone(hz)
        await asyncio.sleep_ms(ms)
        self.board.tone(0)

    def scan_buttons(self):
        self.buttons.update(self.board.buttons(), time.ticks_ms(), self.board.latch)
        if self.touched:
            self.refresh()

    async def saved(self):
        return  # the self-test saves nothing

    def resend(self):
        self.display.invalidate()
        if self.lit:
            self.display.flush()  # the light show is on screen: show it again as it is
        else:
            self.refresh()

    def refresh(self):
        self.touched = 0
        fb = self.display.fb
        fb.fill(0)
        line(fb, 0, "SELF TEST", 0, 1)
        line(fb, 2, "PRESSED: " + self.last)
        for i, name in enumerate(b.BUTTONS):
            line(fb, 3 + i // 3, name if self.seen & (1 << i) else "-" * len(name), (i % 3) * 5)
        if self.seen == (1 << len(b.BUTTONS)) - 1:
            line(fb, 6, "ALL BUTTONS OK")
        line(fb, 7, "HOLD BACK: EXIT")
        self.display.flush()
        if self.board.viewer:
            self.board.emit(b'S {"mode": "selftest", "seen": %d}\n' % self.seen)

    async def run(self):
        board = self.board
        await board.wait_viewer(3000)  # a virtual dashboard's viewer must see the show too
        self.display.fb.fill(1)  # every pixel: a dead column or row shows at once
        self.display.flush()
        board.led(1)
        await self._beep(2000, 200)
        await asyncio.sleep_ms(600)
        board.led(0)
        self.lit = 0
        self.refresh()
        while not self.done.is_set():
            self.scan_buttons()
            await asyncio.sleep_ms(board.poll_ms)


class _Router:
    """What the board's viewer channel drives: the self-test while it runs, then the app."""

    def __init__(self, target):
        self.target = target

    def scan_buttons(self):
        self.target.scan_buttons()

    async def saved(self):
        await self.target.saved()

    def resend(self):
        self.target.resend()


async def run_then(board, make_app):
    """The self-test, then the app (made by `make_app(board)` once the test is left), on one viewer channel."""
    test = SelfTest(board)
    router = _Router(test)
    asyncio.create_task(board.serve(router))
    await test.run()
    app = make_app(board)
    router.target = app  # type: ignore[assignment]
    await app.run()
