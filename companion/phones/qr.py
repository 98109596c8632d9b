"""QR codes for the pairing screen (segno), as Kivy textures: dark modules on white, a pixel a module
(the Image widget scales them up with nearest-neighbour filtering, so they stay sharp)."""

import segno
from kivy.graphics.texture import Texture

_CACHE = {}


def qr_texture(text):
    tex = _CACHE.get(text)
    if tex is None:
        rows = list(segno.make(text, error="m", micro=False).matrix_iter(scale=1, border=4))
        size = len(rows)
        # a texture's first row is the bottom one
        data = b"".join(bytes(0 if dark else 255 for dark in row) for row in reversed(rows))
        tex = Texture.create(size=(size, size), colorfmt="luminance")
        tex.blit_buffer(data, colorfmt="luminance", bufferfmt="ubyte")
        tex.mag_filter = "nearest"
        tex.min_filter = "nearest"
        _CACHE[text] = tex
    return tex
