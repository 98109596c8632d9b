# The two decks, tactic cards (5 kinds) and the 16 pit cards: what each card does and what it says.

FAST_GEAR = "FG"
CARBURETTOR = "GC"
QUICK_REACTIONS = "QR"
SLIP_STREAM = "SS"
SUPERB = "SD"
TACTIC_KINDS = (FAST_GEAR, CARBURETTOR, QUICK_REACTIONS, SLIP_STREAM, SUPERB)  # the codes, as on the wire
PER_KIND = 7  # "Tactic Cards (7 of each)"; some printed editions had 6
HAND_SIZE = 5

# When a tactic card may be played.
AT_START = 0  # "Use at the beginning of any turn"
DURING = 1  # "Use during any turn"
AT_END = 2  # "Use at the end of any turn except when you have spun off or are in the Pit"

TACTIC_NAMES = {
    FAST_GEAR: "Fast Gear Change",
    CARBURETTOR: "Good Carburettor",
    QUICK_REACTIONS: "Quick Reactions",
    SLIP_STREAM: "Slip Streaming",
    SUPERB: "Superb Driving",
}
# Every tactic card has a timing: `code in TACTIC_TIMING` tells a tactic card (as `code in PIT_CARDS` a pit card).
TACTIC_TIMING = {FAST_GEAR: AT_END, CARBURETTOR: AT_START, QUICK_REACTIONS: AT_END, SLIP_STREAM: AT_END, SUPERB: DURING}
EXTRA_SPACES = {FAST_GEAR: 2, QUICK_REACTIONS: 4, SLIP_STREAM: 3}

# Pit cards: code -> (moves missed, starting speed or 0, extra tactic card, special tyres, text). The texts are the
# rulebook's "Pit Cards (one each)", a few shortened to fit the dashboard's screen.
PIT_CARDS = {
    "DIRT": (1, 0, 0, 0, "Dirt in Carburettors. Miss one move."),
    "FUMES": (1, 0, 0, 0, "Driver affected by fumes. Miss one move."),
    "HOT": (1, 0, 0, 0, "Engine Overheated. Miss one move."),
    "IGNITION": (2, 0, 0, 0, "Faulty Ignition. Miss two moves."),
    "STEERING": (1, 0, 0, 0, "Faulty Steering. Miss one move."),
    "GOOD80": (0, 80, 0, 0, "Good Pit Work. Starting speed is 80. Do not miss move."),
    "SLOW40": (0, 40, 0, 0, "Good Pit Work, but Slow Start. Starting speed is 40. Do not miss move."),
    "GEAR20": (0, 20, 0, 0, "Missed Gear Change. Slow Start. Starting speed is 20. Do not miss move."),
    "ORDERS": (1, 0, 1, 0, "New Instructions. Extra tactic card from the discard pile. Miss one move."),
    "FUEL": (1, 0, 0, 0, "No fuel pressure. Miss one move."),
    "TEAM": (1, 0, 0, 0, "Poor Team Work by Pit Crew. Miss one move."),
    "QUICK": (0, 0, 0, 0, "Quick Tire Change. Do not miss move."),
    "SLOWTYRE": (1, 0, 0, 0, "Slow Tire Change. Miss one move."),
    "LININGS": (1, 0, 0, 0, "Special Brake Linings Fitted. Miss one move."),
    "SPECIAL": (1, 0, 0, 1, "Special Tires Fitted. Miss one move. One bend at 40 over without penalty."),
    "BLACK": (1, 0, 0, 0, "Black flagged for a heavy oil leak. Miss one move."),
}
SPECIAL_TYRES = "SPECIAL"


def card_text(code):
    """What the card `code` says (a tactic card's name, a pit card's text), or "" if there is no such card."""
    if code in TACTIC_NAMES:
        return TACTIC_NAMES[code]
    if code in PIT_CARDS:
        return PIT_CARDS[code][4]
    return ""


def tactic_deck(per_kind=PER_KIND):
    """The unshuffled tactic deck, per_kind cards of each kind, in a fixed order so that a seed always gives the
    same shuffle."""
    deck = []
    for kind in TACTIC_KINDS:
        deck += [kind] * per_kind
    return deck


def pit_deck():
    return sorted(PIT_CARDS)
