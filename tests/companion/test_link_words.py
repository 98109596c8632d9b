"""Each car's link in words (companion/link_words.py), as the pairing screen says it: which way (USB, Wi-Fi, a phone,
this tablet) and how well, from what the transport knows (Transport.link_info), without a window."""

from companion import link_words
from companion.transport import AllPorts, NoPorts, Transport
from companion.transport.websocket_backend import LinkPorts


def info(**kw):
    base = {"port": "k", "heard_ms": 300, "acked_ms": 400, "waiting": 0, "waited_ms": None, "resends": 0}
    base.update(kw)
    return base


def test_the_way_a_dashboard_is_linked():
    assert link_words.kind(None) == "USB"
    assert link_words.kind("dashboard:abc") == "Wi-Fi"
    assert link_words.kind("a" * 26) == "phone"
    assert link_words.kind(None, virtual=True) == "this tablet"


def test_how_well_in_words():
    assert link_words.words("connected", info(), "dashboard:k") == "Wi-Fi: linked"
    assert link_words.words("connected", info(acked_ms=None)) == "USB: linked"
    assert link_words.words("connected", info(acked_ms=12400)) == "USB: linked, last answer 12 s ago"
    assert link_words.words("connected", info(resends=2)) == "USB: linked, 2 sent again"
    slow = link_words.words("connected", info(waiting=2, waited_ms=3100, resends=4), "t" * 26)
    assert slow == "phone: slow: 2 commands waiting, 4 sent again"
    assert link_words.words("silent", info(heard_ms=3200)) == "USB: silent"
    assert link_words.words("lost", info(heard_ms=25000), "dashboard:k") == "Wi-Fi: lost, last heard 25 s ago"
    assert link_words.words("lost", None) == "USB: lost"


def test_the_words_change_at_most_once_a_second_as_time_passes():
    # The pairing screen says them at every tick: a text that changed with every tick made every card's label drawn
    # again 30 times a second
    said = {link_words.words("connected", info(heard_ms=ms, acked_ms=ms)) for ms in range(0, 9000, 33)}
    assert said == {"USB: linked"}
    said = {link_words.words("lost", info(heard_ms=ms)) for ms in range(20000, 21000, 33)}
    assert len(said) <= 2


def test_a_transport_says_what_it_knows_of_a_link():
    links = LinkPorts()
    t = Transport(AllPorts(NoPorts(), links))
    assert t.link_info("nobody") is None
    t.send("dash-1", "sync", {})  # queued for a dashboard never seen yet
    got = t.link_info("dash-1")
    assert got == {"port": None, "heard_ms": None, "acked_ms": None, "waiting": 1, "waited_ms": None, "resends": 0}
    assert link_words.of(t, links, "dash-1") == "USB: lost"
