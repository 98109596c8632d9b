"""A phone page Chrome froze and resumed (a phone locked and woken, a tab put away and brought back: DevTools' page
lifecycle, frozen then active), to its link live again, in Debian's headless Chromium on loopback; the seat page runs
the firmware, the tablet's side is its phones server and ordinary Transport (as tests/web/test_tablet_link.py):

phone.relink_after_freeze_s       the page made active again to the tablet holding its hello (the link live again,
                                  the dashboard's state on the table), median of FREEZES freezes of FROZEN_S each
phone.relink_after_freeze_s_max   the worst of them
phone.relink_after_reload_s       the same-run baseline: a reload of the page (its firmware booted again from the
                                  browser's storage) to the tablet holding its hello, median of as many reloads

Chromium closes the sockets of a page it freezes: each freeze is a real relink (a new socket, hi, hello).
"""

import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.results import record  # noqa: E402

FREEZES = 7
FROZEN_S = 2.0  # longer than the page's silence limit (3.5 s) changes nothing: the socket is closed either way
SETTLE_S = 1.0  # between two measurements: the link quiet again
TOKEN = "b" * 26


def _relink(notes, dev, act):
    """Seconds from act() to the next hello of `dev` at the tablet."""
    before = len(notes.of("hello", dev))
    t0 = time.perf_counter()
    act()
    deadline = t0 + 20
    while len(notes.of("hello", dev)) == before:
        if time.perf_counter() > deadline:
            raise TimeoutError("no hello from %s" % dev)
        time.sleep(0.002)
    return time.perf_counter() - t0


def measure():
    from companion.phones.server import PhoneServer, Seat
    from companion.transport import AllPorts, NoPorts, Transport
    from companion.transport.websocket_backend import LinkPorts
    from tests.link.harness import FAST, Notes, wait_for
    from tests.web.engines import open_engine, phone_id, visit
    from tests.web.test_seat_page import boot

    links = LinkPorts()
    server = PhoneServer(links)
    port = server.start("127.0.0.1", 0)
    server.serve({TOKEN: Seat(TOKEN, "Ann")})
    transport = Transport(AllPorts(NoPorts(), links), FAST)
    transport.start()
    notes = Notes(transport)
    try:
        with open_engine("chromium") as browser:
            cdp = browser.driver.execute_cdp_cmd
            page = visit(browser, "http://127.0.0.1:%d/%s/" % (port, TOKEN))
            boot(page)
            dev = phone_id(page)
            if not wait_for(lambda: notes.of("hello", dev), 20):
                raise TimeoutError("the page never linked")
            frozen, reloaded = [], []
            for _ in range(FREEZES):  # alternating, so a loaded machine weighs on both alike
                time.sleep(SETTLE_S)
                cdp("Page.setWebLifecycleState", {"state": "frozen"})
                time.sleep(FROZEN_S)
                frozen.append(_relink(notes, dev, lambda: cdp("Page.setWebLifecycleState", {"state": "active"})))
                time.sleep(SETTLE_S)
                reloaded.append(_relink(notes, dev, lambda: page.js("location.reload()")))
                boot(page)
            assert page.dash()["error"] is None
    finally:
        transport.stop()
        server.stop()
    return frozen, reloaded


def main():
    from tests.web.engines import MISSING

    if MISSING["chromium"]:
        print("phone freeze bench skipped: " + MISSING["chromium"])
        return
    frozen, reloaded = measure()
    figures = {
        "phone.relink_after_freeze_s": round(statistics.median(frozen), 3),
        "phone.relink_after_freeze_s_max": round(max(frozen), 3),
        "phone.relink_after_reload_s": round(statistics.median(reloaded), 3),
    }
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-36s %s" % (k, v))
    print("  freezes: %s\n  reloads: %s" % (sorted(round(x, 3) for x in frozen), sorted(round(x, 3) for x in reloaded)))
    return figures


if __name__ == "__main__":
    main()
