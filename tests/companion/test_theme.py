"""The one theme: sizes scale with the window so that the same layout fits the three screens (no window)."""

from companion import theme


def test_scale_fits_the_three_screens():
    assert theme.scale_for(1280, 800) == 1
    assert theme.scale_for(1920, 1200) == 1.5
    assert theme.scale_for(800, 480) == 0.6  # the 7-inch Raspberry Pi display
    assert theme.scale_for(800, 1280) == 0.625  # portrait: the narrow side decides


def test_touch_targets_never_shrink_below_a_finger():
    assert theme.touch(0.55) >= theme.TOUCH_MIN_PX
    assert theme.touch(1.5) > theme.touch(1)


def test_chart_ticks_are_round_numbers():
    from companion.f1.widgets import nice_step

    assert [nice_step(n, 10) for n in (4, 12, 37, 120)] == [0.5, 2, 5, 20]


def test_the_faces_ship_with_their_licences():
    """The theme's faces are in companion/fonts, each beside its free licence (SIL OFL 1.1), and
    the README says where they come from."""
    import os
    import re

    listed = open(os.path.join(theme.FONTS_DIR, "README.md")).read()
    for name, filename in theme.FONT_FILES.items():
        path = os.path.join(theme.FONTS_DIR, filename)
        assert os.path.getsize(path) > 10000, name
        with open(path, "rb") as f:
            assert f.read(4) in (b"OTTO", b"\x00\x01\x00\x00"), filename  # OpenType or TrueType: what Kivy reads
        row = next(line for line in listed.splitlines() if line.startswith("| `%s`" % filename))
        licence = re.search(r"`(LICENSE-[\w.]+)`", row).group(1)  # type: ignore[union-attr]
        text = open(os.path.join(theme.FONTS_DIR, licence)).read()
        assert "License: OFL-1.1" in text and "Open Font License" in text, licence  # (Debian's copyright files)
    readme = open(os.path.join(os.path.dirname(theme.FONTS_DIR), "..", "README.md")).read()
    assert "companion/fonts/" in readme and "SIL Open Font License" in readme


def test_every_screen_takes_its_look_from_the_theme():
    """Colours and faces are named once, in companion/theme.py: the screens' rules (both games') use theme.* and
    hold no colour or face of their own."""
    import os
    import re

    here = os.path.dirname(theme.FONTS_DIR)
    screens = sorted(os.path.relpath(os.path.join(d, f), here) for d, _, fs in os.walk(here) for f in fs
                     if f.endswith(".kv") and f != "theme.kv")
    assert {"companion.kv", "f1/f1.kv", "f5/f5.kv", "pairing.kv", "game_choice.kv", "saved_games.kv"} <= set(screens)
    for kv in screens:
        text = open(os.path.join(here, kv)).read()
        rules = [line.split("#")[0] for line in text.splitlines()]
        for line in rules:
            if re.search(r"\b(rgba|color|background_color)\s*:", line):
                assert "theme." in line or "root." in line or "self." in line or "parent" in line, (kv, line)
            if "font_name" in line:
                assert re.search(r"font_name:\s*theme\.(DISPLAY|FIGURE|ICON)_FONT", line), (kv, line)
        assert not re.search(r"#[0-9a-fA-F]{6}\b", text), kv  # markup colours from theme.hex_rgb
