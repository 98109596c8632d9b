# Helpers for the Formula 5 tests (portable: imported by tests on both runtimes), and tests of the helpers.
#
# table() lays out a chosen position the way a rulebook figure does: columns and hands are written with
# letters, R Y G B W = a race card of colour 0..4 face up, r y g b w = the same face down, * = a pit stop card.

from shared_rules.f5.cards import (
    ALL_CARDS,
    CARS,
    FACE_DOWN,
    FIRST_PIT,
    PER_COLOUR,
    RACE_CARDS,
    colour,
    entry_card,
    is_pit_card,
)
from shared_rules.f5.game import Game
from tests.portable.check import raises

LETTERS = "RYGBW"


def table(columns, hands, order=(0, 1, 2, 3, 4), to_move=None, stopped=(), deck_top=""):
    """A game laid out as given. hands[car] is None for a car without a player.

    columns[pos] belongs to position pos; order[pos] is the car there; to_move (default: the leader) is the
    car whose turn it is, the rest of the round following in position order; deck_top is the top of the
    drawing deck, first letter drawn first. Every one of the 76 cards is somewhere: unnamed race cards go to
    the bottom of the deck, unnamed pit stop cards are set aside. (Its event log is not a replayable one.)
    """
    free = [list(range(c * PER_COLOUR, (c + 1) * PER_COLOUR)) for c in range(len(LETTERS))]
    pits = list(range(FIRST_PIT, ALL_CARDS))

    def take(letter):
        if letter == "*":
            return pits.pop(0)
        if letter in LETTERS:
            return free[LETTERS.index(letter)].pop(0)
        return free[LETTERS.index(letter.upper())].pop(0) + FACE_DOWN

    game = Game(1, [car for car in range(CARS) if hands[car] is not None])
    game.order = list(order)
    game.columns = [[take(x) for x in col] for col in columns]
    game.hands = [[take(x) for x in (h or "")] for h in hands]
    top = [take(x) for x in deck_top]
    rest = []
    for cards in free:
        rest.extend(cards)
    top.reverse()
    game.deck = rest + top  # the top of the deck is the end of the list
    game.discard = []
    game.set_aside = pits
    game.stopped = [car in stopped for car in range(CARS)]
    first = order[0] if to_move is None else to_move
    game.queue = list(order[list(order).index(first) :])
    return game


def card(game, car, letter):
    """A card of that kind from the car's hand (R..W a race card of that colour, * a pit stop card)."""
    for c in game.hand(car):
        if (letter == "*" and is_pit_card(c)) or (not is_pit_card(c) and LETTERS[colour(c)] == letter):
            return c
    raise AssertionError("no %s in the hand of car %d" % (letter, car))


def all_cards(game):
    """Every card the game holds, wherever it is: hands, columns, deck, discards, set aside."""
    cards = list(game.deck) + list(game.discard) + list(game.set_aside)
    for hand in game.hands:
        cards.extend(hand)
    for col in game.columns:
        cards.extend(entry_card(e) for e in col)
    return cards


def check_invariants(game, real=True):
    """What must hold after every event of every game (real=False: a table() layout, any hand sizes)."""
    cards = all_cards(game)
    assert sorted(cards) == list(range(ALL_CARDS)), "76 cards, each exactly once"
    assert sorted(game.order) == list(range(CARS)), "positions are a permutation of the five cars"
    assert all(c < RACE_CARDS for c in game.deck + game.discard), "only race cards are drawn"
    if real:
        # every player plays one card a turn and starts with 12: the hands run out after round 12
        for car in range(CARS):
            if game.is_player(car):
                played = game.round - (1 if car in game.queue else 0)
                assert len(game.hands[car]) == 12 - played
    for car in range(CARS):
        if not game.is_player(car):
            assert game.hands[car] == [], "cars without a player hold no cards"
    if game.over:
        assert game.queue == [] and game.round == 12
    else:
        # Cars still to play this round hold the last places, in order: nobody passes a car that has not
        # played yet, and the cars it passes on its turn end up no further back than where it started.
        assert 0 < len(game.queue) <= CARS
        assert game.queue == game.order[CARS - len(game.queue) :]


def test_table_lays_out_columns_hands_and_keeps_all_76_cards():
    g = table(["RR*", "b", "G", "Y", "W"], ["RB*", None, "GGY", None, None], order=(4, 3, 2, 1, 0))
    assert [colour(c) for c in g.columns[0][:2]] == [0, 0] and is_pit_card(g.columns[0][2])
    assert g.columns[1][0] >= FACE_DOWN
    assert g.hand(0) == sorted(g.hands[0]) and len(g.hand(0)) == 3
    assert g.to_move() == 4
    check_invariants(g, real=False)


def test_invariant_check_notices_a_lost_card():
    g = Game(5, [0, 1, 2, 3, 4])
    check_invariants(g)
    g.deck.pop()
    raises(AssertionError, check_invariants, g)


def test_invariant_check_notices_a_duplicated_car():
    g = Game(5, [0])
    g.order[0] = g.order[1]
    raises(AssertionError, check_invariants, g)
