"""What the cards say, beside what they do (shared_rules/f1/cards.py): every card says what the dashboard's screen
and the tablet have always shown."""

from shared_rules.f1 import cards
from shared_rules.f1.cards import card_text

SAID = {
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
    assert sorted(SAID) == sorted(list(cards.TACTIC_KINDS) + cards.pit_deck())
    for code, text in SAID.items():
        assert card_text(code) == text, code


def test_no_such_card_has_no_text():
    for code in ("XX", "", "dirt", "DIRT Dirt", "Fast", None):
        assert card_text(code) == "", code


def test_a_pit_card_holds_what_it_does_and_its_text():
    assert cards.PIT_CARDS["ORDERS"] == (1, 0, 1, 0, SAID["ORDERS"])
    assert cards.PIT_CARDS["SPECIAL"] == (1, 0, 0, 1, SAID["SPECIAL"])
