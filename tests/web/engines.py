"""The seat page in two real browser engines, served by a small aiohttp server on loopback.

    with SeatServer() as server:                      companion/phones/assets.py's routes, one seat token
        with open_engine("chromium") as browser:      Debian's chromium + chromium-driver, headless
        with open_engine("webkit") as browser:        Debian's webkit2gtk-driver (WebKitGTK's MiniBrowser) under an
                                                      Xvfb display this module starts
            page = visit(browser, server.new_seat())  a tests/phones/browser.Page: js(), tap(), wait(), screen()

Both engines skip with the reason only where the browser (or its driver, or Xvfb) is absent.
"""

import asyncio
import glob
import os
import secrets
import shutil
import subprocess
import tempfile
import threading

from aiohttp import web

from companion.phones import assets
from tests.phones import browser as chromium

WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
XVFB = "/usr/bin/Xvfb"
_MINI = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))
MINIBROWSER = _MINI[-1] if _MINI else None
WEBKIT_MISSING = None if os.path.exists(WEBKIT_DRIVER) and MINIBROWSER and os.path.exists(XVFB) else (
    "needs Debian's webkit2gtk-driver and xvfb (%s, MiniBrowser, %s): apt-get install webkit2gtk-driver xvfb "
    "(.ci/apt-deps installs them in CI)" % (WEBKIT_DRIVER, XVFB))
MISSING = {"chromium": chromium.MISSING, "webkit": WEBKIT_MISSING}


class SeatServer:
    """The seat page and its files, on 127.0.0.1 and a free port, in a thread of its own. Without `link` there is no
    link socket: the page plays on its own, as a phone whose tablet is away; `link` is an aiohttp handler for
    GET /<token>/link (a test's tablet)."""

    def __init__(self, link=None, routes=None):
        self.link = link
        self.routes = routes  # routes(app, server): a test's own routes beside the page's
        self.tokens = set()
        self.loop = asyncio.new_event_loop()
        self.requests = []  # (path, status, bytes sent on the wire) of every answered request
        self.asked = []  # the path and query of every request, as it comes (before it is answered)
        self.assets = assets.Assets()  # ready before the first page
        self.runner = None
        self.port = None

    def __enter__(self):
        started = threading.Event()
        threading.Thread(target=self._run, args=(started,), daemon=True, name="seat-server").start()
        started.wait(30)
        return self

    def _run(self, started):
        asyncio.set_event_loop(self.loop)

        @web.middleware
        async def count(request, handler):
            self.asked.append(request.path_qs)
            try:
                resp = await handler(request)
            except web.HTTPException as e:
                self.requests.append((request.path, e.status, 0))
                raise
            size = len(resp.body) if isinstance(resp, web.Response) and resp.body is not None else 0
            self.requests.append((request.path, resp.status, size))
            return resp

        app = web.Application(middlewares=[count])
        if self.routes is not None:
            self.routes(app, self)
        assets.add_routes(app, lambda token: token in self.tokens, self.assets)
        if self.link is not None:
            app.router.add_get("/{token}/link", self.link)

        async def start():
            self.runner = web.AppRunner(app, access_log=None)
            await self.runner.setup()
            site = web.TCPSite(self.runner, "127.0.0.1", 0)
            await site.start()
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

        self.loop.run_until_complete(start())
        started.set()
        self.loop.run_forever()

    def new_seat(self):
        """The page address of a seat of its own (a fresh token: its dashboard starts from nothing)."""
        token = secrets.token_hex(8)
        self.tokens.add(token)
        return "http://127.0.0.1:%d/%s/" % (self.port, token)

    def __exit__(self, *exc):
        async def stop():
            await self.runner.cleanup()  # type: ignore[union-attr]

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)


class WebKit(chromium.Browser):
    """WebKitGTK through its WebDriver, on an Xvfb display of its own (started here, ended with the browser)."""

    def __init__(self):
        super().__init__()
        self.xvfb = None

    def __enter__(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        # -displayfd: Xvfb picks a free display number and writes it on the pipe once it is ready
        read, write = os.pipe()
        self.xvfb = subprocess.Popen([XVFB, "-displayfd", str(write), "-screen", "0", "1024x900x24", "-nolisten",
                                      "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as f:
            display = f.readline().strip()
        if not display:
            raise RuntimeError("Xvfb did not start")
        self.profile = tempfile.mkdtemp(prefix="f1-webkit-")
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        env = dict(os.environ, DISPLAY=":" + display, XDG_DATA_HOME=self.profile, XDG_CACHE_HOME=self.profile)
        self.driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=WEBKIT_DRIVER, env=env))
        self.driver.set_script_timeout(10)
        return self

    def __exit__(self, *exc):
        try:
            if self.driver is not None:
                self.driver.quit()
        finally:
            if self.xvfb is not None:
                self.xvfb.terminate()
                self.xvfb.wait(10)
            if self.profile is not None:
                shutil.rmtree(self.profile, ignore_errors=True)


def open_engine(name):
    return chromium.Browser() if name == "chromium" else WebKit()


def phone_id(page):
    """The dashboard id the seat page keeps for its seat in the browser's storage (seat.js deviceId), waited for: a
    read right after the page linked came back null now and then on a loaded machine (seen 6 times in some 20 runs;
    the next read has it)."""
    script = "return localStorage.getItem('f1dash:' + location.pathname.split('/')[1] + ':dev')"
    return page.wait(lambda: page.js(script), what="the phone's dashboard id in its storage")


def visit(browser, url):
    """Go to `url` in the browser's one window: a Page of it."""
    browser.driver.get(url)
    page = chromium.Page(browser, browser.driver.current_window_handle, url)
    browser.current = page
    return page
