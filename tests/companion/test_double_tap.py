"""companion/double_tap.py without a window: which second tap of a double tap is dropped (the real window's
double taps are in test_whole_race_window.py and test_whole_f5_window.py)."""

import os
from types import SimpleNamespace

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.uix.button import Button  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

from companion import double_tap  # noqa: E402


class Shown(Widget):
    """Stands for the window: what is added to it is on the screen."""

    def get_root_window(self):
        return self


def touch(x, y, pressed=None):
    return SimpleNamespace(x=x, y=y, ud={pressed: True} if pressed is not None else {})


def tapped(guard, t):
    """A whole tap through the guard: True when it was taken (its down not dropped)."""
    taken = not guard.on_touch_down(None, t)
    guard.on_touch_up(None, t)
    return taken


def first_tap(pressed):
    guard = double_tap.DoubleTapGuard()
    assert tapped(guard, touch(100, 100, pressed))
    guard.settling = False  # its frames have passed (the Clock does not run here)
    return guard


def test_the_second_tap_on_a_button_that_went_away_is_dropped_with_its_release():
    screen = Shown()
    start = Button()
    screen.add_widget(start)
    guard = first_tap(start)
    screen.remove_widget(start)  # the tap changed the screen: another button lies where it was
    second = touch(104, 98)
    assert guard.on_touch_down(None, second) is True
    assert guard.on_touch_up(None, second) is True  # its release reaches nothing either


def test_a_button_that_stays_takes_every_tap_however_fast():
    screen = Shown()
    up = Button()
    screen.add_widget(up)
    guard = first_tap(up)
    assert tapped(guard, touch(100, 100, up))


def test_a_tap_elsewhere_or_later_is_taken():
    start = Button()  # never on the window: gone
    guard = first_tap(start)
    assert tapped(guard, touch(300, 100))  # another finger, another place
    guard = first_tap(start)
    guard.done_at -= double_tap.AGAIN_S  # a person who looked at the new screen first
    assert tapped(guard, touch(100, 100))


def test_a_tap_that_pressed_no_button_never_drops_the_next():
    guard = first_tap(None)
    assert tapped(guard, touch(100, 100))
