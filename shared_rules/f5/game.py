# The Formula 5 table: setup, turns, pit stops, rounds and the end of the game.
#
# Every decision is an event (a JSON-friendly list); the game is rebuilt exactly by replaying its events,
# because all chance comes from one seeded Rng whose draws happen in event order. A refused action raises
# RuleError before anything changes. Decisions where the rulebook is silent: docs/rules-formula5.md.

from shared_rules.errors import RuleError
from shared_rules.f5.cards import (
    ALL_CARDS,
    CARS,
    FACE_DOWN,
    FIRST_PIT,
    HAND_SIZE,
    PITS_BY_POSITION,
    RACE_CARDS,
    column_speed,
    count_by_colour,
    is_card,
    is_pit_card,
    is_race,
    public_entry,
)
from shared_rules.rng import Rng

# Event kinds: ["setup", seed, [player cars]], ["race", car, card], ["pit", car, card, [discarded cards]],
# ["drive", car] (the turn of a car without a player: it plays the top card of the drawing deck).
SETUP = "setup"
RACE = "race"
PIT = "pit"
DRIVE = "drive"


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _check_players(players):
    if not isinstance(players, (list, tuple)) or not players:
        raise RuleError("bad_setup", "At least one car needs a player")
    cars = []
    for car in players:
        if not _is_int(car) or not 0 <= car < CARS:
            raise RuleError("bad_setup", "A player's car must be 0..4")
        if car in cars:
            raise RuleError("bad_setup", "Each player has ONE car")
        cars.append(car)
    return sorted(cars)


