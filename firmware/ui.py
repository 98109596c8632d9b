# What the buttons mean: one small state machine over screens (modes). It changes the car only through
# shared_rules (a RuleError becomes a short message and changes nothing), and tells its host through
# `host.changed(turn_end)` (the car changed: save, push the state), `host.post(name, args)` (an event for
# the tablet, carrying the state: posted after the change, before host.changed), `host.linked()` (1 while the
# tablet is there; else the dashboard plays standalone) and `host.solo()` (standalone play's own dice and piles).
import time
from micropython import const

from shared_rules.errors import RuleError
from shared_rules.f1 import car as f1car
from shared_rules.f1 import cards, charts

from firmware import screens
from firmware.board import BACK, CARD, DOWN, OK, UP
from firmware.buttons import LONG, PRESS, REPEAT

# The modes, one screen each (_SCREENS below). The numbers are what the viewer's state line reports as "mode".
_MAIN = const(0)
_SPEED = const(1)  # dialling the speed at the start of a turn, with the braking preview
_HAND = const(2)  # the hidden hand: shown only while browsing
_MENU = const(3)  # standalone: what happened on the board during the move
_CORNER = const(4)  # standalone: the corner's safety speed, then the dice
_SETUP = const(5)  # a new race: number of laps
_MESSAGE = const(6)  # a result or a tablet message, until a key or a timeout
_WAIT = const(7)  # standalone: blocked in the pit or on a spin-off point, dialling up to 60 without moving

# What each mode shows (firmware/screens.py draws them), indexed by the modes above.
_SCREENS = (screens.main_screen, screens.speed_screen, screens.hand_screen, screens.menu_screen, screens.corner_screen,
            screens.setup_screen, screens.message_screen, screens.wait_screen)

_MESSAGE_MS = const(4000)
_ERROR_MS = const(2500)  # a refusal's time on screen (each page of a long one)
_HAND_HIDE_MS = const(15000)  # the hand hides itself if the dashboard is left lying on the table


# A refusal and a long message, shown a page at a time; Formula 5's screens (firmware/ondemand/f5_ui.py) use these too.
def refuse(ui, text, now):
    """Show why a key was refused, whole: word-wrapped over the bottom rows, paged if it needs more than four."""
    ui.error = text
    ui.error_page = 0
    ui.error_until = time.ticks_add(now, _ERROR_MS)


def refusal_tick(ui, now):
    """The refusal's next page when its time is up, or the refusal gone after its last; 1 if the screen changed."""
    if not ui.error or time.ticks_diff(now, ui.error_until) < 0:
        return 0
    ui.error_page += 1
    if ui.error_page < screens.refusal_pages(ui.error):
        ui.error_until = time.ticks_add(now, _ERROR_MS)
    else:
        ui.error = ""
    return 1


def next_page(ui, now):
    """A message longer than the screen: turn to its next page (1), or 0 if this is its last."""
    if ui.page + 1 >= screens.message_pages(ui.text):
        return 0
    ui.page += 1
    ui.mode_until = time.ticks_add(now, _MESSAGE_MS)
    return 1


