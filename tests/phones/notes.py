"""What the app's scenario (tests/phones/phone_window.py, run in a process of its own) has written to its OUT.json,
read by the test that drives the phones beside it."""

import json
from tests.wait import until


def record(out):
    """What the scenario has written so far ({} before its first write)."""
    try:
        return json.loads(out.read_text())
    except (OSError, ValueError):
        return {}


def seen(out, proc, pred, timeout=40):
    """The notes once pred(notes) holds; the app's error, its end or the timeout fail the test with what it said."""
    last = {}

    def look():
        got = last["got"] = record(out)
        assert "error" not in got, got["error"]
        if pred(got):
            return got
        assert proc.poll() is None, proc.stderr.read().decode(errors="replace")[-3000:]
        return None

    return until(look, timeout, "the app to get there", every=0.05,
                 seen=lambda: {k: last["got"].get(k) for k in ("events", "steps", "to_play") if k in last["got"]})
