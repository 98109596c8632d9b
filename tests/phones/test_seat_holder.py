"""A seat moves from one phone to another only when a person asks, and a page with no game to play stops its
dashboard, in both engines (Chromium, and WebKitGTK: Safari's family) against the tablet's real parts
(tests/phones/table.py):

- a phone that was out of Wi-Fi range, or asleep (frozen), while another phone opened its seat is told, when it dials
  again by itself, that the seat is another's: it shows the takeover screen and its button, and nothing else; the
  seat stays with the phone that took it until this one's player taps "Use this phone for the seat";
- a stopped page (taken over, or its table left the game) runs none of its firmware: nothing drawn, nothing played;
- the table leaving the game (Back, Leave) is said as such, with no play offered, and the page links and plays
  again when the game is continued.

A second phone is a second browser (a profile of its own: another dashboard id); the phone in the engine under test
is the one that loses its seat."""

import pytest

from companion import storage
from tests.phones.browser import MISSING as CHROMIUM_MISSING
from tests.phones.browser import Browser
from tests.phones.relay import Relay
from tests.phones.table import Table
from tests.web.engines import MISSING, open_engine, phone_id, visit
from tests.web.test_page_freeze import freeze
from tests.web.test_seat_page import boot

pytestmark = [pytest.mark.browser]

LINKED = "Linked to the tablet."
TAKEN = "Another phone or tab took this seat"
LEFT = "The table left this game; this phone links again when the game is continued."

# Whether the page's firmware runs: a task made in it sets a mark at once when the loop runs (the loop runs a new
# task on its next timer, set as the task is made), and the page's own timer, set after it and due later, reads the
# mark. A stopped loop never runs it; the later timer is the signal that the moment has passed.
_RUNS = """
const done = arguments[arguments.length - 1];
window.dash.probed = false;
window.dash.python("import asyncio, js\\nasync def _probe():\\n    js.window.dash.probed = True\\n" +
                   "asyncio.create_task(_probe())");
setTimeout(() => done(window.dash.probed === true), 300);
"""


def firmware_runs(page):
    page.js("return 1")  # its window in front of the driver
    return page.browser.driver.execute_async_script(_RUNS)


@pytest.fixture(scope="module", params=["chromium", "webkit"])
def engine(request):
    if MISSING[request.param]:
        pytest.skip(MISSING[request.param])
    with open_engine(request.param) as b:
        yield b


@pytest.fixture
def other_phone():
    if CHROMIUM_MISSING:
        pytest.skip(CHROMIUM_MISSING)
    with Browser() as b:
        yield b


def linked(page, what="the page"):
    boot(page)
    page.wait(lambda: page.dash()["linked"], timeout=30, what=what + " linked")
    return page


def set_speed(page, ups):
    page.wait(lambda: "YOUR TURN" in page.shown(), timeout=30, what="the phone told it is its turn")
    page.press("OK", *(["UP"] * ups))
    page.tap("OK")


def told_taken(page):
    """Waits for the page to take the seat or be told it is another's; True for told."""
    page.wait(lambda: page.dash()["taken"] or page.dash()["linked"], timeout=30, what="the page's dial answered")
    return page.dash()["taken"]


def shows_only_the_takeover(page):
    assert page.text("status").startswith(TAKEN)
    assert page.js("return getComputedStyle(document.getElementById('again')).display") != "none"
    assert page.js("return ['UP','DOWN','OK','CARD','BACK'].every(id => document.getElementById(id).disabled)")
    frame = page.dash()["frame"]
    assert not firmware_runs(page)  # its dashboard stopped: it plays nothing on its own either
    assert page.dash()["frame"] == frame


def test_a_phone_back_in_range_after_another_took_its_seat_is_told_and_takes_nothing(tmp_path, engine, other_phone):
    t = Table(tmp_path).start()
    relay = Relay(t.phones.server.port)
    try:
        seat = t.ref.race.seat
        a = linked(visit(engine, relay.url(t.urls[seat])), "phone A")
        dev_a = phone_id(a)
        t.wait(lambda: t.paired(seat) == dev_a, what="the seat paired to phone A")
        assert firmware_runs(a)  # the probe sees a running dashboard
        relay.cut()  # A walks out of range: nothing arrives, nothing is closed
        b = linked(other_phone.open(t.urls[seat]), "phone B")  # its player opens the seat on another phone
        dev_b = phone_id(b)
        assert dev_b != dev_a
        t.wait(lambda: t.paired(seat) == dev_b, what="the seat paired to phone B")
        set_speed(b, 1)
        car = t.ref.race.cars[seat]
        t.wait(lambda: car.speed_set and car.speed == 20, what="the speed set on phone B")
        relay.restore()  # A back in range: it dials again by itself
        assert told_taken(a), "phone A took the seat back by itself: %s" % a.text("status")
        shows_only_the_takeover(a)
        assert t.paired(seat) == dev_b and b.dash()["linked"] and not b.dash()["taken"]
        assert t.ref.race.cars[seat].speed == 20

        a.tap("again")  # A's player asks for the seat: now it moves
        linked(a, "phone A again")
        b.wait(lambda: b.dash()["taken"], what="phone B told")
        t.wait(lambda: t.paired(seat) == dev_a, what="the seat paired to phone A again")
        assert a.text("status").startswith(LINKED) and firmware_runs(a)
        shows_only_the_takeover(b)
    finally:
        relay.close()
        t.stop()


