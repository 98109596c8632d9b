# Sends only what changed on the SSD1306. The screens redraw the whole framebuffer (cheap, in C); this module
# works out which pages differ from what the panel shows and, on a board that can send part of a page
# (`board.narrow`: the Pico's I2C), which 8-column cells of them, and sends them as few rectangles as pay: at
# 400 kHz each byte costs 22.5 us (a whole frame 23 ms, one page 2.9 ms) and each rectangle about two cells'
# worth more (its window command and the start of its data write). A press on the speed dial changes a digit
# and a few words: some 300 bytes in one write instead of six full pages. Everything is compared in C through
# views made once, and the panel's copy is updated in place: no garbage per frame.
from micropython import const

from firmware import board as b

_CELLS = const(16)  # 8-column cells across the panel (board.WIDTH // 8; tests/firmware/test_seams.py)
_RECT_COST = const(2)  # what a rectangle costs beyond its data, in cells of one page (16 bytes of I2C)


class Display:
    def __init__(self, board):
        self.board = board
        self.fb = board.fb
        self.shown = []  # what the panel shows, page by page
        for _ in range(b.PAGES):
            self.shown.append(bytearray(b.WIDTH))
        self.cells = None  # the framebuffer's and the panel copy's cells, [page][cell] (narrow boards only)
        if board.narrow:
            self.cells = [[pg[c * 8 : c * 8 + 8] for c in range(_CELLS)] for pg in board.pages]
            self.shown_cells = [[memoryview(s)[c * 8 : c * 8 + 8] for c in range(_CELLS)] for s in self.shown]
        self.rects = [[0, 0, 0, 0] for _ in range(b.PAGES)]  # [first page, last page, first cell, end cell]
        self.force = 0xFF  # the panel's content is unknown at power-on

    def invalidate(self):
        """Send every page next time (a new viewer, or the panel was reset)."""
        self.force = 0xFF

    def flush(self):
        """Push what changed since the last flush; returns the bitmask of the pages it touched (0: nothing)."""
        pages = self.board.pages
        shown = self.shown
        cells = self.cells
        rects = self.rects
        force = self.force
        self.force = 0
        mask = 0
        n = 0
        for p in range(b.PAGES):
            if not force & (1 << p) and pages[p] == shown[p]:
                continue
            a, e = 0, _CELLS
            if cells is not None and not force & (1 << p):
                now, was = cells[p], self.shown_cells[p]
                while now[a] == was[a]:
                    a += 1
                while now[e - 1] == was[e - 1]:
                    e -= 1
            shown[p][:] = pages[p]
            mask |= 1 << p
            if n:  # grow the last rectangle down to this page if that sends less than a rectangle of its own
                r = rects[n - 1]
                lo = a if a < r[2] else r[2]
                hi = e if e > r[3] else r[3]
                if (p - r[0] + 1) * (hi - lo) <= (r[1] - r[0] + 1) * (r[3] - r[2]) + _RECT_COST + e - a:
                    r[1] = p
                    r[2] = lo
                    r[3] = hi
                    continue
            r = rects[n]
            r[0] = r[1] = p
            r[2] = a
            r[3] = e
            n += 1
        if n:
            self.board.send(rects, n)
        return mask
