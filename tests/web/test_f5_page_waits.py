"""A Formula 5 phone paired while the table is still on its pairing screen, in both engines (Chromium, WebKitGTK) on
the tablet's own phones server and Transport: the page's firmware shows its hand and that the game waits for the
table's Start, a card chosen meanwhile is refused on the phone and never sent; Start brings its turn, and the card
it plays then is the one event the table gets."""

import pytest

from tests.link.harness import wait_for
from tests.web.engines import MISSING, open_engine, phone_id, visit
from tests.web.test_seat_page import boot
from tests.web.test_tablet_link import tablet  # noqa: F401  # the fixture: phones server, Transport, Notes

pytestmark = [pytest.mark.browser]

# red 0..13, yellow 14..27, ...: a hand with red cards; the column gives a red card speed 3
VIEW = {"car": 0, "hand": [0, 1, 15, 30], "col": [3, 4], "pos": 0, "speed": 0, "ahead": -1, "round": 1, "k": 1,
        "turn": 0, "over": 0, "win": 0}


@pytest.fixture(params=["chromium", "webkit"])
def engine(request):
    if MISSING[request.param]:
        pytest.skip(MISSING[request.param])
    with open_engine(request.param) as b:
        yield b


def rows(page):
    from tests.firmware.dash import text_rows

    got = page.screen()
    return text_rows(got[1]) if got is not None else [""] * 8


def test_a_formula5_phone_paired_before_the_start_waits_for_the_table(tablet, engine):  # noqa: F811
    url, transport, notes = tablet
    page = visit(engine, url)
    boot(page)
    dev = phone_id(page)
    assert wait_for(lambda: notes.of("hello", dev), 15)
    told = transport.send(dev, "f5", dict(VIEW, wait=1, deal=1))  # paired on the pairing screen: the hand, no turn
    assert wait_for(lambda: notes.drain() and told in notes.answered(dev), 20)
    page.wait(lambda: rows(page)[0].startswith("FORMULA 5"), what="the new game's message")
    page.press("OK")  # the message read
    page.wait(lambda: rows(page)[0].startswith("WAIT FOR START"), what="the phone saying it waits for the table")
    page.press("OK", "OK")  # the hand, then its first row: a red card
    page.wait(lambda: rows(page)[7].startswith("WAIT FOR START"), what="the card refused on the phone")
    assert rows(page)[0].startswith("HAND")
    page.press("BACK")

    started = transport.send(dev, "f5", dict(VIEW, turn=1))  # the table's Start
    assert wait_for(lambda: notes.drain() and started in notes.answered(dev), 20)
    page.wait(lambda: rows(page)[0].startswith("YOUR TURN"), what="the turn, once the table started")
    page.press("OK", "OK")
    assert wait_for(lambda: notes.of("event", dev), 20)
    # the link keeps its order: a card sent before the start would have come first
    played = [(n[3], n[4]) for n in notes.of("event", dev)]
    assert played[0] == ("f5race", {"card": 0, "k": 1}) and len({str(p) for p in played}) == 1, played
