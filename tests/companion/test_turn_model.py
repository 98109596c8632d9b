"""The turn model (companion/f1/turn.py) through the race screen's presenter, driven as the screen drives
it: the actions it shows, the token each carries, the taps people make twice or from a screen about to change.

Each defect of the turn's logic met at a table is reproduced here (these tests fail on the main of before the
turn model):
double-tapped End turn skipping a player, End turn with no speed, a corner rolled twice, a faster blocker's raise
refused, the end of a race as "Round 7 ... FINISHED" with every action live.
"""

import pytest

from shared_rules.f1 import cards, charts
from shared_rules.f1.race import Race
from shared_rules.f1.status import FINISHED, PIT, SPUN

from companion.f1 import view as f1_view
from companion.f1 import turn
from companion.f1.referee import Referee
from companion.f1.track import Track


def new_view(tmp_path, names=("Ann", "Bob", "Cat"), seed=42, laps=3, track=None, name="g.db"):
    ref = Referee.new(str(tmp_path / name), list(names), laps, seed=seed, track=track)
    return f1_view.RaceView(ref)


def tap(view, name, *args, **kw):
    """A tap on the button for `name`, with the token the screen showed it with (taken now)."""
    token = view.actions()[name].token
    return getattr(view, {"speed": "set_speed", "corner": "roll_corner", "end_turn": "end_turn",
                          "finish": "finish", "card": "play_card"}.get(name, name))(*args, token=token, **kw)


def live(view):
    return sorted(n for n, a in view.actions().items() if a.live)


# ---- tokens: a second tap, a stale screen -----------------------------------------------------------------

def test_double_tapped_end_turn_ends_one_turn_only(tmp_path):
    """Met at a table: "Cat sets 60, two taps 80 ms apart: Ann is skipped"."""
    view = new_view(tmp_path)
    first, second = view.race.names[0], view.race.names[1]
    tap(view, "speed", 60)
    token = view.actions()["end_turn"].token  # the screen as it was drawn, before either tap
    assert view.end_turn(token=token) is not None
    assert view.race.seat == 1
    entries = len(view.ref.entries)
    assert view.end_turn(token=token) is None  # the second tap of the double tap
    assert view.message == "already done: %s's turn has ended" % first
    assert view.race.seat == 1 and len(view.ref.entries) == entries
    assert view.status_line().endswith("%s (%s) to play: set the speed (0 now)." % (second, "orange"))


def test_a_tap_from_a_screen_about_to_change_does_nothing(tmp_path):
    """The dashboard sets the speed while the tablet still shows the speed picker: the tablet's tap is late."""
    view = new_view(tmp_path)
    token = view.actions()["speed"].token
    assert view.ref.on_dashboard_event(0, "speed", {"v": 40}) is None
    assert view.set_speed(60, token=token) is None
    assert view.message == "already done"
    assert view.race.cars[0].speed == 40
    token = view.actions()["corner"].token
    view.ref.on_dashboard_event(0, "lap", {})  # something else happened since that screen was drawn
    assert view.roll_corner(token=token) is None
    assert view.message == "the table changed since (the line crossed): nothing done, look again"
    assert view.race.cars[0].rolled == 0


def test_a_token_from_another_game_is_refused(tmp_path):
    old = new_view(tmp_path, name="old.db")
    new = new_view(tmp_path, name="new.db")
    assert new.set_speed(20, token=old.actions()["speed"].token) is None
    assert new.message == "that screen was of another game: nothing changed"
    assert new.race.cars[0].speed_set == 0
    stale = tuple(new.actions()["speed"].token)  # a plain tuple does as well as the token itself
    new.set_speed(20, token=stale)
    assert new.set_speed(40, token=stale) is None and new.message == "already done"


def test_a_dashboard_event_for_a_turn_that_has_ended_changes_nothing(tmp_path):
    view = new_view(tmp_path)
    tap(view, "speed", 40)
    tap(view, "end_turn")  # the table ended Ann's turn; her dashboard's End comes in late
    before = view.race.snapshot()
    err = view.ref.on_dashboard_event(0, "end", {})
    assert str(err) == "already done: that turn has ended"
    assert view.race.snapshot() == before


def test_undo_twice_from_one_screen_undoes_once(tmp_path):
    view = new_view(tmp_path)
    tap(view, "speed", 60)
    tap(view, "lap")
    token = view.actions()["undo"].token
    assert view.undo(token=token) is not None
    assert view.undo(token=token) is None and view.message == "already done"
    assert view.race.cars[0].speed_set == 1 and view.race.cars[0].laps_left == 3


# ---- End turn without a speed ---------------------------------------------------------------------------

