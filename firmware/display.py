# Sends only the changed SSD1306 pages. A full frame is ~23 ms of I2C at 400 kHz, one page ~3 ms: the
# screens redraw the whole framebuffer (cheap, in C), and this module works out which pages differ from
# what the panel already shows. Buffers and page views are made once: no garbage per frame.
from firmware import board as b


class Display:
    def __init__(self, board):
        self.board = board
        self.fb = board.fb
        self.shadow = bytearray(len(board.buf))  # what the panel shows now
        cur = memoryview(board.buf)
        old = memoryview(self.shadow)
        w = b.WIDTH
        self._cur = [cur[p * w : (p + 1) * w] for p in range(b.PAGES)]
        self._old = [old[p * w : (p + 1) * w] for p in range(b.PAGES)]
        self.frames = 0
        self.pages_sent = 0
        self._force = 0xFF  # the panel's content is unknown at power-on

    def invalidate(self):
        """Send every page next time (a new viewer, or the panel was reset)."""
        self._force = 0xFF

    def flush(self):
        """Push the pages that changed since the last flush; returns their bitmask (0: nothing to send)."""
        mask = self._force
        self._force = 0
        for p in range(b.PAGES):
            if self._cur[p] != self._old[p]:
                mask |= 1 << p
        if mask:
            for p in range(b.PAGES):
                if mask & (1 << p):
                    self._old[p][:] = self._cur[p]
                    self.pages_sent += 1
            self.frames += 1
            self.board.send_pages(mask)
        return mask
