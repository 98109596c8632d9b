# Formula 5 on the dashboard: the player's secret hand and their move. The tablet runs the table (the
# shared_rules.f5 engine) and sends this seat's view in one idempotent `f5` command after every change;
# the dashboard sends the player's choice back as an event (`f5race` or `f5pit`) carrying the command's
# turn token `k`, so a late or repeated event can never be played on another turn. Nothing here is saved:
# after a restart the dashboard says hello without an F5 snapshot and the tablet sends the view again.
import time

from shared_rules.errors import RuleError
from shared_rules.f5.cards import (
    ALL_CARDS,
    CAR_NAMES,
    CARS,
    COLOUR_NAMES,
    COLOURS,
    FIRST_PIT,
    PIT_SIDE,
    colour,
    count_by_colour,
    speed_if_played,
)

from firmware.board import BACK, CARD, DOWN, OK, UP
from firmware.buttons import LONG, PRESS, REPEAT
from firmware.ui import next_page, refuse, refusal_tick

MAIN = 20  # the table as this car sees it, and the hand's counts
HAND = 21  # the hand grouped by colour, with the speed each colour would give; OK plays, last row: PIT STOP
PIT = 22  # the card played for the pit stop: a pit stop card or a race card face down
DISCARD = 23  # how many of each colour to discard, then CONFIRM
MESSAGE = 24

NAMES = tuple(n.upper() for n in COLOUR_NAMES)  # the colours as the screen says them
MESSAGE_MS = 4000  # a message's time, as firmware/ui.py's _MESSAGE_MS (a const there; tests/firmware/test_seams.py)


def _ints(x, lo, hi):
    if not isinstance(x, list):
        raise RuleError("args", "bad card list")
    for c in x:
        if not isinstance(c, int) or not lo <= c < hi:
            raise RuleError("args", "bad card")
    return x


def _int(args, key, lo, hi):
    v = args.get(key, lo)
    if not isinstance(v, int) or not lo <= v <= hi:
        raise RuleError("args", "bad " + key)
    return v


