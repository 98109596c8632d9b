"""Formula 5's race cards as the tablet draws them: a column is its cards overlapped left to right, first played
first, each keeping a strip in view ("overlapped, so that all race cards are always visible"); a card played
pit stop side up shows its back. Where they go comes from companion/f5/view.py (card_faces, card_layout); the
look is in companion/f5/f5.kv.

A card widget holds only the public face it shows (`entry`: the race card, or PIT_SIDE for a back), never a card
of a hand: the window tests walk the widget tree to check that."""

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget

from shared_rules.f5.cards import PIT_SIDE

from companion import theme
from companion.f5 import view as f5_view


class F5Card(Widget):
    """One card: its colour (`tone`), its letter in the corner (in `ink`, readable on the colour), its back if
    `back`, and a bar under it when it counts in the column's speed. `strip` is how much of it is in view."""

    tone = ListProperty([1, 1, 1, 1])
    ink = ListProperty([0, 0, 0, 1])
    letter = StringProperty("")
    back = BooleanProperty(False)
    counts = BooleanProperty(False)
    strip = NumericProperty(0)
    bar = NumericProperty(2)  # the height of the bar under it when it counts
    entry = NumericProperty(PIT_SIDE)  # the public face: a race card face up, or PIT_SIDE
    EDGE = 1.5  # its dark edge, px

    def __init__(self, **kw):
        super().__init__(**kw)
        self._draw_soon = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._draw_soon, size=self._draw_soon, tone=self._draw_soon, back=self._draw_soon,
                  counts=self._draw_soon, strip=self._draw_soon, bar=self._draw_soon)

    def _draw(self, *_):
        """Only what it shows is drawn (no transparent shapes): a column holds up to 13 cards, and on a renderer
        without a GPU (Mesa's llvmpipe: the tests, a Pi without its driver) each shape costs its own draw call."""
        x, y, w, h, e = self.x, self.y, self.width, self.height, self.EDGE
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*theme.BG)
            Rectangle(pos=(x, y), size=(w, h))
            Color(*self.tone)
            Rectangle(pos=(x + e, y + e), size=(max(0, w - 2 * e), max(0, h - 2 * e)))
            if self.back:  # a pit stop's back: three squares of a chequered flag
                Color(theme.INK[0], theme.INK[1], theme.INK[2], 0.55)
                for fx, fy in ((0.3, 0.55), (0.5, 0.43), (0.3, 0.31)):
                    Rectangle(pos=(x + w * fx, y + h * fy), size=(w * 0.2, h * 0.12))
            if self.counts:
                Color(*theme.INK)
                Rectangle(pos=(x + 2, y - self.bar), size=(max(2, self.strip - 4), max(1, self.bar - 1)))


class F5Column(RelativeLayout):
    """A column's cards: set `entries` (the engine's public column); the cards are laid out again when it or the
    box's size changes (relative to the column: a row sliding to a new place moves them without a new layout).
    `least_step` is the strip each card keeps in view (its letter's width)."""

    entries = ListProperty([])
    least_step = NumericProperty(16)
    DEAL_S = 0.35  # a card just played slides in from the right

    def __init__(self, **kw):
        super().__init__(**kw)
        self._laid = 0  # the cards laid out so far: one beyond them was just played, and slides in

    def on_entries(self, *_):
        self._lay_out()

    def on_size(self, *_):
        self._lay_out()

    def cards(self):
        return list(reversed(self.children))  # first played first

    def _lay_out(self):
        faces = f5_view.card_faces(self.entries)
        while len(self.children) < len(faces):
            self.add_widget(F5Card(), index=0)  # each new card over the ones before it
        while len(self.children) > len(faces):
            self.remove_widget(self.children[0])
        bar = max(2.0, self.height * 0.08)  # under each card that counts in the speed
        cw, ch, step = f5_view.card_layout(len(faces), self.width, self.height - bar, self.least_step)
        for k, (card, face, entry) in enumerate(zip(self.cards(), faces, self.entries, strict=True)):
            card.size = (cw, ch)
            card.bar = bar
            Animation.cancel_all(card, "x", "opacity")
            card.pos = (k * step, bar)
            card.opacity = 1
            if 0 < self._laid <= k:  # played since the last layout (not a column first shown, or resumed)
                card.x, card.opacity = k * step + cw, 0
                Animation(x=k * step, opacity=1, d=self.DEAL_S, t="out_quad").start(card)
            card.strip = cw if k == len(faces) - 1 else step
            card.entry = entry
            card.letter = face["letter"]
            card.counts = face["counts"]
            card.back = face["colour"] is None
            if card.back:
                card.tone, card.ink = list(theme.PANEL_HI), list(theme.INK)
            else:
                card.tone = list(theme.CAR_RGBA[face["colour"]])
                card.ink = list(theme.CAR_INK[face["colour"]])
        self._laid = len(faces)
