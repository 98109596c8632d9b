"""companion/clock.py: one clock for the app's timers, stepped by a test instead of slept through."""

import os

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.clock import Clock  # noqa: E402
from kivy.uix.button import Button  # noqa: E402

from companion import double_tap  # noqa: E402
from companion.clock import AppClock, app_clock  # noqa: E402


def test_a_step_moves_the_time_at_once_and_only_forward():
    now = [100.0]
    clock = AppClock(lambda: now[0])
    clock.step(2.5)
    assert clock.now() == 102.5
    now[0] += 1  # real time still flows beneath it
    assert clock.now() == 103.5
    with pytest.raises(ValueError):
        clock.step(-1)
    assert clock.now() == 103.5


def test_kivys_clock_runs_on_the_app_clock():
    clock = app_clock()
    assert app_clock() is clock  # one per process
    fired = []
    # The Clock's last tick made now: a timeout counts from it, and in a worker that ran other tests it may be
    # minutes old (the callback then fired at the first tick)
    Clock.tick()
    Clock.schedule_once(lambda _dt: fired.append(1), 30)
    Clock.tick()
    assert fired == []
    clock.step(30)  # half a minute passes for the app, at once
    Clock.tick()
    assert fired == [1]
    assert Clock.get_time() >= clock.now() - 1


def test_the_double_tap_guard_reads_the_clock_it_is_given():
    from types import SimpleNamespace

    clock = AppClock(lambda: 50.0)  # frozen: only steps move it
    guard = double_tap.DoubleTapGuard(clock)
    gone = Button()  # never on the window: the first tap took it away
    first = SimpleNamespace(x=100, y=100, ud={gone: True})
    assert guard.on_touch_down(None, first) is False
    guard.on_touch_up(None, first)
    guard.settling = False  # its frames have passed (the Clock does not run here)
    clock.step(double_tap.AGAIN_S / 2)
    second = SimpleNamespace(x=102, y=99, ud={})
    assert guard.on_touch_down(None, second) is True  # the same intention: dropped
    clock.step(double_tap.AGAIN_S)
    third = SimpleNamespace(x=102, y=99, ud={})
    assert guard.on_touch_down(None, third) is False  # after a look at the new screen: taken
