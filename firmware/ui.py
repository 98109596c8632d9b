# What the buttons mean: one small state machine over screens (modes). It changes the car only through
# shared_rules (a RuleError becomes a short message and changes nothing), and tells its host through
# `host.changed(turn_end)` (the car changed: save, push the state), `host.post(name, args)` (an event for
# the tablet), `host.linked()` (1 while the tablet is there; else the dashboard plays standalone) and
# `host.solo()` (standalone play's own dice and piles).
import time
from micropython import const

from shared_rules.errors import RuleError
from shared_rules.f1 import car as f1car
from shared_rules.f1 import cards, charts

from firmware.buttons import LONG, PRESS, REPEAT

MAIN = 0
SPEED = 1  # dialling the speed at the start of a turn, with the braking preview
HAND = 2  # the hidden hand: shown only while browsing
MENU = 3  # standalone: what happened on the board during the move
CORNER = 4  # standalone: the corner's safety speed, then the dice
SETUP = 5  # a new race: number of laps
MESSAGE = 6  # a result or a tablet message, until a key or a timeout
WAIT = 7  # standalone: blocked in the pit or on a spin-off point, dialling up to 60 without moving

UP, DOWN, OK, CARD, BACK = 0, 1, 2, 3, 4

_MENU_ITEMS = const(("CORNER", "LAP CROSSED", "PIT STOP", "END TURN"))
_MESSAGE_MS = const(4000)
_ERROR_MS = const(2500)
_HAND_HIDE_MS = const(15000)  # the hand hides itself if the dashboard is left lying on the table


