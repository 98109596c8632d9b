"""Six phones at one table: six seat pages (each the dashboard's own firmware, run by the browser, tests/phones/
table.py's tablet on loopback), six windows of Debian's headless Chromium on this one machine:

phone.six_tap_to_canvas_ms_p99   a tap on a seat's page (its pointerdown) to the page's canvas showing the frame
                                 its firmware drew for it, p99, the 6 pages linked and tapping at once, each a tap
                                 every 150 ms, DOWN and UP in its hand of tactic cards; timed by the page
phone.six_tap_to_canvas_ms_p50
phone.six_taps_measured          taps that drew a frame and were timed (of 6 x 30)
phone.reconnect_s                the tablet's parts stopped (as an app killed) and started again on the game's saved
                                 files: from the start to every one of the 6 pages linked again and paired to its
                                 car, by itself (no page reloaded, no code scanned); median of 3

The baseline of one page alone is bench/seat_page_bench.py's phone.tap_to_canvas_ms_p99.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.results import record  # noqa: E402

PHONES = 6
TAPS = 30  # per phone
RESTARTS = 3

# Every page taps on its own timer (pointer events on its buttons, as a finger's), all six at once.
_TAPPER = """
const names = ["DOWN", "UP"], n = arguments[0];
let i = 0;
window.dash.taps = [];
const timer = setInterval(() => {
  if (i >= n) { clearInterval(timer); return; }
  const el = document.getElementById(names[i % 2]);
  el.dispatchEvent(new PointerEvent("pointerdown", {bubbles: true}));
  el.dispatchEvent(new PointerEvent("pointerup", {bubbles: true}));
  i++;
}, 150);
"""


def p(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main():
    from tests.phones.browser import MISSING, Browser
    from tests.phones.table import Table
    from tests.web.engines import phone_id

    if MISSING:
        print("phone bench skipped: " + MISSING)
        return
    figures = {}
    with tempfile.TemporaryDirectory() as tmp, Browser() as browser:
        t = Table(Path(tmp), players=PHONES).start()
        pages = [browser.open(t.urls[seat]) for seat in range(PHONES)]
        devs = []
        for seat, page in enumerate(pages):
            page.wait(lambda page=page: page.dash()["linked"], timeout=60, what="page %d linked" % seat)
            devs.append(phone_id(page))
            t.wait(lambda t=t, seat=seat: t.paired(seat) == devs[seat], what="seat %d paired" % seat)
            page.tap("CARD")  # the hand (5 tactic cards each): DOWN and UP move its cursor, a redraw every time
        time.sleep(0.5)
        for page in pages:
            page.js(_TAPPER, TAPS)
        end = time.monotonic() + TAPS * 0.15 + 10
        while time.monotonic() < end and any(len(page.dash()["taps"]) < TAPS for page in pages):
            time.sleep(0.2)
        taps = [ms for page in pages for ms in page.dash()["taps"]]
        figures["phone.six_tap_to_canvas_ms_p99"] = round(p(taps, 0.99), 2)
        figures["phone.six_tap_to_canvas_ms_p50"] = round(p(taps, 0.5), 2)
        figures["phone.six_taps_measured"] = len(taps)
        path = t.path
        times = []
        for _ in range(RESTARTS):
            t.stop()
            for page in pages:
                page.wait(lambda page=page: not page.dash()["linked"], what="a page noticing")
            started = time.monotonic()
            t = Table(Path(tmp), path=path).start()
            for seat, page in enumerate(pages):
                page.wait(lambda page=page: page.dash()["linked"], timeout=30, what="page %d back" % seat)
                t.wait(lambda t=t, seat=seat: t.paired(seat) == devs[seat] and t.bridge.status.get(devs[seat]) ==
                       "connected", what="seat %d paired again" % seat)
            times.append(time.monotonic() - started)
        figures["phone.reconnect_s"] = round(statistics.median(times), 2)
        t.stop()
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-32s %s" % (k, v))


if __name__ == "__main__":
    main()
