"""A seat's dashboard on a phone, in a real browser (Debian's headless Chromium): the seat page runs the firmware
itself and links on its seat's socket; the tablet pairs it to that seat by the socket's token; its buttons drive
that car on the referee and no other; a wrong or old token is refused and learns nothing; a second tab on the seat
takes it over and the first says so; a restarted tablet, a phone out of range and a seat served again all find the
page linking again by itself, nothing it did meanwhile lost; a finger's long press is one press, one buzz, and
selects nothing. The tablet's parts are real (tests/phones/table.py),
on loopback; nothing runs on the tablet for a phone. Cost: one browser, about 40 s on 2 cores."""

import asyncio
import time
import urllib.error
import urllib.request

import aiohttp
import pytest
from companion.phones.seats import PHONE, TABLET

from tests.phones.browser import MISSING, Browser
from tests.phones.relay import Relay
from tests.phones.table import Table
from tests.web.engines import phone_id
from tests.web.test_seat_page import boot, canvas, framebuffer

pytestmark = [pytest.mark.browser, pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]
LINKED = "Linked to the tablet."


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def open_linked(browser, url, what="the page"):
    """A phone (a window of the browser) opening url, once its firmware runs and its link is open: the Page."""
    page = browser.open(url)
    boot(page)
    page.wait(lambda: page.dash()["linked"], timeout=30, what=what + " linked")
    return page


def set_speed(page, ups):
    """From YOUR TURN: open the speed dial, `ups` steps up, set it."""
    page.wait(lambda: "YOUR TURN" in page.shown(), timeout=30, what="the phone told it is its turn")
    page.press("OK", *(["UP"] * ups))
    page.tap("OK")


@pytest.fixture
def browser():
    with Browser() as b:
        yield b


def test_a_phone_runs_its_seats_firmware_and_drives_that_car_only(tmp_path, browser):
    t = Table(tmp_path).start()
    try:
        first = t.ref.race.seat  # the car to move first
        page = open_linked(browser, t.urls[first])
        dev = phone_id(page)
        t.wait(lambda: t.paired(first) == dev, what="the phone paired to its seat by its token")
        assert t.paired(1 - first) is None  # the other seat waits for its own phone
        assert page.text("status") == LINKED
        assert canvas(page)[1] == framebuffer(page)  # the canvas is the firmware's framebuffer
        sizes = page.js("return ['UP','DOWN','OK','CARD','BACK'].map(id => "
                        "document.getElementById(id).getBoundingClientRect().height)")
        assert min(sizes) >= 48  # touch targets a thumb finds (CSS pixels)
        # nothing runs off the side of a phone's screen (this window is 420 px wide, as many phones are)
        assert page.js("return document.documentElement.scrollWidth <= window.innerWidth")
        set_speed(page, 3)
        car = t.ref.race.cars[first]
        t.wait(lambda: car.speed_set and car.speed == 60, what="the referee's car at 60")
        assert t.ref.race.cars[1 - first].speed == 0  # the other seat saw nothing of this
        t.wait(lambda: t.transport.snapshot(dev) == car.snapshot() and not t.transport.pending(),
               what="the phone's car and the table's the same")
    finally:
        t.stop()


