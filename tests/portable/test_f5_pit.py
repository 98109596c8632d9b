# Formula 5 pit stops, the drawing deck and its reshuffle. Rulebook "Pit Stop" and "Setup".

from shared_rules.errors import RuleError
from shared_rules.f5.cards import FACE_DOWN, PIT_SIDE, colour, is_pit_card
from shared_rules.f5.game import Game
from tests.portable.check import raises
from tests.portable.test_f5_table import LETTERS, card, check_invariants, table


def test_a_pit_stop_with_a_pit_stop_card():
    # "INSTEAD OF playing a race card (race side), each player, during their turn, MAY decide to make a PIT
    # STOP by playing a pit stop card or a race card FACE DOWN (pit stop side) in the column of their car."
    g = table(["RR", "B", "G", "Y", "W"], ["*R", "R", "R", "R", "R"])
    pit = card(g, 0, "*")
    result = g.pit(0, pit, [])
    assert g.columns[0][-1] == pit and g.hand(0) == [card(g, 0, "R")]
    assert result["speed"] == 0 and result["overtaken"] == [] and result["drawn"] == []
    assert g.events[-1] == ["pit", 0, pit, []]
    assert g.public()["columns"][0] == [0, 1, PIT_SIDE]


def test_a_pit_stop_with_a_race_card_face_down():
    # "or a race card FACE DOWN (pit stop side)": nobody sees which race card it was
    g = table(["RR", "B", "G", "Y", "W"], ["BR", "R", "R", "R", "R"])
    blue = card(g, 0, "B")
    g.pit(0, blue, [])
    assert g.columns[0][-1] == blue + FACE_DOWN
    assert g.public()["columns"][0][-1] == PIT_SIDE
    assert g.speed(0) == 0
    assert "B" not in [LETTERS[colour(c)] for c in g.hand(0)]


def test_all_players_are_free_to_pit_without_a_pit_stop_card():
    # "But ALL players are FREE TO MAKE PIT STOPS whenever they wish."
    g = table(["R", "B", "G", "Y", "W"], ["RR", "RR", "R", "R", "R"], to_move=1)
    g.pit(1, card(g, 1, "R"), [])
    assert g.stopped[1]


def test_a_pit_stop_discards_race_cards_and_draws_as_many():
    # "The PIT STOP allows the active player to discard as many race cards from their hand as they wish (but no
    # pit stop cards) and to draw the same number from the drawing deck"
    g = table(["R", "B", "G", "Y", "W"], ["*RRGY*", "R", "R", "R", "R"], deck_top="BBW")
    hand = g.hand(0)
    discards = [card(g, 0, "G"), card(g, 0, "R")]
    result = g.pit(0, card(g, 0, "*"), discards)
    assert len(result["drawn"]) == 2 and [LETTERS[colour(c)] for c in result["drawn"]] == ["B", "B"]
    assert g.discard == sorted(discards)
    assert len(g.hand(0)) == len(hand) - 1
    assert sorted(c for c in g.hand(0) if not is_pit_card(c)) == sorted(
        [c for c in hand if not is_pit_card(c) and c not in discards] + result["drawn"]
    )
    assert g.events[-1] == ["pit", 0, result["card"], sorted(discards)]


def test_pit_stop_cards_cannot_be_discarded():
    # "(but no pit stop cards)"
    g = table(["R", "B", "G", "Y", "W"], ["**R", "RR", "RR", "RR", "RR"])
    pits = [c for c in g.hand(0) if is_pit_card(c)]
    before = g.snapshot()
    assert raises(RuleError, g.pit, 0, pits[0], [pits[1]]).code == "bad_discard"
    assert g.snapshot() == before


def test_bad_discards_are_refused_and_change_nothing():
    g = table(["R", "B", "G", "Y", "W"], ["*RG", "RR", "RR", "RR", "YY"])
    before = g.snapshot()
    red, green, pit = card(g, 0, "R"), card(g, 0, "G"), card(g, 0, "*")
    assert raises(RuleError, g.pit, 0, pit, [red, red]).code == "bad_discard"
    assert raises(RuleError, g.pit, 0, red, [red]).code == "bad_discard"  # played and discarded at once
    assert raises(RuleError, g.pit, 0, pit, [card(g, 4, "Y")]).code == "bad_discard"
    assert raises(RuleError, g.pit, 0, pit, [green, 200]).code == "bad_discard"
    assert raises(RuleError, g.pit, 0, pit, green).code == "bad_discard"
    assert raises(RuleError, g.pit, 0, card(g, 4, "Y"), []).code == "not_in_hand"
    assert raises(RuleError, g.pit, 1, card(g, 1, "R"), []).code == "not_your_turn"
    assert g.snapshot() == before