class F5Ui:
    def __init__(self, app):
        self.app = app
        self.mode = MAIN
        self.cursor = 0
        self.choices = []  # HAND / PIT: colour indexes, COLOURS = the pit stop cards
        self.discard = [0] * COLOURS  # DISCARD: how many of each colour
        self.pit_card = -1
        self.car = 0
        self.hand = []
        self.col = []  # the public column of this car's position (for the speed each colour would give)
        self.turn = 0
        self.wait = 0  # the table has not started the game (it is pairing its dashboards): no move yet
        self.pos = 0
        self.speed = 0
        self.ahead = -1  # speed of the car ahead, -1 when leading
        self.round = 1
        self.k = -1  # turn token of the last command
        self.over = 0
        self.win = 0
        self.title = ""
        self.text = ""
        self.page = 0  # MESSAGE: the page of a text longer than the screen
        self.error = ""  # the last refusal, shown whole over the bottom rows (firmware.ui.refuse)
        self.error_page = 0
        self.error_until = 0
        self.mode_until = 0

    # ---- the tablet ------------------------------------------------------------------------------------
    def command(self, args, now):
        """Apply the tablet's `f5` view of this seat, or raise RuleError having changed nothing."""
        if not isinstance(args, dict):
            raise RuleError("args", "bad f5 view")
        hand = _ints(args.get("hand", []), 0, ALL_CARDS)
        col = _ints(args.get("col", []), PIT_SIDE, ALL_CARDS)  # the table's view: PIT_SIDE for a card's back
        drawn = _ints(args.get("drawn", []), 0, ALL_CARDS)
        car = _int(args, "car", 0, CARS - 1)
        pos = _int(args, "pos", 0, CARS - 1)
        speed = _int(args, "speed", 0, 99)
        ahead = _int(args, "ahead", -1, 99)
        rnd = _int(args, "round", 1, 99)
        k = _int(args, "k", 0, 1 << 30)
        turn = _int(args, "turn", 0, 1)
        wait = _int(args, "wait", 0, 1)
        over = _int(args, "over", 0, 1)
        win = _int(args, "win", 0, 1)
        # accepted: Formula 5 takes the dashboard (if Formula 1 had it: start() below, from the main screen)
        app = self.app
        app.play(self)
        new_game = k < self.k or self.k < 0 or args.get("deal")
        # the same turn told again (a resend, a resync) leaves the player where they are, in their hand say
        fresh = turn and (not self.turn or k != self.k)
        self.car, self.hand, self.col, self.pos, self.speed = car, sorted(hand), col, pos, speed
        self.ahead, self.round, self.k, self.turn, self.over, self.win = ahead, rnd, k, turn, over, win
        self.wait = wait
        if over:
            self.message("RACE OVER", ("YOU WIN! " if win else "") + "Position %d." % (pos + 1), now)
        elif drawn:
            self.message("PIT STOP", "Drawn: " + self.counts_text(drawn), now)
        elif new_game:
            self.message("FORMULA 5", "Car %s, start %d. Hand: %d cards." % (CAR_NAMES[car].upper(), pos + 1,
                                                                             len(hand)), now)
        elif fresh and self.mode != MESSAGE:
            self._go(MAIN)
        if fresh:
            app.beep(880, 60)

    # ---- what the app asks of the game on the dashboard (as of firmware/ui.py's Ui) ----------------------
    def start(self):
        """Formula 5 takes the dashboard (App.play): its main screen, no view of the table yet."""
        self._go(MAIN)
        self.k = -1

    def snapshot(self):
        """What the link reports while in Formula 5: the tablet resends its view when `k` is not its last."""
        return {"game": "f5", "k": self.k, "n": len(self.hand)}

    def led(self):
        """The turn LED: lit while it is this car's turn."""
        return self.turn

    def hand_shown(self):
        """Every Formula 5 screen shows the secret hand or what is in it (its counts, the cards drawn)."""
        return 1

    # ---- helpers ---------------------------------------------------------------------------------------
    def counts_text(self, cards):
        n = count_by_colour(cards)
        parts = []
        for i in range(COLOURS):
            if n[i]:
                parts.append("%s %d" % (NAMES[i], n[i]))
        if n[COLOURS]:
            parts.append("PIT %d" % n[COLOURS])
        return " ".join(parts) if parts else "nothing"

    def _go(self, mode, cursor=0):
        self.mode = mode
        self.cursor = cursor

    def fail(self, text, now):
        refuse(self, text, now)
        self.app.beep(440, 80)

    def message(self, title, text, now):
        self.title = title
        self.text = text
        self.page = 0
        self.mode = MESSAGE
        self.mode_until = time.ticks_add(now, MESSAGE_MS)

    def tick(self, now):
        changed = refusal_tick(self, now)
        if self.mode == MESSAGE and time.ticks_diff(now, self.mode_until) >= 0:
            if not next_page(self, now):
                self._go(MAIN)
            changed = 1
        return changed

    def held(self, c):
        """The cards of colour c in the hand (c == COLOURS: the pit stop cards)."""
        return [x for x in self.hand if (x >= FIRST_PIT if c == COLOURS else x < FIRST_PIT and colour(x) == c)]

    def hand_rows(self):
        """HAND: the colours held, then the pit stop row (always there: any race card can go face down)."""
        rows = [c for c in range(COLOURS) if self.held(c)]
        rows.append(COLOURS)
        return rows

    def speed_of(self, c):
        return speed_if_played(self.col, self.held(c)[0])

    def my_turn(self, now):
        if not self.app.linked():
            self.fail("NO TABLET", now)
        elif self.over:
            self.fail("RACE OVER", now)
        elif self.wait:
            self.fail("WAIT FOR START", now)
        elif not self.turn:
            self.fail("NOT YOUR TURN", now)
        else:
            return 1
        return 0

    # ---- buttons ---------------------------------------------------------------------------------------
    def on_button(self, key, event, now):
        if event == LONG:
            if key == BACK and self.mode == MAIN and (self.over or not self.app.linked()):
                self.app.play(self.app.f1)  # back to Formula 1
                return 1
            if key == BACK:
                self._go(MAIN)
                return 1
            return 0
        if event != PRESS and not (event == REPEAT and (key == UP or key == DOWN)):
            return 0
        self.error = ""
        m = self.mode
        if m == MESSAGE:
            if key == BACK or not next_page(self, now):  # a key turns a long message's page, BACK closes it
                self._go(MAIN)
        elif m == MAIN:
            if key == OK or key == CARD:
                self.open_hand(now)
        elif key == UP or key == DOWN:
            self._move(key)
        elif m == HAND:
            if key == BACK or key == CARD:
                self._go(MAIN)
            elif key == OK:
                self._hand_ok(now)
        elif m == PIT:
            if key == BACK:
                self.open_hand(now)
            elif key == OK:
                c = self.choices[self.cursor]
                self.pit_card = self.held(c)[0]
                self.discard = [0] * COLOURS
                self.choices = [x for x in range(COLOURS) if self._can_discard(x)]
                self.choices.append(COLOURS)  # CONFIRM
                self._go(DISCARD)
        elif m == DISCARD:
            if key == BACK:
                self._open_pit()
            elif key == OK:
                self._discard_ok(now)
        return 1

    def _move(self, key):
        # UP goes up the list (towards the first row), as on any menu
        if key == DOWN and self.cursor < len(self.choices) - 1:
            self.cursor += 1
        elif key == UP and self.cursor > 0:
            self.cursor -= 1

    def open_hand(self, now):
        if not self.hand:
            self.fail("NO CARDS", now)
            return
        self.choices = self.hand_rows()
        self._go(HAND)

    def _hand_ok(self, now):
        c = self.choices[self.cursor]
        if not self.my_turn(now):
            return
        if c == COLOURS:
            self._open_pit()
            return
        card = self.held(c)[0]
        speed = self.speed_of(c)
        self.app.post("f5race", {"card": card, "k": self.k})
        self.hand.remove(card)
        self.turn = 0
        self.message("PLAYED " + NAMES[c], "Speed %d. The table moves the cars." % speed, now)

    def _open_pit(self):
        self.choices = [c for c in range(COLOURS + 1) if self.held(c)]
        self.choices.reverse()  # pit stop cards first: they are what a pit stop is for
        self._go(PIT)

    def discardable(self, c):
        """How many cards of colour c this pit stop may discard: not the race card just played face down."""
        n = len(self.held(c))
        if self.pit_card < FIRST_PIT and colour(self.pit_card) == c:
            n -= 1
        return n

    def _can_discard(self, c):
        return self.discardable(c) > 0

    def _discard_ok(self, now):
        c = self.choices[self.cursor]
        if c < COLOURS:
            self.discard[c] = (self.discard[c] + 1) % (self.discardable(c) + 1)  # OK counts up, and back to 0
            return
        if not self.my_turn(now):
            return
        out = []
        for x in range(COLOURS):
            cards = [y for y in self.held(x) if y != self.pit_card]
            out.extend(cards[: self.discard[x]])
        self.app.post("f5pit", {"card": self.pit_card, "d": out, "k": self.k})
        self.hand.remove(self.pit_card)
        for y in out:
            self.hand.remove(y)
        self.turn = 0
        self.message("PIT STOP", "%d discarded. Waiting for the cards." % len(out), now)

    # ---- the screen ------------------------------------------------------------------------------------
    def draw(self, fb, linked):
        from firmware.ondemand import f5_screens

        f5_screens.render(fb, self, linked)
