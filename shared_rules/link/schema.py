# What a dashboard may send the tablet: every message is checked here where it enters (tablet.Session), before
# any rule sees it. The codec only promises a JSON object of ints, strings, lists and objects with a string "t";
# a well-formed frame can still hold a list where a name belongs, and the rules (which index dicts with it,
# or look it up in a set) would raise. The tablet's side only: a dashboard never imports this module.
from shared_rules.f1 import cards
from shared_rules.f1.car_state import _INT_FIELDS
from shared_rules.f1.status import STATUSES

OK = "ok"  # fit to handle (an unreadable state in it replaced by {}: the table's car goes back to it)
DROP = "drop"  # nothing in it can be trusted, not even an id to answer: dropped unanswered
REFUSE = "refuse"  # an event the table cannot take: acknowledged (the dashboard stops resending), never passed on

MAX_ID = 64  # ids, dashboard ids: far longer than any real one (event ids are ~22 characters)
MAX_NAME = 16  # event names, error codes
MAX_TEXT = 80  # error messages, firmware versions
MAX_HAND = 40
MAX_WAITING = 64  # "q": the events a dashboard holds unacknowledged (its outbox keeps 16)
MAX_F5_HAND = 20


def _int(v, lo=0, hi=1 << 31):
    return type(v) is int and lo <= v <= hi


def _text(v, most, least=0):
    return type(v) is str and least <= len(v) <= most


def _f1_card(v):
    return type(v) is str and v in cards.TACTIC_TIMING


def _f5_card(v):
    return _int(v, 0, 255)


def snapshot_problem(s):
    """Why s is no snapshot a dashboard could send (None if it is one): a Formula 1 car (Car.snapshot(), the
    ranges are Car.from_snapshot's to judge) or a Formula 5 seat's counters."""
    if type(s) is not dict:
        return "state is not an object"
    if s.get("game") == "f5":
        return None if _int(s.get("k"), -1) and _int(s.get("n"), 0, MAX_F5_HAND) else "bad Formula 5 state"
    for name, _highest in _INT_FIELDS:
        if type(s.get(name)) is not int:
            return "state field %s is not a number" % name
    if s.get("status") not in STATUSES:
        return "state has no known status"
    hand = s.get("hand")
    if type(hand) is not list or len(hand) > MAX_HAND:
        return "state hand is not a list of at most %d cards" % MAX_HAND
    for c in hand:
        if not _f1_card(c):
            return "state hand holds something that is no tactic card"
    return None


# Each event a dashboard may send: {arg: (check, required)}. The rules judge the values (a speed the car cannot
# take, a card it does not hold); this only makes sure each is of a kind they can judge.
def _speed(v):
    return _int(v, 0, 1000)


def _flag(v):
    return _int(v, 0, 1)


def _f5_turn(v):
    return _int(v, -1)


def _f5_discards(v):
    return type(v) is list and len(v) <= MAX_F5_HAND and all(_f5_card(x) for x in v)


EVENTS = {
    "speed": {"v": (_speed, 1), "card": (_f1_card, 0)},
    "hold": {"v": (_speed, 1)},
    "card": {"card": (_f1_card, 1), "clear": (_flag, 0)},
    "lap": {"over": (_speed, 0)},
    "end": {},
    "f5race": {"card": (_f5_card, 1), "k": (_f5_turn, 1)},
    "f5pit": {"card": (_f5_card, 1), "k": (_f5_turn, 1), "d": (_f5_discards, 1)},
}


def event_problem(name, args):
    """Why (name, args) is no event a dashboard could send (None if it is one). A name not listed in EVENTS
    passes with any object of arguments: the game it is for refuses what it does not know."""
    if not _text(name, MAX_NAME, 1):
        return "event name is not a short text"
    if type(args) is not dict:
        return "event %s: arguments are not an object" % name
    spec = EVENTS.get(name, {})
    for key, (ok, required) in spec.items():
        if key in args:
            if not ok(args[key]):
                return "event %s: bad %s" % (name, key)
        elif required:
            return "event %s: no %s" % (name, key)
    return None


def _state(msg):
    """The state a message carries, checked: an unreadable one becomes {} (it differs from every car). Returns
    what was wrong, or None."""
    if "s" not in msg:
        return None
    why = snapshot_problem(msg["s"])
    if why is not None:
        msg["s"] = {}
    if "r" in msg and not _int(msg["r"]):
        msg.pop("r")
        why = why or "bad revision"
    return why


def inbound(msg):
    """Check one message from a dashboard, fixing what can be fixed in place. Returns (verdict, why): verdict OK,
    DROP or REFUSE (above), why None or a short text saying what was wrong, for the log."""
    t = msg["t"]
    if "n" in msg and not _int(msg["n"]):
        return DROP, "%s: bad sequence number" % t
    if "q" in msg and not _int(msg["q"], 0, MAX_WAITING):
        return DROP, "%s: bad count of waiting events" % t
    if t == "hello":
        if not _text(msg.get("dev"), MAX_ID, 1):
            return DROP, "hello without a dashboard id"
        why = None
        if not _text(msg.get("fw"), MAX_TEXT):
            msg["fw"] = "?"
            why = "hello: bad firmware version"
        if not _int(msg.get("p")):
            msg["p"] = -1  # no version we speak: the tablet sends it no commands
            why = "hello: bad protocol version"
        if "w" in msg and not _text(msg["w"], MAX_ID):
            del msg["w"]  # read as a dashboard without Wi-Fi
            why = "hello: bad Wi-Fi network"
        return OK, _state(msg) or why
    if t == "hb":
        if not _int(msg.get("r")):
            return DROP, "hb: bad revision"
        return OK, None
    if t in ("ack", "err", "ev") and not _text(msg.get("id"), MAX_ID, 1):
        return DROP, "%s without a usable id" % t
    if t == "ack":
        if msg.get("dup", 0) not in (0, 1):
            return DROP, "ack: bad dup"
        return OK, _state(msg)
    if t == "err":
        why = None
        if not _text(msg.get("e"), MAX_NAME, 1):
            msg["e"] = "invalid"
            why = "err: bad code"
        if not _text(msg.get("m", ""), MAX_TEXT):
            msg["m"] = ""
            why = "err: bad message"
        return OK, why
    if t == "st":
        if "s" not in msg:
            return DROP, "st without a state"
        return OK, _state(msg)
    if t == "ev":
        state_why = _state(msg)
        why = event_problem(msg.get("e"), msg.get("a"))
        if why is not None:
            return REFUSE, why
        return OK, state_why
    if t == "wifi":
        if not _text(msg.get("id"), MAX_ID):
            return DROP, "wifi without a usable id"
        if not _text(msg.get("w", ""), MAX_ID) or not _text(msg.get("e", ""), MAX_NAME) or \
                not _text(msg.get("m", ""), MAX_TEXT):
            return DROP, "wifi: bad answer"
        return OK, None
    return OK, None  # another type: the session ignores what it does not know (protocol section 8)
