"""The race in words a player reads across the table: variants, dice throws, pit and tactic cards, missed moves,
short car statuses and how ties at the finish were broken. Plain functions of the rules' values; no screen here.
"""

from shared_rules.f1 import cards, charts
from shared_rules.f1.cards import card_text
from shared_rules.f1.status import FINISHED, OUT, PIT, SPUN

# Each variant as a player would say it: (a short title for a toggle, the sentence that explains it).
VARIANT_WORDS = {
    charts.FREE_40: ("Free 40 braking", "Slowing down by 40 mph costs no brake wear."),
    charts.RESTART_80: ("Restart at 20", "A spun car rejoins at 20 mph and may reach 80 on its next turn."),
    charts.REDRAW: ("Replace played cards", "A tactic card played is replaced at once from the pile."),
    charts.WORN_OUT: ("Worn-out cars retire", "A car whose tyres and brakes are both fully worn is out."),
}

# A car's status, short enough for its colour box.
STATUS_WORDS = {SPUN: "SPUN OFF", PIT: "IN PIT", FINISHED: "FINISHED", OUT: "OUT"}


def variant_title(flag):
    return VARIANT_WORDS[flag][0] if flag in VARIANT_WORDS else "Unknown rule"


def variant_text(flag):
    """The sentence for one variant switch (charts.FREE_40 ...), as a player would say it."""
    return VARIANT_WORDS[flag][1] if flag in VARIANT_WORDS else "A rule this version does not know."


def rules_text(rules):
    """The whole rule set in words: the 1962 rulebook, and each variant switched on."""
    on = [variant_text(flag) for flag in sorted(VARIANT_WORDS) if rules & flag]
    return "The 1962 rules." if not on else "The 1962 rules, and: " + " ".join(on)


def status_words(car):
    """What the car's box says besides its name: "SPUN OFF", "IN PIT", "PIT, MISS 2", "FINISHED", "OUT", ""."""
    if car.miss:
        return "PIT, MISS %d" % car.miss
    return STATUS_WORDS.get(car.status, "")


def outcome_words(pen):
    """A Penalty Chart outcome (spin, tyre, brake) in words: "spin", "tyre +1, brake +1", "no penalty"."""
    spin, tyre, brake = pen
    if spin:
        return "spin"
    if tyre and brake:
        return "tyre +%d, brake +%d" % (tyre, brake)
    if tyre:
        return "tyre +%d" % tyre
    if brake:
        return "brake +%d" % brake
    return "no penalty"


def throw_words(dice):
    """The Penalty Chart row a throw reads, as a player says it: "3 or 11", "double 3", "4, 5 or 8"."""
    d1, d2 = dice
    total = d1 + d2
    if d1 == d2 and d1 in (3, 4):
        return "double %d" % d1
    if total in (2, 12):
        return "2 or 12"
    if total in (3, 11):
        return "3 or 11"
    if total in (4, 5, 8):
        return "4, 5 or 8"
    if total in (6, 10):
        return "6 or 10"
    return "7 or 9"


def chart_words(over, dice, pen):
    """One Penalty Chart reading in words: "3 or 11 at +40: spin"."""
    column = 20 if over <= charts.STEP else 40
    out = outcome_words(pen)
    d1, d2 = dice
    if pen[0] and column == 40 and d1 + d2 in (6, 10) and d1 != d2:
        out = "spin (tyres at 4 or more)"
    return "%s at +%d: %s" % (throw_words(dice), column, out)


def corner_words(ev, corner_name=""):
    """A band taken (a logged corner event) in words: the throw and what it did, or why no throw."""
    speed, safety = ev.get("mph"), ev.get("safety", 0)
    dice, pen, case = ev.get("dice") or [], ev.get("pen") or (0, 0, 0), ev.get("case")
    where = ("%s: " % corner_name) if corner_name else ""
    if case == charts.SAFE:
        return "%ssafe%s" % (where, (" at %d mph on a %d band" % (speed, safety)) if speed is not None else "")
    if case == charts.WAIVED:
        return "%scovered by %s: no throw" % (where, "special tyres" if ev.get("special") else "Superb Driving")
    if case == charts.AUTO_SPIN:
        over = speed - safety if speed is not None else 60
        return "%s%s: the car spins" % (where, "%d over" % over if over >= 3 * charts.STEP else "over on worn tyres")
    over = speed - safety if speed is not None else 40
    return "%sthrew %d + %d. %s" % (where, dice[0], dice[1], chart_words(over, dice, pen))


def card_words(who, ev):
    """A tactic card played (a logged "card" event, or a speed set with Good Carburettor)."""
    code = ev.get("card")
    name = card_text(code) or str(code)
    if ev.get("t") == "speed":
        return "%s played %s: %d mph" % (who, name, ev.get("v", 0))
    if code == cards.SUPERB:
        return "%s played %s for the next corner" % (who, name)
    return "%s played %s: %d spaces more" % (who, name, ev.get("spaces", 0))


def pit_words(who, ev):
    return "%s drew a pit card: %s" % (who, card_text(ev.get("pit")) or "?")


def missed_words(who, more):
    return "%s misses a move (pit card)%s" % (who, (", %d more to miss" % more) if more else "")


def tie_notes(race):
    """How the finish order broke ties, one sentence per tie: equal spaces over the line go to the faster car
    (docs/rules.md, decision 10); equal speed too is a dead heat; unfinished cars with equal laps left share."""
    names, cars, over = race.names, race.cars, race.over
    groups = {}
    for seat, car in enumerate(cars):
        if car.status == FINISHED:
            groups.setdefault(("f", over[seat]), []).append(seat)
        else:
            groups.setdefault(("u" if car.status != OUT else "o", car.laps_left), []).append(seat)
    notes = []
    order = [seat for _place, seat in race.results()]
    for key in sorted(groups, key=lambda k: min(order.index(s) for s in groups[k])):
        seats = sorted(groups[key], key=order.index)
        if len(seats) < 2:
            continue
        who = _and([names[s] for s in seats])
        if key[0] == "f":
            speeds = [cars[s].speed for s in seats]
            head = "%s finished %d over the line" % (who, max(key[1], 0))
            if len(set(speeds)) == 1:
                notes.append("%s at %d mph: a dead heat, they share the place." % (head, speeds[0]))
            else:
                notes.append("%s: the faster car goes first (%s)." % (
                    head, ", ".join("%s %d mph" % (names[s], cars[s].speed) for s in seats)))
        elif key[0] == "u":
            notes.append("%s have %d lap%s to go: they share the place." % (who, key[1], "" if key[1] == 1 else "s"))
    return notes


def _and(words):
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
