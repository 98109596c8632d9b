"""Waits that end on the event: poll a condition until it holds, with a deadline, and say what was awaited.

A test never sleeps a fixed time to let something happen; it waits for the thing itself (a file written, a
screen drawn, an ack). When the deadline passes, the failure names what never came and, if asked, what was
seen instead."""

import time

POLL_S = 0.01


def poll(cond, timeout=10.0, every=POLL_S, meanwhile=None):
    """cond()'s first truthy value within `timeout` seconds, else its last (falsy) one.

    `meanwhile()` runs before each look (what the app's Clock would do: poll a bridge, drain a queue)."""
    end = time.monotonic() + timeout
    while True:
        if meanwhile is not None:
            meanwhile()
        got = cond()
        if got or time.monotonic() >= end:
            return got
        time.sleep(every)  # the poll period: how often to look, not a wait for anything


def until(cond, timeout=10.0, what=None, every=POLL_S, meanwhile=None, seen=None):
    """cond()'s first truthy value; past `timeout` seconds an AssertionError naming `what` never came (and
    `seen()`, what there was instead)."""
    got = poll(cond, timeout, every, meanwhile)
    if not got:
        told = "waited %.1f s for %s" % (timeout, what or getattr(cond, "__name__", "a condition"))
        if seen is not None:
            told += "; saw %r" % (seen(),)
        raise AssertionError(told)
    return got

