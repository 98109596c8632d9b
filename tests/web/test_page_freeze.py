"""A phone page Chrome froze (a tab in the background, a phone asleep: DevTools' page lifecycle, frozen then
active) links again by itself as soon as it is resumed, to the tablet's own phones server and Transport.

Chromium closes the WebSockets of a page it freezes; the page hears of it when it resumes. It used to wait its
whole retry period (1 s) before dialling again, so every freeze cost a second of link: it now dials at once when a
link it had drops, and keeps the wait for a dial that fails (no tablet there)."""

import time

import pytest

from tests.link.harness import wait_for
from tests.web.engines import MISSING, open_engine, phone_id, visit
from tests.web.test_seat_page import boot
from tests.web.test_tablet_link import tablet  # noqa: F401  # the fixture: phones server, Transport, Notes

pytestmark = [pytest.mark.browser, pytest.mark.skipif(MISSING["chromium"] is not None, reason=MISSING["chromium"] or "")]

# Installed before the page's own script on every load: each link socket's making and closing, in the page's time,
# and each dial the page schedules (a timer on seat.js's connect) with the wait it asks for
SOCKETS = """
window.sockets = [];
window.dials = [];
const pageSetTimeout = window.setTimeout;
window.setTimeout = function (fn, ms, ...rest) {
  if (typeof fn === "function" && fn.name === "connect") window.dials.push({at: performance.now(), ms: ms || 0});
  return pageSetTimeout.call(this, fn, ms, ...rest);
};
window.WebSocket = class extends WebSocket {
  constructor(url, protocols) {
    super(url, protocols);
    const made = {made: performance.now(), closed: null};
    window.sockets.push(made);
    this.addEventListener("close", () => { made.closed = performance.now(); });
  }
};
"""


def freeze(browser, seconds):
    """The page frozen for `seconds`, then active again (as Chrome does to a tab it puts away and brings back)."""
    browser.driver.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})
    time.sleep(seconds)  # real time is the point: frozen this long, its link's socket is closed meanwhile
    browser.driver.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})


def test_a_frozen_page_dials_its_link_again_as_soon_as_it_is_resumed(tablet):  # noqa: F811
    url, transport, notes = tablet
    with open_engine("chromium") as browser:
        browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SOCKETS})
        page = visit(browser, url)
        boot(page)
        dev = phone_id(page)
        assert wait_for(lambda: notes.of("hello", dev), 15)
        page.wait(lambda: page.dash()["linked"], what="the page linked")
        for _ in range(2):
            hellos = len(notes.of("hello", dev))
            sockets = len(page.js("return window.sockets"))
            freeze(browser, 1.5)
            assert wait_for(lambda hellos=hellos: len(notes.of("hello", dev)) > hellos, 15)  # linked again: a new hello
            page.wait(lambda: page.dash()["linked"], what="the page linked again")
            made = page.js("return window.sockets")
            assert len(made) == sockets + 1  # one new socket: the old one closed while frozen
            lost, new = made[-2], made[-1]
            # dialled again in the old socket's close, not after the retry period (1000 ms) meant for failed dials:
            # the dial the close scheduled asked for no wait (how soon it ran is the machine's load, not the page's)
            assert lost["closed"] is not None and new["made"] >= lost["closed"], (lost, new)
            dials = [t for t in page.js("return window.dials") if lost["closed"] <= t["at"] <= new["made"]]
            assert dials and dials[0]["ms"] == 0, (lost, new, dials)
        assert page.dash()["error"] is None