def test_decision_end_turn_with_no_speed_keeps_the_same_speed(tmp_path):
    """Met at a table: "End turn is also accepted with no speed set at all"."""
    view = new_view(tmp_path, names=("Ann", "Bob"))
    ann = view.race.names[0]
    tap(view, "speed", 60)
    tap(view, "end_turn")
    tap(view, "speed", 20)
    tap(view, "end_turn")
    assert view.phase() == "speed" and view.actions()["end_turn"].live
    ev = tap(view, "end_turn")
    assert ev["same"] == 60
    assert view.message.startswith("%s keeps the same speed, 60. %s's turn ended." % (ann, ann))
    speeds = [e for e in view.ref.stack if e["t"] == "speed" and e["seat"] == 0]
    assert speeds[-1]["v"] == 60  # logged as a speed decision: the history says so too
    assert "%s: speed 60 (same speed)" % ann in view.history_lines()
    assert view.race.cars[0].speed == 60


def test_end_turn_is_unavailable_when_the_pit_card_sets_the_speed(tmp_path):
    """A pit card's starting speed must be set: no "same speed" out of the pit."""
    seed = next(s for s in range(3000) if Race(s, ["Ann", "Bob"], 3).pit_pile[0] == "GOOD80")
    view = new_view(tmp_path, names=("Ann", "Bob"), seed=seed)
    tap(view, "speed", 40)
    tap(view, "pit")
    assert view.phase() == "pit" and live(view) == ["end_turn", "undo"]
    tap(view, "end_turn")
    tap(view, "speed", 20)
    tap(view, "end_turn")
    end = view.actions()["end_turn"]
    assert not end.live and end.reason == "set the speed first: pit card: starting speed is 80"
    assert view.end_turn() is None and view.message == end.reason
    assert [o.v for o in view.speed_options() if o.live] == [80]


# ---- corners --------------------------------------------------------------------------------------------

def test_decision_a_band_is_thrown_for_once_a_move(tmp_path):
    """Met at a table: "Cat at 120, Corner 4 lane 1: tyre +1 brake +1, then again"."""
    view = new_view(tmp_path, names=("Ann", "Bob"), seed=3)
    for v in (60, 20, 120):
        tap(view, "speed", v)
        if v != 120:
            tap(view, "end_turn")
    view.pick(corner=3, lane=0)  # Corner 4, inner lane: 80, so 40 over
    token = view.actions()["corner"].token
    first = view.roll_corner(token=token)
    assert first is not None and len(first["dice"]) == 2
    wear = (view.race.cars[0].tyre, view.race.cars[0].brake)
    assert view.roll_corner(token=token) is None and view.message == "already done"  # the double tap
    corner = view.actions()["corner"]
    assert not corner.live and corner.reason == "Corner 4 is already rolled for in this move"
    assert view.roll_corner() is None and view.message == corner.reason  # a fresh tap on the same band
    assert (view.race.cars[0].tyre, view.race.cars[0].brake) == wear
    if view.race.cars[0].status != SPUN:
        view.pick(corner=4, lane=3)  # another corner in the same move is thrown for on its own
        assert view.actions()["corner"].live


def test_a_second_band_of_a_corner_is_chosen_as_the_second_band(tmp_path):
    """"When a car crosses two red bands over the safety speed during the course of one move, the dice must be
    thrown twice and the possible penalty paid separately for each band"."""
    track = Track("Two bands", [("Hairpin", [[20, 40], [20, 40]]), ("Kink", [[160]])])
    view = new_view(tmp_path, names=("Ann", "Bob"), track=track)
    tap(view, "speed", 40)
    view.pick(corner=0, lane=1)
    assert tap(view, "corner") is not None  # band 1: 40 at a 40 band, safe
    view.pick(corner=0)  # the same corner again: its next band
    assert view.band == 1 and view.actions()["corner"].live
    view.pick(band=0)
    assert view.actions()["corner"].reason == "Hairpin band 1 is already rolled for: choose the next band"
    view.pick(band=1, lane=1)
    assert tap(view, "corner") is not None
    assert view.bands_taken() == [(0, 0), (0, 1)]
    tap(view, "end_turn")
    tap(view, "speed", 40)
    view.pick(corner=0)
    assert view.band == 0 and view.actions()["corner"].live  # a new move: every band again


def test_decision_a_car_at_0_mph_does_not_move(tmp_path):
    view = new_view(tmp_path)
    tap(view, "speed", 0)
    acts = view.actions()
    for name in ("corner", "lap", "block", "pit"):
        assert not acts[name].live and acts[name].reason == turn.STILL, name
    assert view.roll_corner() is None and view.race.cars[0].rolled == 0