class Game:
    """One race. Cars are 0..4; positions are 0 (1st) .. 4 (5th); column i belongs to position i."""

    def __init__(self, seed, players):
        if not _is_int(seed):
            raise RuleError("bad_setup", "The seed must be an integer")
        players = _check_players(players)
        rng = Rng(seed)
        # "shuffle ALL 5 car cards and place them RANDOMLY on the table ... These are the starting positions."
        order = list(range(CARS))
        rng.shuffle(order)
        deck = list(range(RACE_CARDS))  # the top of a pile is its last element
        rng.shuffle(deck)
        hands = [[] for _ in range(CARS)]
        next_pit = FIRST_PIT
        for pos in range(CARS):
            car = order[pos]
            if car not in players:
                continue  # "cars without a player do not receive cards"
            for _ in range(PITS_BY_POSITION[pos]):
                hands[car].append(next_pit)
                next_pit += 1
            for _ in range(HAND_SIZE - PITS_BY_POSITION[pos]):
                hands[car].append(deck.pop())
        self.players = [car in players for car in range(CARS)]
        self.order = order  # order[pos] = car
        self.hands = hands
        # Pit stop cards of cars without a player stay in the box.
        self.set_aside = list(range(next_pit, ALL_CARDS))
        # "5 race cards are drawn from the drawing deck and placed FACE UP" (after the hands are dealt)
        self.columns = [[deck.pop()] for _ in range(CARS)]
        self.deck = deck
        self.discard = []
        self.rng = rng
        self.stopped = [False] * CARS  # in a pit stop: speed 0 until the end of the round
        self.round = 1
        self.queue = list(order)  # cars still to play this round, in the order fixed when it began
        self.over = False
        self.events = [[SETUP, seed, players]]

    # --- reading the table -------------------------------------------------------------------------------

    @classmethod
    def replay(cls, events):
        """Rebuild a game from its event log (the log of the rebuilt game equals `events`)."""
        if not isinstance(events, (list, tuple)) or not events:
            raise RuleError("bad_event", "An event log starts with the setup")
        first = events[0]
        if not isinstance(first, (list, tuple)) or len(first) != 3 or first[0] != SETUP:
            raise RuleError("bad_event", "An event log starts with the setup")
        game = cls(first[1], first[2])
        for i in range(1, len(events)):
            game.apply(events[i])
        return game

    def to_move(self):
        """The car whose turn it is, or None once the game is over."""
        return None if self.over else self.queue[0]

    def is_player(self, car):
        return self.players[car]

    def position(self, car):
        """0 for 1st .. 4 for 5th."""
        return self.order.index(car)

    def speed(self, car):
        """ "During a pit stop the SPEED of the car is 0"; otherwise the speed of the column it is in."""
        if self.stopped[car]:
            return 0
        return column_speed(self.columns[self.order.index(car)])

    def hand(self, car):
        """A copy of the hand, sorted: grouped by colour, pit stop cards last. Secret: dashboards only."""
        return sorted(self.hands[car])

    def hand_counts(self, car):
        return count_by_colour(self.hands[car])

    def standings(self):
        """The player cars, best placed first. At the end of the game the first one has won."""
        return [car for car in self.order if self.players[car]]

    def winner(self):
        """ "The player whose car is in the better position (among players) at the end of the game wins." """
        return self.standings()[0] if self.over else None

    def public(self):
        """What the table shows: no hands, no deck order, face-down cards hidden. Keys hold no order."""
        return {
            "round": self.round,
            "order": list(self.order),
            "columns": [[public_entry(e) for e in col] for col in self.columns],
            "speeds": [self.speed(car) for car in range(CARS)],
            "stopped": list(self.stopped),
            "players": list(self.players),
            "hand_sizes": [len(h) for h in self.hands],
            "deck": len(self.deck),
            "discard": len(self.discard),
            "to_move": self.to_move(),
            "over": self.over,
            "winner": self.winner(),
        }

    def snapshot(self):
        """Everything, for comparing games (a replay must give an equal snapshot)."""
        return {
            "round": self.round,
            "order": list(self.order),
            "columns": [list(col) for col in self.columns],
            "hands": [list(h) for h in self.hands],
            "players": list(self.players),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "set_aside": list(self.set_aside),
            "stopped": list(self.stopped),
            "queue": list(self.queue),
            "over": self.over,
            "rng": self.rng.state(),
            "events": [list(e) for e in self.events],
        }

    # --- actions -----------------------------------------------------------------------------------------

    def apply(self, event):
        """Play one event (as recorded in `events`). Returns the turn's result, see _finish."""
        if not isinstance(event, (list, tuple)) or len(event) < 2:
            raise RuleError("bad_event", "Not an event")
        kind = event[0]
        if kind == RACE and len(event) == 3:
            return self.play(event[1], event[2])
        if kind == PIT and len(event) == 4:
            return self.pit(event[1], event[2], event[3])
        if kind == DRIVE and len(event) == 2:
            return self.drive(event[1])
        raise RuleError("bad_event", "Unknown event")

    def play(self, car, card):
        """ "PLAY a race card from their hand ... in the column corresponding to their CAR"."""
        self._check_turn(car, True)
        if not is_card(card) or card not in self.hands[car]:
            raise RuleError("not_in_hand", "That card is not in your hand")
        if not is_race(card):
            raise RuleError("pit_card", "A pit stop card can only be played for a pit stop")
        self.hands[car].remove(card)
        self.events.append([RACE, car, card])
        return self._race_side(car, card, [])

    def drive(self, car):
        """The turn of a car without a player: it draws from the drawing deck and plays that card."""
        self._check_turn(car, False)
        if not self.deck and not self.discard:
            raise RuleError("no_cards", "No race card left to draw")  # cannot happen in 12 rounds
        drawn = []
        reshuffles = self._draw(1, drawn)
        self.events.append([DRIVE, car])
        return self._race_side(car, drawn[0], [], reshuffles)

    def pit(self, car, card, discards):
        """A pit stop: play a pit stop card or a race card face down, discard race cards, draw as many."""
        self._check_turn(car, True)
        hand = self.hands[car]
        if not is_card(card) or card not in hand:
            raise RuleError("not_in_hand", "That card is not in your hand")
        if not isinstance(discards, (list, tuple)):
            raise RuleError("bad_discard", "Discards must be a list of cards")
        chosen = []
        for d in discards:
            if not is_card(d) or d not in hand or d == card:
                raise RuleError("bad_discard", "You can only discard cards from your hand")
            if is_pit_card(d):
                raise RuleError("bad_discard", "Pit stop cards cannot be discarded")
            if d in chosen:
                raise RuleError("bad_discard", "A card can be discarded once")
            chosen.append(d)
        chosen.sort()  # the order cards are named in does not matter; the log keeps one spelling
        pos = self.order.index(car)
        hand.remove(card)
        self.columns[pos].append(card if is_pit_card(card) else card + FACE_DOWN)
        for d in chosen:
            hand.remove(d)
            self.discard.append(d)
        drawn = []
        reshuffles = self._draw(len(chosen), drawn)
        hand.extend(drawn)
        self.stopped[car] = True
        self.events.append([PIT, car, card, chosen])
        return self._finish(car, card, 0, [], drawn, reshuffles)

    # --- inside a turn -----------------------------------------------------------------------------------

    def _check_turn(self, car, needs_player):
        if self.over:
            raise RuleError("game_over", "The race is over")
        if not _is_int(car) or not 0 <= car < CARS:
            raise RuleError("bad_car", "No such car")
        if car != self.queue[0]:
            raise RuleError("not_your_turn", "It is not this car's turn")
        if needs_player and not self.players[car]:
            raise RuleError("no_player", "This car has no player: it draws from the deck")
        if not needs_player and self.players[car]:
            raise RuleError("has_player", "This car's player chooses its card")

    def _draw(self, n, into):
        """Draw n cards from the deck into `into`; returns how many times the discards were reshuffled."""
        reshuffles = 0
        for _ in range(n):
            if not self.deck:
                # "Should it run out, shuffle the discarded cards to form it again."
                self.deck = self.discard
                self.discard = []
                self.rng.shuffle(self.deck)
                reshuffles += 1
            into.append(self.deck.pop())
        return reshuffles

    def _race_side(self, car, card, drawn, reshuffles=0):
        pos = self.order.index(car)
        self.columns[pos].append(card)
        speed = column_speed(self.columns[pos])
        overtaken = []
        # "swapping the position of their car card with the car card preceding it, only if its SPEED is
        # GREATER"; "a SINGLE CAR per turn"; "several CONSECUTIVE cars stopped for pit stops you are allowed
        # to overtake them all" (a run of stopped cars, never a moving car after them: see the docs).
        while pos > 0:
            ahead = self.order[pos - 1]
            if overtaken and not self.stopped[ahead]:
                break
            if column_speed(self.columns[pos]) <= self.speed(ahead):
                break
            self.order[pos - 1] = car
            self.order[pos] = ahead
            overtaken.append(ahead)
            pos -= 1
            if not self.stopped[ahead]:
                break
        return self._finish(car, card, speed, overtaken, drawn, reshuffles)

    def _finish(self, car, card, speed, overtaken, drawn, reshuffles):
        """End the turn (and the round, and maybe the game) and describe what happened.

        The result: car, card (the card played; for a car without a player, the one it drew), speed (the
        speed the card gave, the one compared when overtaking; 0 for a pit stop; game.speed(car) is the
        speed in the column the car ends on), overtaken (cars passed, nearest first), drawn (cards drawn into
        a pit-stopping player's hand: secret), reshuffles, round_over, over.
        """
        self.queue.pop(0)
        round_over = not self.queue
        if round_over:
            self.stopped = [False] * CARS  # a pit stop lasts until the end of the round it was made in
            # "At the end of the round when the cards in the players' hands run out, the game ends."
            if all(not self.hands[c] for c in range(CARS) if self.players[c]):
                self.over = True
            else:
                self.round += 1
                self.queue = list(self.order)
        return {
            "car": car,
            "card": card,
            "speed": speed,
            "overtaken": overtaken,
            "drawn": drawn,
            "reshuffles": reshuffles,
            "round_over": round_over,
            "over": self.over,
        }
