# The dashboard application: one car, its screens and buttons, the tablet link and the saved state, as asyncio
# tasks (buttons, link, time, saves, garbage). A button press is handled at once, to the end: state changed, screen
# redrawn (what changed only), state frame written to the tablet; then the save task puts the change on flash
# (firmware/keeper.py), in steps, each in a moment a press is unlikely (see _SHADOW_MS), between which the presses
# latched meanwhile are handled (firmware/buttons.py). A tablet command is journaled (one line appended,
# firmware/ondemand/journal.py) before its ack, whatever a save is doing; the full save folds it in later.
# Idle, every task waits for its event (a pin interrupt, the tablet's bytes, a save or collection due) and only
# the clock task wakes, ten times a second, for the time-outs: the core sleeps the rest of the time.
import asyncio
import gc
import json
import sys
import time

from micropython import const
from shared_rules.f1 import car as f1car

from firmware import board as b
from firmware.buttons import LONG, RELEASE, Buttons
from firmware.display import Display
from firmware.keeper import Keeper
from firmware.ui import Ui

_DEFAULT_LAPS = const(3)
_POLL_MS = const(5)  # how often the link's start waiting for the first save looks again
_TICK_MS = const(100)  # time-outs, the tablet indicator, the link's heartbeat and resends
# Flash work (a save's step: a littlefs block erase stalls the core 45 ms, more on a real chip, and cannot be cut
# smaller) and garbage collection run where a press is unlikely: in the shadow of a press, the first _SHADOW_MS
# after it (a player's next press comes 100 ms or more after one, 150 ms in the bench's fastest burst, so the
# longest step started then is over before it), or once no key was pressed for _QUIET_MS (the player reads the
# screen or waits for the table: rarer the longer it is, so a press seldom comes in the few ms a step takes then).
# Between those a pending step waits, looking every _WINDOW_POLL_MS.
_SHADOW_MS = const(70)
_QUIET_MS = const(1000)
_WINDOW_POLL_MS = const(10)
_GC_MIN_SPARE = const(4096)  # the allocations that force a collection anyway (gc.threshold): half of what was free
# at the start, at least this


class Screen:
    """What the player sees: the OLED (firmware/display.py sends only what changed) and the turn LED. Redrawn when
    `touched` (a press, the tablet or the time changed something); `linked` is the tablet indicator last drawn."""

    def __init__(self, board):
        self.board = board
        self.display = Display(board)
        self.touched = 0
        self.linked = -1
        self.led_on = -1

    def draw(self, ui, linked, wifi):
        self.touched = 0
        self.linked = linked
        ui.draw(self.display.fb, linked)
        if wifi is not None:  # a Pico W's seat: its Wi-Fi link in words over the main screen (ondemand/wifi_seat.py)
            wifi.draw(self.display.fb, ui)
        self.display.flush()
        led = ui.led()
        if led != self.led_on:
            self.led_on = led
            self.board.led(led)


class Sound:
    """The piezo: a tone for some ms, ended by the button scan (a task per beep would be garbage per beep)."""

    def __init__(self, board):
        self.board = board
        self.on = 0
        self.until = 0

    def beep(self, hz, ms):
        self.board.tone(hz)
        self.until = time.ticks_add(time.ticks_ms(), ms)
        self.on = 1

    def end_due(self, now):
        if time.ticks_diff(now, self.until) >= 0:
            self.on = 0
            self.board.tone(0)


class Pauses:
    """Where the work that stalls the core goes: a save's steps and garbage collection, each asked for (save_due,
    gc_due) and run in a window where no press is likely (see _SHADOW_MS), after the last press (pressed_at)."""

    def __init__(self):
        self.pressed_at = time.ticks_add(time.ticks_ms(), -_QUIET_MS)  # the last press (or repeat)
        self.save_due = asyncio.Event()
        self.gc_due = asyncio.Event()

    async def window(self):
        """Until work that stalls the core may start: in a press's shadow or in a quiet spell (see _SHADOW_MS). The
        presses latched meanwhile are handled first, whatever the window."""
        await asyncio.sleep_ms(0)
        while True:
            since = time.ticks_diff(time.ticks_ms(), self.pressed_at)
            if since < _SHADOW_MS or since >= _QUIET_MS:
                return
            await asyncio.sleep_ms(_WINDOW_POLL_MS)

    async def collect_task(self, keeper):
        """Garbage collected after a frame (a few ms; before the save it asks for, both in the press's shadow), in a
        window and never during a save, so that a press never waits for one. Idle, nothing is collected: nothing
        was made."""
        while True:
            await self.gc_due.wait()
            self.gc_due.clear()
            await self.window()
            while keeper.saving:
                await asyncio.sleep_ms(_WINDOW_POLL_MS)
                await self.window()
            gc.collect()


