"""A seat's dashboard on a phone, in a real browser (Debian's headless Chromium): the page's canvas is the
firmware's framebuffer pixel for pixel, its buttons drive the car on the referee, a wrong or old token is
refused and learns nothing, a second phone takes the seat over, and a tablet restarted finds its pages come
back by themselves. The tablet's parts are real (tests/phones/table.py); the server is on loopback.
Cost: one browser, ~25 s on 2 cores."""

import asyncio
import urllib.error
import urllib.request

import aiohttp
import pytest

from tests.phones.browser import MISSING, Browser
from tests.phones.relay import Relay
from tests.phones.table import Table

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def shows_dashboard(page, d):
    """The canvas shows exactly the dashboard's latest frame (its SSD1306 buffer, every pixel)."""
    got = page.screen()
    with d.lock:
        return got is not None and got == (d.frame, bytes(d.image))


def open_showing(browser, url, d, what="the page"):
    """A phone opening url, once its canvas shows the dashboard d: the page."""
    page = browser.open(url)
    page.wait(lambda: shows_dashboard(page, d), what=what)
    return page


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


@pytest.fixture
def browser():
    with Browser() as b:
        yield b


def test_a_phone_page_is_the_dashboard_and_drives_the_car(tmp_path, browser):
    t = Table(tmp_path).start()
    try:
        d = t.dash(0)
        t.wait(lambda: d.frame > 0 and t.ref.pairs.get(0) == "virtual-1", what="the dashboard")
        page = open_showing(browser, t.urls[0], d, what="the page showing the dashboard's framebuffer")
        assert page.dash()["scale"] >= 2 and page.text("seat") == t.ref.race.names[0]
        sizes = page.js("return ['UP','DOWN','OK','CARD','BACK'].map(id => "
                        "document.getElementById(id).getBoundingClientRect().height)")
        assert min(sizes) >= 64  # large touch targets (CSS pixels)
        page.js("navigator.vibrate = (ms) => { window.buzz = ms; return true; }")  # headless has no motor
        # the speed dial on the phone: OK opens it, UP three times, OK sets 60
        page.tap("OK")
        assert page.js("return window.buzz") == 15  # a short buzz at the press
        page.wait(lambda: page.dash()["frames"] > 1 and shows_dashboard(page, d), what="the dial")
        page.tap("UP", "UP", "UP", "OK")
        car = t.ref.race.cars[0]
        t.wait(lambda: car.speed_set and car.speed == 60, what="the referee's car at 60")
        page.wait(lambda: shows_dashboard(page, d), what="the page after the speed was set")
        assert len(page.dash()["taps"]) >= 1
        assert t.ref.race.cars[1].speed == 0  # the other seat saw nothing of this
    finally:
        t.stop()


def test_a_wrong_or_old_token_is_refused_and_learns_nothing(tmp_path, browser):
    old = Table(tmp_path / "old").start()
    old_url = old.urls[0]
    old.stop()
    t = Table(tmp_path / "new").start()
    try:
        base = t.urls[0].rsplit("/", 1)[0]
        good = get(t.urls[0])
        assert good[0] == 200 and b"<canvas" in good[1]
        nothing = get(base + "/")
        assert nothing[0] == 404
        for url in (old_url.replace(old_url.rsplit("/", 1)[0], base), base + "/" + "a" * 26, base + "/favicon.ico",
                    t.urls[0] + "x", t.urls[0] + "/ws/x", base + "/../etc/passwd"):
            assert get(url) == nothing, url  # the same answer as for a page that does not exist
        taps = t.phones.server.taps

        async def talk():
            async with aiohttp.ClientSession() as s:
                with pytest.raises(aiohttp.WSServerHandshakeError):
                    await s.ws_connect(base + "/" + "b" * 26 + "/ws")
                ws = await s.ws_connect(t.urls[0] + "/ws")
                await ws.send_str("SELECT *")  # not one of the five names: refused, the socket closed
                kinds = []
                async for msg in ws:
                    kinds.append(msg.type)
                return kinds, ws.close_code

        kinds, code = asyncio.run(talk())
        assert code == 1008 and t.phones.server.taps == taps
        page = browser.open(old_url.replace(old_url.rsplit("/", 1)[0], base))
        assert "<canvas" not in page.browser.driver.page_source
    finally:
        t.stop()


