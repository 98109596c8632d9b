"""The app's one clock: what every timer of the app reads, and what a test steps instead of sleeping.

Kivy's Clock (what is on the screen: frames, scheduled callbacks, animations, the dice, the games' tick) takes
its time from the process's AppClock, and the app's own timers read the same AppClock (the double-tap guard,
the race screen's handover after a turn). Its time is Kivy's own time source (the system's monotonic clock)
plus `ahead`, which only a test moves: step(0.5) and, from the next frame on, the app behaves as if half a
second had passed, at once, as Mission Pinball's mpf-mc tests step theirs. Real time still flows, so the app
never waits on a test to move; a step only ever brings time forward.

Wall-clock figures measured across processes (the cold start's first frame) are not timers: they keep
time.monotonic().
"""


class AppClock:
    """Time in seconds from `source` (a monotonic clock), plus what tests stepped."""

    def __init__(self, source):
        self.source = source
        self.ahead = 0.0  # seconds stepped so far

    def now(self):
        return self.source() + self.ahead

    def step(self, seconds):
        """Time jumps `seconds` forward for everything that reads this clock (Kivy's Clock from its next frame)."""
        if seconds < 0:
            raise ValueError("time only goes forward: %r" % seconds)
        self.ahead += seconds


_APP_CLOCK = []  # the process's one AppClock, made on first use


def app_clock():
    """The AppClock of this process, Kivy's Clock reading its time from it. Its source is the one Kivy's Clock
    read until then, so nothing already scheduled moves."""
    if not _APP_CLOCK:
        from kivy.clock import Clock, ClockBaseBehavior

        clock = AppClock(ClockBaseBehavior.time)
        Clock.time = clock.now
        _APP_CLOCK.append(clock)
    return _APP_CLOCK[0]
