# Formula 5 turns: playing a race card, speed, overtaking, round order. Rulebook "How to Play".

from shared_rules.errors import RuleError
from shared_rules.f5.cards import column_speed
from shared_rules.f5.game import Game
from tests.portable.check import raises
from tests.portable.test_f5_table import card, check_invariants, table


def entries(letters):
    return table([letters, "Y", "Y", "Y", "Y"], ["W", None, None, None, None]).columns[0]


def test_speed_counts_the_colour_of_the_last_race_card_in_the_whole_column():
    # "DETERMINE THE SPEED of the car by counting all race cards of the SAME COLOUR AS THE LAST RACE CARD
    # PLAYED IN THE WHOLE COLUMN."
    assert column_speed(entries("R")) == 1
    assert column_speed(entries("RBRR")) == 3
    assert column_speed(entries("RBRRB")) == 2
    assert column_speed(entries("GGGGB")) == 1


def test_pit_stop_side_cards_do_not_count_for_speed():
    # Pit stops are played "a pit stop card or a race card FACE DOWN (pit stop side)": not race cards.
    assert column_speed(entries("RR*")) == 2
    assert column_speed(entries("RRr")) == 2
    assert column_speed(entries("RBb")) == 1


def test_the_card_goes_into_the_column_of_the_car_and_stays_there():
    # "place it in the column corresponding to their CAR, overlapped, so that all race cards are always visible"
    g = table(["Y", "G", "B", "W", "R"], ["R", "R", "R", "R", "R"], order=(3, 1, 4, 0, 2))
    red = card(g, 3, "R")
    result = g.play(3, red)
    assert g.columns[0][-1] == red and g.hand(3) == []
    assert result["card"] == red and result["speed"] == 1 and result["overtaken"] == []
    assert g.events[-1] == ["race", 3, red]


def test_a_speed_of_3_beats_a_speed_of_2():
    # "RESOLVE any overtaking by swapping the position of their car card with the car card preceding it, only
    # if its SPEED is GREATER than the SPEED of the car preceding it."  Fig. 2: a speed of 3 beats a speed of 2.
    g = table(["BB", "RR", "G", "Y", "W"], ["B", "R", "G", "Y", "W"], to_move=1)
    assert g.speed(0) == 2
    result = g.play(1, card(g, 1, "R"))
    assert result["speed"] == 3 and result["overtaken"] == [0]
    assert g.order == [1, 0, 2, 3, 4]


def test_the_overtaken_car_moves_back_a_column_and_takes_its_speed():
    # "When a car is overtaken, it moves back one position and thus changes column. Consequently, its speed
    # changes, since the speed is always relative to the column the car is in."
    g = table(["BB", "RR", "G", "Y", "W"], ["B", "R", "G", "Y", "W"], to_move=1)
    result = g.play(1, card(g, 1, "R"))
    # the cards stay where they are: car 1 now races on column 0 (speed 2), car 0 on column 1 (speed 3)
    assert [len(c) for c in g.columns] == [2, 3, 1, 1, 1]
    assert result["speed"] == 3
    assert g.speed(1) == 2
    assert g.speed(0) == 3


def test_a_same_speed_does_not_overtake():
    # "In the case of a lower or same speed, overtaking does not happen."
    g = table(["BB", "R", "G", "Y", "W"], ["B", "R", "G", "Y", "W"], to_move=1)
    assert g.play(1, card(g, 1, "R"))["overtaken"] == []
    assert g.speed(1) == 2 == g.speed(0)
    assert g.order == [0, 1, 2, 3, 4]


def test_a_lower_speed_does_not_overtake():
    # "In the case of a lower or same speed, overtaking does not happen."
    g = table(["BBB", "R", "G", "Y", "W"], ["B", "R", "G", "Y", "W"], to_move=1)
    assert g.play(1, card(g, 1, "R"))["overtaken"] == []
    assert g.order == [0, 1, 2, 3, 4]


def test_only_a_single_car_per_turn():
    # "You may overtake a SINGLE CAR per turn."
    g = table(["B", "Y", "GGGG", "W", "R"], ["B", "Y", "G", "W", "R"], to_move=2)
    assert g.play(2, card(g, 2, "G"))["overtaken"] == [1]
    assert g.order == [0, 2, 1, 3, 4]
    # now on column 1 (speed 1), it is not faster than car 0 anyway; the next car plays
    assert g.to_move() == 3


def test_the_leader_has_no_one_to_overtake():
    g = table(["R", "GGGG", "B", "Y", "W"], ["R", "G", "B", "Y", "W"])
    assert g.play(0, card(g, 0, "R"))["overtaken"] == []
    assert g.order == [0, 1, 2, 3, 4] and g.speed(0) == 2