def test_decision_spaces_past_the_line_count_at_the_finish_only(tmp_path):
    view = new_view(tmp_path, names=("Ann", "Bob"))
    tap(view, "speed", 60)
    assert view.actions()["lap"].live and not view.actions()["finish"].live
    assert view.actions()["finish"].reason == "not the last lap yet"
    assert view.finish(2) is None and view.message == "not the last lap yet"
    assert view.race.cars[0].laps_left == 3 and view.race.over[0] == -1
    while view.race.cars[0].laps_left > 1:  # Ann laps each turn, Bob keeps to 0
        if view.race.seat == 0 and not view.race.cars[0].lap_done:
            if view.phase() == "speed":
                tap(view, "speed", 60)
            assert tap(view, "lap") is not None
        tap(view, "end_turn")
    tap(view, "end_turn")  # Bob's
    assert view.race.seat == 0 and view.phase() == "speed"
    tap(view, "speed", 80)
    assert not view.actions()["lap"].live and view.actions()["lap"].reason == "last lap: that is the finish"
    assert view.lap() is None
    assert tap(view, "finish", 2) is not None
    assert view.race.over[0] == 2 and view.phase() == "finish"


# ---- blocking -------------------------------------------------------------------------------------------

def test_a_faster_blocker_offers_the_optional_raise_within_60(tmp_path):
    """"If the car blocking you is travelling at a faster speed than your car you may, if you wish, increase speed
    to that of the blocking car, providing the increase is not more than 60 mph"."""
    view = new_view(tmp_path, names=("Ann", "Bob"))
    assert not view.actions()["block"].live  # no blocker picker before the speed is set
    assert view.actions()["block"].reason == "set the speed first"
    for v in (60, 60, 100):
        tap(view, "speed", v)
        if v != 100:
            tap(view, "end_turn")
    # Ann began this turn at 60 and set 100: a blocker at 120 may be followed (60 + 60), 140 not.
    opts = {o.v: o for o in view.block_options()}
    assert [o.v for o in view.block_options()] == list(range(0, 161, 20))
    assert opts[120].live and opts[120].note == "optional" and opts[120].cost == ""
    assert not opts[140].live and opts[140].reason == "at most +60 per turn"
    assert not opts[100].live  # its own speed
    assert opts[80].live and opts[80].note == "" and opts[40].cost == "brake 2 tyre 1"
    assert tap(view, "block", 120) is not None
    assert view.race.cars[0].speed == 120 and view.message == "%s blocked: speed 120" % view.race.names[0]


# ---- the speed picker -------------------------------------------------------------------------------------

def test_the_speed_picker_always_has_every_speed_in_its_place_with_its_cost(tmp_path):
    view = new_view(tmp_path, names=("Ann", "Bob"))
    for v in (60, 60, 120):
        opts = view.speed_options()
        assert [o.v for o in opts] == list(range(0, 161, 20))
        tap(view, "speed", v)
        if v != 120:
            tap(view, "end_turn")
            tap(view, "speed", 20)
            tap(view, "end_turn")
    tap(view, "end_turn")  # Ann keeps 120
    tap(view, "speed", 20)
    tap(view, "end_turn")
    opts = view.speed_options()
    assert [o.v for o in opts] == list(range(0, 161, 20))
    by = {o.v: o for o in opts}
    assert by[100].cost == "" and by[80].cost == "brake 1" and by[60].cost == "brake 2 tyre 1"
    assert by[20].cost == "brake 4 tyre 3" and not by[20].confirm
    assert by[160].live and not by[140].confirm
    # "a tap on 0 at 120 spins the car without a word": 120 mph off is past the Speed Reduction Chart, which the
    # rules now refuse (docs/rules.md, decision 1), so 0 is shown unavailable, with the reason, before the tap.
    assert tuple(by[0]) == (0, False, "reduce speed by 100 mph at most: the chart ends there", "", 0, False)
    assert view.set_speed(0) is None and view.message == by[0].reason
    # A blocker's speed is forced, though: one the car cannot pay for spins it, and the picker says so first.
    tap(view, "speed", 120)
    block = {o.v: o for o in view.block_options()}
    assert tuple(block[0]) == (0, True, "", "SPIN", 1, True)
    assert tap(view, "block", 0) is not None and view.race.cars[0].status == SPUN
    assert view.message == "%s blocked: speed 0, spun" % view.race.names[0]


