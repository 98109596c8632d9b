"""The smallest MicroPython heap a run fits in: a binary search over -X heapsize."""


def smallest_heap_kb(fits, lo, hi):
    """The smallest kb in lo..hi with fits(kb) true, assuming a run that fits in kb fits in more."""
    if not fits(hi):
        raise RuntimeError("the run does not finish even with %d KB" % hi)
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo
