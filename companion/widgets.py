"""Kivy widgets both games' screens use: buttons, the OLED view, a virtual dashboard, a question, a saved game.

Formula 1's race widgets (dice, speed keys, gauges, car panel, charts) are in companion/f1/widgets.py.
Styles live in companion/theme.kv (sizes and colours from companion.theme)."""

from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, InstructionGroup, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.behaviors import ToggleButtonBehavior
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion import theme
from companion.virtual import BUTTONS

W, H = 128, 64
# byte -> its 8 pixels top to bottom, 0 or 255 (an SSD1306 page column)
_COLUMN = [bytes(255 if (b >> k) & 1 else 0 for k in range(8)) for b in range(256)]


def oled_rows(image):
    """SSD1306 pages (MONO_VLSB) -> 64 rows of 128 luminance bytes, top row first."""
    rows = []
    for p in range(H // 8):
        cols = b"".join(_COLUMN[b] for b in image[p * W : (p + 1) * W])
        rows.extend(cols[k::8] for k in range(8))  # stepped slices transpose a page in C
    return rows


# ---- a new texture for every new text ------------------------------------------------------------------------
# Kivy draws a label's new text into the texture it already has when the size is the same. Mesa's software
# renderer (llvmpipe: the offscreen window of the tests and benches, a Pi without its GPU driver) then waits for
# the drawing still queued from that texture before it writes, where a new texture does not wait: a tap on the
# race screen changes four labels and took 26-27 ms to reach the screen that way against 23 (companion_bench,
# each frame drawn whole). A GPU driver does not mind either way. Likewise the OLED view takes a new texture for
# each frame it shows.
_kivy_text_refresh = CoreLabel.refresh


def _refresh_into_a_new_texture(self):
    self.texture = None
    _kivy_text_refresh(self)


CoreLabel.refresh = _refresh_into_a_new_texture


def _oled_texture():
    texture = Texture.create(size=(W, H), colorfmt="luminance")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture


class OledView(Widget):
    """A virtual dashboard's OLED, drawn from its pages at the largest whole-number scale that fits (every
    firmware pixel is k x k screen pixels, none uneven), centred; redrawn only when its frame counter moves.

    `hidden`: the dashboard shows its tactic hand, a secret: a cover is drawn instead, and only a finger held
    on the screen (its player peeking) shows the pixels, until it is lifted."""

    frame = NumericProperty(-1)
    hidden = BooleanProperty(False)
    peeking = BooleanProperty(False)
    scale = NumericProperty(1)
    cover = StringProperty("Tactic cards hidden\nhold here to look")  # what the cover says (each game's words)

    def __init__(self, **kw):
        super().__init__(**kw)
        self.seen_image = None  # the last image its player looked at (held a finger on it)
        self.shown_image = bytes(W * H // 8)
        self.texture = _oled_texture()
        with self.canvas:
            self.ink = Color(*theme.OLED_ON)
            self.rect = Rectangle(texture=self.texture)
        self.bind(pos=self._place, size=self._place, hidden=self._place, peeking=self._place)
        self._place()

    def _place(self, *_):
        k = max(1, int(min(self.width / W, self.height / H)))
        self.scale = k
        x = int(self.center_x - W * k / 2)
        y = int(self.center_y - H * k / 2)
        self.rect.pos = (x, y)
        self.rect.size = (W * k, H * k) if self.shown() else (0, 0)

    def shown(self):
        return not self.hidden or self.peeking

    def show(self, image, frame):
        if frame == self.frame:
            return 0
        self.frame = frame
        self.shown_image = bytes(image)  # what the texture holds (tests compare it with the drawn pixels)
        data = b"".join(reversed(oled_rows(image)))  # a texture's first row is the bottom one
        self.texture = _oled_texture()  # not the one the last frame drew (see _refresh_into_a_new_texture)
        self.texture.blit_buffer(data, colorfmt="luminance", bufferfmt="ubyte")
        self.rect.texture = self.texture
        if self.peeking:
            self.seen_image = self.shown_image
        return 1

    def unseen(self):
        """True while it is covered and what it shows now has not been looked at: an OK would act blind."""
        return self.hidden and not self.peeking and self.seen_image != self.shown_image

    def on_touch_down(self, touch):
        if self.hidden and self.collide_point(*touch.pos):
            touch.grab(self)
            self.peeking = True
            self.seen_image = self.shown_image
            return True
        return super().on_touch_down(touch)

    def on_touch_up(self, touch):
        if touch.grab_current is self:
            touch.ungrab(self)
            self.peeking = False
            return True
        return super().on_touch_up(touch)

    def on_hidden(self, _w, hidden):
        if not hidden:
            self.peeking = False


class Iconic(Label):
    """A label or button with one of the theme's icons (theme.ICONS' name in `icon`) drawn before its words, the
    two centred together; its `text` stays the words alone (what the tests and the screen reader read). The icon
    is a texture of the icon font drawn by theme.kv's rule (icon_texture at icon_x), the words padded right."""

    icon = StringProperty("")
    icon_texture = ObjectProperty(None, allownone=True)
    icon_x = NumericProperty(0)
    icon_room = NumericProperty(0)  # the icon's width and the gap after it: the words' left padding
    icon_pad = NumericProperty(0)  # the room left and right of icon and words (a left-aligned swatch's margin)

    def on_icon(self, *_):
        self._make_icon()

    def on_font_size(self, *_):
        if self.icon:
            self._make_icon()

    def on_text(self, *_):
        if self.icon:
            self._make_icon()

    def on_texture_size(self, *_):
        self._place_icon()

    def on_pos(self, *_):
        self._place_icon()

    def on_size(self, *_):
        self._place_icon()

    def _make_icon(self):
        if not self.icon:
            self.icon_texture, self.icon_room = None, 0
            return
        # an icon alone (a compact header's button) is drawn larger than one beside words
        size = self.font_size * (1 if self.text else theme.ICON_ALONE)
        core = CoreLabel(text=theme.ICONS[self.icon], font_name=theme.ICON_FONT, font_size=size)
        core.refresh()
        self.icon_texture = core.texture
        self.icon_room = core.texture.width + (self.font_size * 0.4 if self.text else 0)
        self._place_icon()

    def _place_icon(self):
        tex = self.icon_texture
        if tex is None:
            return
        # the words' width as laid out (their box may be wider: text_size); Kivy keeps the laid-out lines
        if self.halign == "left":
            self.icon_x = int(self.x + self.icon_pad)
            return
        core = getattr(self, "_label", None)  # (not there yet while the label is being made)
        words = max((line.w for line in getattr(core, "_cached_lines", ())), default=0) if self.text else 0
        self.icon_x = int(max(self.x + self.font_size * 0.2, self.center_x - (self.icon_room + words) / 2))


class RaceButton(Iconic, Button):
    """A flat button in the theme's colours. `tone` is its colour while live; `token` the action's turn and step
    it was drawn for (the referee refuses a stale one); `reason` why it is off, when it is."""

    tone = ListProperty(list(theme.BUTTON))
    fold_w = NumericProperty(0)  # the least width its words are laid out in (a DashTab's, folded away)
    token = ObjectProperty(None, allownone=True)
    reason = StringProperty("")
    # Off but still tappable (a tap says why): drawn dim at the canvas, so that turning a button on or off does
    # not render its text again (Kivy's disabled does, and a tap changes many buttons at once).
    live = BooleanProperty(True)


class SteadyLabel(Label):
    """A one-line label, shortened to its width, whose texture is made again only when what it shows changes. A new
    text that shortens to the same words (a car's link words cut in their middle: only the cut-out part changed)
    keeps the texture it has, and the window is not drawn again for it: each texture Kivy makes costs a whole frame
    of the window, some 20 ms of a software renderer."""

    _shown = None  # what the texture shows: the shortened words and every option they were drawn with

    def texture_update(self, *largs):
        shown = self._what_it_shows()
        if shown is not None and shown == self._shown and self.texture is not None:
            return
        self._shown = shown
        super().texture_update(*largs)

    def _what_it_shows(self):
        core = self._label
        if not self.shorten or self.markup or not core.text or core.text_size[0] is None:
            return None  # drawn as Kivy draws it
        core.resolve_font_name()
        text = core.text.strip() if self.strip or self.halign == "justify" else core.text
        return core.shorten(text), tuple(core.text_size), repr(sorted(core.options.items()))


class IconLabel(Iconic, Label):
    """A label with an icon before its words (a swatch's "to play", a caption's chequered flag)."""


class ToggleRaceButton(ToggleButtonBehavior, RaceButton):
    """A choice among several (a corner, a lane, whose dashboard): the chosen one in `down_tone`."""

    down_tone = ListProperty(list(theme.CHOSEN))


class DashTab(ToggleRaceButton):
    """A virtual dashboard's tab; `car_rgba` its car's colour, drawn as a strip at its foot (theme.kv)."""

    car_rgba = ListProperty([0, 0, 0, 0])
    strip = NumericProperty(6)


class Confirm(ModalView):
    """A yes/no question over the screen; Back (app.py) answers no. `then(True or False)` is called once."""

    question = StringProperty("")
    yes_text = StringProperty("Yes")
    no_text = StringProperty("No")

    def __init__(self, then=None, **kw):
        super().__init__(**kw)
        self.then = then

    def answer(self, yes):
        then, self.then = self.then, None
        self.dismiss(animation=False)  # gone at once: a fading question would swallow the next tap
        if then is not None:
            then(yes)


class LidTitle(Label):
    """A screen's title in the box lid's look (theme.kv): on the kerb's red, after a chequered flag of `flag_w`
    whose white squares are drawn here (three across, as many down as fit)."""

    flag_w = NumericProperty(0)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._squares = InstructionGroup()
        self.canvas.after.add(self._squares)  # over theme.kv's black flag (the words are padded clear of it)
        self.bind(pos=self._chequer, size=self._chequer, flag_w=self._chequer)

    def _chequer(self, *_):
        self._squares.clear()
        side = (self.flag_w - 0.01) / 3.0
        if side < 1:
            return
        self._squares.add(Color(*theme.INK))
        rows = int((self.height - 2 * theme.RING) // side)
        top = self.top - theme.RING
        for row in range(rows):
            for col in range(3):
                if (row + col) % 2 == 0:
                    self._squares.add(Rectangle(pos=(self.x + theme.RING + col * side, top - (row + 1) * side),
                                                size=(side, side)))


class VirtualDash(BoxLayout):
    """A virtual dashboard drawn on the tablet, the same box in both games: its OLED (`oled`) over its five
    buttons (the firmware's names, in their order); a tap on one dispatches on_button(name). Laid out in
    theme.kv."""

    __events__ = ("on_button",)
    beside = BooleanProperty(False)  # the buttons beside the OLED (a short screen), not under it

    @property
    def oled(self):
        return self.ids.oled

    def on_kv_post(self, base_widget):
        keys = self.ids.buttons
        if not keys.children:
            for name in BUTTONS:
                key = Factory.get("DashKey")(text=name)
                key.bind(on_release=lambda _w, name=name: self.dispatch("on_button", name))
                keys.add_widget(key)

    def on_button(self, name):
        pass



def paint(widget, rgba):
    """A filled background behind a widget, following it."""
    with widget.canvas.before:
        Color(*rgba)
        rect = Rectangle(pos=widget.pos, size=widget.size)
    widget.bind(pos=lambda w, v: setattr(rect, "pos", v), size=lambda w, v: setattr(rect, "size", v))
