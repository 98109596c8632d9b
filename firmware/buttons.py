# Debounced buttons with long press and auto-repeat, after Peter Hinch's micropython-async Pushbutton:
# a press is reported at its first edge (no waiting: the screen must answer within 20 ms), then the
# button is deaf to further edges for `debounce_ms` (contact bounce). Long press and auto-repeat are timed
# from the press. One object handles all buttons from a bitmask of levels, so it allocates nothing per scan.
#
# No press may be lost while the core is busy (a save's flash erase holds it for 45 ms typically, up to 400 ms
# on a real W25Q16; an OLED update for 10 ms): the board latches every edge as it happens, from a pin interrupt
# on a Pico (the RP2040 keeps a GPIO edge pending while flash work has interrupts off), into a Latch, and the app
# takes them in order when it is free. The levels are read after the latched edges, so a change the edges did not
# show (a bounce swallowed the last one) is still taken, once the debounce time has passed.
#
# Debounce, from the real timings: a tactile switch bounces for 1-5 ms (10 ms at worst, worn), a quick tap holds
# a button down 40 ms or more and leaves 50 ms or more between taps. 20 ms lies between the two: longer than any
# bounce, shorter than any tap. It costs no time, since the first edge is taken at once; and edges latched during a
# long erase arrive together (same time): the press is taken, its release waits out the 20 ms and is taken then.
import time

from micropython import const

_LONG_MS = const(800)  # held this long: LONG
_REPEAT_DELAY_MS = const(450)  # auto-repeat starts this long after the press...
_REPEAT_MS = const(120)  # ...and steps this often
_LATCH_SIZE = const(32)  # edges kept until taken: 16 taps, far more than a player makes during the longest erase

PRESS = 0  # the button went down
RELEASE = 1  # the button came up
LONG = 2  # held for _LONG_MS (once per press)
REPEAT = 3  # still held: one more step every _REPEAT_MS after _REPEAT_DELAY_MS


class Latch:
    """Button edges in the order they came, with their time, until the app takes them. Filled by the board (a pin
    interrupt on a Pico, which may come between any two steps of the app: one writer, one reader, so the writer
    only moves `tail` and the reader only `head`); nothing is allocated, so a hard interrupt may push."""

    def __init__(self):
        self.keys = bytearray(_LATCH_SIZE)  # button index * 2 + 1 if it went down
        self.times = [0] * _LATCH_SIZE  # ticks_ms (small ints: storing one allocates nothing)
        self.head = 0  # next to take
        self.tail = 0  # next to fill
        self.lost = 0  # edges dropped because it was full (a test reads it; never seen in play)

    def push(self, key, down, now):
        tail = self.tail
        nxt = (tail + 1) % _LATCH_SIZE
        if nxt == self.head:
            self.lost += 1
            return
        self.keys[tail] = key * 2 + (1 if down else 0)
        self.times[tail] = now
        self.tail = nxt  # last: the reader sees the edge only once it is whole

    def clear(self):
        self.head = self.tail


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
        self.bounced = 0  # bits: a reversal ignored as bounce, not undone yet
        now = time.ticks_ms()
        self.edge = [time.ticks_add(now, -debounce_ms)] * count  # time of the last accepted edge
        self.next_repeat = [now] * count

    def ignore_held(self, levels):
        """Buttons already down (a finger still on BACK after the self-test) report nothing until released."""
        self.muted = levels
        self.state |= levels

    def _edge(self, i, down, now):
        """Button i's level is now `down` (at time `now`): report it unless it is no change or a bounce."""
        bit = 1 << i
        if self.muted & bit:
            if not down:
                self.muted &= ~bit
                self.state &= ~bit
                self.edge[i] = now
            return
        same = bool(down) == bool(self.state & bit)
        if time.ticks_diff(now, self.edge[i]) < self.debounce_ms:
            # Within the bounce time of the last edge taken: a reversal is bounce if an edge undoes it within that time
            # too; if not, it was real (a press and its release latched together during an erase) and is taken
            # later, by the levels or by the button's next edge.
            if same:
                self.bounced &= ~bit
            else:
                self.bounced |= bit
            return
        if same:
            if not self.bounced & bit:
                return  # no change
            self._take(i, not down, now)  # the reversal was real, and this edge undoes it: both happened
        self._take(i, down, now)

    def _take(self, i, down, now):
        bit = 1 << i
        self.edge[i] = now
        self.state ^= bit
        self.bounced &= ~bit
        if down:
            self.long_done &= ~bit
            self.next_repeat[i] = time.ticks_add(now, _REPEAT_DELAY_MS)
            self.handler(i, PRESS)
        else:
            self.handler(i, RELEASE)

    def update(self, levels, now, latch=None):
        """Take the edges latched since the last call, in order, then scan `levels` once (bit i set while button
        i is down; `now` is time.ticks_ms()) for what they missed, long presses and auto-repeat."""
        if latch is not None:
            while latch.head != latch.tail:
                h = latch.head
                key = latch.keys[h]
                t = latch.times[h]
                latch.head = (h + 1) % _LATCH_SIZE
                self._edge(key >> 1, key & 1, t)
        for i in range(self.count):
            bit = 1 << i
            down = levels & bit
            if bool(down) != bool(self.state & bit) or self.muted & bit:
                self._edge(i, down, now)
            elif down:
                since = time.ticks_diff(now, self.edge[i])
                if self.long_mask & bit and not self.long_done & bit and since >= _LONG_MS:
                    self.long_done |= bit
                    self.handler(i, LONG)
                if self.repeat_mask & bit and time.ticks_diff(now, self.next_repeat[i]) >= 0:
                    self.next_repeat[i] = time.ticks_add(self.next_repeat[i], _REPEAT_MS)
                    self.handler(i, REPEAT)