class Tablet:
    """The tablet link (firmware/ondemand/link.py, some 9 KB of heap), loaded when the tablet first speaks: a dashboard
    played standalone never pays for it. Until then, `kept`: the saved command ids and events it will start from.
    On a Pico W, `wifi`: its Wi-Fi seat (firmware/ondemand/wifi_seat.py), which links over Wi-Fi while USB does not."""

    def __init__(self, kept):
        self.link = None
        self.kept = kept
        self.wifi = None

    def linked(self):
        return self.link.tablet_present() if self.link is not None else 0

    def kept_now(self):
        """(done ids, unacknowledged events): what a save keeps of the link."""
        link = self.link
        return (link.done_ids(), link.pending_events()) if link is not None else self.kept

    def listen(self, report, apply, keeper):
        """Before the link is loaded, the tablet has spoken: its first byte is dropped (the tablet repeats a lost
        frame: its "hi" until it hears the hello, a command until it is answered) and the link is loaded, which says
        hello with `report()`. Returns 0 at the end of input (the unix port's stdin closed): no tablet can ever come."""
        if not sys.stdin.buffer.read(1):  # type: ignore[attr-defined]
            return 0
        gc.collect()  # its code is placed in a clean heap, not among a press's garbage
        from firmware.ondemand.link import DashboardLink, take_seat

        on_wifi = self.wifi.conf.answer if self.wifi is not None else None  # a Pico W: its network set at pairing
        link = take_seat(self, keeper, lambda done: DashboardLink(report, apply, on_journal=keeper.journaled,
                                                                  done=done, on_wifi=on_wifi))
        link.last_rx = time.ticks_ms()  # that byte was the tablet: USB holds the seat from now (a Pico W's Wi-Fi
        return 1  # seat would take it back before the tablet's first whole frame)

    def post(self, name, args):
        link = self.link
        if link is not None and link.tablet_present():
            try:
                link.post_event(name, args)
            except ValueError:
                pass  # outbox full: the state frames still carry the change