def test_the_speed_is_0_during_a_pit_stop():
    # "During a pit stop the SPEED of the car is 0 (zero)."
    g = table(["RRRR", "B", "G", "Y", "W"], ["*R", "RR", "RR", "RR", "RR"])
    assert g.speed(0) == 4
    g.pit(0, card(g, 0, "*"), [])
    assert g.speed(0) == 0 and g.public()["speeds"][0] == 0 and g.public()["stopped"][0]


def test_a_car_in_the_pit_lets_the_car_behind_overtake_with_speed_1():
    # "During a pit stop the SPEED of the car is 0 (zero)." Fig. 3: the white player makes a pit stop.
    # Fig. 4: the blue player takes advantage of this and overtakes with a speed of 1.
    white, blue = 4, 3
    g = table(["R", "GGG", "B", "Y", "W"], ["R", "R", "R", "R", "R"], order=(0, white, blue, 1, 2), to_move=white)
    g.pit(white, card(g, white, "R"), [])
    result = g.play(blue, card(g, blue, "R"))  # column B R: speed 1, less than the 3 of white's column
    assert result["speed"] == 1 and result["overtaken"] == [white]
    assert g.order == [0, blue, white, 1, 2]


def test_without_the_pit_stop_speed_1_would_not_overtake():
    # the control for the figure above: "In the case of a lower or same speed, overtaking does not happen."
    white, blue = 4, 3
    g = table(["R", "GGG", "B", "Y", "W"], ["R", "R", "R", "R", "G"], order=(0, white, blue, 1, 2), to_move=white)
    g.play(white, card(g, white, "G"))
    assert g.play(blue, card(g, blue, "R"))["overtaken"] == []


def test_several_consecutive_stopped_cars_can_all_be_overtaken():
    # "If there are several CONSECUTIVE cars stopped for pit stops you are allowed to overtake them all."
    g = table(["RRR", "B", "GG", "Y", "W"], ["*B", "*B", "*B", "R", "R"], to_move=1)
    g.pit(1, card(g, 1, "*"), [])
    g.pit(2, card(g, 2, "*"), [])
    result = g.play(3, card(g, 3, "R"))
    assert result["overtaken"] == [2, 1]
    assert g.order == [0, 3, 1, 2, 4]  # each overtaken car moves back one position


def test_after_the_stopped_cars_a_moving_car_is_not_overtaken_the_same_turn():
    # "You may overtake a SINGLE CAR per turn." The exception is for "CONSECUTIVE cars stopped for pit stops"
    # only (docs/rules-formula5.md): car 3 passes stopped cars 2 and 1, not the slower moving car 0.
    g = table(["R", "B", "GG", "YYYYY", "W"], ["BB", "*B", "*B", "YY", "RR"])
    g.play(0, card(g, 0, "B"))  # column R B: speed 1
    g.pit(1, card(g, 1, "*"), [])
    g.pit(2, card(g, 2, "*"), [])
    assert g.play(3, card(g, 3, "Y"))["overtaken"] == [2, 1]
    assert g.order == [0, 3, 1, 2, 4] and g.speed(3) == 1 == g.speed(0)


def test_a_car_in_fifth_position_that_stops_stays_fifth():
    # "The positions in the race are ALWAYS formed from first to fifth place, there is no gap between cars. If a
    # car in fifth position makes a pit stop it will still be in fifth position."
    g = table(["R", "B", "G", "Y", "W"], ["R", "R", "R", "R", "*"], to_move=4)
    g.pit(4, card(g, 4, "*"), [])
    assert g.order == [0, 1, 2, 3, 4]


def test_a_stopping_car_overtakes_nobody():
    # Its speed is 0, and 0 is not GREATER than anything, not even a stopped car.
    g = table(["R", "B", "G", "Y", "W"], ["*R", "*R", "R", "R", "R"])
    g.pit(0, card(g, 0, "*"), [])
    assert g.pit(1, card(g, 1, "*"), [])["overtaken"] == []
    assert g.order == [0, 1, 2, 3, 4]


