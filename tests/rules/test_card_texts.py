"""What the cards say lives apart from what they do (shared_rules/f1/card_texts.py, which the dashboard loads only
while it shows a card). Every card must still say exactly what it said when the texts sat in cards.py, and no line
of the table may belong to no card."""

from shared_rules.f1 import cards
from shared_rules.f1.card_texts import TEXTS, card_text

# The texts as cards.py held them (TACTIC_NAMES, and the last field of PIT_CARDS) before they moved.
BEFORE = {
    "FG": "Fast Gear Change",
    "GC": "Good Carburettor",
    "QR": "Quick Reactions",
    "SS": "Slip Streaming",
    "SD": "Superb Driving",
    "DIRT": "Dirt in Carburettors. Miss one move.",
    "FUMES": "Driver affected by fumes. Miss one move.",
    "HOT": "Engine Overheated. Miss one move.",
    "IGNITION": "Faulty Ignition. Miss two moves.",
    "STEERING": "Faulty Steering. Miss one move.",
    "GOOD80": "Good Pit Work. Starting speed is 80. Do not miss move.",
    "SLOW40": "Good Pit Work, but Slow Start. Starting speed is 40. Do not miss move.",
    "GEAR20": "Missed Gear Change. Slow Start. Starting speed is 20. Do not miss move.",
    "ORDERS": "New Instructions. Extra tactic card from the discard pile. Miss one move.",
    "FUEL": "No fuel pressure. Miss one move.",
    "TEAM": "Poor Team Work by Pit Crew. Miss one move.",
    "QUICK": "Quick Tire Change. Do not miss move.",
    "SLOWTYRE": "Slow Tire Change. Miss one move.",
    "LININGS": "Special Brake Linings Fitted. Miss one move.",
    "SPECIAL": "Special Tires Fitted. Miss one move. One bend at 40 over without penalty.",
    "BLACK": "Black flagged for a heavy oil leak. Miss one move.",
}


def test_every_card_says_what_it_said():
    assert sorted(BEFORE) == sorted(list(cards.TACTIC_KINDS) + cards.pit_deck())
    for code, text in BEFORE.items():
        assert card_text(code) == text, code


def test_every_line_of_the_table_is_a_card():
    lines = TEXTS.split("\n")
    assert lines[0] == lines[-1] == ""  # the lookup finds a line by the newline before it, and its end by the one after
    codes = [line.split(" ")[0] for line in lines[1:-1]]
    assert sorted(codes) == sorted(BEFORE)


def test_no_such_card_has_no_text():
    for code in ("XX", "", "dirt", "DIRT Dirt", "Fast", None):
        assert card_text(code) == "", code


def test_pit_cards_keep_what_they_do():
    # The effects stay in cards.py (resident on the dashboard); the fifth field, once the text, is empty.
    assert cards.PIT_CARDS["ORDERS"] == (1, 0, 1, 0, "")
    assert cards.PIT_CARDS["SPECIAL"] == (1, 0, 0, 1, "")
    assert all(len(effect) == 5 and effect[4] == "" for effect in cards.PIT_CARDS.values())
