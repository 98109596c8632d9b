"""Text as a player sees it: the height of a label's capitals read from the window's drawn pixels, not from its
font_size (a face's capitals are about 0.7 of its size: 16 px text draws 11 px capitals).

Runs inside the app's process (tests/companion/appdriver.py). The window's last frame is read once
(`Frame()`), then each label is measured in it: the label's text as drawn (its texture's place on the window),
each line of ink apart; a line's capital height is from its top ink to its baseline (the lowest row that
still holds a good part of a middle row's ink: descenders and commas hold little)."""

import math


class Frame:
    """The window's last frame, RGB by window pixel (origin bottom left, as Kivy places widgets)."""

    def __init__(self):
        from kivy.core.window import Window
        from kivy.graphics import opengl

        self.w, self.h = (int(v) for v in Window.size)
        self.rgba = opengl.glReadPixels(0, 0, self.w, self.h, opengl.GL_RGBA, opengl.GL_UNSIGNED_BYTE)

    def pixel(self, x, y):
        i = (y * self.w + x) * 4
        return self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]

    def ink_rows(self, x0, y0, x1, y1):
        """Rows of the box (top row first), each a count of its ink pixels: those far from the box's commonest
        colour (the background), more than half as far as the farthest pixel of the box."""
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(self.w, int(math.ceil(x1))), min(self.h, int(math.ceil(y1)))
        if x1 - x0 < 1 or y1 - y0 < 1:
            return []
        seen = {}
        box = [[self.pixel(x, y) for x in range(x0, x1)] for y in range(y1 - 1, y0 - 1, -1)]
        for row in box:
            for p in row:
                seen[p] = seen.get(p, 0) + 1
        bg = max(seen, key=lambda p: seen[p])

        def far(p):
            return sum(abs(a - b) for a, b in zip(p, bg, strict=True))

        most = max(far(p) for p in seen)
        if most < 60:  # nothing drawn on it
            return []
        mask = [[far(p) > most / 2 for p in row] for row in box]
        # a frame's edges (a colour box's rings, a panel's border) are lines through the whole box, not glyphs
        cols = [x for x in range(x1 - x0) if sum(row[x] for row in mask) < 0.8 * len(mask)]
        counts = [sum(row[x] for x in cols) for row in mask]
        return [c if c < 0.9 * len(cols) else 0 for c in counts]


def line_heights(rows):
    """The capital height of each line of ink in `rows` (top first): lines are runs of rows with ink."""
    lines, run = [], []
    for count in rows + [0]:
        if count:
            run.append(count)
        elif run:
            lines.append(run)
            run = []
    heights = []
    for run in lines:
        body = sorted(run)[len(run) // 2]  # the median row's ink: a glyph's stem, or a sentence's letters
        base = max(i for i, c in enumerate(run) if c >= 0.35 * body)
        heights.append(base + 1)
    return heights


def text_box(label):
    """Where `label`'s text is drawn on the window: its texture's rectangle (a label draws it centred on
    itself), clipped to the label; an icon drawn before the words (companion/widgets.py's Iconic) left out."""
    tw, th = label.texture_size
    x = int(label.center_x - tw / 2.0)
    y = int(label.center_y - th / 2.0)
    x0, y0 = max(x, label.x), max(y, label.y)
    x1, y1 = min(x + tw, label.right), min(y + th, label.top)
    icon = getattr(label, "icon_texture", None)
    if icon is not None and label.text:
        x0 = max(x0, label.icon_x + icon.width + 1)
    wx0, wy0 = label.to_window(x0, y0)
    wx1, wy1 = label.to_window(x1, y1)
    return wx0, wy0, wx1, wy1


def caps(frame, label):
    """The capital height of each line of `label`'s text as drawn, in window pixels (top line first)."""
    label.texture_update()
    return line_heights(frame.ink_rows(*text_box(label)))