class App:
    """The dashboard: one car (car, kept by keeper), the games on it (f1, Formula 5's _f5 once dealt, ui the one
    playing), and a concern each: board, buttons, screen, sound, pauses (when flash work and collections run),
    tablet (the link)."""

    def __init__(self, board):
        self.board = board
        self.car = f1car.Car(_DEFAULT_LAPS)
        self.keeper = Keeper(board.state_path)  # the saving concern: the save, its journal, when each is written
        self.screen = Screen(board)
        self.sound = Sound(board)
        self.pauses = Pauses()
        self._solo = None  # standalone play's code (firmware/ondemand/solo.py), loaded on first use
        self.f1 = Ui(self, self.car)  # Formula 1's screens and buttons (firmware/ui.py)
        self._f5 = None  # Formula 5's (firmware/ondemand/f5_ui.py), loaded only when the tablet deals a hand
        self.ui = self.f1  # the game on the dashboard: changed only by play()
        done, events, error = self.keeper.restore(self.car)
        self.tablet = Tablet((done, events))
        board.latch.clear()  # edges from before (the self-test's): not for the app
        self.buttons = Buttons(
            len(b.BUTTONS), self._on_button, debounce_ms=board.debounce_ms, repeat_mask=(1 << b.UP) | (1 << b.DOWN),
            long_mask=1 << b.BACK,
        )
        self.buttons.ignore_held(board.buttons())  # e.g. BACK still held to leave the self-test
        if error:
            # The reason is for a maker, on the console (the Pico's USB serial; the tablet's link skips the line),
            # beside the file kept; the player is told, in one page, what happened, what was done and what to press.
            print("save damaged (%s): moved to %s.bad, the car reset" % (error, board.state_path))
            self.f1.message("SAVE DAMAGED", "Saved race could not be read. Dashboard reset to a fresh car. Press OK.",
                            time.ticks_ms(), alarm=1)

    # ---- saved state -----------------------------------------------------------------------------------
    async def save(self):
        """The full atomic save (firmware/keeper.py), the journal folded in. Its state is taken and written in one
        step; the file's close and its rename (where littlefs erases, 45 ms a block, up to 400 ms on a real chip)
        are steps of their own. Each step waits for a window where no press is likely (see _SHADOW_MS), and the
        presses latched during a step are handled before the next: a press changes the car only between steps, and
        is saved by the save that follows."""
        window = self.pauses.window
        await window()
        # The state taken now, with no wait between this and dirty cleared (the first step): a command acked while
        # the save waited for its window is in it
        keeper = self.keeper
        done, events = self.tablet.kept_now()
        for _ in keeper.steps(self.car, done, events):
            await window()
        self.board.emit(b"W %d\n" % keeper.saves)  # its garbage waits for the next frame's collection

    async def saved(self):
        """Until what the last press or command changed is on flash (the host board's viewer waits for this)."""
        while self.keeper.dirty or self.keeper.saving:
            await asyncio.sleep_ms(1)

    # ---- the game on the dashboard ---------------------------------------------------------------------
    def play(self, ui):
        """The one game switch: `ui` (self.f1, or Formula 5's F5Ui) takes the buttons, the screen, the turn LED and
        the state the link reports (report), from its main screen. A game asks for it; it never reaches into the
        other game, nor into the link."""
        if self.ui is not ui:
            self.ui = ui
            ui.start()
            self.screen.touched = 1

    def report(self):
        """The state the link reports: the game on the dashboard's (the car, or this seat of Formula 5)."""
        return self.ui.snapshot()

    # ---- what the UI calls ----------------------------------------------------------------------------
    def changed(self, turn_end):
        """The car changed on the dashboard (a confirmed action): tell the tablet now; saved once the screen
        shows it (see settle). The car changes only on confirmed actions (OK on a speed, a card, a corner,
        a lap, a turn's end), a handful per turn and never per UP/DOWN step, so each is saved at once: a power
        cut loses at most the press being handled."""
        self.keeper.dirty = 1
        link = self.tablet.link
        if link is not None:
            link.state_changed()

    def linked(self):
        """1 while the tablet is there (it spoke in the last few seconds): what the screens ask."""
        return self.tablet.linked()

    def post(self, name, args):
        self.tablet.post(name, args)

    def solo(self):
        """Standalone play's own dice and piles (firmware/ondemand/solo.py), loaded on first use."""
        if self._solo is None:
            gc.collect()  # once: its code is placed in a clean heap, not among a press's garbage
            from firmware.ondemand import solo

            self._solo = solo
        return self._solo

    def beep(self, hz, ms):
        self.sound.beep(hz, ms)

    # ---- the tablet ------------------------------------------------------------------------------------
    def _apply(self, name, args):
        if name == "f5":  # Formula 5: the tablet's view of this player's seat (see firmware/ondemand/f5_ui.py)
            if self._f5 is None:  # imported on first use: a Formula 1 dashboard never pays RAM for it
                gc.collect()  # loading it needs room in one piece: compile (from .py) or load (.mpy) into a clean heap
                from firmware.ondemand.f5_ui import F5Ui

                self._f5 = F5Ui(self)
            self._f5.command(args, time.ticks_ms())  # once the view is accepted, Formula 5 plays (play)
        else:
            # the tablet syncs after every pairing, the same state as often as not: that must not close a dial
            before = self.car.snapshot() if name == "sync" else None
            f1car.apply_command(self.car, name, args)  # RuleError: refused, nothing changed
            same = name == "sync" and before == self.car.snapshot()
            self.play(self.f1)  # a Formula 1 command: the tablet plays Formula 1 (again)
            self.f1.on_command(name, args, time.ticks_ms(), same)
        self.screen.touched = 1

    # ---- buttons and screen ----------------------------------------------------------------------------
    def _on_button(self, key, event):
        if event == LONG and self.tablet.link is None:
            self.solo()  # a standalone race may start: its code loaded (20-30 ms) while the player holds the key
        now = time.ticks_ms()
        if event != RELEASE:
            self.pauses.pressed_at = now  # its shadow: where the flash work goes (see _SHADOW_MS)
        if self.ui.on_button(key, event, now):
            self.screen.touched = 1

    def scan_buttons(self):
        """The edges latched since the last scan and the buttons held, then what they changed, shown (settle)."""
        board = self.board
        self.buttons.update(board.buttons(), time.ticks_ms(), board.latch)
        if self.sound.on:
            self.sound.end_due(time.ticks_ms())
        self.settle()

    def settle(self):
        """What a press or the tablet's commands changed: the player sees the result first, then the save task is
        told to put it on flash. Garbage waits for a pause (Pauses.collect_task): a collection takes a few ms, and
        the free memory is never asked here (gc.mem_free() scans the heap: 7 ms on a Pico)."""
        if self.screen.touched:
            self.refresh()
        if self.keeper.due():
            self.pauses.save_due.set()

    def refresh(self):
        self.pauses.gc_due.set()
        ui = self.ui
        self.screen.draw(ui, self.linked(), self.tablet.wifi)
        board = self.board
        if board.viewer:  # the host's viewer channel: the state line, written in pieces (no copy of the whole)
            car = json.dumps(self.car.snapshot())  # both pieces made first: out of memory leaves no half line
            tail = b', "mode": %d, "hand": %d, "saves": %d, "free": %d}\n' % (ui.mode, ui.hand_shown(),
                                                                              self.keeper.saves, gc.mem_free())
            emit = board.emit
            emit(b'S {"car": ')
            emit(car)
            emit(tail)

    def resend(self):
        self.screen.display.invalidate()
        self.refresh()

    # ---- tasks: the buttons, the tablet link, time, saves and garbage; each settles what it changed ----------
    async def run(self):
        # main.py collected every few KB while the modules loaded; from here on collections wait for the pauses
        # between presses (Pauses.collect_task): one in the middle of a press doubled its time. The threshold is a
        # safety net for a long burst of presses with no pause.
        gc.threshold(-1)
        self.refresh()  # the saved state on screen first: the power-on's wait ends here
        gc.collect()
        gc.threshold(max(gc.mem_free() // 2, _GC_MIN_SPARE))
        self.settle()
        if " W" in sys.implementation._machine or _env("F1_AIR"):  # type: ignore[attr-defined]
            # A Pico W ("Raspberry Pi Pico W with RP2040"; on the unix port the tests' stand-in radio): its seat
            # links over Wi-Fi while USB does not. A plain Pico loads nothing of Wi-Fi, nor tries to import it.
            from firmware.ondemand.wifi_seat import WifiSeat

            self.tablet.wifi = WifiSeat(self.board.state_path)  # type: ignore[assignment]
            asyncio.create_task(self.tablet.wifi.run(self))  # type: ignore[union-attr]
        asyncio.create_task(self.link_task())
        asyncio.create_task(self.tick_task())
        asyncio.create_task(self.save_task())
        asyncio.create_task(self.pauses.collect_task(self.keeper))
        board = self.board
        buttons = self.buttons
        sound = self.sound
        while True:
            self.scan_buttons()
            if buttons.state or sound.on or board.buttons():
                await asyncio.sleep_ms(board.poll_ms)  # held: long press, auto-repeat, the beep's end
            else:
                await board.flag.wait()  # asleep until an edge is latched

    async def link_task(self):
        from firmware.mpy_internals import readable  # here, not at the top: after the first frame (a quicker boot)

        keeper = self.keeper
        tablet = self.tablet
        while True:
            await readable(sys.stdin)  # type: ignore  # asleep until the tablet sends something
            while keeper.replayed:
                # The link's start waits while the journal holds commands replayed at power-on, until a save has
                # folded them in. A command never waits for a save: the journal keeps it across one (keeper.py).
                await asyncio.sleep_ms(_POLL_MS)
            link = tablet.link
            if link is None or not link.usb:  # (a Pico W's Wi-Fi link gives USB the seat)
                if not tablet.listen(self.report, self._apply, keeper):
                    return  # the unix port's stdin closed: no tablet can ever come
                self.screen.touched = 1  # the tablet indicator
            else:
                waiting = len(link.outbox)
                link.poll(0)
                if link.eof:
                    return
                if len(link.outbox) < waiting:
                    # An event acknowledged: save without it. A save that still lists it would send it again after
                    # a restart, and a tablet restarted meanwhile (had it lost the ids it took) would apply it twice.
                    keeper.dirty = 1
            self.settle()  # the commands just taken shown (and their save asked for) before the next input is read

    async def tick_task(self):
        """Time-outs on the screen, the tablet indicator, the link's heartbeat and resends, the journal's fold."""
        screen = self.screen
        while True:
            await asyncio.sleep_ms(_TICK_MS)
            now = time.ticks_ms()
            link = self.tablet.link
            if link is not None:
                link.tick(now)
            if self.ui.tick(now) or self.linked() != screen.linked:
                screen.touched = 1
            self.settle()

    async def save_task(self):
        due = self.pauses.save_due
        while True:
            await due.wait()
            due.clear()
            while self.keeper.due():  # a press taken during a save made it dirty again
                await self.save()


def _env(name):
    import os

    return os.getenv(name) if hasattr(os, "getenv") else None  # the unix port's environment; a Pico has none


def _task_failed(loop, context):
    # A task that dies would leave the dashboard half alive (buttons but no link, or the other way round): end the
    # whole run instead, so that main.py restarts the app from its save, as after an error anywhere else.
    raise context["exception"]


async def start(board):
    asyncio.get_event_loop().set_exception_handler(_task_failed)
    if board.buttons() & (1 << b.BACK):  # BACK held at power-on: the self-test, then the app
        from firmware.ondemand import selftest

        await selftest.run_then(board, App)
    else:
        app = App(board)
        asyncio.create_task(board.serve(app))
        await app.run()


def main(board=None):
    asyncio.run(start(board or b.make_board()))
