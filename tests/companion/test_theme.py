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
