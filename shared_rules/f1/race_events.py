# What each decision does to the table. Every handler checks everything before it changes anything.

from shared_rules.errors import RuleError
from shared_rules.f1 import cards
from shared_rules.f1 import charts
from shared_rules.f1.status import RACING, FINISHED


def _need_moving(car):
    if not car.speed_set:
        raise RuleError("speed", "set the speed first")
    if car.status != RACING:
        raise RuleError("status", "the car is not on the track")


def _on_speed(race, car, ev):
    car.set_speed(ev.get("v"), ev.get("card"))
    if ev.get("card"):
        _return_tactic(race, car, ev["card"], ev)


def _on_hold(race, car, ev):
    car.hold(ev.get("v"))


def _on_corner(race, car, ev):
    safety = ev.get("safety")
    if not charts.valid_speed(safety):
        raise RuleError("corner", "safety speed must be 0 to 160 in steps of 20")
    _need_moving(car)
    over = car.speed - safety
    special = ev.get("special", 0)
    if special:
        if not car.special:
            raise RuleError("corner", "no special tyres fitted")
        if not 0 < over <= 2 * charts.STEP:
            raise RuleError("corner", "special tyres cover 20 or 40 over")
    case = charts.corner_case(over, car.tyre, car.superb and not special, special)
    dice = []
    pen = charts.NO_PENALTY
    if case == charts.ROLL:
        dice = [race.rng.die(), race.rng.die()]
        pen = charts.dice_penalty(over, car.tyre, dice[0], dice[1])
        car.rolled = 1
    elif case == charts.AUTO_SPIN:
        pen = charts.SPIN
    elif case == charts.WAIVED:
        if special:
            car.special = 0
            race.pit_pile.append(cards.SPECIAL_TYRES)  # "Return to pack when used"
        else:
            car.superb = 0
    car.penalty(pen[0], pen[1], pen[2])
    ev["dice"] = dice
    ev["pen"] = list(pen)
    ev["case"] = case


def _on_block(race, car, ev):
    v = ev.get("v")
    if not charts.valid_speed(v) or v == car.speed:
        raise RuleError("block", "the blocker's speed must differ from yours")
    _need_moving(car)
    cost = car.force_speed(v)
    ev["pen"] = [cost[2], cost[1], cost[0]]


def _on_card(race, car, ev):
    code = ev.get("card")
    if code == cards.SUPERB and not ev.get("clear", 1):
        raise RuleError("card", "Superb Driving needs a clear track")
    spaces = car.play_card(code)
    if car.status == FINISHED:
        race.over[race.seat] += spaces  # a move card carries a car that finished this turn further on
    ev["spaces"] = spaces
    _return_tactic(race, car, code, ev)


def _return_tactic(race, car, code, ev):
    race.tactic.append(code)  # "returned to the bottom of the Tactic Card pile"
    race.discarded += 1
    if race.rules & charts.REDRAW and race.tactic:
        drawn = race.tactic.pop(0)
        race.discarded = min(race.discarded, len(race.tactic))  # the draw may have reached the returned cards
        car.hand.append(drawn)
        ev["drawn"] = drawn


def _on_lap(race, car, ev):
    over = ev.get("over", 0)
    if not isinstance(over, int) or not 0 <= over <= 20:
        raise RuleError("lap", "spaces past the line: 0 to 20")
    if not car.speed_set:
        raise RuleError("lap", "set the speed first")
    left = car.lap()
    if left == 0:
        race.over[race.seat] = over
        if not race.finish_round:
            race.finish_round = race.round


def _on_pit(race, car, ev):
    car.check_pit()
    code = race.pit_pile.pop(0)
    if car.special:
        race.pit_pile.append(cards.SPECIAL_TYRES)  # fresh tyres: unused special ones go back
    car.pit(code)
    if code != cards.SPECIAL_TYRES:
        race.pit_pile.append(code)
    ev["pit"] = code
    if cards.PIT_CARDS[code][2] and race.discarded:
        # "The extra card to be taken from the top of the discard pile": the card most recently returned, which
        # lies at the bottom of the tactic pile; none while no card has been returned (docs/rules.md, decision 8).
        drawn = race.tactic.pop()
        race.discarded -= 1
        car.hand.append(drawn)
        ev["drawn"] = drawn


def _on_end(race, car, ev):
    car.end_turn()
    seat = race.seat + 1
    if seat == len(race.cars):
        seat = 0
        if race.round_over():
            return
    race.begin(seat)


HANDLERS = {
    "speed": _on_speed,
    "hold": _on_hold,
    "corner": _on_corner,
    "block": _on_block,
    "card": _on_card,
    "lap": _on_lap,
    "pit": _on_pit,
    "end": _on_end,
}