def test_a_car_may_be_overtaken_more_than_once_in_the_same_round():
    # "A car may therefore be overtaken more than once in the same round."
    g = table(["R", "B", "GG", "Y", "W"], ["Y", "B", "G", "Y", "W"])
    g.play(0, card(g, 0, "Y"))  # column 0: R Y -> speed 1
    assert g.play(1, card(g, 1, "B"))["overtaken"] == [0]  # 2 beats 1; car 0 now on column 1 (speed 2)
    assert g.play(2, card(g, 2, "G"))["overtaken"] == [0]  # 3 beats 2
    assert g.order == [1, 2, 0, 3, 4]


def test_each_car_plays_once_a_round_in_the_order_of_the_positions_when_it_began():
    # "When all cars have played their turn, the round ends." An overtaken car does not play again, and the
    # car that overtook it does not lose its turn (docs/rules-formula5.md).
    g = table(["R", "B", "GG", "Y", "W"], ["YR", "BR", "GR", "YR", "WR"])
    played = []
    for _ in range(5):
        car = g.to_move()
        played.append(car)
        g.play(car, card(g, car, "YBGYW"[car]))
    assert played == [0, 1, 2, 3, 4]
    assert g.order == [1, 2, 0, 3, 4]


def test_the_new_round_starts_with_the_new_positions():
    # "When all cars have played their turn, the round ends. The new round starts considering the new
    # positions. The car in first position plays first, the car in second position plays second, and so on."
    g = table(["R", "B", "GG", "Y", "W"], ["YR", "BR", "GR", "YR", "WR"])
    for _ in range(5):
        car = g.to_move()
        result = g.play(car, card(g, car, "YBGYW"[car]))
    assert result["round_over"] and not result["over"]
    assert g.round == 2 and g.queue == [1, 2, 0, 3, 4] and g.to_move() == 1


def test_a_car_without_a_player_plays_the_top_card_of_the_deck():
    # "On their turn, they draw from the drawing deck"; "PLAY a race card from their hand (or draw it from the
    # drawing deck in case of cars without a player)"
    g = table(["R", "BB", "G", "Y", "W"], ["R", None, "G", "Y", "W"], to_move=1, deck_top="BG")
    result = g.drive(1)
    assert g.columns[1][-1] == result["card"] and result["speed"] == 3
    assert result["overtaken"] == [0] and g.order == [1, 0, 2, 3, 4]
    assert g.speed(1) == 1 and g.speed(0) == 3
    assert g.events[-1] == ["drive", 1]
    assert g.hand(1) == []


def test_a_card_not_in_the_hand_is_refused_and_changes_nothing():
    g = Game(4, [0, 1, 2, 3, 4])
    car = g.to_move()
    other = g.order[1]
    before = g.snapshot()
    assert raises(RuleError, g.play, car, g.hand(other)[0]).code == "not_in_hand"
    assert raises(RuleError, g.play, car, 99).code == "not_in_hand"
    assert raises(RuleError, g.play, car, "R").code == "not_in_hand"
    assert g.snapshot() == before


def test_playing_out_of_turn_is_refused_and_changes_nothing():
    g = Game(4, [0, 1, 2, 3, 4])
    other = g.order[1]
    before = g.snapshot()
    e = raises(RuleError, g.play, other, g.hand(other)[0])
    assert e.code == "not_your_turn" and str(e)
    assert raises(RuleError, g.play, 7, 0).code == "bad_car"
    assert g.snapshot() == before


def test_a_pit_stop_card_cannot_be_played_race_side():
    # "PLAY a race card from their hand"; the pit stop card only serves "to make a PIT STOP"
    g = table(["R", "B", "G", "Y", "W"], ["*R", "R", "R", "R", "R"])
    before = g.snapshot()
    assert raises(RuleError, g.play, 0, card(g, 0, "*")).code == "pit_card"
    assert g.snapshot() == before


def test_who_chooses_and_who_draws():
    # cars without a player draw; a player's car is played by its player
    g = table(["R", "B", "G", "Y", "W"], ["R", None, "R", "R", "R"])
    before = g.snapshot()
    assert raises(RuleError, g.drive, 0).code == "has_player"
    g.play(0, card(g, 0, "R"))
    middle = g.snapshot()
    assert raises(RuleError, g.play, 1, 5).code == "no_player"
    assert g.snapshot() == middle != before


def test_malformed_events_are_refused():
    g = Game(4, [0])
    before = g.snapshot()
    for event in (None, [], ["race"], ["fly", 0], ["race", 0], ["pit", 0, 70], ["drive"], "race", ["setup", 1, [0]]):
        assert raises(RuleError, g.apply, event).code == "bad_event"
    assert g.snapshot() == before


def test_apply_plays_what_the_log_records():
    g = Game(9, [0, 1, 2, 3, 4])
    car = g.to_move()
    race = [c for c in g.hand(car) if c < 70][0]
    g.apply(["race", car, race])
    assert g.events[-1] == ["race", car, race] and len(g.events) == 2
    check_invariants(g)
