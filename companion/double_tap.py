"""A double tap acts once: its second tap is dropped when the first took away the button it was on.

A tap that changes the screen puts another button under the finger: "Roll for seats and start" leaves the
pairing screen's Race exactly there, the race screen's Results leaves the Results screen's Back, "Show it on
this tablet instead" is rebuilt as "Use a phone" in its place. The second tap of a double tap, a moment later
at the same spot, would press that new button (the race began without its pairing, Results closed at once, the
dashboard went back to the phone). So a touch that comes down within AGAIN_S of the last one, within a finger's
width of it, is dropped when the button the last one pressed is no longer on the window (its screen left, its
card rebuilt, its question answered). A button that stays (a dashboard's UP, a speed key, +) takes every tap,
however fast; a turn passed on the same screen is the race screen's own guard (companion/f1/screens.py).
"""

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.behaviors import ButtonBehavior

from companion.clock import app_clock

AGAIN_S = 0.5  # a second tap sooner than this is the same intention (a person reads a new screen for longer)
SETTLE_FRAMES = 3  # ... counted from this many frames after the first tap's release (see DoubleTapGuard)
REACH_DP = 32  # ... and this close to the first: the same finger


class DoubleTapGuard:
    """Bound first to the window's touch events (Window.bind(on_touch_down=guard.on_touch_down,
    on_touch_up=guard.on_touch_up)): it sees every touch before any widget does; True drops it. Its time is
    `clock`'s (companion/clock.py; the app's by default), so a test steps past AGAIN_S instead of waiting."""

    def __init__(self, clock=None):
        self.clock = clock or app_clock()
        self.last = None  # the last touch taken (a MotionEvent: what it pressed is in its ud)
        # When the app was done with it: SETTLE_FRAMES frames after its release (a ScrollView hands the release
        # to its button a frame late, and what a tap does may hold the app a while: a dashboard started), so the
        # next tap is measured from when the first one's result could be seen, as a person's is
        self.done_at = 0.0
        self.settling = False  # those frames are still to come: the first tap's result is not on the screen yet
        self.dropped = []  # the touches dropped (their ups are dropped too)

    def on_touch_down(self, _window, touch):
        now = self.clock.now()
        if self._again(touch, now):
            self.dropped = self.dropped[-3:] + [touch]
            return True
        self.last, self.done_at, self.settling = touch, now, False
        return False

    def on_touch_up(self, _window, touch):
        if any(t is touch for t in self.dropped):
            return True
        if touch is self.last:
            self._settle(touch, SETTLE_FRAMES)
        return False

    def _settle(self, touch, frames):
        if touch is self.last:
            self.done_at = self.clock.now()
            self.settling = frames > 0
            if frames:
                Clock.schedule_once(lambda _dt: self._settle(touch, frames - 1), 0)

    def _again(self, touch, now):
        first = self.last
        if first is None or not self.settling and now - self.done_at >= AGAIN_S:
            return False
        if abs(touch.x - first.x) > dp(REACH_DP) or abs(touch.y - first.y) > dp(REACH_DP):
            return False
        pressed = [w for w in first.ud if isinstance(w, ButtonBehavior)]  # what the first tap pressed
        return bool(pressed) and all(w.get_root_window() is None for w in pressed)
