"""A real phone browser for the tests and the bench: Debian's Chromium, headless, driven by Selenium through
Debian's chromium-driver (never a downloaded browser or driver). One browser, a window per phone.

    with Browser() as b:
        page = b.open(url)       # a Page: its window
        page.tap("OK"); page.screen() -> (frame number, the 1024-byte SSD1306 buffer the canvas shows)
"""

import atexit
import os
import shutil
import tempfile
from tests.wait import poll

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         # every phone's page is in front on its own phone: no window here is throttled as a background one
         "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
         "--disable-backgrounding-occluded-windows", "--window-size=420,860")
MISSING = None if os.path.exists(CHROMIUM) and os.path.exists(DRIVER) else (
    "needs Debian's chromium and chromium-driver (%s, %s): apt-get install chromium chromium-driver "
    "(.ci/apt-deps installs them in CI)" % (CHROMIUM, DRIVER))

# The canvas read back, one value per OLED pixel, in the firmware's own buffer layout (pages of MONO_VLSB).
# Each OLED pixel must be a whole block of scale x scale device pixels of one of the two colours: anything
# else (a smoothed edge, a fractional scale) comes back as null.
_READ = """
const c = document.getElementById('oled'), s = window.dash.scale, on = window.dash.lit, off = window.dash.dark;
if (!s || c.width !== 128 * s || c.height !== 64 * s) return null;
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
const buf = new Array(1024).fill(0);
for (let y = 0; y < 64; y++) for (let x = 0; x < 128; x++) {
  const first = ((y * s) * c.width + x * s) * 4, r = d[first], g = d[first + 1], b = d[first + 2];
  const lit = r === on[0] && g === on[1] && b === on[2];
  if (!lit && !(r === off[0] && g === off[1] && b === off[2])) return null;
  for (let j = 0; j < s; j++) for (let i = 0; i < s; i++) {
    const k = (((y * s + j) * c.width) + x * s + i) * 4;
    if (d[k] !== r || d[k + 1] !== g || d[k + 2] !== b) return null;
  }
  if (lit) buf[(y >> 3) * 128 + x] |= 1 << (y & 7);
}
return [window.dash.frame, buf];
"""

# What the canvas shows once the page has drawn a frame past `after` (or `ms` milliseconds have passed): the page
# looks every few milliseconds itself, so a wait for the next frame is one call from here instead of a poll of
# calls (each a round trip through the driver, and the canvas read each time). [frame, buffer or null].
_LOOK = "const read = function () {" + _READ + "};" + """
const after = arguments[0], end = performance.now() + arguments[1], done = arguments[arguments.length - 1];
(function look() {
  if (window.dash.frame > after || performance.now() >= end) {
    const frame = window.dash.frame, got = read();
    return done(got === null ? [frame, null] : [got[0], got[1]]);
  }
  setTimeout(look, 5);
})();
"""


