# Formula 5: end of the round, end of the game, the winner; and the seat-filling bots.

from shared_rules.errors import RuleError
from shared_rules.f5 import bot
from shared_rules.f5.game import Game
from shared_rules.rng import Rng
from tests.portable.check import raises
from tests.portable.test_f5_table import card, check_invariants, table


def play_out(game, choose):
    while not game.over:
        game.apply(choose(game))
    return game


def test_the_game_ends_at_the_end_of_the_round_in_which_the_hands_run_out():
    # "At the end of the round when the cards in the players' hands run out, the game ends."
    # Every player plays one card a turn from 12: the hands run out in round 12 (docs/rules-formula5.md).
    g = Game(17, [0, 1, 2, 3, 4])
    while not (g.round == 12 and len(g.queue) == 1):
        g.apply(bot.choose(g))
        assert not g.over
    result = g.apply(bot.choose(g))
    assert result["round_over"] and result["over"] and g.over
    assert [g.hand(car) for car in range(5)] == [[], [], [], [], []]
    assert g.to_move() is None and g.round == 12


def test_the_game_goes_on_while_a_car_without_a_player_has_cards_to_draw():
    # the hands that run out are the players'; cars without a player keep drawing until the round ends
    g = table(["R", "B", "G", "Y", "W"], [None, None, "R", None, None])
    g.drive(0)
    g.drive(1)
    g.play(2, card(g, 2, "R"))
    assert not g.over
    g.drive(3)
    assert g.drive(4)["over"] and g.over


def test_the_best_placed_player_wins():
    # "The player whose car is in the better position (among players) at the end of the game wins the game."
    # Fig. 5: cars without a player may finish ahead; they do not win.
    g = table(["RRRR", "B", "G", "Y", "W"], [None, "Y", None, "Y", None], deck_top="RWB")
    assert g.winner() is None
    g.drive(0)
    g.play(1, card(g, 1, "Y"))
    g.drive(2)
    g.play(3, card(g, 3, "Y"))
    g.drive(4)
    assert g.over and g.order == [0, 1, 3, 2, 4]  # car 3 passed car 2 (speed 2 beats 1)
    assert g.winner() == 1 and g.standings() == [1, 3]  # car 0 leads, but it has no player
    assert g.public()["winner"] == 1


def test_nothing_can_be_played_after_the_end():
    g = play_out(Game(2, [4]), bot.choose)
    before = g.snapshot()
    e = raises(RuleError, g.apply, bot.random_event(Game(2, [4]), Rng(1)))
    assert e.code == "game_over"
    assert bot.choose(g) is None and bot.random_event(g, Rng(1)) is None
    assert g.snapshot() == before


def test_bots_play_whole_games_legally():
    # the issue: "a solo player can fill seats with simple bots"
    for seed in range(4):
        g = Game(seed, [0, 1, 2, 3, 4])
        while not g.over:
            g.apply(bot.choose(g))
            check_invariants(g)
        assert g.winner() in (0, 1, 2, 3, 4)


def test_the_bot_plays_its_fastest_card_and_overtakes_when_it_can():
    g = table(["BB", "GG", "R", "Y", "W"], ["R", "RG*", "R", "R", "R"], to_move=1)
    event = bot.choose(g)
    assert event == ["race", 1, card(g, 1, "G")]
    assert g.apply(event)["overtaken"] == [0]


def test_the_bot_stops_when_it_cannot_overtake_and_holds_a_pit_stop_card():
    g = table(["BBBB", "GG", "R", "Y", "W"], ["R", "RGG*", "R", "R", "R"], to_move=1)
    event = bot.choose(g)
    assert event == ["pit", 1, card(g, 1, "*"), [card(g, 1, "R")]]  # keeps the pair, changes the single
    g.apply(event)


def test_the_leading_bot_keeps_racing():
    g = table(["B", "GG", "R", "Y", "W"], ["R*", "RG", "R", "R", "R"])
    assert bot.choose(g) == ["race", 0, card(g, 0, "R")]


def test_the_bot_spends_its_pit_stop_cards_when_nothing_else_is_left():
    g = table(["B", "GG", "R", "Y", "W"], ["*", "R", "R", "R", "R"])
    assert bot.choose(g) == ["pit", 0, card(g, 0, "*"), []]
