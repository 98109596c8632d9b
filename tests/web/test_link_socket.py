"""The seat page's link: docs/protocol.md's bytes over the seat's WebSocket, as a Pico's over USB (Chromium). The
tablet here is the protocol's own tablet side (shared_rules.link.tablet.Session) behind a test WebSocket; the
tablet's real port is companion/transport's. An acknowledged command is in the browser's storage before its ack
leaves: a tab killed right after the ack comes back with it applied once."""

import asyncio
import threading
import time

import pytest
from aiohttp import WSMsgType, web

from companion import __version__
from shared_rules.link.tablet import Session
from tests.link.harness import FAST
from tests.web.engines import MISSING, SeatServer, open_engine, phone_id, visit
from tests.web.test_seat_page import boot
from tests.wait import poll

pytestmark = [pytest.mark.browser, pytest.mark.skipif(MISSING["chromium"] is not None, reason=MISSING["chromium"] or "")]


def now_ms():
    return int(time.monotonic() * 1000)


class Tablet:
    """The tablet's end of every link socket: one protocol session per socket, the dashboards it met shared."""

    def __init__(self):
        self.devices = {}
        self.notes = []
        self.messages = []  # every text message a page sent, as sent
        self.sessions = []
        self.sockets = []
        self.mute = False  # the tablet's end silent, its socket left open (a half-open link)
        self.lock = threading.Lock()
        self.loop = None

    async def handle(self, request):
        self.loop = asyncio.get_running_loop()
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        out = asyncio.Queue()
        session = Session(out.put_nowait, self.devices, now_ms(), timing=FAST)
        self.sessions.append(session)
        self.sockets.append(ws)

        async def send():
            while True:
                data = await out.get()
                if not self.mute:
                    await ws.send_str(data.decode())

        async def tick():
            while True:
                await asyncio.sleep(0.02)
                session.tick(now_ms())

        tasks = [asyncio.create_task(send()), asyncio.create_task(tick())]
        try:
            async for msg in ws:
                assert msg.type == WSMsgType.TEXT, "the contract is text messages"
                with self.lock:
                    self.messages.append(msg.data)
                    self.notes.extend(session.feed(msg.data.encode(), now_ms()))
        finally:
            session.close()
            for t in tasks:
                t.cancel()
        return ws

    def submit(self, dev, cid, name, args):
        def go():
            d = self.devices[dev]
            d.submit(cid, name, args)
            if d.session is not None:
                d.session.pump(now_ms())

        self.loop.call_soon_threadsafe(go)  # type: ignore[union-attr]

    def take_over(self):
        """Close the newest socket as the tablet does when another page opens the seat."""
        ws = self.sockets[-1]
        asyncio.run_coroutine_threadsafe(ws.close(code=4001, message=b"taken"), self.loop).result(10)  # type: ignore

    def since(self, mark, kind, *head):
        with self.lock:
            return [n for n in self.notes[mark:] if n[0] == kind and n[1 : 1 + len(head)] == head]

    def seen(self, kind, *head):
        with self.lock:
            return [n for n in self.notes if n[0] == kind and n[1 : 1 + len(head)] == head]


@pytest.fixture(scope="module")
def tablet():
    return Tablet()


@pytest.fixture(scope="module")
def server(tablet):
    with SeatServer(link=tablet.handle) as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    with open_engine("chromium") as b:
        yield b


def wait(pred, timeout=20, what="the tablet"):
    if not poll(pred, timeout, 0.02):
        raise TimeoutError(what)
    return pred()


def test_the_page_says_hello_on_its_socket_in_the_protocols_frames(server, tablet, browser):
    page = visit(browser, server.new_seat())
    boot(page)
    dev = phone_id(page)
    hello = wait(lambda: tablet.seen("hello", dev), what="the page's hello")[0]
    assert hello[2]["s"]["laps_left"] == 3 and hello[2]["fw"] == __version__
    page.wait(lambda: page.dash()["linked"], what="the page linked")
    assert page.text("status") == "Linked to the tablet."
    with tablet.lock:
        assert all(s.bad_frames == 0 for s in tablet.sessions)  # every byte the page sent is a whole frame of ours
        assert "".join(tablet.messages).startswith("~")


def kill_tab(browser):
    """The tab's renderer killed, as a phone's system kills a tab: no pagehide, nothing runs after."""
    driver = browser.driver
    doomed = driver.current_window_handle
    # Where the player opens the page again: another window, so that the doomed page stays visible to the end (a
    # hidden page stores its /data: that is not what is tested here)
    driver.switch_to.new_window("window")
    fresh = driver.current_window_handle
    driver.switch_to.window(doomed)
    try:
        driver.execute_cdp_cmd("Page.crash", {})
    except Exception:
        pass  # the page is gone before it could answer
    driver.switch_to.window(fresh)
    browser.current = None


