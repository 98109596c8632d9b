# Debounced buttons with long press and auto-repeat, after Peter Hinch's micropython-async Pushbutton:
# a press is reported at its first edge (no waiting: the screen must answer within 30 ms), then the
# button is deaf to further edges for `debounce_ms` (contact bounce). Long press and auto-repeat are timed
# from the press. One object scans all buttons from a bitmask of levels, so it allocates nothing per scan.
import time

from micropython import const

_LONG_MS = const(800)  # held this long: LONG
_REPEAT_DELAY_MS = const(450)  # auto-repeat starts this long after the press...
_REPEAT_MS = const(120)  # ...and steps this often

PRESS = 0  # the button went down
RELEASE = 1  # the button came up
LONG = 2  # held for _LONG_MS (once per press)
REPEAT = 3  # still held: one more step every _REPEAT_MS after _REPEAT_DELAY_MS


class Buttons:
    def __init__(self, count, handler, debounce_ms=20, repeat_mask=0, long_mask=0):
        """`handler(button_index, event)` is called for each event; `repeat_mask` and `long_mask` are bitmasks
        of the buttons that auto-repeat and that report LONG."""
        self.count = count
        self.handler = handler
        self.debounce_ms = debounce_ms
        self.repeat_mask = repeat_mask
        self.long_mask = long_mask
        self.state = 0  # debounced levels
        self.long_done = 0  # bits: LONG already reported for this press
        self.muted = 0  # bits: held since before we started looking; silent until released
        now = time.ticks_ms()
        self.edge = [time.ticks_add(now, -debounce_ms)] * count  # time of the last accepted edge
        self.next_repeat = [now] * count

    def ignore_held(self, levels):
        """Buttons already down (a finger still on BACK after the self-test) report nothing until released."""
        self.muted = levels
        self.state |= levels

    def update(self, levels, now):
        """Scan once: `levels` has bit i set while button i is down; `now` is time.ticks_ms()."""
        for i in range(self.count):
            bit = 1 << i
            down = levels & bit
            if self.muted & bit:
                if not down:
                    self.muted &= ~bit
                    self.state &= ~bit
                    self.edge[i] = now
                continue
            since = time.ticks_diff(now, self.edge[i])
            if bool(down) != bool(self.state & bit):
                if since < self.debounce_ms:
                    continue  # bounce
                self.edge[i] = now
                self.state ^= bit
                if down:
                    self.long_done &= ~bit
                    self.next_repeat[i] = time.ticks_add(now, _REPEAT_DELAY_MS)
                    self.handler(i, PRESS)
                else:
                    self.handler(i, RELEASE)
            elif down:
                if self.long_mask & bit and not self.long_done & bit and since >= _LONG_MS:
                    self.long_done |= bit
                    self.handler(i, LONG)
                if self.repeat_mask & bit and time.ticks_diff(now, self.next_repeat[i]) >= 0:
                    self.next_repeat[i] = time.ticks_add(self.next_repeat[i], _REPEAT_MS)
                    self.handler(i, REPEAT)
