# Game rules and wire protocol shared by the Pico dashboard (MicroPython) and the tablet (CPython).
# Everything below runs unchanged on both: integers only, no typing at run time, no dict-order reliance.