def test_an_acked_command_survives_a_killed_tab_and_is_applied_once(server, tablet, browser):
    page = visit(browser, server.new_seat())
    boot(page)
    dev = phone_id(page)
    wait(lambda: tablet.seen("hello", dev), what="the page's hello")
    tablet.submit(dev, "t-1", "turn", {"on": 1})
    tablet.submit(dev, "t-2", "lap", {})
    done = wait(lambda: tablet.seen("done", dev, "t-2"), what="the lap's ack")[0]
    assert done[3]["laps_left"] == 2
    with tablet.lock:
        mark = len(tablet.notes)
    kill_tab(browser)  # at once: the full save folds the journal in only seconds later; no pagehide either
    page = visit(browser, page.url)
    boot(page)
    hello = wait(lambda: tablet.since(mark, "hello", dev), what="the hello after the tab came back")[0]
    assert hello[2]["s"]["laps_left"] == 2 and hello[2]["s"]["my_turn"] == 1
    tablet.submit(dev, "t-2", "lap", {})  # the tablet missed the ack and sends the command again
    tablet.submit(dev, "t-3", "turn", {"on": 0})
    again = wait(lambda: tablet.seen("done", dev, "t-3"), what="the turn's end's ack")[0]
    assert again[3]["laps_left"] == 2 and again[3]["my_turn"] == 0  # t-2 answered, not applied a second time
    assert not tablet.seen("refused", dev)


def test_a_page_whose_seat_was_taken_says_so_and_stops(server, tablet, browser):
    page = visit(browser, server.new_seat())
    boot(page)
    page.wait(lambda: page.dash()["linked"], what="the page linked")
    tablet.take_over()
    page.wait(lambda: page.dash()["taken"], what="the page told")
    assert page.text("status") == "Another phone or tab took this seat: this one is stopped."
    assert page.js("return document.getElementById('OK').disabled")
    assert page.js("return getComputedStyle(document.getElementById('again')).display") == "block"
    sockets = len(tablet.sockets)
    page.count_dials()
    # It does not take the seat back by itself: not when the network or the page comes back (what dials at once),
    # not at its retry's time (the page's own timer, set for later than any retry, fires after it would have).
    page.js("window.dispatchEvent(new Event('online')); document.dispatchEvent(new Event('resume'))")
    page.after_timers(1500)
    assert page.dials() == 0
    assert len(tablet.sockets) == sockets and not page.dash()["linked"]


def test_a_link_gone_silent_is_dropped_and_linked_again(server, tablet, browser):
    page = visit(browser, server.new_seat())
    boot(page)
    page.wait(lambda: page.dash()["linked"], what="the page linked")
    sockets = len(tablet.sockets)
    tablet.mute = True  # the socket stays open, nothing comes through it (Wi-Fi gone, the phone asleep)
    try:
        page.wait(lambda: not page.dash()["linked"], timeout=10, what="the page noticing the silence")
        assert page.text("status").startswith("Not linked to the tablet")
    finally:
        tablet.mute = False
    page.wait(lambda: len(tablet.sockets) > sockets and page.dash()["linked"], timeout=10, what="linked again")


def test_linked_the_page_and_the_unix_port_show_the_same_frames(server, tablet, browser, tmp_path):
    from tests.firmware.test_linked import start as start_unix

    dash, unix = start_unix(tmp_path)  # the unix-port firmware, its tablet on its pipes (tests/firmware)
    page = visit(browser, server.new_seat())
    boot(page)
    dev = phone_id(page)
    wait(lambda: tablet.seen("hello", dev), what="the page's hello")

    def same(step):
        dash.wait(lambda: dash.frames > 0)
        page.wait(lambda: bytes.fromhex(page.js("return window.dash.fb()")) == bytes(dash.buf) or None,
                  what="the same frame as the unix port after " + step)

    def command(cid, name, args):
        assert unix.command(cid, name, args)[0] == "done"
        tablet.submit(dev, cid, name, args)
        wait(lambda: tablet.seen("done", dev, cid), what="the page's ack of " + cid)
        same(cid)

    try:
        dash.wait(lambda: "TAB" in dash.rows()[1], 5)
        same("the hello")
        command("c1", "deal", {"card": "QR"})
        command("c2", "turn", {"on": 1})
        for name in ("UP", "UP", "OK"):
            dash.tap(name)
            page.tap(name)
            same(name)
        command("c3", "pen", {"tyre": 1, "brake": 0, "spin": 0, "dice": 34})
        command("c4", "turn", {"on": 0})
    finally:
        unix.stop()
        dash.kill()