def test_the_picker_follows_the_rules_engine(tmp_path, monkeypatch):
    """Availability and cost come from the car itself: change the rules and the picker follows."""
    from shared_rules.f1 import car as car_module

    view = new_view(tmp_path, names=("Ann", "Bob"))
    assert view.speed_options()[2].live
    real = car_module.Car.set_speed

    def no_40(self, v, card=None):
        if v == 40:
            from shared_rules.errors import RuleError

            raise RuleError("speed", "no 40 today")
        return real(self, v, card)

    monkeypatch.setattr(car_module.Car, "set_speed", no_40)
    opt = f1_view.RaceView(view.ref).speed_options()[2]  # (a view works its pickers out once a step)
    assert not opt.live and opt.reason == "no 40 today"


# ---- the end of a race ----------------------------------------------------------------------------------

def play_to_the_end(view, over=(2, 2)):
    """Everyone at the fastest speed; each turn crosses the line; the last lap with `over` spaces by seat."""
    while not view.over():
        car = view.active_car()
        if not car.speed_set:
            tap(view, "speed", [o.v for o in view.speed_options() if o.live and not o.spins][-1])
        if car.laps_left == 1:
            tap(view, "finish", over[view.race.seat % len(over)])
        else:
            tap(view, "lap")
        tap(view, "end_turn")


def test_the_end_of_a_race_is_a_state(tmp_path):
    """Met at a table: "it reads Round 7 ... FINISHED after 6 rounds and every race button stays live"."""
    view = new_view(tmp_path, names=("Ann", "Bob"))
    play_to_the_end(view, over=(3, 1))
    assert view.race.finish_round == 3 and view.rounds() == 3
    assert view.over() and view.phase() == "over"
    acts = view.actions()
    assert sorted(acts) == sorted(turn.ACTIONS)
    assert [n for n, a in acts.items() if a.live] == ["undo"]  # only Undo: a wrong last move is taken back
    assert {a.reason for n, a in acts.items() if n != "undo"} == {"the race is over"}
    assert not any(o.live for o in view.speed_options() + view.block_options() + view.hold_options())
    winner = view.race.names[0]
    assert view.status_line() == "Race over after 3 rounds: %s wins." % winner
    assert "Round 4" not in view.status_line() and view.heading() == "Race over after 3 rounds"
    for doing in (lambda: view.set_speed(20), view.end_turn, view.pit, view.roll_corner, lambda: view.finish(1)):
        assert doing() is None and view.message == "the race is over"
    assert view.last_roll_text() == "" and view.pit_card_text() == ""


def test_equal_spaces_over_the_line_say_how_the_tie_was_broken(tmp_path):
    """"If more than one car crosses on the same number of turns, the winner is the one furthest over";
    equal spaces: the faster car (docs/rules.md, decision 10)."""
    view = new_view(tmp_path, names=("Ann", "Bob"))
    while not view.over():
        car = view.active_car()
        if not car.speed_set:
            # Seat 0 keeps to 100, seat 1 goes faster: equal spaces over the line, different speeds.
            top = 100 if view.race.seat == 0 else 160
            tap(view, "speed", max(o.v for o in view.speed_options() if o.live and o.v <= top))
        tap(view, "finish" if car.laps_left == 1 else "lap", *((2,) if car.laps_left == 1 else ()))
        tap(view, "end_turn")
    names = view.race.names
    res = view.results()
    assert [r[1] for r in res] == [names[1], names[0]]
    assert res[0][3] == "finished, 2 spaces over the line at 160 mph; ahead of %s on speed" % names[0]
    assert res[1][3] == "finished, 2 spaces over the line at 100 mph; behind on speed"
    assert view.tie_notes() == ["%s and %s finished 2 over the line: the faster car goes first (%s 160 mph, %s "
                                "100 mph)." % (names[1], names[0], names[1], names[0])]


def test_a_dead_heat_is_said_as_one(tmp_path):
    view = new_view(tmp_path, names=("Ann", "Bob"))
    play_to_the_end(view, over=(2, 2))
    names = view.race.names
    assert [r[0] for r in view.results()] == [1, 1]
    assert view.results()[0][3].endswith("; dead heat with %s" % names[1])
    assert view.status_line() == "Race over after 3 rounds: a dead heat, %s and %s." % (names[0], names[1])
    assert view.tie_notes()[0].endswith("a dead heat, they share the place.")


# ---- what just happened -----------------------------------------------------------------------------------

