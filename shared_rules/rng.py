# A seeded random generator that gives the same numbers on CPython and MicroPython.
# (The two runtimes' `random` modules differ, and a game must replay identically on both.)

try:
    from micropython import const  # _UNDERSCORE constants vanish at compile time: no name, no dict entry
except ImportError:  # CPython: const(x) is just the int x
    const = int

_MASK32 = const(0xFFFFFFFF)


class Rng:
    """xorshift32: tiny, fast, and its whole state is one integer that an event log can record."""

    def __init__(self, seed):
        seed = int(seed) & _MASK32
        # xorshift has one forbidden state (zero); mix the seed so nearby seeds diverge at once.
        s = (seed * 2654435761 + 0x9E3779B9) & _MASK32
        self._s = s or 0x6D2B79F5

    def state(self):
        return self._s

    def next32(self):
        x = self._s
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        self._s = x
        return x

    def below(self, n):
        """Uniform integer in 0..n-1, without the bias of a plain modulo (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _MASK32 - (_MASK32 + 1) % n
        while True:
            x = self.next32()
            if x <= limit:
                return x % n

    def die(self):
        return self.below(6) + 1

    def shuffle(self, items):
        """Fisher-Yates, in place."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