def test_a_wrong_or_old_token_is_refused_and_learns_nothing(tmp_path, browser):
    old = Table(tmp_path / "old").start()
    old_url = old.urls[0]
    old.stop()
    t = Table(tmp_path / "new").start()
    try:
        base = t.urls[0].rsplit("/", 2)[0]
        old_here = base + "/" + old_url.rsplit("/", 2)[1] + "/"  # the old game's token on this tablet
        good = get(t.urls[0])
        assert good[0] == 200 and b"<canvas" in good[1]
        assert get(t.urls[0].rstrip("/")) == good  # typed without its last slash: on to the page
        nothing = get(base + "/")
        assert nothing[0] == 404
        for url in (old_here, old_here.rstrip("/"), base + "/" + "a" * 26 + "/", base + "/favicon.ico",
                    t.urls[0] + "x", t.urls[0] + "link/x", base + "/../etc/passwd"):
            assert get(url) == nothing, url  # the same answer as for a page that does not exist

        async def link(url):
            async with aiohttp.ClientSession() as s:
                try:
                    ws = await s.ws_connect(url)
                except aiohttp.WSServerHandshakeError as e:
                    return e.status
                await ws.close()
                return 101

        assert asyncio.run(link(old_here + "link")) == 404
        assert asyncio.run(link(base + "/" + "b" * 26 + "/link")) == 404
        page = browser.open(old_here)
        assert "<canvas" not in page.browser.driver.page_source
        assert not t.ref.pairs  # nobody was paired by any of it
    finally:
        t.stop()


def test_a_second_tab_takes_the_seat_and_the_first_says_so(tmp_path, browser):
    t = Table(tmp_path).start()
    try:
        first_seat = t.ref.race.seat
        first = open_linked(browser, t.urls[first_seat], what="the first tab")
        dev = phone_id(first)
        t.wait(lambda: t.paired(first_seat) == dev, what="the seat paired")
        second = open_linked(browser, t.urls[first_seat], what="the second tab")
        first.wait(lambda: first.dash()["taken"], what="the first tab told")
        assert first.text("status").startswith("Another phone or tab took this seat")
        assert first.js("return ['UP','DOWN','OK','CARD','BACK'].every(id => document.getElementById(id).disabled)")
        assert first.js("return getComputedStyle(document.getElementById('again')).display") != "none"
        set_speed(second, 1)  # the second tab plays the seat
        car = t.ref.race.cars[first_seat]
        t.wait(lambda: car.speed_set and car.speed == 20, what="the speed set on the second tab")
        assert t.paired(first_seat) == dev  # the same phone (one browser): the same dashboard, the same car
        first.tap("again")  # "Use this phone for the seat": it takes the seat back
        boot(first)
        first.wait(lambda: first.dash()["linked"] and first.text("status") == LINKED, timeout=30, what="taken back")
        second.wait(lambda: second.dash()["taken"], what="the second tab told")
        assert "speed 20" in first.shown().lower() or car.speed == 20  # nothing lost by the handover
    finally:
        t.stop()


def test_the_tablet_restarted_the_page_links_again_by_itself(tmp_path, browser):
    t = Table(tmp_path).start()
    seat = t.ref.race.seat
    page = open_linked(browser, t.urls[seat])
    dev = phone_id(page)
    set_speed(page, 2)
    car = t.ref.race.cars[seat]
    t.wait(lambda: car.speed_set and car.speed == 40, what="40 set")
    t.stop()  # the app killed: its server and link gone
    page.wait(lambda: not page.dash()["linked"], what="the page noticing")
    assert page.text("status").startswith("Not linked to the tablet")
    again = Table(tmp_path, path=t.path).start()  # resumed from the game's files: the same port, the same tokens
    try:
        assert again.urls == t.urls
        page.wait(lambda: page.dash()["linked"], timeout=30, what="the page back by itself")
        car = again.ref.race.cars[seat]
        again.wait(lambda: again.paired(seat) == dev and again.transport.snapshot(dev) == car.snapshot()
                   and not again.transport.pending(), what="the same phone on its car")
        assert car.speed == 40  # nothing lost, nothing doubled
        assert page.text("status") == LINKED and page.dash()["error"] is None
    finally:
        again.stop()


