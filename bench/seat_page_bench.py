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

What a player meets (cold_with_tablet): the page of a seat of a game in play, served by the phones' server as the app
runs it (tests/phones/table.py: companion/phones/table.py's Phones, the transport, the referee), in a Chromium started
for that one load (a fresh profile: nothing in its HTTP cache, no compiled WebAssembly kept by its renderer), DevTools'
cache disabled besides:

phone.first_frame_cold_ms_p50        the page asked for (navigation start, the page's performance time origin) to the
                                     firmware's first frame on its canvas, median of COLD_LOADS fresh browsers
phone.first_frame_cold_ms_max        the slowest of them
phone.first_frame_cold_ms_p50_cpu4x  the same with the CPU slowed 4x (DevTools CPU throttling, set before the request)
phone.first_frame_cold_ms_max_cpu4x
phone.first_frame_cold_parts_ms_*    where the median load's time went (cpu 1x), ms from the request: html (the
                                     page's response), received (the last of its files), boot, module, bundle, files,
                                     runtime, firmware (seat.js's marks, _PARTS), frame (the first frame), painted (the
                                     browser's next rendering after it: the frame on the screen)

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
COLD_LOADS = 7
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


# Where a load's time went, from the page's own timing entries (ms since navigation start): the page's response,
# the last of its files received, then seat.js's marks (boot: its script runs; files: the runtime's module and the
# firmware bundle in hand; runtime: MicroPython's WebAssembly instantiated; firmware: its files written), the frame.
_PARTS = """
const nav = performance.getEntriesByType("navigation")[0];
const files = performance.getEntriesByType("resource").filter((e) => /micropython|firmware/.test(e.name));
const out = {html: nav.responseEnd, received: Math.max(0, ...files.map((e) => e.responseEnd)),
             frame: window.dash.firstFrameMs, painted: window.dash.firstPaintMs};
for (const m of performance.getEntriesByType("mark")) {
  if (m.name.startsWith("seat:")) out[m.name.slice(5)] = m.startTime;
}
return out;
"""


def _cold_load(url, rate):
    """One load of `url` in a Chromium of its own (fresh profile), HTTP cache off, CPU slowed `rate` times: the
    page's own account of where its time went."""
    from tests.phones.browser import Browser, _quit

    browser = Browser()
    browser._start()
    try:
        d = browser.driver
        d.execute_cdp_cmd("Network.enable", {})
        d.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        d.execute_cdp_cmd("Network.clearBrowserCache", {})
        if rate != 1:
            d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": rate})
        from tests.web.engines import visit

        page = visit(browser, url)
        page.wait(lambda: page.dash()["firstPaintMs"] is not None, timeout=60, what="the first frame on the screen")
        return page.js(_PARTS)
    finally:
        _quit(browser.driver, browser.profile)


def cold_with_tablet(figures):
    import tempfile
    from pathlib import Path

    from tests.phones.table import Table

    with tempfile.TemporaryDirectory() as tmp:
        t = Table(Path(tmp), players=2).start()
        try:
            url = t.urls[0]
            for rate, suffix in ((1, ""), (4, "_cpu4x")):
                loads = sorted((_cold_load(url, rate) for _ in range(COLD_LOADS)), key=lambda x: x["frame"])
                figures["phone.first_frame_cold_ms_p50" + suffix] = round(loads[len(loads) // 2]["frame"], 1)
                figures["phone.first_frame_cold_ms_max" + suffix] = round(loads[-1]["frame"], 1)
                if rate == 1:
                    for part, ms in loads[len(loads) // 2].items():
                        figures["phone.first_frame_cold_parts_ms_" + part] = round(ms, 1)
        finally:
            t.stop()


def main():
    from tests.web.engines import MISSING

    if MISSING["chromium"]:
        print("seat page bench skipped: " + MISSING["chromium"])
        return
    figures = {}
    cold_with_tablet(figures)
    seat_page(figures)
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-36s %s" % (k, v))


if __name__ == "__main__":
    main()
