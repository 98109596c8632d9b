"""A phone's link over Wi-Fi is the link: the real firmware's link loop (firmware/link_main.py on the `micropython`
unix port, on a pty) behind a page's WebSocket (tests/link/ws_page.py: aiohttp's client, what the seat page does
in a browser), the tablet's phones server (companion/phones/server.py, GET /<token>/link) feeding the ordinary
Transport through its WebSocket port source (companion/transport/websocket_backend.py). Hello, commands, acks,
a reconnect that is a replug, a second connection taking the seat over, wrong tokens. All on loopback.

Cost: about 10 s.
"""

import aiohttp
import pytest

from companion.phones.server import GONE, TAKEN, PhoneServer, Seat
from companion.transport import AllPorts, NoPorts, Transport
from companion.transport.websocket_backend import LinkPorts
from tests.link.harness import FAST, Dashboard, Notes, wait_for
from tests.link.ws_page import PageLink, PageLoop
from tests.portable import link_script

TOKEN = "a" * 26


class Rig:
    def __init__(self, tmp_path):
        self.links = LinkPorts()
        self.server = PhoneServer(self.links)
        self.port = self.server.start("127.0.0.1", 0)
        self.server.serve({TOKEN: Seat(TOKEN, "Ann")})
        self.transport = Transport(AllPorts(NoPorts(), self.links), FAST)
        self.transport.start()
        self.notes = Notes(self.transport)
        self.pages = PageLoop()
        self.dash = Dashboard(tmp_path, "phone-1")
        self.page = self.new_page()
        self.page.attach(self.dash.start())
        self.page.plug()

    def url(self, token=TOKEN, what="link"):
        return "http://127.0.0.1:%d/%s/%s" % (self.port, token, what)

    def new_page(self, seed=1):
        return PageLink(self.pages, self.url(), seed)

    def close(self):
        self.page.unplug()
        self.transport.stop()
        self.server.stop()
        self.pages.close()
        self.dash.kill()
        self.dash.kill()


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.close()


def _ports(notes, change):
    return [n.key for n in notes.of("port") if n.change == change]


def _answered_once(rig, cmds, timeout=20):
    ids = [c[0] for c in cmds]
    assert wait_for(lambda: rig.notes.drain() and set(ids) <= set(rig.notes.answered()), timeout)
    assert sorted(rig.notes.answered("phone-1")) == sorted(ids)  # each answered once
    expected = link_script.expected(cmds)
    assert wait_for(lambda: rig.dash.saved()[0] == expected, 5), (rig.dash.saved()[0], expected)
    assert wait_for(lambda: rig.transport.snapshot("phone-1") == expected, 5)


def test_a_phone_says_hello_and_takes_commands_like_a_pico(rig):
    hello = wait_for(lambda: rig.notes.of("hello"), 10)
    assert hello[0].dev == "phone-1" and hello[0].info["p"] == 1 and hello[0].info["s"]["laps_left"] == 5
    assert _ports(rig.notes, "open") == ["link:1"]
    assert rig.transport.source.scan() == {"link:1": "phone link: Ann"}
    assert rig.links.token_of("link:1") == TOKEN
    cmds = link_script.commands(8)
    for cid, name, args in cmds:
        rig.transport.send("phone-1", name, args, cid)
    _answered_once(rig, cmds)
    assert rig.transport.status("phone-1") == "connected"


@pytest.mark.parametrize("how", ["drop", "vanish"])
def test_a_reconnect_mid_command_is_a_replug_and_applies_nothing_twice(rig, how):
    wait_for(lambda: rig.notes.of("hello"), 10)
    cmds = link_script.commands(12)
    for i, (cid, name, args) in enumerate(cmds):
        rig.transport.send("phone-1", name, args, cid)
        if i % 3 == 1:
            getattr(rig.page, how)()  # the Wi-Fi goes with commands and acks in flight; the page dials again
    _answered_once(rig, cmds)
    assert rig.page.connects >= 2 and len(rig.notes.of("hello")) >= 2
    opened = _ports(rig.notes, "open")
    assert len(opened) == len(set(opened)) >= 2  # every connection a port of its own: a replug
    # Each old port gone: after a vanish, only because the new connection took the seat from the old socket,
    # which the tablet still held open (the page never said goodbye).
    assert wait_for(lambda: set(_ports(rig.notes, "gone")) == set(opened[:-1]), 3)


def test_a_second_phone_takes_the_seat_and_the_first_is_told(rig):
    wait_for(lambda: rig.notes.of("hello"), 10)
    first = rig.page
    first.wanted = False  # the first phone does not dial again once it has lost the seat
    second = rig.new_page(seed=2)
    second.attach(first.fd)  # the same dashboard, now behind the second phone's socket
    second.plug()
    assert wait_for(lambda: [c for c, _ in first.closes] == [TAKEN], 5), first.closes
    assert first.closes[0][1] == "taken"
    cmds = link_script.commands(3)
    for cid, name, args in cmds:
        rig.transport.send("phone-1", name, args, cid)
    _answered_once(rig, cmds)
    assert list(rig.links.scan()) == ["link:2"]
    rig.page = second


def test_a_seat_no_longer_served_closes_its_link(rig):
    wait_for(lambda: rig.notes.of("hello"), 10)
    rig.page.wanted = False
    rig.server.serve({})
    assert wait_for(lambda: [c for c, _ in rig.page.closes] == [GONE], 5), rig.page.closes
    assert wait_for(lambda: rig.transport.status("phone-1") == "lost", 3)


def test_only_the_seats_token_opens_its_link(rig):
    async def status(url, headers=None):
        try:
            ws = await rig.pages.session.ws_connect(url, headers=headers or {})
        except aiohttp.WSServerHandshakeError as e:
            return e.status
        await ws.close()
        return 101

    other = "b" * 26
    assert rig.pages.call(status(rig.url(other))) == 404  # a wrong token: the 404 of a page that does not exist
    assert rig.pages.call(status(rig.url(TOKEN.upper()))) == 101  # tokens are read without case
    assert rig.pages.call(status(rig.url(TOKEN), {"Origin": "http://evil.example"})) == 404

    async def get(url):
        async with rig.pages.session.get(url) as r:
            return r.status

    assert rig.pages.call(get(rig.url(other, "nothing"))) == 404
    assert rig.pages.call(get(rig.url(other))) == 404


def test_usb_ports_and_link_sockets_are_listed_together_and_a_flaky_listing_hides_neither():
    class Flaky(NoPorts):
        def __init__(self):
            self.fail = False
            self.opened = []

        def scan(self):
            if self.fail:
                raise OSError("enumeration failed")
            return {"/dev/ttyACM0": "Board in FS mode"}

        def open(self, key):
            self.opened.append(key)
            return key

    usb, links = Flaky(), LinkPorts()
    both = AllPorts(usb, links)
    port = links.connect("phone link: Ann", lambda data: None, lambda: None, TOKEN)
    assert both.scan() == {"/dev/ttyACM0": "Board in FS mode", "link:1": "phone link: Ann"}
    usb.fail = True  # a flaky USB enumeration: its last listing stands, the phones' too
    assert set(both.scan()) == {"/dev/ttyACM0", "link:1"}
    assert both.open("/dev/ttyACM0") == "/dev/ttyACM0" and usb.opened == ["/dev/ttyACM0"]
    assert both.open("link:1") is port
    with pytest.raises(OSError):
        both.open("link:1")  # a socket is opened once: a reconnect is another port
    port.ended()
    assert set(both.scan()) == {"/dev/ttyACM0"}
