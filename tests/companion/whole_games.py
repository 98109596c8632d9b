"""Whole games played through the real app's window as a table of people plays them: every action a
touch on a real widget (found by its id), Back (Escape, Android's Back) where a person presses it, double taps
on the buttons that change the screen under the finger, and a kill mid-game (the test sends SIGKILL while the
first half waits) before the second half continues the saved game to its end.

    python -m tests.companion.whole_games SCENARIO OUT.json [SHOTS_DIR]

The scenarios use tests/companion/appdriver.py's driver (one app per process, a real SDL offscreen window).
"""

import glob
import os
import sys
import time

from shared_rules.f1.race import MIN_LAPS
from tests.companion import appdriver
from tests.companion.appdriver import (
    button,
    choice_ids,
    corner_button,
    dashboards_agree,
    drive,
    finisher_shows,
    press_virtual,
    race_ids,
    speed_button,
    tap,
    until_killed,
)

GAP_S = 0.08  # a double tap: the second touch this long after the first, where the first was
appdriver.WAIT_S = 60  # a step's longest wait: a dashboard starting on a loaded machine (the test's timeout bounds all)


T0 = time.monotonic()


def mark(d, label):
    """When each part was reached, seconds from the process's start (what the test's time goes to)."""
    d.seen.setdefault("marks", []).append([label, round(time.monotonic() - T0, 2)])


def touch_at(x, y):
    from tests.companion.touch import UnitTestTouch

    t = UnitTestTouch(x, y)
    t.touch_down()
    t.touch_up()


def double_tap(widget, gap=GAP_S):
    """Two touches at the widget's centre, `gap` apart: the second lands wherever the first left the finger,
    on whatever the screen shows there by then."""
    x, y = widget.to_window(*widget.center)
    touch_at(x, y)
    yield gap
    touch_at(x, y)
    yield 0.1


def escape():
    """Escape (Android's Back), as the window delivers a key press."""
    from kivy.core.window import Window

    Window.dispatch("on_keyboard", 27, 41, None, [])


def question(app):
    return app.popup.question if app.popup is not None else None


def f1_games():
    from companion import storage

    return sorted(glob.glob(os.path.join(storage.games_dir(), "*.db")))


def events(app, kind):
    return sum(1 for e in app.f1.ref.stack if e.get("t") == kind)


# ---- Formula 1: a whole race for three -------------------------------------------------------------------------

def race_setup(d):
    """The game choice (Back asks to quit; Back again is no), Formula 1 (a double tap), three players, the
    fewest laps, Roll for seats double tapped, one dashboard on the tablet, Back on pairing and on the setup, the
    game choice's Continue (a double tap)."""
    app = d.app
    ids = app.screen("setup").ids
    choice = choice_ids(app)
    yield lambda: app.bridge is not None and app.sm.current == "games"
    escape()
    asked = question(app)
    escape()
    yield 0.1
    d.note("setup_back", [asked, app.sm.current, app.popup is None])
    yield from double_tap(choice.choose_f1)
    yield lambda: app.sm.current == "setup"
    while ids.count.text != "3":
        yield tap(ids.fewer if int(ids.count.text) > 3 else ids.more)
    while ids.laps.text != str(MIN_LAPS):  # the fewest laps the rules allow
        yield tap(ids.laps_down)
    d.note("laps", ids.laps.text)
    for w, name in zip(reversed(ids.names.children), ["Ann", "Bob", "Cy"], strict=True):
        w.text = name  # typed
    yield from double_tap(ids.start)  # Roll for seats and start, a double tap
    yield lambda: app.sm.current == "pairing"
    yield 0.3
    d.note("start_twice", {"screen": app.sm.current, "games": len(f1_games()), "pairs": len(app.f1.ref.pairs)})
    pairing = app.screen("pairing").ids
    card = list(reversed(pairing.seats.children))[0]
    yield from double_tap(card.virtual_button)  # Ann's dashboard on this tablet, a double tap
    yield lambda: any(dev == "virtual-1" for dev, _s in app.bridge.dashboards())
    yield 0.3
    d.note("virtual_twice", {"screen": app.sm.current, "pairs": dict((str(k), v) for k, v in app.f1.ref.pairs.items())})
    escape()  # Back on pairing: the race is not started; it stays saved
    yield lambda: app.sm.current == "setup"
    escape()  # Back on the setup: the game choice, which offers to continue that race
    yield lambda: app.sm.current == "games" and not choice.resume.disabled
    d.note("pairing_back", ["setup", app.sm.current, choice.resume_note.text])
    yield from double_tap(choice.resume)  # Continue, a double tap
    yield lambda: app.sm.current in ("race", "pairing")
    if app.sm.current == "pairing":
        yield from double_tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "race"
    # Ann's dashboard on this tablet; Bob's and Cy's seats wait for their phones (the firmware's own page, linked
    # on the seat's token), which this test does not open: their turns are played on the race screen
    yield lambda: len(app.f1.ref.pairs) >= 1 and dashboards_agree(app)
    d.note("continued", {"screen": app.sm.current, "games": len(f1_games()), "pairs": len(app.f1.ref.pairs)})