class Ui:
    def __init__(self, host, car):
        self.host = host
        self.car = car
        self.mode = _MAIN
        self.cursor = 0
        self.choices = ()  # SPEED, WAIT, CORNER, SETUP: the values dialled; HAND: the cards; MENU: the items
        self.names = ()  # HAND: what its cards are called
        self.carb = 0  # SPEED entered by playing Good Carburettor
        self.back_to = _MAIN  # where a MESSAGE or the HAND goes back to (never both open at once)
        self.back_from = _MAIN
        self.title = ""
        self.text = ""
        self.page = 0  # MESSAGE: the page of a text longer than the screen
        self.error = ""  # the last refusal, shown over the bottom rows (see refuse)
        self.error_page = 0
        self.error_until = 0
        self.mode_until = 0  # MESSAGE / HAND time out
        self.alarm = 0  # the MESSAGE shown is an alarm: it stays until a key

    # ---- what the app asks of the game on the dashboard (firmware/ondemand/f5_ui.py's F5Ui answers the same) ---------
    def start(self):
        """Formula 1 takes the dashboard (App.play): from its main screen."""
        self._go(_MAIN)

    def snapshot(self):
        """The state the link reports: the car."""
        return self.car.snapshot()

    def led(self):
        """The turn LED: lit while it is this car's turn."""
        return self.car.my_turn

    def hand_shown(self):
        """1 while the screen shows the secret hand: the viewer's state line says so, and the tablet covers it."""
        return 1 if self.mode == _HAND else 0

    def draw(self, fb, linked):
        screens.render(fb, self, linked, _SCREENS[self.mode])

    # ---- helpers ---------------------------------------------------------------------------------------
    def _go(self, mode, cursor=0):
        if mode == _MENU:
            self.choices = ("CORNER", "LAP CROSSED", "PIT STOP", "END TURN")
        self.mode = mode
        self.cursor = cursor

    def message(self, title, text, now, then=_MAIN, alarm=0):
        """Show a message until a key or a timeout; an alarm (a damaged save) waits for a key, and nothing else
        replaces it meanwhile: what the tablet reports then is on the table's screen too."""
        if self.alarm and self.mode == _MESSAGE:
            return
        self.alarm = alarm
        self.title = title
        self.text = text
        self.page = 0
        self.back_to = then
        self.mode = _MESSAGE
        self.mode_until = time.ticks_add(now, _MESSAGE_MS)

    def tick(self, now):
        """Time-outs; returns 1 if the screen changed."""
        changed = refusal_tick(self, now)
        timed = (self.mode == _MESSAGE and not self.alarm) or self.mode == _HAND
        if timed and time.ticks_diff(now, self.mode_until) >= 0:
            if not (self.mode == _MESSAGE and next_page(self, now)):
                self._go(self.back_to)
            changed = 1
        return changed

    def can_wait(self):
        """The speed dial's BACK says "blocked": standalone, at the start of a turn in the pit or on a spin-off
        point ("the player may bring his speedometer up to 60 mph"). With the tablet, the table decides blocks."""
        c = self.car
        return (not self.carb and c.my_turn and not c.speed_set and c.speed <= charts.HOLD_SPEED
                and (c.status == f1car.SPUN or c.status == f1car.PIT) and not self.host.linked())

    # ---- buttons ---------------------------------------------------------------------------------------
    def on_button(self, key, event, now):
        """One button event; returns 1 if anything on screen may have changed."""
        mode = self.mode
        if event == LONG:
            if key != BACK:
                return 0
            if self.back_from == _MAIN and mode == _MAIN:  # only a long BACK begun on the main screen
                self.open_setup()
            else:
                self._go(_MAIN)
            return 1
        if event != PRESS and not (event == REPEAT and (key == UP or key == DOWN)):
            return 0
        if key == BACK:
            self.back_from = mode
        self.error = ""
        if mode == _MESSAGE:
            # a key turns a long message's page; BACK, or a key on its last page, closes it
            if event == PRESS and (key == BACK or not next_page(self, now)):
                self.alarm = 0
                self._go(self.back_to)
            return 1
        if mode == _HAND:
            self.mode_until = time.ticks_add(now, _HAND_HIDE_MS)
        try:
            if key == CARD and (mode == _MAIN or mode == _MENU or mode == _SPEED):  # open the hand
                if not self.car.hand:
                    raise RuleError("ui", "NO CARDS")
                self.back_to = _MAIN if mode == _SPEED else mode
                self.choices = tuple(self.car.hand)  # a copy: the hand changes as a card is played
                self.names = [cards.card_text(code) for code in self.choices]
                self.mode_until = time.ticks_add(now, _HAND_HIDE_MS)
                self._go(_HAND)
            elif key == OK:
                self._ok(mode, now)
            elif mode == _MAIN:
                pass  # only OK and CARD do anything here
            elif key == UP or key == DOWN:
                # a list (HAND, MENU) goes up towards its first row on UP; a dial goes up in value
                onward = key == DOWN if mode == _HAND or mode == _MENU else key == UP
                if onward and self.cursor < len(self.choices) - 1:
                    self.cursor += 1
                elif not onward and self.cursor > 0:
                    self.cursor -= 1
            elif mode == _SPEED and key == BACK and self.can_wait():
                # blocked: the dial opens at 60, the reason to say so
                self.choices = range(self.car.speed, charts.HOLD_SPEED + 1, charts.STEP)
                self._go(_WAIT, len(self.choices) - 1)
            elif key == BACK or (mode == _HAND and key == CARD):
                self._go(_MENU if mode == _CORNER else self.back_to if mode == _HAND else _MAIN)
        except RuleError as e:  # refused: nothing changed, say why
            refuse(self, str(e), now)
            self.host.beep(440, 80)
        return 1

    def _ok(self, mode, now):
        """OK on a screen: do what it offers (a RuleError refuses it, having changed nothing)."""
        c = self.car
        host = self.host
        then = _MAIN if host.linked() else _MENU  # after the speed or a card: standalone, the move goes on
        if mode == _MAIN:
            if c.my_turn and not c.speed_set:
                self.open_speed(0)
            elif host.linked():
                raise RuleError("ui", "TABLE PLAYS" if c.my_turn else "NOT YOUR TURN")
            elif c.status == f1car.FINISHED or c.status == f1car.OUT:  # standalone, this car's race is over
                self.open_setup()
            elif c.my_turn:
                self._go(_MENU)
            else:  # standalone: start the turn
                plays = f1car.apply_command(c, "turn", {"on": 1})
                host.changed(1)
                if plays:
                    self.open_speed(0)
                elif c.status == f1car.FINISHED or c.status == f1car.OUT:
                    self.message("RACE OVER", "No more turns for this car.", now)
                else:
                    self.message("MISS A MOVE", "Pit card: this move is missed. %d more to miss." % c.miss, now)
        elif mode == _SPEED:
            v = self.choices[self.cursor]
            card = cards.CARBURETTOR if self.carb else None
            spins = c.set_speed(v, card)[2]
            # The event first: it carries the state it made, and the state frame it replaces is not sent.
            host.post("speed", {"v": v, "card": card} if card else {"v": v})
            host.changed(0)
            if spins:
                self.message("SPUN OFF", "Braking too hard: the car spins off. Speed 0.", now, then)
            else:
                self._go(then)
        elif mode == _HAND:
            code = str(self.choices[self.cursor])
            c.check_card(code)
            if code == cards.CARBURETTOR:
                self.open_speed(1)  # its speed is dialled first, and played with it
                return
            spaces = c.play_card(code)
            host.post("card", {"card": code})  # the event carries the state (see the speed above)
            host.changed(0)
            text = "Move %d spaces forward." % spaces if spaces else "Take one corner at any speed."
            self.message(cards.card_text(code).upper(), text, now, then)
        elif mode == _MENU:
            self._menu(self.choices[self.cursor], now)
        elif mode == _CORNER:
            case, dice, pen = host.solo().corner(c, self.choices[self.cursor])
            host.changed(0)
            self.show_penalty(case, dice, pen, now, _MENU)
        elif mode == _SETUP:
            host.solo().new_race(c, self.choices[self.cursor])
            host.changed(1)
            self.message("NEW RACE", "%d laps. Five tactic cards dealt." % c.laps, now)
        elif mode == _WAIT:
            c.hold(self.choices[self.cursor])
            f1car.apply_command(c, "turn", {"on": 0})  # a blocked car does nothing more this turn
            host.changed(1)
            self._go(_MAIN)

    def open_setup(self):
        """A new race: the number of laps, the last race's first."""
        self.choices = range(1, f1car.MAX_LAPS + 1)
        self._go(_SETUP, self.car.laps - 1)

    def open_speed(self, carb):
        self.carb = carb
        self.choices = self.car.speed_choices(carb) or (self.car.speed,)
        best = 0  # the dial opens on the highest legal speed not above the present one
        for i, v in enumerate(self.choices):
            if v <= self.car.speed:
                best = i
        self._go(_SPEED, best)

    def _menu(self, item, now):
        """The move menu: CORNER, LAP CROSSED, PIT STOP, END TURN."""
        c = self.car
        if item == "CORNER":
            if not c.speed_set or c.status != f1car.RACING:
                raise RuleError("ui", "NOT MOVING")
            self.choices = range(0, charts.MAX_SPEED + 1, charts.STEP)
            self._go(_CORNER, max(0, c.speed // charts.STEP - 1))  # the dial opens one band below the speed
        elif item == "LAP CROSSED":
            left = f1car.apply_command(c, "lap", {})
            self.host.changed(0)
            if left:
                self.message("LAP", "%d laps to go." % left, now, _MENU)
            else:
                self.message("FINISHED", "Chequered flag!", now, _MENU)
        elif item == "PIT STOP":
            n = len(c.hand)
            code = self.host.solo().pit(c)
            self.host.changed(0)
            title = "PIT CARD"
            said = [cards.card_text(card) for card in [code] + c.hand[n:]]  # the pit card, and the card it dealt
            text = said[0]
            if len(said) > 1:  # New Instructions: name the card dealt (the hand stays hidden)
                title = text[: text.find(".")].upper()
                text = "Card dealt: %s. %s" % (said[1], text[text.rfind(". ") + 2 :])
            self.message(title, text, now, _MENU)
        else:  # END TURN
            f1car.apply_command(c, "turn", {"on": 0})
            self.host.changed(1)
            self._go(_MAIN)

    def show_penalty(self, case, dice, pen, now, then):
        title = "DICE %d+%d" % (dice[0], dice[1]) if dice else "CORNER"
        if pen[0]:
            text = "Spun off! Put the car on the Spin Off Point. Speed 0."
        elif pen[1] or pen[2]:
            text = "Tyre +%d, brake +%d." % (pen[1], pen[2])
        elif case == charts.SAFE:
            text = "Safe speed."
        else:
            text = "No penalty."
        self.message(title, text, now, then)

    # ---- the tablet --------------------------------------------------------------------------------
    def on_command(self, name, args, now, same=0):
        """A command from the tablet was applied: show what the player must know. same: it changed nothing
        (a sync of the state the dashboard held), so the player stays where they are."""
        get = args.get
        if name == "pen" and (get("dice") or get("spin") or get("tyre") or get("brake")):
            d = get("dice", 0)
            dice = [d // 10, d % 10] if d else ()
            pen = (get("spin", 0), get("tyre", 0), get("brake", 0))
            self.show_penalty(charts.ROLL, dice, pen, now, _MAIN)
        elif name == "speed" and self.car.status == f1car.SPUN:  # blocked, and too hard a brake to pay for
            self.message("SPUN OFF", "Blocked: braking too hard. Put the car beside the track where it stands. "
                         "Speed 0.", now)
        elif name == "pit":
            code = get("card")
            if code in cards.PIT_CARDS:
                self.message("PIT CARD", cards.card_text(code), now)
        elif name == "deal":
            self.message("CARD DEALT", cards.card_text(str(get("card"))) or "?", now)
        elif name == "turn" and get("on") and self.car.my_turn and self.mode == _MAIN:
            self.open_speed(0)
        elif name == "turn" and get("on") and not self.car.my_turn:
            self.message("MISS A MOVE", "This move is missed. %d more to miss." % self.car.miss, now)
        elif (name == "sync" and not same) or (name == "turn" and not get("on")):
            if self.mode != _MESSAGE:
                self._go(_MAIN)
