"""A whole scripted Formula 1 race played on virtual dashboards through their buttons only (standalone mode:
each dashboard throws its own dice and draws its own pit card). The script is the players: it reads each
screen, dials speeds, takes corners, plays cards, crosses the line, and ends turns in seat order.
Used by tests/firmware/test_race.py and by bench/firmware_bench.py."""

import random
import threading

from shared_rules.f1.charts import max_reduction
from tests.firmware.dash import VirtualDashboard

MENU = ["CORNER", "LAP CROSSED", "PIT STOP", "END TURN"]


def new_race(d, laps):
    d.hold("BACK", 0.85)  # long BACK on the main screen: race setup
    assert d.rows()[0] == "NEW RACE", d.screen()
    d.tap(*(["UP" if laps > 3 else "DOWN"] * abs(laps - 3)))
    d.tap("OK")
    assert d.car()["laps"] == laps and len(d.car()["hand"]) == 5
    d.tap("OK")


def menu(d, item):
    assert d.rows()[0] == "YOUR MOVE", d.screen()
    d.tap(*(["DOWN"] * MENU.index(item)))
    assert d.rows()[1 + MENU.index(item)] == item
    d.tap("OK")


def dismiss(d, expect_title=None):
    """OK on a message whose title starts with expect_title (or with one of a tuple of titles)."""
    if expect_title is not None:
        assert d.rows()[0].startswith(expect_title), d.screen()
    d.tap("OK")


def dial(d, target):
    """UP/DOWN until the big digits show the target speed (the screen is the truth)."""
    for _ in range(20):
        shown = int(d.big())
        if shown == target:
            return
        d.tap("UP" if target > shown else "DOWN")
    raise AssertionError("could not dial %d:\n%s" % (target, d.screen()))


def play_turn(d, rnd, turn_no, stats):
    c = d.car()
    if c["status"] == "finished":
        return
    d.tap("OK")  # start the turn
    c = d.car()
    if not c["my_turn"]:
        dismiss(d, "MISS A MOVE")
        stats["missed"] += 1
        return
    assert d.rows()[0].startswith("SET SPEED"), d.screen()
    v = c["speed"]
    top = c["fixed"] or min(160, v + 60, c["cap"] or 160)
    # a reduction the gauges cannot pay for is not offered (docs/rules.md, decision 2): down 40 at most, and less
    # with nearly worn tyres or brakes
    low = c["fixed"] or max(20, v - min(40, max_reduction(c["tyre"], c["brake"], c["rules"])))
    target = rnd.randrange(low, top + 1, 20) if top >= low else top
    dial(d, target)
    preview = d.rows()[5]
    d.tap("OK")
    c = d.car()
    if c["status"] == "spun":
        dismiss(d, "SPUN OFF")
        stats["spins"] += 1
    else:
        assert c["speed"] == target, (c, target)
        if preview.startswith("BRAKE+"):
            stats["braked"] += 1
    # a corner on most turns: safe, or 20 over (the dice)
    if c["status"] == "racing" and rnd.random() < 0.5:
        menu(d, "CORNER")
        safety = c["speed"] - rnd.choice((0, 20))
        dial_safety = max(0, safety)
        for _ in range(12):
            shown = int(d.big(0, 18))
            if shown == dial_safety:
                break
            d.tap("UP" if dial_safety > shown else "DOWN")
        d.tap("OK")
        title = d.rows()[0]
        assert title.startswith("DICE") or title.startswith("CORNER"), d.screen()
        stats["dice"] += title.startswith("DICE")
        dismiss(d)
    c = d.car()
    # a move card now and then
    if c["hand"] and not c["rolled"] and not c["card_used"] and c["status"] == "racing" and rnd.random() < 0.3:
        movers = [i for i, k in enumerate(c["hand"]) if k in ("FG", "QR", "SS")]
        if movers:
            d.tap("CARD")
            assert d.rows()[0].startswith("HAND"), d.screen()
            d.tap(*(["DOWN"] * movers[0]))
            d.tap("OK")
            assert len(d.car()["hand"]) == len(c["hand"]) - 1, d.screen()
            stats["cards"] += 1
            dismiss(d)
    c = d.car()
    # every second turn the car reaches the line; once per race, into the pit instead: on the first of those turns
    # from the sixth round on (a car that spun or missed a move then pits the next time it reaches the line: the
    # dice are the firmware's own, so which cars those are changes from run to run)
    if turn_no % 2 == 1 and c["status"] == "racing":
        if turn_no >= 5 and d.dev not in stats["pitted"] and c["laps_left"] > 1:
            menu(d, "PIT STOP")
            dismiss(d, ("PIT CARD", "NEW INSTRUCTIONS"))  # the latter: the extra card dealt is named
            stats["pits"] += 1
            stats["pitted"].add(d.dev)
        else:
            menu(d, "LAP CROSSED")
            dismiss(d, "FINISHED" if c["laps_left"] == 1 else "LAP")
            stats["laps"] += 1
    menu(d, "END TURN")
    assert d.car()["my_turn"] == 0


def _setup(d, laps, errors):
    try:
        new_race(d, laps)
    except Exception as e:  # handed to the main thread
        errors.append(e)


def run_race(workdir, players=6, laps=10, seed=1962, heap="256K", path_extra=(), max_rounds=80, env=None,
             micropypath=None, cwd=None):
    rnd = random.Random(seed)
    stats = dict(missed=0, spins=0, braked=0, dice=0, cards=0, pits=0, laps=0, rounds=0, pitted=set())
    dashes = [VirtualDashboard(workdir, dev="seat%d" % (i + 1), heap=heap, path_extra=path_extra, env=env,
                               micropypath=micropypath, cwd=cwd) for i in range(players)]
    try:
        for d in dashes:
            d.start()
        # set up all six at once (a long press each)
        errors = []
        threads = [threading.Thread(target=_setup, args=(d, laps, errors)) for d in dashes]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        for rnd_no in range(max_rounds):
            if all(d.car()["status"] == "finished" for d in dashes):
                break
            stats["rounds"] = rnd_no + 1
            for d in dashes:
                play_turn(d, rnd, rnd_no, stats)
        finals = [d.car() for d in dashes]
        screens = [d.rows() for d in dashes]
    finally:
        for d in dashes:
            d.kill()
    return finals, screens, stats