def test_a_phone_asleep_while_another_took_its_seat_does_not_take_it_back_when_it_wakes(tmp_path, other_phone):
    if CHROMIUM_MISSING:
        pytest.skip(CHROMIUM_MISSING)
    t = Table(tmp_path).start()
    seat = t.ref.race.seat
    with Browser() as phone_a:
        a = linked(phone_a.open(t.urls[seat]), "phone A")
        dev_a = phone_id(a)
        t.wait(lambda: t.paired(seat) == dev_a, what="the seat paired to phone A")
        t.stop()  # the tablet stopped
        a.wait(lambda: not a.dash()["linked"], what="phone A noticing")
        phone_a.driver.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})  # A asleep
        again = Table(tmp_path, path=t.path).start()  # the tablet restarted on the same game
        try:
            b = linked(other_phone.open(again.urls[seat]), "phone B")
            dev_b = phone_id(b)
            again.wait(lambda: again.paired(seat) == dev_b, what="the seat paired to phone B")
            set_speed(b, 2)
            car = again.ref.race.cars[seat]
            again.wait(lambda: car.speed_set and car.speed == 40, what="the speed set on phone B")
            phone_a.driver.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})  # A woken
            assert told_taken(a), "phone A took the seat back by itself: %s" % a.text("status")
            shows_only_the_takeover(a)
            assert again.paired(seat) == dev_b and b.dash()["linked"] and not b.dash()["taken"]
            freeze(phone_a, 0.5)  # asleep and woken again: still nothing taken
            assert a.dash()["taken"] and again.paired(seat) == dev_b and not b.dash()["taken"]
        finally:
            again.stop()


def test_a_tab_taken_over_stops_its_dashboard(tmp_path, engine):
    t = Table(tmp_path).start()
    try:
        seat = t.ref.race.seat
        first = linked(visit(engine, t.urls[seat]), "the first tab")
        engine.driver.switch_to.new_window("tab")
        second = visit(engine, t.urls[seat])
        linked(second, "the second tab")
        first.wait(lambda: first.dash()["taken"], what="the first tab told")
        shows_only_the_takeover(first)
        assert firmware_runs(second)
    finally:
        if len(engine.driver.window_handles) > 1:  # the engine's next test starts in one window again
            engine.driver.switch_to.window(second.handle)
            engine.driver.close()
            engine.driver.switch_to.window(first.handle)
            engine.current = first
        t.stop()


def test_the_table_leaving_the_game_is_said_offers_no_play_and_the_page_plays_again_when_continued(tmp_path, engine):
    t = Table(tmp_path).start()
    try:
        seat = t.ref.race.seat
        page = linked(visit(engine, t.urls[seat]))
        dev = phone_id(page)
        t.wait(lambda: t.paired(seat) == dev, what="the seat paired")
        t.on_table(t.phones.close_game)  # the table left the game (Back, Leave)
        page.wait(lambda: page.text("status").startswith(LEFT), what="the page told the table left")
        assert page.js("return ['UP','DOWN','OK','CARD','BACK'].every(id => document.getElementById(id).disabled)")
        assert page.js("return getComputedStyle(document.getElementById('again')).display") == "none"
        frame = page.dash()["frame"]
        assert not firmware_runs(page)  # nothing to play: its dashboard stopped where it was
        assert page.dash()["frame"] == frame

        def continued():
            t.phones.open_game(storage.dashboards_dir(t.path))
            t.phones.sync(t.phones.seats_to_serve(t.ref, t.seats()))

        t.on_table(continued)  # the game continued
        page.wait(lambda: page.dash()["linked"] and not page.dash()["left"], timeout=30, what="the page back")
        assert page.text("status").startswith(LINKED) and firmware_runs(page)
        set_speed(page, 1)
        car = t.ref.race.cars[seat]
        t.wait(lambda: car.speed_set and car.speed == 20, what="the speed set on the phone, the game continued")
    finally:
        t.stop()