def test_a_phone_out_of_range_plays_on_and_its_presses_reach_the_table_once_back(tmp_path, browser):
    t = Table(tmp_path).start()
    relay = Relay(t.phones.server.port)
    try:
        seat = t.ref.race.seat
        page = open_linked(browser, relay.url(t.urls[seat]))
        dev = phone_id(page)
        t.wait(lambda: t.paired(seat) == dev, what="paired")
        page.wait(lambda: "YOUR TURN" in page.shown(), timeout=30, what="its turn")
        relay.cut()  # out of range: nothing arrives, nothing is refused, nothing is closed
        swallowed = relay.swallowed
        set_speed(page, 3)  # the dashboard plays on by itself (as a Pico whose cable is pulled)
        page.wait(lambda: not page.dash()["linked"], timeout=15, what="the page noticing the silence")
        assert page.text("status").startswith("Not linked to the tablet")
        car = t.ref.race.cars[seat]
        # The page sent its speed (at once, and again until acknowledged) into the black hole, and the table has
        # taken whatever reached it since: nothing reached the table meanwhile.
        polls = t.polls
        t.wait(lambda: relay.swallowed > swallowed and t.polls > polls + 1, what="the page's frames swallowed")
        assert not car.speed_set
        relay.restore()
        page.wait(lambda: page.dash()["linked"], timeout=30, what="back in range, linked again")
        t.wait(lambda: car.speed_set and car.speed == 60, what="the speed set out of range, on the table")
        t.wait(lambda: t.transport.snapshot(dev) == car.snapshot() and not t.transport.pending(),
               what="the phone's car and the table's the same")
    finally:
        relay.close()
        t.stop()


def test_a_seat_no_longer_served_drops_its_link_which_comes_back_when_served_again(tmp_path, browser):
    t = Table(tmp_path).start()
    try:
        page = open_linked(browser, t.urls[0])

        def place(where):  # as the pairing screen does it: every hello serves the seats again (Table._hello)
            t.phones.set_place(0, where)
            t.phones.sync(t.phones.seats_to_serve(t.ref, t.seats()))

        place(TABLET)  # its player chose the tablet's screen (or a Pico): the phone's seat is no longer served
        page.wait(lambda: not page.dash()["linked"], what="the link closed")
        gone = "This seat is not on a phone now"
        page.wait(lambda: page.text("status").startswith(gone), what="the page saying why")
        page.count_dials()
        page.wait(lambda: page.js("return window.closes >= 2"), what="two more tries, each refused")
        assert not page.dash()["linked"] and page.text("status").startswith(gone)
        place(PHONE)  # back on a phone: the page finds it by itself
        page.wait(lambda: page.dash()["linked"], timeout=15, what="the page linked again")
        assert page.text("status") == LINKED
    finally:
        t.stop()


def test_a_finger_presses_once_buzzes_once_and_a_long_press_selects_nothing(browser):
    """Touch input as a phone's (DevTools' touch events, not a mouse click): a long press on OK is one press, one
    buzz; long presses on the status line and the screen select nothing and press nothing. (Headless Chromium opens
    no context menu on a long touch at all: tests/web/test_seat_page.py checks the page refuses one.)"""
    from tests.web.engines import SeatServer

    with SeatServer() as server:
        page = browser.open(server.new_seat())
        boot(page)
        driver = browser.driver
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        page.js("window.buzzes = []; navigator.vibrate = (ms) => { window.buzzes.push(ms); return true; };")

        def hold(element_id, seconds=1.2):
            x, y = page.js("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                           "return [r.left + r.width / 2, r.top + r.height / 2]", element_id)
            driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
            time.sleep(seconds)  # real time is the point: a long press is a finger held this long
            driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

        hold("OK")
        page.wait(lambda: page.shown().startswith("SET SPEED"), what="the speed dial opened by the finger")
        dial = page.shown()
        assert len(page.js("return window.buzzes")) == 1
        for element_id in ("status", "oled"):
            hold(element_id)
            assert page.js("return window.getSelection().toString()") == ""
        page.after_timers(300)  # whatever the long presses set off on the page's timers has run by then
        assert len(page.js("return window.buzzes")) == 1 and page.shown() == dial  # nothing pressed