def speed_on_dashboard(d, dev, ups):
    """The player sets the speed on their dashboard: OK opens the dial, UP `ups` times, OK."""
    app = d.app
    # The dashboard is another process: its turn reaches it over the link, in real time (every command to it
    # answered) before OK opens its dial
    seat = next(s for s, paired in app.f1.ref.pairs.items() if paired == dev)
    virtual = app.ports.virtual[dev]
    yield lambda: (not app.transport.pending(dev) and virtual.state is not None
                   and virtual.state.get("car") == app.f1.ref.race.cars[seat].snapshot())
    yield from press_virtual(app, dev, "OK")
    yield from press_virtual(app, dev, *["UP"] * ups)
    yield from press_virtual(app, dev, "OK")


def end_turn_twice(d, log):
    """End turn, a double tap: one turn ends, the next player's does not."""
    app = d.app
    ids = race_ids(app)
    ref = app.f1.ref
    ends, seat = events(app, "end"), ref.race.seat
    yield from double_tap(ids.end)
    yield 0.2
    log.append(["end", seat, ref.race.seat, events(app, "end") - ends])


def corner_twice(d, i, log):
    """A corner chosen and rolled for, each a double tap; taps while the dice roll; the dice land."""
    app = d.app
    ids = race_ids(app)
    yield from double_tap(corner_button(app, i))
    before = len([e for e in app.f1.ref.stack if e.get("t") == "corner"])
    yield from double_tap(ids.corner)
    yield lambda: not app.f1.rolling
    yield 0.1
    log.append(["corner", app.f1.ref.race.seat, len([e for e in app.f1.ref.stack if e.get("t") == "corner"]) - before])


