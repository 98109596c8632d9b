# The table: seats, decks, dice, turn order and the event log. The tablet owns this.
# Every decision is an event; applying the same events to a fresh table rebuilds the same state exactly,
# dice and shuffles included, because they all come from one seeded generator consumed in event order.

from shared_rules.errors import RuleError
from shared_rules.rng import Rng
from shared_rules.f1 import cards
from shared_rules.f1.car import Car
from shared_rules.f1.status import FINISHED, OUT
from shared_rules.f1.race_events import HANDLERS
from shared_rules.f1.replay import rebuild
from shared_rules.f1.seating import roll_for_seats  # noqa: F401  (re-exported)
from shared_rules.f1.standings import ranking

COLOURS = ("yellow", "orange", "green", "red", "black", "blue")  # seat 1 is always yellow
MIN_PLAYERS = 2
MAX_PLAYERS = 6
MIN_LAPS = 3
MAX_LAPS = 10


class Race:
    def __init__(self, seed, names, laps, rules=0, per_kind=cards.PER_KIND, keep_log=1):
        if not isinstance(names, (list, tuple)) or not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise RuleError("setup", "2 to 6 players")
        for n in names:
            if not isinstance(n, str) or not n:
                raise RuleError("setup", "every player needs a name")
        if not isinstance(laps, int) or not MIN_LAPS <= laps <= MAX_LAPS:
            raise RuleError("setup", "3 to 10 laps")
        if not isinstance(per_kind, int) or not 1 <= per_kind <= 9:
            raise RuleError("setup", "1 to 9 tactic cards of each kind")
        if len(names) * cards.HAND_SIZE > per_kind * len(cards.TACTIC_KINDS):
            raise RuleError("setup", "not enough tactic cards for the hands")
        if not isinstance(seed, int):
            raise RuleError("setup", "seed must be an integer")
        self.setup = {"t": "setup", "seed": seed, "names": list(names), "laps": laps, "rules": rules,
                      "per_kind": per_kind}
        self.rng = Rng(seed)
        self.laps = laps
        self.rules = rules
        self.per_kind = per_kind
        first, self.seat_throws = roll_for_seats(self.rng, len(names))
        # "The player on his left takes the appropriately coloured car for space 2 and so on."
        self.names = [names[(first + i) % len(names)] for i in range(len(names))]
        self.colours = list(COLOURS[: len(names)])
        self.cars = [Car(laps, rules) for _ in self.names]
        self.tactic = cards.tactic_deck(per_kind)  # index 0 is the top of the pile
        self.rng.shuffle(self.tactic)
        # How many of the pile's bottom cards were played and returned there: the rulebook's "discard pile"
        # (docs/rules.md, decision 8).
        self.discarded = 0
        self.pit_pile = cards.pit_deck()
        self.rng.shuffle(self.pit_pile)
        for _ in range(cards.HAND_SIZE):
            for car in self.cars:
                car.hand.append(self.tactic.pop(0))
        self.over = [-1] * len(self.names)  # spaces past the line at the finish
        self.round = 1
        self.seat = 0
        self.finish_round = 0
        self.game_over = 0
        self.skipped = []  # (round, seat) of every missed move, for the table to show
        self.keep_log = keep_log
        self.events = [self.setup] if keep_log else []
        self.begin(0)

    # ---- replay ---------------------------------------------------------------------------------

    @classmethod
    def from_events(cls, events):
        """Rebuild a table from its log. Raises RuleError if the log is not a game these rules allow."""
        return rebuild(cls, events)

    # ---- the one entry point --------------------------------------------------------------------

    def do(self, ev):
        """Apply one decision. On RuleError nothing has changed. Returns the event with its outcome."""
        if not isinstance(ev, dict):
            raise RuleError("event", "bad event")
        if self.game_over:
            raise RuleError("over", "the race is over")
        t = ev.get("t")
        if t not in HANDLERS:
            raise RuleError("event", "unknown event")
        handler = HANDLERS[t]
        seat = ev.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat != self.seat:
            raise RuleError("turn", "not this car's turn")
        handler(self, self.cars[seat], ev)
        if self.keep_log:
            self.events.append(ev)
        return ev

    # Convenience wrappers: the tablet and the tests speak in these.
    def set_speed(self, seat, v, card=None):
        return self.do({"t": "speed", "seat": seat, "v": v, "card": card})

    def hold(self, seat, v):
        return self.do({"t": "hold", "seat": seat, "v": v})

    def corner(self, seat, safety, special=0):
        return self.do({"t": "corner", "seat": seat, "safety": safety, "special": special})

    def block(self, seat, v):
        return self.do({"t": "block", "seat": seat, "v": v})

    def play_card(self, seat, code, clear=1):
        return self.do({"t": "card", "seat": seat, "card": code, "clear": clear})

    def lap(self, seat, over=0):
        return self.do({"t": "lap", "seat": seat, "over": over})

    def pit(self, seat):
        return self.do({"t": "pit", "seat": seat})

    def end_turn(self, seat):
        return self.do({"t": "end", "seat": seat})

    # ---- turn order ------------------------------------------------------------------------------

    def begin(self, seat):
        """Start the turn of `seat`, passing over cars that miss a move or no longer race."""
        n = len(self.cars)
        for _ in range(n * 12):  # bounded: every pass either plays or uses up a missed move
            if self.cars[seat].start_turn():
                self.seat = seat
                return
            if self.cars[seat].status != FINISHED and self.cars[seat].status != OUT:
                self.skipped.append((self.round, seat))
            seat += 1
            if seat == n:
                seat = 0
                if self.round_over():
                    return
        self.game_over = 1  # nobody can move any more

    def round_over(self):
        self.round += 1
        if self.finish_round or all(c.status == OUT for c in self.cars):
            self.game_over = 1
            self.seat = -1
            return 1
        return 0

    # ---- results --------------------------------------------------------------------------------

    def results(self):
        """Seats from first to last, as (place, seat); see standings.ranking."""
        return ranking(self.cars, self.over)

    def winners(self):
        return [seat for place, seat in self.results() if place == 1 and self.cars[seat].status == FINISHED]

    def snapshot(self):
        return {
            "names": list(self.names),
            "colours": list(self.colours),
            "cars": [c.snapshot() for c in self.cars],
            "tactic": list(self.tactic),
            "discarded": self.discarded,
            "pit_pile": list(self.pit_pile),
            "over": list(self.over),
            "round": self.round,
            "seat": self.seat,
            "finish_round": self.finish_round,
            "game_over": self.game_over,
            "rng": self.rng.state(),
        }

    def card_count(self):
        """Every tactic and pit card, wherever it is: (tactic, pit). Used by the property tests."""
        tactic = len(self.tactic) + sum(len(c.hand) for c in self.cars)
        pit = len(self.pit_pile) + sum(c.special for c in self.cars)
        return tactic, pit
