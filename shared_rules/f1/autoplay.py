# A scripted driver for whole races: tests, benchmarks and solo seats use it.
# The board itself is not part of the rules (the real cars stand on a real board), so this keeps a
# simple stand-in: a lap of LAP_SPACES spaces with a red band at each corner position.

from shared_rules.errors import RuleError
from shared_rules.f1 import cards
from shared_rules.f1.status import RACING, SPUN, PIT
from shared_rules.f1.charts import STEP

LAP_SPACES = 64
# (space of the red band, safety speed) around the stand-in lap.
BANDS = ((8, 80), (18, 80), (27, 60), (38, 100), (47, 40), (56, 120))


class Driver:
    """Chooses legal moves for every seat of a Race, from its own seeded generator."""

    def __init__(self, race, rng):
        self.race = race
        self.rng = rng
        self.pos = [0] * len(race.cars)  # spaces driven since the start

    def play_turn(self):
        race = self.race
        seat = race.seat
        car = race.cars[seat]
        rng = self.rng
        start = self.pos[seat]
        if car.status == SPUN or car.status == PIT:
            if rng.below(8) == 0:
                race.hold(seat, 0 if car.fixed else min(60, car.speed + 20))
                race.end_turn(seat)
                return
        choices = car.speed_choices()
        card = None
        if cards.CARBURETTOR in car.hand and rng.below(6) == 0 and car.speed < 120:
            card = cards.CARBURETTOR
            choices = car.speed_choices(carb=1)
        # Prefer speeds that brake for free, with some risk-taking.
        cheap = [v for v in choices if car.braking_cost(v) == (0, 0, 0)]
        pick = cheap if cheap and rng.below(5) else choices
        race.set_speed(seat, pick[rng.below(len(pick))], card)
        if car.status == RACING and rng.below(10) == 0 and car.speed > 20:
            try:
                race.block(seat, car.speed - 20 * (1 + rng.below(3)))
            except RuleError:
                pass
        self._drive(seat, start, car.speed // STEP)
        if car.status == RACING and not car.rolled and not car.card_used and car.hand and rng.below(3) == 0:
            code = car.hand[rng.below(len(car.hand))]
            if cards.TACTIC_TIMING[code] == cards.AT_END:
                spaces = race.play_card(seat, code)["spaces"]
                self._drive(seat, self.pos[seat], spaces)
        race.end_turn(seat)

    def _drive(self, seat, start, spaces):
        """Move `spaces` forward: roll for each band crossed, count the line, maybe pit."""
        race = self.race
        car = race.cars[seat]
        end = start + spaces
        for s in range(start + 1, end + 1):
            if car.status != RACING:
                break
            at = s % LAP_SPACES
            for band, safety in BANDS:
                if at == band:
                    if car.speed > safety and car.special and car.speed - safety <= 40:
                        race.corner(seat, safety, special=1)
                    else:
                        if car.speed > safety and cards.SUPERB in car.hand and not car.card_used \
                                and not car.rolled and self.rng.below(2):
                            race.play_card(seat, cards.SUPERB)
                        race.corner(seat, safety)
            self.pos[seat] = s
            if at == 0 and car.status == RACING:
                if car.laps_left > 1 and s == end and self.rng.below(4) == 0:
                    race.pit(seat)
                    return
                race.lap(seat, over=end - s)
                if car.status != RACING:
                    return


def play_game(race, rng, max_turns=5000):
    driver = Driver(race, rng)
    turns = 0
    while not race.game_over and turns < max_turns:
        driver.play_turn()
        turns += 1
    return turns
