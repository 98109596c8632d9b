# Formula 5 setup, checked against the rulebook's "Setup" section.

from shared_rules.errors import RuleError
from shared_rules.f5.cards import ALL_CARDS, FIRST_PIT, PER_COLOUR, RACE_CARDS, colour, is_pit_card
from shared_rules.f5.game import Game
from tests.portable.check import raises
from tests.portable.test_f5_table import all_cards, check_invariants

ALL = [0, 1, 2, 3, 4]


def test_material_is_70_race_cards_in_5_colours_and_6_pit_stop_cards():
    # "70 race cards: 14 x 5 colours" and "6 pit stop cards"
    g = Game(3, ALL)
    cards = all_cards(g)
    assert len(cards) == ALL_CARDS == 76
    race = [c for c in cards if not is_pit_card(c)]
    assert len(race) == RACE_CARDS == 70
    for c in range(5):
        assert len([x for x in race if colour(x) == c]) == PER_COLOUR == 14
    assert len([c for c in cards if is_pit_card(c)]) == 6


def test_car_cards_are_placed_randomly_as_starting_positions():
    # "shuffle ALL 5 car cards and place them RANDOMLY on the table ... These are the starting positions."
    orders = []
    for seed in range(20):
        g = Game(seed, ALL)
        assert sorted(g.order) == ALL
        if g.order not in orders:
            orders.append(g.order)
    assert len(orders) > 10


def test_same_seed_gives_the_same_table():
    a = Game(42, [1, 3])
    b = Game(42, [3, 1])
    assert a.snapshot() == b.snapshot()
    assert Game(43, [1, 3]).snapshot() != a.snapshot()


def test_hands_of_12_by_starting_position():
    # "1st and 2nd position: 2 pit stop cards + 10 race cards
    #  3rd and 4th position: 1 pit stop card + 11 race cards
    #  5th position: 12 race cards"
    for seed in range(10):
        g = Game(seed, ALL)
        pits = []
        for pos in range(5):
            hand = g.hand(g.order[pos])
            assert len(hand) == 12
            pits.append(len([c for c in hand if is_pit_card(c)]))
        assert pits == [2, 2, 1, 1, 0]


def test_five_face_up_race_cards_start_the_columns_and_the_rest_is_the_deck():
    # "5 race cards are drawn from the drawing deck and placed FACE UP ... to form 5 columns."
    # "The remaining race cards form a drawing deck."
    g = Game(7, ALL)
    for col in g.columns:
        assert len(col) == 1 and 0 <= col[0] < RACE_CARDS
    assert len(g.deck) == 70 - (10 + 10 + 11 + 11 + 12) - 5 == 11
    assert g.discard == [] and g.set_aside == []
    check_invariants(g)


def test_the_first_speed_of_every_car_is_1():
    # "counting all race cards of the SAME COLOUR AS THE LAST RACE CARD PLAYED IN THE WHOLE COLUMN": one card
    g = Game(8, ALL)
    assert [g.speed(car) for car in ALL] == [1, 1, 1, 1, 1]


def test_cars_without_a_player_receive_no_cards():
    # "cars without a player do not receive cards at the start of the game."
    for seed in range(10):
        g = Game(seed, [2])
        for car in ALL:
            assert (len(g.hand(car)) == 12) == (car == 2)
        # their pit stop cards stay in the box; their race cards stay in the deck
        pos = g.position(2)
        assert len(g.set_aside) == 6 - (2, 2, 1, 1, 0)[pos]
        assert len(g.deck) == 70 - (12 - (2, 2, 1, 1, 0)[pos]) - 5
        check_invariants(g)


def test_pit_stop_cards_are_never_in_the_deck():
    # The drawing deck is made of "The remaining race cards".
    for seed in range(10):
        assert all(c < FIRST_PIT for c in Game(seed, [0, 4]).deck)


def test_the_first_position_plays_first():
    # "The car in first position plays first, the car in second position plays second, and so on."
    g = Game(11, ALL)
    assert g.to_move() == g.order[0] and g.queue == g.order and g.round == 1


def test_bad_setups_are_refused():
    for players in ([], [5], [-1], [1, 1], "01", None, [True]):
        assert raises(RuleError, Game, 1, players).code == "bad_setup"
    assert raises(RuleError, Game, "x", [1]).code == "bad_setup"


def test_a_hand_grouped_by_colour_for_the_dashboard():
    # "each player receives a hand of 12 cards, hidden from the other players": shown on the player's dashboard
    g = Game(12, ALL)
    leader = g.order[0]
    counts = g.hand_counts(leader)
    assert len(counts) == 6 and sum(counts) == 12 and counts[5] == 2
    for c in range(5):
        assert counts[c] == len([x for x in g.hand(leader) if not is_pit_card(x) and colour(x) == c])
    assert g.hand(leader)[-2:] == [c for c in g.hand(leader) if is_pit_card(c)]  # sorted: pit stop cards last
