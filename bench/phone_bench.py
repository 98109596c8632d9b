"""Phones as dashboards the way they work today (companion/phones/server.py: the page mirrors the framebuffer of a
unix-port firmware on the tablet), measured in Debian's headless Chromium on loopback; the baseline of the seat
page that runs the firmware itself (bench/seat_page_bench.py, whose figures are phone.tap_to_canvas_ms_p99 etc.):

phone.mirror_six_tap_to_canvas_ms_p99   a tap on a seat's page (its pointerdown) to the page's canvas showing the
                                        frame the dashboard drew for it, p99, with 6 phones (pages) connected and
                                        tapping at once, each a tap every 150 ms, DOWN and UP in its hand of tactic
                                        cards; timed by the page
phone.mirror_six_tap_to_canvas_ms_p50
phone.mirror_six_taps_measured          taps that drew a frame and were timed (of 6 x 30)
phone.reconnect_s            the tablet's parts stopped (as an app killed) and started again on the game's saved
                             files: from the start to every one of the 6 pages showing its dashboard again, by
                             itself (no page reloaded, no code scanned); median of 3
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

# Every page taps on its own timer (pointer events on its buttons), all six at once.
_TAPPER = """
const names = ["DOWN", "UP"], n = arguments[0];
let i = 0;
window.dash.taps = [];
const timer = setInterval(() => {
  if (i >= n) { clearInterval(timer); return; }
  document.getElementById(names[i % 2]).dispatchEvent(new PointerEvent("pointerdown", {bubbles: true}));
  i++;
}, 150);
"""


def p(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def shows(page, d):
    got = page.screen()
    with d.lock:
        return got is not None and got == (d.frame, bytes(d.image))


def main():
    from tests.phones.browser import MISSING, Browser
    from tests.phones.table import Table

    if MISSING:
        print("phone bench skipped: " + MISSING)
        return
    figures = {}
    with tempfile.TemporaryDirectory() as tmp, Browser() as browser:
        t = Table(Path(tmp), players=PHONES).start()
        pages = [browser.open(t.urls[seat]) for seat in range(PHONES)]
        for seat, page in enumerate(pages):
            page.wait(lambda page=page, seat=seat: shows(page, t.dash(seat)), what="page %d" % seat)
            page.tap("CARD")  # the hand (5 tactic cards each): DOWN and UP move its cursor, a redraw every time
        time.sleep(0.5)
        for page in pages:
            page.js(_TAPPER, TAPS)
        end = time.monotonic() + TAPS * 0.15 + 10
        while time.monotonic() < end and any(len(page.dash()["taps"]) < TAPS for page in pages):
            time.sleep(0.2)
        taps = [ms for page in pages for ms in page.dash()["taps"]]
        figures["phone.mirror_six_tap_to_canvas_ms_p99"] = round(p(taps, 0.99), 2)
        figures["phone.mirror_six_tap_to_canvas_ms_p50"] = round(p(taps, 0.5), 2)
        figures["phone.mirror_six_taps_measured"] = len(taps)
        path = t.path
        times = []
        for _ in range(RESTARTS):
            t.stop()
            for page in pages:
                page.wait(lambda page=page: page.dash()["state"] == "reconnecting", what="a page noticing")
            started = time.monotonic()
            t = Table(Path(tmp), path=path).start()
            for seat, page in enumerate(pages):
                d = t.dash(seat)
                page.wait(lambda page=page, d=d: page.dash()["state"] == "open" and shows(page, d),
                          timeout=30, what="page %d back" % seat)
            times.append(time.monotonic() - started)
        figures["phone.reconnect_s"] = round(statistics.median(times), 2)
        t.stop()
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-32s %s" % (k, v))


if __name__ == "__main__":
    main()
