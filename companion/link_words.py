"""Each car's link to the table in words, for the pairing screen: which way its dashboard is linked (USB, Wi-Fi, a
phone, this tablet's own screen) and how well (linked, slow, silent, lost), from what the transport knows of it
(Transport.link_info). Plain Python: the words are tested without a window; pairing.kv shows them.

    words(status, info, token=None, virtual=False)   -> "Wi-Fi: linked, 2 sent again"
    of(transport, links, dev, virtual=False)         the same, from the transport and its link ports (LinkPorts)
    beside_the_car(line)                             what the race screen says of it: "phone: lost", or nothing
"""

from companion.dashboards_wifi import TOKEN_PREFIX

USB, WIFI, PHONE, TABLET = "USB", "Wi-Fi", "phone", "this tablet"
SLOW_MS = 2000  # a command unanswered this long, or this many resends, makes a link "slow" in words
SLOW_RESENDS = 3
OLD_MS = 10000  # an answer older than this is said with its age (a quiet table: nothing was asked since)


def kind(token=None, virtual=False):
    """Which way a dashboard is linked: its port's token (a phone seat's, or a Wi-Fi dashboard's key) tells."""
    if virtual:
        return TABLET
    if token is None:
        return USB
    return WIFI if token.startswith(TOKEN_PREFIX) else PHONE


def _seconds(ms):
    return "%d s" % round(ms / 1000.0)  # whole seconds: the words change at most once a second


def quality(status, info):
    """How the link is, in words: "linked", "linked, last answer 12 s ago" (an answer older than OLD_MS), "slow: 2
    commands waiting, 4 sent again", "silent", "lost" (with when it was last heard, when known)."""
    if info is None or status == "lost":
        heard = info and info.get("heard_ms")
        return "lost" if heard is None else "lost, last heard %s ago" % _seconds(heard)
    if status != "connected":
        return "silent"
    waited, resends = info.get("waited_ms"), info.get("resends", 0)
    again = ", %d sent again" % resends if resends else ""
    if waited is not None and waited >= SLOW_MS or resends >= SLOW_RESENDS and info.get("waiting"):
        n = info.get("waiting", 0)
        return "slow: %d command%s waiting%s" % (n, "" if n == 1 else "s", again)
    acked = info.get("acked_ms")
    return ("linked, last answer %s ago" % _seconds(acked) if acked is not None and acked >= OLD_MS
            else "linked") + again


def words(status, info, token=None, virtual=False):
    """The whole line: "Wi-Fi: linked, 2 sent again"."""
    return "%s: %s" % (kind(token, virtual), quality(status, info))


def of(transport, links, dev, virtual=False):
    """Dashboard `dev`'s line, from the transport (Transport.link_info) and the link ports (their tokens)."""
    info = transport.link_info(dev)
    port = info["port"] if info is not None else None
    token = links.token_of(port) if port is not None and links is not None else None
    return words(transport.status(dev), info, token, virtual)


def beside_the_car(line):
    """The race screen's words for a car's link, small beside the car: which way and what is wrong ("phone: lost",
    "USB: slow", "Wi-Fi: silent"), and nothing while it is linked, however long since its last answer and however
    many commands were sent again (a player looks there to see why a car is not answering; "linked" on every car
    would only be noise). The details (ages, counts) are the pairing screen's: beside the car they were cut short
    to "phone: ...t again" in a car's panel, and an age redrew the window every second."""
    way, _, how = line.partition(": ")
    state = how.split(",")[0].split(":")[0]
    return "" if state == "linked" else "%s: %s" % (way, state)
