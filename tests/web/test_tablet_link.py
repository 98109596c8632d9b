"""The seat page on the tablet's own phones server: the page (companion/phones/assets.py, served by
companion/phones/server.py beside the seat's link socket) runs the firmware in Chromium and is one more dashboard
port of the tablet's ordinary Transport (companion/transport/websocket_backend.py): hello, commands answered once,
the car the same on both sides. All on loopback."""

import pytest

from companion.phones.server import PhoneServer, Seat
from companion.transport import AllPorts, NoPorts, Transport
from companion.transport.websocket_backend import LinkPorts
from tests.link.harness import FAST, Notes, wait_for
from tests.portable import link_script
from tests.web.engines import MISSING, open_engine, phone_id, visit
from tests.web.test_seat_page import boot

pytestmark = [pytest.mark.browser, pytest.mark.skipif(MISSING["chromium"] is not None, reason=MISSING["chromium"] or "")]
TOKEN = "b" * 26


@pytest.fixture
def tablet():
    links = LinkPorts()
    server = PhoneServer(links)
    port = server.start("127.0.0.1", 0)
    server.serve({TOKEN: Seat(TOKEN, "Ann")})
    transport = Transport(AllPorts(NoPorts(), links), FAST)
    transport.start()
    try:
        yield "http://127.0.0.1:%d/%s/" % (port, TOKEN), transport, Notes(transport)
    finally:
        transport.stop()
        server.stop()


def test_the_seat_page_is_a_dashboard_port_of_the_tablet(tablet):
    url, transport, notes = tablet
    with open_engine("chromium") as browser:
        page = visit(browser, url)
        boot(page)
        dev = phone_id(page)
        hello = wait_for(lambda: notes.drain() and notes.of("hello", dev), 15)
        assert hello and hello[0].info["s"]["laps_left"] == 3
        page.wait(lambda: page.text("status") == "Linked to the tablet.", what="the page linked")
        cmds = link_script.commands(6)
        for cid, name, args in cmds:
            transport.send(dev, name, args, cid)
        ids = [c[0] for c in cmds]
        assert wait_for(lambda: notes.drain() and set(ids) <= set(notes.answered()), 20)
        assert sorted(notes.answered(dev)) == sorted(ids)  # each answered once
        assert wait_for(lambda: transport.snapshot(dev) == link_script.expected(cmds, laps=3), 5), (
            transport.snapshot(dev), link_script.expected(cmds, laps=3))


def test_a_command_long_enough_to_be_sent_in_fragments_reaches_the_page(tablet):
    """The table's whole car (a sync, as a newly paired dashboard is sent) is longer than one frame: it goes in
    fragments, whose base64 the page's runtime decodes (its binascii is micropython-lib's pure-Python one, which
    takes bytes only: firmware/webport.py). The firmware takes it once and answers it; it does not stop."""
    from shared_rules.f1 import car as f1car

    url, transport, notes = tablet
    with open_engine("chromium") as browser:
        page = visit(browser, url)
        boot(page)
        dev = phone_id(page)
        assert wait_for(lambda: notes.drain() and notes.of("hello", dev), 15)
        car = f1car.Car(laps=3)
        for card in ("FG", "GC", "QR", "SS", "SD", "FG"):
            f1car.apply_command(car, "deal", {"card": card})
        cid = transport.send(dev, "sync", car.snapshot())
        assert wait_for(lambda: notes.drain() and cid in notes.answered(dev), 20), page.dash()["log"][-2000:]
        assert wait_for(lambda: transport.snapshot(dev) == car.snapshot(), 5)
        assert page.dash()["error"] is None and "Traceback" not in page.dash()["log"]