def turn(d, log, corner=None, line=False, speed_on_dash=False):
    """One player's turn: a speed (on the tablet's dashboard when it is theirs), a corner, Lap, End turn."""
    app = d.app
    ids = race_ids(app)
    ref = app.f1.ref
    yield app.f1.ready
    seat = ref.race.seat
    car = ref.race.cars[seat]
    if speed_on_dash:
        want = min(car.speed + 40, 100)
        yield from speed_on_dashboard(d, ref.pairs[seat], (want - car.speed) // 20)
        yield lambda: ref.race.cars[seat].speed_set
    else:
        yield tap(speed_button(app))
    if corner is not None:
        yield from corner_twice(d, corner, log)
    if line:
        yield tap(ids.lap)
        log.append(["lap", seat, ref.race.cars[seat].laps_left])
    yield from end_turn_twice(d, log)


def race_first_half(d):
    """From the setup into the race, two rounds and a half, Back pressed where people press it; then the app
    waits to be killed (the test's SIGKILL) in the middle of a turn."""
    app = d.app
    mark(d, "start")
    yield from race_setup(d)
    mark(d, "race")
    ref = app.f1.ref
    ids = race_ids(app)
    log = []
    d.note("log", log)
    tablet = ref.pairs[0]  # Ann's dashboard is on the tablet (the others' on phones)
    for rnd in range(2):
        for _ in range(3):
            yield app.f1.ready
            mine = ref.race.seat == 0
            yield from turn(d, log, corner=(rnd * 3 + ref.race.seat) % 4, line=rnd == 1, speed_on_dash=mine)
        if rnd == 0:
            # Back mid-race asks before leaving; Back again is no. History and its Back.
            escape()
            asked = question(app)
            escape()
            yield 0.1
            yield from double_tap(ids.history)  # History and Results, each a double tap: each shown, once
            shown = [app.sm.current]
            escape()
            yield 0.1
            yield from double_tap(ids.results)
            shown.append(app.sm.current)
            escape()
            yield 0.1
            d.note("race_back", [asked, app.sm.current] + shown)
    # Round 3: the first player sets a speed, rolls at a corner, and Back is pressed while the dice roll.
    yield app.f1.ready
    yield tap(speed_button(app))
    yield tap(corner_button(app, 5))
    yield tap(ids.corner)
    escape()
    asked = question(app)
    escape()
    yield lambda: not app.f1.rolling
    d.note("back_while_rolling", [asked, app.sm.current, app.popup is None])
    yield lambda: dashboards_agree(app)
    d.note("tablet_dev", tablet)
    d.note("table", ref.race.snapshot())
    d.note("pairs", {str(k): v for k, v in ref.pairs.items()})
    d.note("children", [v.proc.pid for v in app.ports.virtual.values()])
    d.note("ready", 1)
    d.save()
    yield until_killed


def race_second_half(d):
    """The app opened again after the kill: Continue (a double tap), the race played to its end, the last End
    turn a double tap; Results; Back to the race, Back, Leave."""
    app = d.app
    ids = choice_ids(app)
    yield lambda: app.bridge is not None and app.sm.current == "games" and not ids.resume.disabled
    d.note("resume_note", ids.resume_note.text)
    yield from double_tap(ids.resume)
    yield lambda: app.sm.current == "race"
    ref = app.f1.ref
    yield lambda: dashboards_agree(app)
    d.note("table", ref.race.snapshot())
    d.note("pairs", {str(k): v for k, v in ref.pairs.items()})
    log = []
    d.note("log", log)
    rids = race_ids(app)
    # The turn the kill interrupted: its speed and roll are kept; Lap (the last lap but one), End turn.
    yield app.f1.ready
    yield tap(rids.lap)
    yield from end_turn_twice(d, log)
    while not ref.race.game_over and len(log) < 40:
        yield app.f1.ready
        seat = ref.race.seat
        car = ref.race.cars[seat]
        if car.laps_left > 1:
            yield from turn(d, log, line=True, speed_on_dash=seat == 0)
            continue
        if not car.speed_set:
            yield tap(speed_button(app))
        yield tap(rids.finish)
        speed, speeds = car.speed, events(app, "speed")
        # Spaces over the line, a double tap: the second lands on the speed key the picker gives way to
        yield from double_tap(button(rids.speeds, str(seat + 1)))
        log.append(["finish", seat, car.laps_left, ref.race.over[seat], car.speed == speed,
                    events(app, "speed") - speeds])
        last = all(c.laps_left == 0 for i, c in enumerate(ref.race.cars) if i != seat)
        ends = events(app, "end")
        yield from double_tap(rids.end)
        yield 0.3
        log.append(["end", seat, ref.race.seat, events(app, "end") - ends, app.sm.current, question(app),
                    events(app, "undo")] if last else ["end", seat, ref.race.seat, events(app, "end") - ends])
    yield lambda: app.sm.current == "results" and dashboards_agree(app)
    yield lambda: finisher_shows(app, 0) == "FINISHED"
    d.note("results", app.f1.view.results())
    d.note("over", {"game_over": ref.race.game_over, "laps_left": [c.laps_left for c in ref.race.cars],
                    "over": list(ref.race.over), "undos": events(app, "undo"), "screen": app.sm.current,
                    "shows": finisher_shows(app, 0)})
    d.shot("whole-race-results")
    escape()  # Back on Results: the race screen, the race over
    yield 0.2
    d.note("results_back", [app.sm.current, race_ids(app).turn.text])
    escape()  # Back on the race: leave it? Yes
    yield 0.1
    asked = question(app)
    yield tap(app.popup.ids.yes)
    yield lambda: app.sm.current == "games"
    yield 0.5
    d.note("left", [asked, app.sm.current, ids.resume.disabled, ids.resume_note.text])


# ---- Formula 5: a whole game for two players, both dashboards on this tablet ------------------------------------

F5_PLAYERS = (0, 1)  # red and yellow have players; the other three cars play the deck
KILL_AFTER = 5  # the first half stops in the middle of the sixth round


def f5_fast(app):
    """The tablet's own cars and its words without the pauses a table reads them in (the test's time)."""
    app.f5.auto_s = app.f5.read_s = app.f5.glance_s = 0.05


def f5_setup(d):
    """The game choice's Formula 5 (a double tap), Back, Formula 5 again; red and yellow players, the rest without a
    player; Start (a double tap); each player's dashboard on this tablet (double taps); Start (a double tap)."""
    app = d.app
    choice = choice_ids(app)
    yield lambda: app.bridge is not None and app.sm.current == "games"
    yield from double_tap(choice.choose_f5)
    yield lambda: app.sm.current == "f5setup"
    chosen = app.sm.current
    escape()  # Back: the game choice again, nothing asked (nothing started)
    yield lambda: app.sm.current == "games"
    d.note("choose_twice", [chosen, app.sm.current])
    yield from double_tap(choice.choose_f5)
    yield lambda: app.sm.current == "f5setup"
    ids = app.screen("f5setup").ids
    cars = list(reversed(ids.cars.children))
    yield tap(cars[1])  # yellow: bot -> no player -> a player with a dashboard (the same button, tapped twice)
    yield tap(cars[1])
    for car in (2, 3, 4):
        yield tap(cars[car])  # bot -> no player
    d.note("roles", list(app.f5.form.roles))
    yield from double_tap(ids.start)
    yield lambda: app.sm.current == "pairing"
    yield 0.2
    d.note("start_twice", {"screen": app.sm.current, "games": len(f5_games())})
    for seat in F5_PLAYERS:
        card = next(c for c in app.screen("pairing").ids.seats.children if c.seat == seat)
        yield from double_tap(card.virtual_button)
        yield lambda seat=seat: any(dev == "f5-virtual-%d" % (seat + 1) for dev, _s in app.bridge.dashboards())
    d.note("placed", {"pairs": {str(k): v for k, v in app.f5.ref.pairs.items()},
                      "places": [app.phones.place(seat) for seat in F5_PLAYERS] if app.phones else None})
    d.note("waiting", f5_told(app))  # paired on the pairing screen: their hands, no turn before Start
    yield from double_tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "f5table"
    d.note("started", f5_told(app))
    f5_fast(app)


def f5_told(app):
    """Whether the referee holds the game for its Start, and what it last told each player's dashboard: [wait, turn]."""
    ref = app.f5.ref
    return {"held": getattr(ref, "held", None), "to_move": ref.game.to_move(),
            "views": {str(c): [ref.sent[c].get("wait", 0), ref.sent[c]["turn"]] for c in F5_PLAYERS}}


def f5_games():
    from companion import storage

    return sorted(glob.glob(os.path.join(storage.data_dir(), "f5-games", "*.db")))


def f5_mode(name):
    from tests import mpy
    from tests.firmware.dash import modes

    # firmware/ondemand/f5_ui.py since i26core's folders (firmware/f5_ui.py before them)
    where = "ondemand/f5_ui.py" if os.path.exists(os.path.join(mpy.ROOT, "firmware", "ondemand", "f5_ui.py")) else "f5_ui.py"
    return modes(where)[name]


def dash_rows(dash):
    from tests.firmware.dash import text_rows

    with dash.lock:
        return text_rows(bytes(dash.image))


def dash_key(app, dev, name):
    from tests.companion.appdriver import button

    return button(app.f5.dashes[dev].ids.buttons, name)


def f5_player_turn(d, log, stop_in_hand=False):
    """The player to move holds a finger on their covered dashboard, taps its buttons to play what they chose
    (as the simple bot would: the test then knows the game to expect), and lets go."""
    from tests.companion.touch import UnitTestTouch

    from shared_rules.f5 import bot
    from shared_rules.f5.cards import COLOURS, FIRST_PIT, colour
    from shared_rules.f5.game import PIT

    app = d.app
    ref = app.f5.ref
    car = ref.game.to_move()
    dev = ref.pairs[car]
    dash = app.ports.virtual[dev]
    message, hand_mode = f5_mode("MESSAGE"), f5_mode("HAND")
    mark(d, "turn %d" % car)

    def table_shows_its_dashboard():
        return (app.f5.dash_dev == dev and dev in app.f5.dashes and not app.transport.pending(dev)
                and dash.state is not None)

    yield table_shows_its_dashboard
    n = len(ref.game.events)
    ev = bot.choose(ref.game)  # what this player decides (read from the table only to script the taps)
    hand = ref.game.hand(car)
    oled = app.f5.dashes[dev].oled
    x, y = oled.to_window(*oled.center)
    finger = UnitTestTouch(x, y)
    finger.touch_down()  # held on the covered screen: its player looks
    end = time.monotonic() + 60
    while not dash_rows(dash)[0].startswith("YOUR TURN"):  # a message up (an overtake, the last move): BACK
        assert time.monotonic() < end, "no YOUR TURN on %s: %s" % (dev, dash_rows(dash))
        if dash.state.get("mode") == message:
            yield tap(dash_key(app, dev, "BACK"))
        yield 0.2
    mark(d, "your turn")
    yield tap(dash_key(app, dev, "OK"))

    def hand_open():
        return dash.state.get("mode") == hand_mode

    yield hand_open
    mark(d, "hand")

    def group(card):
        return COLOURS if card >= FIRST_PIT else colour(card)

    def groups(cards):
        return sorted({group(c) for c in cards})

    if stop_in_hand:
        log.append(["held", car, len(ref.game.events)])
        return
    rows = [g for g in groups(hand) if g < COLOURS] + [COLOURS]
    presses = []
    if ev[0] != PIT:
        presses = ["DOWN"] * rows.index(colour(ev[2])) + ["OK"]
    else:
        presses = ["DOWN"] * (len(rows) - 1) + ["OK"]  # PIT STOP
        presses += ["DOWN"] * list(reversed(groups(hand))).index(group(ev[2])) + ["OK"]
        left = [c for c in hand if c != ev[2] and c < FIRST_PIT]
        for g in groups(left):
            presses += ["OK"] * len([c for c in ev[3] if colour(c) == g]) + ["DOWN"]
        presses.append("OK")  # CONFIRM PIT
    for name in presses:
        yield tap(dash_key(app, dev, name))

    def move_made():
        return len(ref.game.events) > n

    yield move_made
    mark(d, "played")
    finger.touch_up()
    log.append([car, ev[0], same_move(ref.game.events[n], ev), app.popup is not None])


def same_move(made, meant):
    """The move the buttons made is the one the player meant: cards of a colour are alike (the dashboard plays
    the first it holds of the colour chosen), so a move is its kind, its card's colour and the colours thrown."""
    from shared_rules.f5.cards import FIRST_PIT, colour

    def kind(card):
        return "pit" if card >= FIRST_PIT else colour(card)

    def plain(ev):
        return [ev[0], ev[1], kind(ev[2])] + ([sorted(colour(c) for c in ev[3])] if len(ev) > 3 else [])

    return plain(made) == plain(meant)


def f5_play(d, log, until_round=None):
    """Every turn to the end (or into the round `until_round`): the players' on their dashboards, the tablet's
    own meanwhile."""
    app = d.app
    ref = app.f5.ref
    while not ref.game.over:
        car = ref.game.to_move()
        if until_round is not None and len(ref.game.events) >= until_round * 5 and car in F5_PLAYERS:
            return
        if car in F5_PLAYERS:
            yield from f5_player_turn(d, log)
        else:
            n = len(ref.game.events)
            yield lambda n=n: len(ref.game.events) > n or ref.game.over
            mark(d, "tablet %d" % car)


def f5_first_half(d):
    app = d.app
    mark(d, "start")
    yield from f5_setup(d)
    mark(d, "table")
    ref = app.f5.ref
    log = []
    d.note("log", log)
    yield from f5_play(d, log, until_round=3)
    ids = app.screen("f5table").ids
    yield from double_tap(ids.history)  # History, a double tap; Back
    yield lambda: app.sm.current == "f5history"
    shown = app.sm.current
    escape()
    yield lambda: app.sm.current == "f5table"
    escape()  # Back on the table asks; Back again is no
    asked = question(app)
    escape()
    yield 0.1
    d.note("back", [shown, asked, app.sm.current, app.popup is None])
    yield from f5_play(d, log, until_round=KILL_AFTER)
    yield from f5_player_turn(d, log, stop_in_hand=True)  # the kill comes with a hand open on the dashboard
    d.note("events", list(ref.game.events))
    d.note("pairs", {str(k): v for k, v in ref.pairs.items()})
    d.note("children", [v.proc.pid for v in app.ports.virtual.values()])
    d.note("ready", 1)
    d.save()
    yield until_killed


def f5_second_half(d):
    """The app opened again after the kill: the setup continues the Formula 5 game (a double tap), played to
    its end; Results (a double tap) and Back; Leave."""
    from tests.firmware.dash import text_rows

    app = d.app
    ids = choice_ids(app)
    yield lambda: app.bridge is not None and app.sm.current == "games" and not ids.resume.disabled
    d.note("resume", [ids.resume.text, ids.resume_note.text])
    yield from double_tap(ids.resume)
    yield lambda: app.sm.current == "f5table"
    f5_fast(app)
    ref = app.f5.ref
    d.note("events_resumed", list(ref.game.events))
    log = []
    d.note("log", log)
    yield from f5_play(d, log)
    yield lambda: app.screen("f5table").ids.status.text.startswith("The race is over")
    devs = [ref.pairs[car] for car in F5_PLAYERS]
    yield lambda: not app.transport.pending() and all(
        "RACE OVER" in text_rows(bytes(app.ports.virtual[dev].image))[0] for dev in devs)
    d.note("events", list(ref.game.events))
    d.note("over", {"over": ref.game.over, "order": list(ref.game.order), "winner": ref.game.winner(),
                    "positions": [ref.game.position(car) for car in range(5)],
                    "dashboards": {str(car): " ".join(dash_rows(app.ports.virtual[ref.pairs[car]]))
                                   for car in F5_PLAYERS}})
    table = app.screen("f5table").ids
    yield from double_tap(table.results)
    yield lambda: app.sm.current == "f5results"
    yield 0.3
    rids = app.screen("f5results").ids
    d.note("results", {"screen": app.sm.current, "headline": rids.headline.text, "places": len(rids.places.children)})
    d.shot("whole-f5-results")
    escape()
    yield lambda: app.sm.current == "f5table"
    escape()  # Back on the table asks; Back again is no
    asked = question(app)
    escape()
    yield 0.1
    yield from double_tap(table.leave)  # Leave, a double tap: the game choice, left once
    yield 0.5
    d.note("left", [asked, app.sm.current, app.f5 is None, ids.resume.disabled, ids.resume_note.text])


SCENARIOS = {"race_first_half": race_first_half, "race_second_half": race_second_half,
             "f5_first_half": f5_first_half, "f5_second_half": f5_second_half}


def main(argv):
    drive(SCENARIOS[argv[0]], argv[1], argv[2] if len(argv) > 2 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