class Page:
    def __init__(self, browser, handle, url):
        self.browser = browser
        self.handle = handle
        self.url = url
        self.buttons = {}  # the page's buttons found so far, by id (found again once the page is replaced)

    def _focus(self):
        if self.browser.current is not self:
            self.browser.driver.switch_to.window(self.handle)
            self.browser.current = self

    def js(self, script, *args):
        self._focus()
        return self.browser.driver.execute_script(script, *args)

    def dash(self):
        """The seat page's own account (companion/phones/static/seat.js window.dash): frames drawn, booted, linked,
        taken, tap-to-canvas times, the status line, the link's bytes."""
        return self.js("return window.dash")

    def screen(self):
        """(frame, bytes) of what the canvas shows, or None while it shows no whole frame pixel-exactly."""
        got = self.js(_READ)
        return None if got is None else (got[0], bytes(got[1]))

    def look(self, after=None, timeout=0.0):
        """(frame, bytes or None) of what the canvas shows, once the page has drawn a frame past `after` or within
        `timeout` seconds, whichever comes first (at once with no `after`); None for the bytes while the canvas shows
        no whole frame pixel-exactly."""
        self._focus()
        wait_ms = 0 if after is None else int(timeout * 1000)
        frame, buf = self.browser.driver.execute_async_script(_LOOK, -1 if after is None else after, wait_ms)
        return frame, None if buf is None else bytes(buf)

    def shown(self):
        """What the canvas shows, as the OLED's rows of text joined by " | " ("" while it shows no whole frame)."""
        from tests.firmware.dash import text_rows

        got = self.screen()
        return " | ".join(text_rows(got[1])) if got is not None else ""

    def press(self, *names):
        """A player's presses, each once the screen drew the one before (a finger does not outrun the screen)."""
        for name in names:
            frame = self.dash()["frame"]
            self.tap(name)
            self.wait(lambda frame=frame: self.dash()["frame"] > frame, what="the frame of " + name)

    def count_dials(self):
        """From now on window.dials counts the link sockets the page opens, window.closes those closed (its
        WebSocket constructor wrapped)."""
        self.js("if (window.dials === undefined) { const W = window.WebSocket; window.dials = 0; window.closes = 0;"
                " window.WebSocket = function (...a) { window.dials++; const s = new W(...a);"
                " s.addEventListener('close', () => { window.closes++; }); return s; };"
                " window.WebSocket.prototype = W.prototype;"
                " Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3}); }")

    def dials(self):
        return self.js("return window.dials")

    def after_timers(self, ms):
        """Return once a timer of the page's own, set now for `ms` ms, has fired: every timer the page had set for
        sooner (a retry, a watchdog) has run before it, in the page's own order."""
        self._focus()
        self.browser.driver.execute_async_script("setTimeout(arguments[arguments.length - 1], arguments[0])", ms)

    def tap(self, *names):
        """Touch each button as a finger does (pointer events, through the browser's own input)."""
        from selenium.webdriver.common.by import By

        from selenium.common.exceptions import StaleElementReferenceException

        self._focus()
        for name in names:
            for attempt in range(3):
                try:
                    button = self.buttons.get(name)
                    if button is None:  # found once per page: a call less per touch
                        button = self.buttons[name] = self.browser.driver.find_element(By.ID, name)
                    button.click()
                    break
                except StaleElementReferenceException:
                    # The page was replaced (a reload) since the button was found: the touch never landed, so the
                    # finger touches the new page's button, as a person tapping again would
                    self.buttons.pop(name, None)
                    if attempt == 2:
                        raise

    def text(self, element_id):
        from selenium.webdriver.common.by import By

        self._focus()
        return self.browser.driver.find_element(By.ID, element_id).text

    def wait(self, pred, timeout=15, what="the page"):
        got = poll(pred, timeout, 0.03)
        if not got:
            raise TimeoutError("%s: condition not met (%s)" % (what, self.dash()))
        return got


class Browser:
    """One Chromium for the tests of one process (an xdist worker): started by the first test that asks, kept between
    tests and modules, and handed to the next one clean (one blank window; every other window closed, and with them
    what a test set on its pages: touch emulation, scripts run on each new document, frozen states; the cache and
    the cookies cleared). A test that needs two at once (two phones) gets a second one of its own."""

    def __init__(self):
        self.profile = None
        self.driver = None
        self.current = None
        self.pages = []

    def __enter__(self):
        if _IDLE:
            self.driver, self.profile = _IDLE.pop()
        else:
            self._start()
        return self

    def _start(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="f1-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS + ("--user-data-dir=" + self.profile,):
            options.add_argument(flag)
        # the driver given by path: Selenium's own manager would otherwise look for (and download) one
        self.driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
        self.driver.set_script_timeout(10)

    def open(self, url):
        if self.pages:
            self.driver.switch_to.new_window("window")
        page = Page(self, self.driver.current_window_handle, url)
        self.current = page
        self.driver.get(url)
        self.pages.append(page)
        return page

    def _clean(self):
        """One blank window left, as the browser started; False if the browser could not be brought back so."""
        d = self.driver
        try:
            before = d.window_handles
            d.switch_to.new_window("window")
            fresh = d.current_window_handle
            for handle in before:
                d.switch_to.window(handle)
                d.close()
            d.switch_to.window(fresh)
            d.execute_cdp_cmd("Network.clearBrowserCache", {})
            d.execute_cdp_cmd("Network.clearBrowserCookies", {})
            return True
        except Exception:  # a crashed tab, a driver gone: this one is not reused
            return False

    def __exit__(self, *exc):
        self.current, self.pages = None, []
        if self.driver is not None and not _IDLE and self._clean():
            _IDLE.append((self.driver, self.profile))
        else:
            _quit(self.driver, self.profile)
        self.driver = self.profile = None


_IDLE = []  # (driver, profile) of this process's Chromium while no test holds it: at most one


def _quit(driver, profile):
    try:
        if driver is not None:
            driver.quit()
    finally:
        if profile is not None:
            shutil.rmtree(profile, ignore_errors=True)


@atexit.register
def _quit_idle():
    while _IDLE:
        _quit(*_IDLE.pop())