class Ui:
    def __init__(self, host, car):
        self.host = host
        self.car = car
        self.mode = MAIN
        self.cursor = 0
        self.choices = []  # SPEED, WAIT: the legal speeds; HAND: the cards; CORNER: safety speeds
        self.carb = 0  # SPEED entered by playing Good Carburettor
        self.after_message = MAIN
        self.hand_from = MAIN
        self.back_from = MAIN
        self.title = ""
        self.text = ""
        self.error = ""
        self.error_until = 0
        self.mode_until = 0  # MESSAGE / HAND time out back to MAIN
        self.alarm = 0  # the MESSAGE shown is an alarm: it stays until a key

    # ---- helpers ---------------------------------------------------------------------------------------
    def _go(self, mode, cursor=0):
        if mode == MENU:
            self.choices = _MENU_ITEMS
        self.mode = mode
        self.cursor = cursor

    def fail(self, text, now):
        self.error = text[:16]
        self.error_until = time.ticks_add(now, _ERROR_MS)
        self.host.beep(440, 80)

    def message(self, title, text, now, then=MAIN, alarm=0):
        """Show a message until a key or a timeout; an alarm (a damaged save) waits for a key, and nothing else
        replaces it meanwhile: what the tablet reports then is on the table's screen too."""
        if self.alarm and self.mode == MESSAGE:
            return
        self.alarm = alarm
        self.title = title
        self.text = text
        self.after_message = then
        self.mode = MESSAGE
        self.mode_until = time.ticks_add(now, _MESSAGE_MS)

    def tick(self, now):
        """Time-outs; returns 1 if the screen changed."""
        changed = 0
        if self.error and time.ticks_diff(now, self.error_until) >= 0:
            self.error = ""
            changed = 1
        timed = (self.mode == MESSAGE and not self.alarm) or self.mode == HAND
        if timed and time.ticks_diff(now, self.mode_until) >= 0:
            self._go(self.after_message if self.mode == MESSAGE else self.hand_from)
            changed = 1
        return changed

    def speed_cursor(self, v):
        best = 0
        for i, c in enumerate(self.choices):
            if c <= v:
                best = i
        return best

    def status_text(self):
        c = self.car
        if c.status == f1car.FINISHED:
            return "FINISHED"
        if c.status == f1car.OUT:
            return "OUT"
        if c.miss:
            return "MISS %d" % c.miss
        if c.status == f1car.SPUN:
            return "SPUN OFF"
        if c.status == f1car.PIT:
            return "IN PIT"
        if c.my_turn:
            return "YOUR TURN"
        return "WAIT"

    # ---- buttons ---------------------------------------------------------------------------------------
    def on_button(self, key, event, now):
        """One button event; returns 1 if anything on screen may have changed."""
        if event == LONG:
            if key == BACK:
                if self.back_from == MAIN and self.mode == MAIN:
                    self.choices = list(range(1, f1car.MAX_LAPS + 1))
                    self._go(SETUP, self.car.laps - 1)
                else:
                    self._go(MAIN)
                return 1
            return 0
        if event != PRESS and event != REPEAT:
            return 0
        if event == REPEAT and key != UP and key != DOWN:
            return 0
        if key == BACK:
            self.back_from = self.mode  # a long BACK opens the race setup only if it began on the main screen
        self.error = ""
        if self.mode == MESSAGE:
            if event == PRESS:
                self.alarm = 0
                self._go(self.after_message)
            return 1
        if key == CARD and (self.mode == MAIN or self.mode == MENU or self.mode == SPEED):
            self.open_hand(now)
        elif self.mode == MAIN:
            self._main(key, now)
        elif self.mode == SPEED:
            self._speed(key, now)
        elif self.mode == HAND:
            self.mode_until = time.ticks_add(now, _HAND_HIDE_MS)
            self._hand(key, now)
        elif self.mode == MENU:
            self._menu(key, now)
        elif self.mode == CORNER:
            self._corner(key, now)
        elif self.mode == SETUP:
            self._setup(key, now)
        elif self.mode == WAIT:
            self._wait(key, now)
        return 1

    def _move(self, key):
        if key == UP and self.cursor < len(self.choices) - 1:
            self.cursor += 1
        elif key == DOWN and self.cursor > 0:
            self.cursor -= 1

    def _main(self, key, now):
        c = self.car
        if key == OK:
            if c.my_turn and not c.speed_set:
                self.open_speed(0)
            elif c.my_turn:
                if self.host.linked():
                    self.fail("TABLE PLAYS", now)
                else:
                    self._go(MENU)
            elif self.host.linked():
                self.fail("NOT YOUR TURN", now)
            else:
                self._start_turn(now)

    def open_hand(self, now):
        if not self.car.hand:
            self.fail("NO CARDS", now)
            return
        self.hand_from = self.mode if self.mode != SPEED else MAIN
        self.choices = list(self.car.hand)
        self.mode_until = time.ticks_add(now, _HAND_HIDE_MS)
        self._go(HAND)

    def _start_turn(self, now):
        c = self.car
        try:
            plays = f1car.apply_command(c, "turn", {"on": 1})
        except RuleError as e:
            self.fail(str(e), now)
            return
        self.host.changed(1)
        if plays:
            self.open_speed(0)
        elif c.status == f1car.FINISHED or c.status == f1car.OUT:
            self.message("RACE OVER", "No more turns for this car.", now)
        else:
            self.message("MISS A MOVE", "Pit card: this move is missed. %d more to miss." % c.miss, now)

    def open_speed(self, carb):
        self.carb = carb
        self.choices = self.car.speed_choices(carb)
        if not self.choices:
            self.choices = [self.car.speed]
        self._go(SPEED, self.speed_cursor(self.car.speed))

    def _speed(self, key, now):
        if key == UP or key == DOWN:
            self._move(key)
        elif key == BACK:
            if self.can_wait():
                self.choices = list(range(self.car.speed, charts.HOLD_SPEED + 1, charts.STEP))
                self._go(WAIT, len(self.choices) - 1)  # blocked: the dial opens at 60, the reason to say so
            else:
                self._go(MAIN)
        elif key == OK:
            v = self.choices[self.cursor]
            card = cards.CARBURETTOR if self.carb else None
            try:
                cost = self.car.set_speed(v, card)
            except RuleError as e:
                self.fail(str(e), now)
                return
            self.host.changed(0)
            args = {"v": v}
            if card:
                args["card"] = card
            self.host.post("speed", args)
            if cost[2]:
                text = "Braking too hard: the car spins off. Speed 0."
                self.message("SPUN OFF", text, now, self._after_move())
            else:
                self._go(self._after_move())

    def can_wait(self):
        """The speed dial's BACK says "blocked": standalone, at the start of a turn in the pit or on a spin-off
        point ("the player may bring his speedometer up to 60 mph"). With the tablet, the table decides blocks."""
        c = self.car
        return (not self.carb and c.my_turn and not c.speed_set and c.speed <= charts.HOLD_SPEED
                and (c.status == f1car.SPUN or c.status == f1car.PIT) and not self.host.linked())

    def _wait(self, key, now):
        if key == UP or key == DOWN:
            self._move(key)
        elif key == BACK:
            self._go(MAIN)
        elif key == OK:
            try:
                self.car.hold(self.choices[self.cursor])
            except RuleError as e:
                self.fail(str(e), now)
                return
            f1car.apply_command(self.car, "turn", {"on": 0})  # a blocked car does nothing more this turn
            self.host.changed(1)
            self._go(MAIN)

    def _after_move(self):
        return MAIN if self.host.linked() else MENU

    def _hand(self, key, now):
        if key == BACK or key == CARD:
            self._go(self.hand_from)
        elif key == UP or key == DOWN:
            # UP goes up the list (towards the first card), as on any menu
            self._move(DOWN if key == UP else UP)
        elif key == OK:
            if not self.choices:
                return
            code = str(self.choices[self.cursor])
            try:
                self.car.check_card(code)
            except RuleError as e:
                self.fail(str(e), now)
                return
            if code == cards.CARBURETTOR:
                self.open_speed(1)
                return
            spaces = self.car.play_card(code)
            self.host.changed(0)
            self.host.post("card", {"card": code})
            if spaces:
                text = "Move %d spaces forward." % spaces
            else:
                text = "Take one corner at any speed."
            self.message(cards.TACTIC_NAMES[code].upper()[:16], text, now, self._after_move())

    def _menu(self, key, now):
        if key == UP or key == DOWN:
            self._move(DOWN if key == UP else UP)
        elif key == BACK:
            self._go(MAIN)
        elif key == OK:
            item = self.cursor
            c = self.car
            if item == 0:
                if not c.speed_set or c.status != f1car.RACING:
                    self.fail("NOT MOVING", now)
                    return
                self.choices = list(range(0, charts.MAX_SPEED + 1, charts.STEP))
                self._go(CORNER, self.speed_cursor(c.speed - charts.STEP))
            elif item == 1:
                try:
                    left = f1car.apply_command(c, "lap", {})
                except RuleError as e:
                    self.fail(str(e), now)
                    return
                self.host.changed(0)
                if left:
                    self.message("LAP", "%d laps to go." % left, now, MENU)
                else:
                    self.message("FINISHED", "Chequered flag!", now, MENU)
            elif item == 2:
                n = len(c.hand)
                try:
                    code = self.host.solo().pit(c)
                except RuleError as e:
                    self.fail(str(e), now)
                    return
                self.host.changed(0)
                title = "PIT CARD"
                text = cards.PIT_CARDS[code][4]
                if len(c.hand) > n:  # New Instructions: name the card dealt (the hand stays hidden)
                    title = text[: text.find(".")].upper()
                    text = "Card dealt: %s. %s" % (cards.TACTIC_NAMES[c.hand[-1]], text[text.rfind(". ") + 2 :])
                self.message(title, text, now, MENU)
            else:
                try:
                    f1car.apply_command(c, "turn", {"on": 0})
                except RuleError as e:
                    self.fail(str(e), now)
                    return
                self.host.changed(1)
                self._go(MAIN)

    def _corner(self, key, now):
        if key == UP or key == DOWN:
            self._move(key)
        elif key == BACK:
            self._go(MENU)
        elif key == OK:
            safety = self.choices[self.cursor]
            try:
                case, dice, pen = self.host.solo().corner(self.car, safety)
            except RuleError as e:
                self.fail(str(e), now)
                return
            self.host.changed(0)
            self.show_penalty(case, dice, pen, now, MENU)

    def show_penalty(self, case, dice, pen, now, then):
        title = "DICE %d+%d" % (dice[0], dice[1]) if dice else "CORNER"
        if pen[0]:
            text = "Spun off! Speed 0."
        elif pen[1] or pen[2]:
            text = "Tyre +%d, brake +%d." % (pen[1], pen[2])
        elif case == charts.SAFE:
            text = "Safe speed."
        else:
            text = "No penalty."
        self.message(title, text, now, then)

    def _setup(self, key, now):
        if key == UP or key == DOWN:
            self._move(key)
        elif key == BACK:
            self._go(MAIN)
        elif key == OK:
            self.host.solo().new_race(self.car, self.choices[self.cursor])
            self.host.changed(1)
            self.message("NEW RACE", "%d laps. Five tactic cards dealt." % self.car.laps, now)

    # ---- the tablet --------------------------------------------------------------------------------
    def on_command(self, name, args, now):
        """A command from the tablet was applied: show what the player must know."""
        if name == "pen" and (args.get("dice") or args.get("spin") or args.get("tyre") or args.get("brake")):
            d = args.get("dice", 0)
            dice = [d // 10, d % 10] if d else []
            pen = (args.get("spin", 0), args.get("tyre", 0), args.get("brake", 0))
            self.show_penalty(charts.ROLL, dice, pen, now, MAIN)
        elif name == "pit":
            code = args.get("card")
            if code in cards.PIT_CARDS:
                self.message("PIT CARD", cards.PIT_CARDS[code][4], now)
        elif name == "deal":
            code = str(args.get("card"))
            self.message("CARD DEALT", cards.TACTIC_NAMES[code] if code in cards.TACTIC_NAMES else "?", now)
        elif name == "turn" and args.get("on") and self.car.my_turn and self.mode == MAIN:
            self.open_speed(0)
        elif name == "turn" and args.get("on") and not self.car.my_turn:
            self.message("MISS A MOVE", "This move is missed. %d more to miss." % self.car.miss, now)
        elif name == "sync" or (name == "turn" and not args.get("on")):
            if self.mode != MESSAGE:
                self._go(MAIN)
