# What the cards say: the tactic cards' names and the pit cards' texts, for the screens. Apart from cards.py (the
# decks and what each card does) because the dashboard shows them only now and then: it imports this module for
# that moment and drops it again (firmware/ui.py: card_texts), so these texts are not resident in its heap.
from shared_rules.f1 import cards

# One card a line, after its code: first the tactic cards' names, then the pit cards' texts (shortened from the
# rulebook's "Pit Cards (one each)" to fit the dashboard's screen).
TEXTS = """
FG Fast Gear Change
GC Good Carburettor
QR Quick Reactions
SS Slip Streaming
SD Superb Driving
DIRT Dirt in Carburettors. Miss one move.
FUMES Driver affected by fumes. Miss one move.
HOT Engine Overheated. Miss one move.
IGNITION Faulty Ignition. Miss two moves.
STEERING Faulty Steering. Miss one move.
GOOD80 Good Pit Work. Starting speed is 80. Do not miss move.
SLOW40 Good Pit Work, but Slow Start. Starting speed is 40. Do not miss move.
GEAR20 Missed Gear Change. Slow Start. Starting speed is 20. Do not miss move.
ORDERS New Instructions. Extra tactic card from the discard pile. Miss one move.
FUEL No fuel pressure. Miss one move.
TEAM Poor Team Work by Pit Crew. Miss one move.
QUICK Quick Tire Change. Do not miss move.
SLOWTYRE Slow Tire Change. Miss one move.
LININGS Special Brake Linings Fitted. Miss one move.
SPECIAL Special Tires Fitted. Miss one move. One bend at 40 over without penalty.
BLACK Black flagged for a heavy oil leak. Miss one move.
"""


def card_text(code):
    """What the card `code` says (a tactic card's name, a pit card's text), or "" if there is no such card."""
    if code not in cards.TACTIC_TIMING and code not in cards.PIT_CARDS:
        return ""
    start = TEXTS.index("\n%s " % code) + len(code) + 2
    return TEXTS[start : TEXTS.index("\n", start)]