def test_a_second_phone_takes_the_seat_and_the_first_is_told(tmp_path, browser):
    t = Table(tmp_path).start()
    try:
        d = t.dash(0)
        first = open_showing(browser, t.urls[0], d, what="the first phone")
        typed = t.urls[0].upper().replace("HTTP://", "http://")  # typed in capitals: the same
        second = open_showing(browser, typed, d, what="the second phone")
        first.wait(lambda: first.dash()["state"] == "taken", what="the first phone told")
        assert "another phone" in first.text("status")
        first.tap("OK")  # its buttons are dead now: nothing reaches the dashboard
        second.tap("OK")
        second.wait(lambda: second.dash()["frames"] > 1 and shows_dashboard(second, d), what="the dial")
        assert t.phones.server.taps == 1
        first.tap("again")  # "Use this phone for the seat": it takes the seat back
        first.wait(lambda: first.dash()["state"] == "open" and shows_dashboard(first, d), what="taken back")
        second.wait(lambda: second.dash()["state"] == "taken", what="the second phone told")
    finally:
        t.stop()


def test_the_tablet_restarted_the_page_comes_back_by_itself(tmp_path, browser):
    t = Table(tmp_path).start()
    path = t.path
    page = open_showing(browser, t.urls[0], t.dash(0))
    page.tap("OK", "UP", "UP", "OK")
    car = t.ref.race.cars[0]
    t.wait(lambda: car.speed_set and car.speed == 40, what="40 set")
    t.stop()  # the app killed: its server, link and virtual dashboards gone
    page.wait(lambda: page.dash()["state"] == "reconnecting", what="the page noticing")
    again = Table(tmp_path, path=path).start()  # resumed from the game's files: the same port, the same tokens
    try:
        assert again.urls == t.urls
        page.wait(lambda: page.dash()["state"] == "open" and shows_dashboard(page, again.dash(0)), timeout=20,
                  what="the page back by itself")
        assert again.ref.race.cars[0].speed == 40  # nothing lost, nothing doubled
        page.tap("BACK")
        again.wait(lambda: again.phones.server.taps == 1, what="its buttons working again")
    finally:
        again.stop()


def test_a_phone_out_of_range_comes_back_to_the_dashboard_as_it_is_now(tmp_path, browser):
    t = Table(tmp_path).start()
    t.phones.server.keepalive_s = 0.5  # the page gives a silent link up after 1.5 s (12 s at the table)
    relay = Relay(t.phones.server.port)
    try:
        d = t.dash(0)
        page = open_showing(browser, relay.url(t.urls[0]), d)
        relay.cut()  # out of range: nothing arrives, nothing is refused, nothing is closed
        frame = d.frame
        d.tap("OK")  # meanwhile the dashboard moves on (here: its speed dial opens)
        t.wait(lambda: d.frame > frame, what="the dashboard redrawn")
        page.wait(lambda: page.dash()["state"] == "reconnecting", what="the page noticing the silence")
        assert not shows_dashboard(page, d)
        relay.restore()
        page.wait(lambda: page.dash()["state"] == "open" and shows_dashboard(page, d), what="back, as it is now")
    finally:
        relay.close()
        t.stop()


def test_a_seat_taken_off_the_phone_tells_its_page_which_comes_back_when_it_is_served_again(tmp_path, browser):
    t = Table(tmp_path).start()
    try:
        d = t.dash(0)
        page = open_showing(browser, t.urls[0], d)
        served = t.phones.server.seats
        t.phones.server.serve({k: v for k, v in served.items() if v.dev != "virtual-1"})  # the tablet's screen took it
        page.wait(lambda: page.dash()["state"] == "gone", what="the page told")
        assert "does not serve this seat" in page.text("status")
        t.phones.server.serve(served)  # back on a phone: the page finds it by itself
        page.wait(lambda: page.dash()["state"] == "open" and shows_dashboard(page, d), what="the page back")
    finally:
        t.stop()
