"""The seat page that runs the dashboard's own firmware in the phone's browser (companion/phones/assets.py), measured
in Debian's headless Chromium on loopback, standalone (no tablet behind the page), one phone:

phone.first_frame_ms_p50        the page asked for (a new seat's address, the HTTP cache warm) to the firmware's first
                                frame on its canvas, median of 7 (the page's own performance clock)
phone.first_frame_ms_cold       the same for the very first load, nothing cached
phone.first_frame_ms_p50_cpu4x  as first_frame_ms_p50 with the CPU slowed 4x (DevTools CPU throttling)
phone.tap_to_canvas_ms_p99      a tap (pointerdown) to the canvas showing the frame the firmware drew for it, p99 of
phone.tap_to_canvas_ms_p50      60 taps in the speed dial (UP, DOWN), one every 150 ms; timed by the page
phone.tap_to_canvas_ms_p99_cpu4x   the same with the CPU slowed 4x
phone.first_load_kb             what the first load of the page transferred, as served (gzip), KB
phone.reload_kb                 what a reload of it transferred (the runtime and firmware are cached for good), KB
phone.taps_timed                the taps that drew a frame and were timed (of 60)

The taps are timed again with six pages at once, linked to one tablet, by bench/phone_bench.py.
"""

import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.results import record  # noqa: E402

LOADS = 7
TAPS = 60

# Taps on the page's own timer (pointer events on its buttons, as a finger's), UP then DOWN, 150 ms apart.
_TAPPER = """
const names = ["UP", "DOWN"], n = arguments[0];
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


def kb(requests):
    return round(sum(size for _path, _status, size in requests) / 1024, 1)


def _load(page, browser, url):
    browser.driver.get(url)
    page.wait(lambda: page.dash()["booted"], timeout=60, what="the first frame")
    return page.dash()["firstFrameMs"]


def _taps(page):
    """The tap-to-canvas times the page took (a tap it drew no frame for is not timed)."""
    page.js(_TAPPER, TAPS)
    end = time.monotonic() + TAPS * 0.15 + 3
    while time.monotonic() < end and len(page.dash()["taps"]) < TAPS:
        time.sleep(0.2)
    return page.dash()["taps"]


def seat_page(figures):
    from tests.web.engines import SeatServer, open_engine, visit

    with SeatServer() as server, open_engine("chromium") as browser:
        url = server.new_seat()
        page = visit(browser, url)
        page.wait(lambda: page.dash()["booted"], timeout=60, what="the first frame")
        figures["phone.first_frame_ms_cold"] = round(page.dash()["firstFrameMs"], 1)
        figures["phone.first_load_kb"] = kb(server.requests)
        del server.requests[:]
        browser.driver.refresh()
        page.wait(lambda: page.dash()["booted"], timeout=60, what="the first frame after a reload")
        figures["phone.reload_kb"] = kb(server.requests)
        figures["phone.first_frame_ms_p50"] = round(statistics.median(
            _load(page, browser, server.new_seat()) for _ in range(LOADS)), 1)
        page.tap("OK")  # the speed dial: DOWN and UP each redraw it
        taps = _taps(page)
        figures["phone.tap_to_canvas_ms_p99"] = round(p(taps, 0.99), 2)
        figures["phone.tap_to_canvas_ms_p50"] = round(p(taps, 0.5), 2)
        figures["phone.taps_timed"] = len(taps)
        browser.driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 4})
        try:
            figures["phone.first_frame_ms_p50_cpu4x"] = round(statistics.median(
                _load(page, browser, server.new_seat()) for _ in range(LOADS)), 1)
            page.tap("OK")
            figures["phone.tap_to_canvas_ms_p99_cpu4x"] = round(p(_taps(page), 0.99), 2)
        finally:
            browser.driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 1})


def main():
    from tests.web.engines import MISSING

    if MISSING["chromium"]:
        print("seat page bench skipped: " + MISSING["chromium"])
        return
    figures = {}
    seat_page(figures)
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-36s %s" % (k, v))


if __name__ == "__main__":
    main()
