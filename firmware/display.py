# Sends only the changed SSD1306 pages. A full frame is ~23 ms of I2C at 400 kHz, one page ~3 ms: the
# screens redraw the whole framebuffer (cheap, in C), and this module works out which pages differ from
# what the panel already shows. It compares the board's own page views with a copy of each page, in C:
# made once, so no garbage per frame.
from firmware import board as b


class Display:
    def __init__(self, board):
        self.board = board
        self.fb = board.fb
        self.shown = []  # what the panel shows, page by page
        for _ in range(b.PAGES):
            self.shown.append(bytearray(b.WIDTH))
        self.force = 0xFF  # the panel's content is unknown at power-on

    def invalidate(self):
        """Send every page next time (a new viewer, or the panel was reset)."""
        self.force = 0xFF

    def flush(self):
        """Push the pages that changed since the last flush; returns their bitmask (0: nothing to send)."""
        mask = self.force
        self.force = 0
        pages = self.board.pages
        for p in range(b.PAGES):
            if mask & (1 << p) or pages[p] != self.shown[p]:
                self.shown[p][:] = pages[p]
                mask |= 1 << p
        if mask:
            self.board.send_pages(mask)
        return mask
