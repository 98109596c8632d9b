"""The phones' seat page has the tablet's look, defined once in companion/theme.py: its colours
and faces come from theme.css, which companion/phones/assets.py makes from the theme, not from values of its own."""

import re

from companion import theme
from companion.phones import assets


def test_the_seat_page_takes_its_colours_and_faces_from_the_theme(monkeypatch):
    monkeypatch.setattr(assets, "firmware_bundle", lambda: b"{}")  # the firmware's compile is not this test's
    a = assets.Assets()
    page = a.page.decode()
    css_asset = a.files["theme.css"]
    assert "/static/" + css_asset.name in page  # the page links the theme's CSS
    css = css_asset.data.decode()
    for var, rgba in theme.PAGE_COLOURS.items():
        assert "--%s: %s;" % (var, theme.hex_rgb(rgba)) in css
    assert theme.hex_rgb(theme.BG) in css and theme.hex_rgb(theme.KERB) in css and theme.hex_rgb(theme.INK) in css
    # Its faces are the tablet's files, served beside it under their hashed names.
    for name in theme.PAGE_FONTS.values():
        font = a.files[theme.PAGE_FONT_FILES[name]]
        assert "/static/" + font.name in css and font.type == "font/otf"
        assert a.by_name[font.name] is font
        assert len(font.gz) < 10 * 1024  # a subset: the page's first load has no room for the whole face
    # Every colour the page uses is one of theme.css's properties; the only literals are the OLED glass's black
    # and the browser bar's colour, which is the theme's background.
    style = page[page.index("<style>"):page.index("</style>")]
    used = set(re.findall(r"var\(--([\w-]+)\)", style))
    defined = set(re.findall(r"--([\w-]+):", css))
    assert used and used <= defined, used - defined
    assert re.findall(r"#[0-9a-fA-F]{3,6}\b", style) == ["#000"]
    assert '<meta name="theme-color" content="%s">' % theme.hex_rgb(theme.BG) in page
    assert "var(--font-display)" in style
