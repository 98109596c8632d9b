# Sends only what changed on the SSD1306. The screens redraw the whole framebuffer (cheap, in C); this module
# works out which pages differ from what the panel shows and, on a board that can send part of a page
# (`board.narrow`: the Pico's I2C), which 8-column cells of them, and sends them as few rectangles as pay: at
# 400 kHz each byte costs 22.5 us (a whole frame 23 ms, one page 2.9 ms) and each rectangle about two cells'
# worth more (its window command and the start of its data write). A press on the speed dial changes a digit
# and a few words: some 300 bytes in one write instead of six full pages. Everything is compared in C, and the
# panel's copy is updated in place.
from micropython import const

from firmware import board as b

_CELLS = const(16)  # 8-column cells across the panel (board.WIDTH // 8; tests/firmware/test_seams.py)
_RECT_COST = const(2)  # what a rectangle costs beyond its data, in cells of one page (16 bytes of I2C)


class Display:
    def __init__(self, board):
        self.board = board
        self.fb = board.fb
        self.shown = [memoryview(bytearray(b.WIDTH)) for _ in range(b.PAGES)]  # what the panel shows, page by page
        self.narrow = board.narrow
        self.rects = [[0, 0, 0, 0] for _ in range(b.PAGES)]  # [first page, last page, first cell, end cell]
        self.force = 0xFF  # the panel's content is unknown at power-on

    def invalidate(self):
        """Send every page next time (a new viewer, or the panel was reset)."""
        self.force = 0xFF

    def flush(self):
        """Push what changed since the last flush; returns the bitmask of the pages it touched (0: nothing)."""
        pages = self.board.pages
        shown = self.shown
        rects = self.rects
        force = self.force
        self.force = 0
        mask = 0
        n = 0
        for p in range(b.PAGES):
            if not force & (1 << p) and pages[p] == shown[p]:
                continue
            a, e = 0, _CELLS
            if self.narrow and not force & (1 << p):
                a, e = _changed_cells(pages[p], shown[p])
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


def _changed_cells(now, was):
    """The first changed cell of a page and the end of the change (now and was: views of a page that differs). The
    edge cells are tried first (a text from the left edge, or across the page: a message, found at once), then the
    rest by halving: whole prefixes, then suffixes, compared in C. The views are made per frame, a few dozen bytes
    of garbage: a view kept for every cell of both copies held 7 KB of a Pico's heap for good."""
    first = 0
    if now[:8] == was[:8]:
        lo, hi = 1, _CELLS - 1  # the first changed cell is in lo..hi
        while lo < hi:
            mid = (lo + hi) // 2
            end = (mid + 1) * 8
            if now[:end] == was[:end]:
                lo = mid + 1
            else:
                hi = mid
        first = lo
    last = _CELLS - 1
    if now[last * 8 :] != was[last * 8 :]:
        return first, _CELLS
    lo, hi = first + 1, last  # the end: the first cell from which both are the same to the page's end
    while lo < hi:
        mid = (lo + hi) // 2
        if now[mid * 8 :] == was[mid * 8 :]:
            hi = mid
        else:
            lo = mid + 1
    return first, lo