def test_the_pit_stop_lasts_until_the_end_of_the_round():
    # docs/rules-formula5.md: stopped from the pit stop to the end of that round, then the column's speed again
    g = table(["R", "B", "G", "Y", "WWW"], ["RR", "RR", "RR", "RR", "*R"], to_move=4)
    result = g.pit(4, card(g, 4, "*"), [])
    assert result["round_over"] and g.round == 2
    assert g.speed(4) == 3 and not g.stopped[4]


def test_a_stopped_car_overtaken_moves_back_and_stays_stopped():
    # the stop belongs to the car, not to the column: a second car may pass it in the same round
    g = table(["R", "B", "G", "Y", "W"], ["*R", "RR", "RR", "RR", "RR"], to_move=0, order=(3, 4, 0, 1, 2))
    g.pit(0, card(g, 0, "*"), [])
    g.play(1, card(g, 1, "R"))
    assert g.order == [3, 4, 1, 0, 2] and g.speed(0) == 0 and g.speed(1) == 1
    g.play(2, card(g, 2, "R"))
    assert g.order == [3, 4, 1, 2, 0] and g.speed(2) == 1
    assert g.round == 2 and g.speed(0) == 1  # the round is over, and so is the stop


def test_cars_without_a_player_do_not_pit_stop():
    # "On their turn, they draw from the drawing deck, and do not pit stop."
    g = table(["R", "B", "G", "Y", "W"], [None, "R", "R", "R", "R"])
    before = g.snapshot()
    assert raises(RuleError, g.pit, 0, 3, []).code == "no_player"
    assert g.snapshot() == before


def test_the_discards_are_shuffled_into_a_new_deck_when_it_runs_out():
    # "The remaining race cards form a drawing deck. Should it run out, shuffle the discarded cards to form it
    # again."
    g = table(["R", "B", "G", "Y", "W"], ["*YYYY", "RRRRR", "GGGGG", "BBBBB", "WWWWW"])
    whites = [c for c in g.deck if colour(c) == 4]
    g.set_aside.extend(c for c in g.deck if colour(c) != 4)
    g.deck = []
    g.discard = list(whites)
    yellows = [c for c in g.hand(0) if not is_pit_card(c)]
    result = g.pit(0, card(g, 0, "*"), yellows)
    assert result["reshuffles"] == 1 and g.discard == []
    assert len(g.hand(0)) == 4 and len(g.deck) == len(whites) + 4 - 4
    assert all(colour(c) in (1, 4) for c in g.hand(0))  # drawn from the reshuffled discards
    check_invariants(g, real=False)


def test_the_discards_just_made_can_come_back_when_the_deck_is_empty():
    # docs/rules-formula5.md: discard first, then draw; an empty deck is re-formed from all the discards
    g = table(["R", "B", "G", "Y", "W"], ["*YYYY", "RRRRR", "GGGGG", "BBBBB", "WWWWW"])
    g.set_aside.extend(g.deck)  # keep every card accounted for while deck and discards are empty
    g.deck = []
    discards = [c for c in g.hand(0) if not is_pit_card(c)]
    result = g.pit(0, card(g, 0, "*"), discards)
    assert result["reshuffles"] == 1 and sorted(result["drawn"]) == sorted(discards)


def test_a_car_without_a_player_draws_from_the_reshuffled_discards():
    g = table(["R", "B", "G", "Y", "W"], [None, "R", "R", "R", "R"])
    whites = [c for c in g.deck if colour(c) == 4]
    g.set_aside.extend(c for c in g.deck if colour(c) != 4)
    g.deck = []
    g.discard = list(whites)
    result = g.drive(0)
    assert result["reshuffles"] == 1 and colour(result["card"]) == 4 and len(g.deck) == len(whites) - 1
    check_invariants(g, real=False)


def test_pit_events_replay():
    g = Game(21, [0, 1, 2, 3, 4])
    car = g.to_move()
    hand = g.hand(car)
    pit = [c for c in hand if is_pit_card(c)][0]
    g.pit(car, pit, [c for c in hand if not is_pit_card(c)][:3])
    again = Game.replay(g.events)
    assert again.snapshot() == g.snapshot()
    check_invariants(g)