def test_a_new_turn_clears_the_dice_and_the_pit_card(tmp_path):
    seed = next(s for s in range(3000) if Race(s, ["Ann", "Bob"], 3).pit_pile[0] == "IGNITION")
    view = new_view(tmp_path, names=("Ann", "Bob"), seed=seed)
    ann, bob = view.race.names
    tap(view, "speed", 60)
    view.pick(corner=0, lane=0)
    tap(view, "corner")
    assert view.last_roll_text().startswith("Corner 1: threw ")
    assert len(view.last_dice()) == 2
    tap(view, "end_turn")
    assert view.last_roll_text() == "" and view.last_dice() == []  # Bob's turn: a clear table
    tap(view, "speed", 40)
    tap(view, "pit")
    assert view.pit_card_text() == "Faulty Ignition. Miss two moves."
    assert "%s drew a pit card: Faulty Ignition. Miss two moves." % bob in view.announcements()
    tap(view, "end_turn")
    assert view.pit_card_text() == ""
    tap(view, "speed", 60)
    tap(view, "end_turn")  # Bob misses his move: Ann plays again, and the table is told
    assert view.race.seat == 0
    assert view.announcements() == ["%s misses a move (pit card), 1 more to miss" % bob]
    assert view.status_line().startswith("%s misses a move (pit card), 1 more to miss. Round 3." % bob)
    assert view.rows()[1]["status"] == "PIT, MISS 1"


def test_a_tactic_card_played_on_a_dashboard_is_announced(tmp_path):
    seed = next(s for s in range(3000) if "QR" in Race(s, ["Ann", "Bob"], 3).cars[0].hand)
    view = new_view(tmp_path, names=("Ann", "Bob"), seed=seed)
    ann = view.race.names[0]
    tap(view, "speed", 40)
    assert view.ref.on_dashboard_event(0, "card", {"card": "QR"}) is None
    assert view.announcements() == ["%s played Quick Reactions: 4 spaces more" % ann]
    assert view.status_line().startswith("%s played Quick Reactions: 4 spaces more. " % ann)
    tap(view, "end_turn")
    assert view.announcements() == []


@pytest.mark.parametrize("dice,over,words", [
    ((1, 2), 40, "3 or 11 at +40: spin"), ((5, 6), 20, "3 or 11 at +20: spin"), ((3, 3), 40, "double 3 at +40: "
    "no penalty"), ((1, 5), 20, "6 or 10 at +20: no penalty"), ((3, 4), 40, "7 or 9 at +40: tyre +1, brake +1"),
    ((2, 2), 40, "4, 5 or 8 at +40: tyre +1"), ((6, 6), 40, "2 or 12 at +40: no penalty")])
def test_a_penalty_chart_reading_in_words(dice, over, words):
    from companion.f1 import race_words

    pen = charts.dice_penalty(over, 0, dice[0], dice[1])
    assert race_words.chart_words(over, dice, pen) == words


def test_6_or_10_on_worn_tyres_says_why_it_spins():
    from companion.f1 import race_words

    assert race_words.chart_words(40, (4, 6), charts.dice_penalty(40, 5, 4, 6)) == \
        "6 or 10 at +40: spin (tyres at 4 or more)"


# ---- words for the setup ------------------------------------------------------------------------------------

def test_variants_are_in_words_not_code_names():
    for flag, title, text in f1_view.VARIANTS:
        assert "_" not in title + text and not any(w.isupper() and len(w) > 2 for w in (title + " " + text).split())
        assert f1_view.variant_text(flag) == text
    assert f1_view.variant_text(charts.FREE_40) == "Slowing down by 40 mph costs no brake wear."


def test_the_setup_in_words():
    form = f1_view.SetupForm()
    assert form.summary() == "3 players, 3 laps. The 1962 rules."
    form.toggle(charts.RESTART_80, True)
    form.toggle(charts.FREE_40, True)
    assert form.summary() == ("3 players, 3 laps. The 1962 rules, and: Slowing down by 40 mph costs no brake wear. "
                              "A spun car rejoins at 20 mph and may reach 80 on its next turn.")


def test_status_texts_are_short():
    from shared_rules.f1.car import Car
    from companion.f1 import race_words

    car = Car(3)
    car.status, car.miss = PIT, 2
    assert race_words.status_words(car) == "PIT, MISS 2"
    car.miss = 0
    for status in (SPUN, PIT, FINISHED):
        car.status = status
        assert len(race_words.status_words(car)) <= 11


def test_the_card_action_reads_the_rules(tmp_path):
    seed = next(s for s in range(3000) if "FG" in Race(s, ["Ann", "Bob"], 3).cars[0].hand)
    view = new_view(tmp_path, names=("Ann", "Bob"), seed=seed)
    assert not view.actions()["card"].live
    tap(view, "speed", 40)
    assert view.actions()["card"].live
    assert tap(view, "card", cards.SUPERB if cards.SUPERB in view.race.cars[0].hand else "FG") is not None
    assert view.actions()["card"].reason == "one tactic card per turn"
