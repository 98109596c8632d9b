# The two decks: tactic cards (5 kinds) and the 16 pit cards, and what each card does. What they say (names,
# texts) is in card_texts.py, which the dashboard loads only while it shows one.

# Tactic cards, by code (as on the wire): FG Fast Gear Change, GC Good Carburettor, QR Quick Reactions, SS Slip
# Streaming, SD Superb Driving. Only the two other rules name have a name here (a module-level name is a dict slot
# and a string on the dashboard, for good).
CARBURETTOR = "GC"
SUPERB = "SD"
TACTIC_KINDS = ("FG", CARBURETTOR, "QR", "SS", SUPERB)
PER_KIND = 7  # "Tactic Cards (7 of each)"; some printed editions had 6
HAND_SIZE = 5

# When a tactic card may be played.
AT_START = 0  # "Use at the beginning of any turn"
DURING = 1  # "Use during any turn"
AT_END = 2  # "Use at the end of any turn except when you have spun off or are in the Pit"

# Every tactic card has a timing: `code in TACTIC_TIMING` tells a tactic card (as `code in PIT_CARDS` a pit card).
TACTIC_TIMING = {"FG": AT_END, CARBURETTOR: AT_START, "QR": AT_END, "SS": AT_END, SUPERB: DURING}
EXTRA_SPACES = {"FG": 2, "QR": 4, "SS": 3}

# Pit cards: code -> (moves missed, starting speed or 0, extra tactic card, special tyres, ""). The last field was
# the card's text (now card_texts.card_text): kept empty, so that unpacking five fields still works and cards that
# do the same share one tuple (the compiler merges equal constants: 8 tuples for 16 cards).
PIT_CARDS = {
    "DIRT": (1, 0, 0, 0, ""),
    "FUMES": (1, 0, 0, 0, ""),
    "HOT": (1, 0, 0, 0, ""),
    "IGNITION": (2, 0, 0, 0, ""),
    "STEERING": (1, 0, 0, 0, ""),
    "GOOD80": (0, 80, 0, 0, ""),
    "SLOW40": (0, 40, 0, 0, ""),
    "GEAR20": (0, 20, 0, 0, ""),
    "ORDERS": (1, 0, 1, 0, ""),
    "FUEL": (1, 0, 0, 0, ""),
    "TEAM": (1, 0, 0, 0, ""),
    "QUICK": (0, 0, 0, 0, ""),
    "SLOWTYRE": (1, 0, 0, 0, ""),
    "LININGS": (1, 0, 0, 0, ""),
    "SPECIAL": (1, 0, 0, 1, ""),
    "BLACK": (1, 0, 0, 0, ""),
}
SPECIAL_TYRES = "SPECIAL"


def tactic_deck(per_kind):
    """The unshuffled tactic deck, per_kind cards of each kind (PER_KIND in the rulebook's game), in a fixed order so
    that a seed always gives the same shuffle. (No default: a function with one is a tuple and a block bigger.)"""
    deck = []
    for kind in TACTIC_KINDS:
        deck += [kind] * per_kind
    return deck


def pit_deck():
    return sorted(PIT_CARDS)
