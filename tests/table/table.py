"""The whole table, real parts only: six virtual dashboards (the real firmware on the `micropython` unix port,
each with its game link on its own pty behind a fault-injecting relay, its buttons and OLED on the viewer
channel) and the tablet's logic (Referee with its SQLite log, the pyserial transport, the link bridge).

Table.play() runs a whole Formula 1 race: scripted players press dashboard buttons (speed, Good Carburettor,
move cards, Superb Driving) and the referee's operator uses the tablet controls (corner, block, hold, lap,
pit, end of turn, undo). Every choice comes from a seeded generator and the table's state, and every action
waits for the table to confirm it, as players at a real table do: a press lost to a fault is simply made
again. With faults on, a second seeded generator pulls cables, kills dashboards and the tablet, damages a
dashboard's save, and throws garbage and corrupted frames at the lines at random moments (right after a
press or a decision, while its frames are in flight). Same seed, same race: the final state of every
dashboard and of the table must come out identical with and without faults.

Used by tests/table/ (a short race) and bench/table_bench.py (the full 5 laps, and the soak).
"""

import fnmatch
import json
import os
import random
import sys
import tracemalloc

from companion.link_bridge import LinkBridge
from companion.f1.referee import Referee
from companion.transport import CONNECTED, Transport
from companion.transport.pyserial_backend import PyserialPorts
from shared_rules.errors import RuleError
from shared_rules.f1 import cards
from shared_rules.f1.autoplay import BANDS, LAP_SPACES
from shared_rules.f1.charts import STEP
from shared_rules.f1.status import PIT, RACING, SPUN
from shared_rules.rng import Rng
from tests.firmware.dash import VirtualDashboard, modes
from tests.firmware.race_script import dial
from tests.link.harness import FAST, NOISE, FakeUsb, raw_pty
from tests.wait import poll

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fox"]
# The firmware's screens (firmware/ui.py), as its viewer channel reports them.
F1_MODES = modes("ui.py")
MAIN, SPEED, HAND, MENU, CORNER, SETUP, MESSAGE = (F1_MODES[m] for m in ("MAIN", "SPEED", "HAND", "MENU", "CORNER",
                                                                         "SETUP", "MESSAGE"))
# BACK closes a message at once, however many pages it has (OK turns a long one's pages: a damaged save's warning)
DOWN_TAP = {HAND: "BACK", MENU: "BACK", CORNER: "BACK", SETUP: "BACK", MESSAGE: "BACK"}
TIMING = dict(FAST, silent=2500, command_retry=120)  # compressed time; the firmware beats every 1 s
LINE_NOISE = dict(drop=1, dup=1, corrupt=1, truncate=1, garbage=1, delay=2)  # % of the lines, each way
FAULT_KINDS = ("unplug", "unplug", "kill_dash", "kill_dash", "kill_tablet", "burst", "burst", "garbage",
               "damage_save")
LINE_FAULTS = ("unplug", "unplug", "burst", "garbage")  # a bad cable and a loose hub: nothing restarts


class CountedNotes:
    """The transport's note queue as the bridge drains it, counting every command each dashboard answered:
    applied[(dev, name)] and refused[(dev, name)] (names from the ids the table sent)."""

    def __init__(self, events, names, applied, refused):
        self.events, self.names, self.applied, self.refused = events, names, applied, refused

    def put(self, note):
        self.events.put(note)

    def get(self, *args, **kw):
        return self._count(self.events.get(*args, **kw))

    def get_nowait(self):
        return self._count(self.events.get_nowait())

    def _count(self, note):
        if note[0] in ("done", "refused"):
            key = (note[1], self.names.get(note[2], "?"))
            counts = self.applied if note[0] == "done" else self.refused
            counts[key] = counts.get(key, 0) + 1
        return note


class TableError(AssertionError):
    pass


# Allocations that are the game itself (the referee's log and its race) or the test's own helpers: left out
# when measuring whether the tablet's machinery (transport, link sessions, bridge) grows.
NOT_MACHINERY = ("*/companion/f1/*", "*/companion/eventlog.py", "*/companion/taken.py", "*/shared_rules/f1/*", "*/tests/*", "<frozen *>", "*/tracemalloc.py")


def tablet_heap_kb(ref, harness=()):
    """The tablet's Python heap without its game log (tracemalloc must be tracing), `ref` the game's referee;
    `harness`: what the test itself keeps (Table.names), left out like the log."""
    snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, p) for p in NOT_MACHINERY])
    return (sum(st.size for st in snap.statistics("filename")) - _log_parsed_by_the_link(ref, harness)) // 1024


def _log_parsed_by_the_link(ref, harness=()):
    """Bytes the game's log holds that tracemalloc charges to the link: the strings of each dashboard event the
    link parsed (shared_rules/link/codec.py) and the referee kept, its id above all (companion/taken.py keeps
    every taken id for the whole game: one a turn per dashboard, the growth of a log, not of the machinery).
    And what the test keeps of the tablet's objects: Table.names holds every command id the referee made
    (charged to companion/referee_base.py), some 70 bytes a command, 28 KB by the soak's end."""
    seen, size = set(), 0
    stack = [ref.entries, ref.taken.order, *harness]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        where = tracemalloc.get_object_traceback(x)
        if where is not None and not any(fnmatch.fnmatch(where[-1].filename, p) for p in NOT_MACHINERY):
            size += sys.getsizeof(x)
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return size


def rss_kb():
    """This process's resident memory (the tablet's), from /proc."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


class Seat:
    """One dashboard and its cable: the firmware on a pty, a relay between that pty and the tablet's pty."""

    def __init__(self, workdir, dev, usb, seed, dashboard=None):
        from tests.link.harness import Relay

        self.dev = dev
        self.usb = usb
        self.dash = VirtualDashboard(workdir, dev=dev, **(dashboard or {}))
        self.master = None
        self.dead_master = None
        self.tty = None  # the path of the dashboard's own end of its pty (the firmware's stdin and stdout)
        self.relay = Relay(None, seed)
        self.plug()

    def start(self, pty=None):
        """`pty`: its (master, slave) already opened and raw (a test that needs the dashboard at a given path)."""
        self.master, slave = pty if pty is not None else raw_pty()
        self.tty = os.ttyname(slave)
        self.dash.stdin = self.dash.stdout = slave
        self._attach(self.master)
        try:
            self.dash.start()
        finally:
            os.close(slave)

    def _attach(self, master):
        """The line's far end takes the dashboard's pty (None: the dashboard is dead)."""
        self.relay.attach_dashboard(master)

    def kill(self):
        self.dash.kill()
        self._attach(None)
        # The master stays open until the next kill: the relay may still be selecting on it, and a closed
        # number is soon reused (by the next pty) and would then be read by the relay.
        if self.dead_master is not None:
            os.close(self.dead_master)
        self.dead_master, self.master = self.master, None

    def plug(self):
        self.usb.paths.append(self.relay.plug())

    def unplug(self):
        if self.relay.path in self.usb.paths:
            self.usb.paths.remove(self.relay.path)
        self.relay.unplug()

    def close(self):
        self.kill()
        self.relay.close()
        self.kill()  # closes the last master, now that the relay is stopped


class Table:
    def __init__(self, workdir, seed, players=6, laps=5, lap_spaces=LAP_SPACES, faults=0, fault_rate=0.08,
                 heap_every=0, timeout=30.0, dashboard=None, fault_kinds=FAULT_KINDS, line_noise=None, trace_from=None):
        """dashboard: keyword arguments for every VirtualDashboard (heap, micropypath, cwd); by default the
        firmware's source tree in a 256 KB heap. trace_from: the turn from which the tablet's allocations are traced
        (tracemalloc; it doubles the tablet's time): the machinery samples before it are None."""
        self.workdir = workdir
        self.seed = seed
        self.laps = laps
        self.lap_spaces = lap_spaces
        # The stand-in lap's red bands (shared_rules.f1.autoplay), scaled to the lap's length.
        self.bands = sorted({(max(1, b * lap_spaces // LAP_SPACES), s) for b, s in BANDS})
        self.faulty = faults
        self.fault_rate = fault_rate
        self.fault_kinds = fault_kinds
        self.line_noise = line_noise or LINE_NOISE  # what every line does to its lines when faulty (Faults' names)
        self.names = {}  # command id -> its name, as the table sent it
        self.applied = {}  # (dev, command name) -> how many the dashboard applied (acked), syncs included
        self.refused = {}  # (dev, command name) -> how many it refused
        self.heap_every = heap_every
        self.trace_from = trace_from
        self.timeout = timeout
        self.rng = Rng(seed)  # the players' choices
        self.frng = random.Random(seed * 7919 + 1)  # the faults: apart, so both runs choose the same moves
        self.path = os.path.join(workdir, "table.db")
        self.usb = FakeUsb()
        self.seats = [self._seat(i, dashboard) for i in range(players)]
        self.pos = [0] * players
        self.ref = None
        self.transport = None
        self.bridge = None
        self.old_refs = []
        self.counts = {k: 0 for k in fault_kinds}
        self.counts.update(undo=0, corner_rolls=0, blocks=0, holds=0, pits=0, laps=0, cards=0, carbs=0, superb=0,
                           presses=0, retries=0, decisions=0, turns=0, damaged_screens=0)
        self.heap = {s.dev: [] for s in self.seats}  # gc.mem_free() after a collection, per sample
        self.rss = []  # the tablet process's resident KB, per sample
        self.machinery = []  # the tablet's heap without the game log, KB, per sample (when tracing)
        self.log_kb = []  # the game log's own size (its JSON text), KB, per sample
        self.sample_turns = []
        self.fault_deck = []
        self.fault_log = []  # (turn, fault, dashboard, seat acting)
        self.sync_log = []  # why each sync was queued (_watch_syncs), to explain a count that differs

    # ---- setting up and tearing down ------------------------------------------------------------------
    def _seat(self, i, dashboard):
        """Seat i's dashboard and its line to the tablet (tests/table/phone_table.py: a phone's instead)."""
        return Seat(self.workdir, "dash-%d" % (i + 1), self.usb, self.seed + i, dashboard)

    def _ports(self):
        """The tablet's port source (a new tablet's, after kill_tablet)."""
        return PyserialPorts(self.usb)

    def _noisy_lines(self):
        for s in self.seats:
            for f in (s.relay.up, s.relay.down):
                for k, v in self.line_noise.items():
                    setattr(f, k, v)

    def open(self):
        for s in self.seats:
            s.start()
        if self.faulty:
            self._noisy_lines()
        self.ref = Referee.new(self.path, NAMES[: len(self.seats)], self.laps, seed=self.seed)
        self._watch_syncs(self.ref)
        self._start_tablet()
        for seat, s in enumerate(self.seats):
            self.ref.pair(seat, s.dev)
        self.settle()
        return self

    def _start_tablet(self):
        self.transport = t = Transport(self._ports(), TIMING)
        send = t.send

        def sending(dev, name, args, cmd_id=None):
            cid = send(dev, name, args, cmd_id)
            self.names[cid] = name
            return cid

        t.send = sending
        t.events = CountedNotes(t.events, self.names, self.applied, self.refused)
        t.start()
        self.bridge = LinkBridge(t, self.ref)

    def _watch_syncs(self, ref):
        """Record each sync the referee queues from now on: (turn, seat, who asked for it, the fields the table
        believed the dashboard held otherwise, the last fault before it). Who asked: the referee's method that
        called _resync_seat, and its caller (reconcile: a state the dashboard showed; undo, pair; _tell: a
        decision the dashboard would refuse; on_dashboard_event: an event the table refused)."""
        queue = ref._queue

        def queued(seat, name, args):
            if name == "sync":
                asked = "%s<%s" % (sys._getframe(2).f_code.co_name, sys._getframe(3).f_code.co_name)
                held = ref.believed[seat].snapshot()
                differ = {k: (held.get(k), v) for k, v in sorted(args.items()) if held.get(k) != v}
                self.sync_log.append((self.counts["turns"], seat, asked, differ, self.fault_log[-1:]))
            queue(seat, name, args)

        ref._queue = queued

    def close(self):
        if self.transport is not None:
            self.transport.stop()
        for s in self.seats:
            s.close()
        for r in self.old_refs + [self.ref]:
            if r is not None:
                r.close()

    # ---- waiting, as the app's Clock would poll ------------------------------------------------------
    def pump(self, pred, timeout=None):
        return bool(poll(pred, self.timeout if timeout is None else timeout, 0.005, meanwhile=self.bridge.poll))

    def in_step(self):
        """Every dashboard connected, told everything, and showing exactly the table's car."""
        t = self.transport
        if t.pending():
            return False
        for seat, s in enumerate(self.seats):
            st = s.dash.state
            if t.status(s.dev) != CONNECTED or st is None:
                return False
            if st.get("car") != self.ref.race.cars[seat].snapshot():
                return False
        return True

    def settle(self, timeout=None):
        if not self.pump(self.in_step, timeout):
            raise TableError("the table did not come back in step:\n%s" % self.describe())

    def describe(self):
        out = []
        for seat, s in enumerate(self.seats):
            st = s.dash.state or {}
            out.append("%s link=%s pending=%s\n  dash =%s\n  table=%s\n  %s; %s" % (
                s.dev, self.transport.status(s.dev), self.transport.pending(s.dev), st.get("car"),
                self.ref.race.cars[seat].snapshot(), s.dash.blocked_in(), self._cable(s)))
        out.append("faults (turn, kind, dashboard, seat acting): %s" % self.fault_log[-6:])
        return "\n".join(out)

    def _cable(self, s):
        """The relay and the tablet's reader of one seat's cable: which of them still moves bytes."""
        r = s.relay
        w = self.transport.workers.get(r.path)
        reader = "no reader" if w is None else "reader running" if w.running else "reader ended"
        state = "DEAD" if not r.thread.is_alive() else "writing " + r.writing if r.writing else "alive"
        printed = ""
        if r.printed:  # an error the firmware printed on its line (the tablet skips what is not a frame)
            printed = "\n  it printed on its line: %s" % b"\n".join(r.printed).decode(errors="replace")
        return "relay %s, queued up %d down %d; tablet port %s: %s%s" % (
            state, len(r.queue["up"]), len(r.queue["down"]), r.path, reader, printed)

    # ---- the tablet's controls -------------------------------------------------------------------------
    def decide(self, what, *args):
        """One of the referee's decisions, as the race screen makes it; RuleError when the rules refuse."""
        ev = getattr(self.ref, what)(*args)
        self.counts["decisions"] += 1
        self.bridge.push()
        self.fault_point()
        return ev

    # ---- the players, on their dashboards --------------------------------------------------------------
    def car(self, seat):
        return self.ref.race.cars[seat]

    def _to_main(self, d):
        """Back to the main screen, whatever the dashboard shows (a message, a menu, the hand)."""
        for _ in range(6):
            mode = d.state["mode"]
            if mode == MAIN:
                return
            if mode == SPEED:
                d.tap("BACK")
            else:
                d.tap(DOWN_TAP.get(mode, "BACK"))
        raise TableError("dashboard stuck away from its main screen:\n" + d.screen())

    def _press(self, seat, action, confirmed):
        """A player's action on the dashboard, made again until the table has it (a fault may eat a press)."""
        for attempt in range(8):
            self.settle()
            if confirmed():
                return
            if attempt:
                self.counts["retries"] += 1
            d = self.seats[seat].dash
            try:
                self._to_main(d)
                action(d)
            except (TimeoutError, ConnectionError) as e:  # the dashboard stopped answering its viewer channel
                raise TableError("%s\n%s" % (e, self.describe())) from e
            self.counts["presses"] += 1
            self.fault_point(seat)
            if self.pump(confirmed, 3.0 if self.faulty else self.timeout):
                return
        raise TableError("a press never reached the table:\n" + self.describe())

    def dash_speed(self, seat, v, carb):
        def action(d):
            if carb:
                hand = d.car()["hand"]
                d.tap("CARD")
                d.tap(*(["DOWN"] * hand.index(cards.CARBURETTOR)))
                d.tap("OK")
            else:
                d.tap("OK")
            if d.state["mode"] != SPEED:
                raise TableError("no speed dial:\n" + d.screen())
            dial(d, v)
            d.tap("OK")

        self._press(seat, action, lambda: self.car(seat).speed_set == 1)
        self.counts["carbs"] += carb

    def dash_card(self, seat, code):
        """Play a tactic card from the dashboard's hidden hand; returns the table's event for it."""
        before = len(self.ref.entries)

        def action(d):
            d.tap("CARD")
            d.tap(*(["DOWN"] * d.car()["hand"].index(code)))
            d.tap("OK")

        self._press(seat, action, lambda: self.car(seat).card_used == 1)
        self.counts["cards"] += 1
        for entry in reversed(self.ref.entries[before:]):
            if entry.get("t") == "card":
                return entry
        raise TableError("card played but not in the log")

    # ---- faults ---------------------------------------------------------------------------------------
    def fault_point(self, seat=None):
        """A random moment: often right after a press or a decision, its frames still on the line."""
        if not self.faulty or self.frng.random() >= self.fault_rate:
            return
        if not self.fault_deck:  # every kind once per round of the deck, in a seeded order
            self.fault_deck = list(self.fault_kinds)
            self.frng.shuffle(self.fault_deck)
        kind = self.fault_deck.pop()
        s = self.seats[self.frng.randrange(len(self.seats)) if seat is None or self.frng.random() < 0.5 else seat]
        self.counts[kind] += 1
        self.fault_log.append((self.counts["turns"], kind, s.dev, seat))
        self.fault(kind, s)

    def fault(self, kind, s):
        """One fault of `kind` on seat `s` (a Seat), now."""
        if kind == "unplug":
            s.unplug()
            self.pump(lambda: False, self.frng.uniform(0.05, 1.5))
            s.plug()
        elif kind == "kill_dash":
            s.kill()
            self.pump(lambda: False, self.frng.uniform(0.0, 0.6))
            s.relay.inject("up", b"MPY: soft reboot\r\n")
            s.start()
        elif kind == "damage_save":
            s.kill()
            self._damage(s.dash.state_path)
            s.start()
            if s.dash.rows()[0] != "SAVE DAMAGED":
                raise TableError("a damaged save was not reported:\n" + s.dash.screen())
            self.counts["damaged_screens"] += 1
        elif kind == "kill_tablet":
            self.kill_tablet()
        elif kind == "garbage":
            for _ in range(self.frng.randrange(1, 4)):
                s.relay.inject(self.frng.choice(("up", "down")), self.frng.choice(NOISE))
        elif kind == "burst":  # a bad cable for a moment: a third of the frames mangled
            saved = [(f, dict(vars(f))) for f in (s.relay.up, s.relay.down)]
            for f, _ in saved:
                f.drop = f.corrupt = f.truncate = f.garbage = f.dup = 30
            self.pump(lambda: False, self.frng.uniform(0.2, 1.0))
            for f, old in saved:
                vars(f).update(old)

    def _damage(self, path):
        with open(path, "rb") as f:
            raw = f.read()
        how = self.frng.randrange(3)
        if how == 0:
            raw = raw[: self.frng.randrange(1, len(raw) - 1)]  # truncated (not just the last newline)
        elif how == 1:
            i = self.frng.randrange(len(raw))
            raw = raw[:i] + bytes([raw[i] ^ 0x04]) + raw[i + 1 :]  # one bit flipped
        else:  # hand-edited: a better tyre gauge, checksum left as it was
            raw = raw.replace(b'"tyre": ', b'"tyre": 1', 1) if b'"tyre": ' in raw else raw + b" "
        with open(path, "wb") as f:
            f.write(raw)

    def kill_tablet(self):
        """The app dies (its transport stops, nothing is closed cleanly) and starts again from its log."""
        self.transport.stop()
        self.old_refs.append(self.ref)
        self.ref = Referee.open(self.path)
        self._watch_syncs(self.ref)
        self._start_tablet()

    # ---- the race ---------------------------------------------------------------------------------------
    def play(self, max_turns=5000):
        while not self.ref.race.game_over and self.counts["turns"] < max_turns:
            self.play_turn()
            self.counts["turns"] += 1
            if self.counts["turns"] == self.trace_from and not tracemalloc.is_tracing():
                tracemalloc.start(1)
            if self.heap_every and self.counts["turns"] % self.heap_every == 0:
                self.sample_memory()
        self.settle()
        return self.result()

    def play_turn(self):
        rng = self.rng
        seat = self.ref.race.seat
        start = self.pos[seat]
        self.settle()
        self.fault_point(seat)
        car = self.car(seat)
        if car.status in (SPUN, PIT) and rng.below(8) == 0:
            self.decide("hold", 0 if car.fixed else min(60, car.speed + 20))
            self.counts["holds"] += 1
            self.decide("end_turn")
            return
        carb = 0
        choices = car.speed_choices()
        if cards.CARBURETTOR in car.hand and rng.below(6) == 0 and car.speed < 120:
            carb = 1
            choices = car.speed_choices(carb=1)
        cheap = [v for v in choices if car.braking_cost(v) == (0, 0, 0)]
        pick = cheap if cheap and rng.below(5) else choices
        self.dash_speed(seat, pick[rng.below(len(pick))], carb)
        car = self.car(seat)
        if car.status == RACING and rng.below(10) == 0 and car.speed > 20:
            v = car.speed - STEP * (1 + rng.below(3))
            try:
                self.decide("block", v)
                self.counts["blocks"] += 1
            except RuleError:
                pass  # no such blocker
        self._drive(seat, start, self.car(seat).speed // STEP)
        car = self.car(seat)
        if car.status == RACING and not car.rolled and not car.card_used and car.hand and rng.below(3) == 0:
            code = car.hand[rng.below(len(car.hand))]
            if cards.TACTIC_TIMING[code] == cards.AT_END:
                ev = self.dash_card(seat, code)
                self._drive(seat, self.pos[seat], ev["spaces"])
        self.decide("end_turn")

    def _drive(self, seat, start, spaces):
        """Move `spaces` forward on the stand-in lap: a corner roll for each band crossed, the line, a pit."""
        rng = self.rng
        end = start + spaces
        for s in range(start + 1, end + 1):
            car = self.car(seat)
            if car.status != RACING:
                break
            at = s % self.lap_spaces
            for band, safety in self.bands:
                if at != band or self.car(seat).status != RACING:
                    continue
                car = self.car(seat)
                if car.speed > safety and car.special and car.speed - safety <= 40:
                    self.decide("corner", safety, 1)
                    continue
                if car.speed > safety and cards.SUPERB in car.hand and not car.card_used and not car.rolled \
                        and rng.below(2):
                    self.dash_card(seat, cards.SUPERB)
                    self.counts["superb"] += 1
                ev = self.decide("corner", safety)
                if ev["dice"]:
                    self.counts["corner_rolls"] += 1
                    if self.counts["undo"] == 0 or rng.below(12) == 0:
                        self._undo_and_redo(ev, safety)
            self.pos[seat] = s
            if at == 0 and self.car(seat).status == RACING:
                if self.car(seat).laps_left > 1 and (self.counts["pits"] == 0 or rng.below(4) == 0):
                    self.decide("pit")
                    self.counts["pits"] += 1
                    return
                self.decide("finish" if self.car(seat).laps_left == 1 else "lap", min(20, end - s))
                self.counts["laps"] += 1
                if self.car(seat).status != RACING:
                    return

    def _undo_and_redo(self, ev, safety):
        """The operator took the wrong band: undo, settle, take the corner again. Same dice: undo is no re-roll."""
        taken = self.decide("undo")
        if taken is not ev and taken.get("dice") != ev["dice"]:
            raise TableError("undo took back something else: %r" % (taken,))
        self.counts["undo"] += 1
        self.settle()
        again = self.decide("corner", safety)
        if again["dice"] != ev["dice"] or again["pen"] != ev["pen"]:
            raise TableError("the same corner after an undo threw other dice: %r then %r" % (ev, again))

    # ---- measuring ----------------------------------------------------------------------------------
    def sample_memory(self):
        """Every dashboard's free heap just after a collection, and the tablet's resident memory."""
        self.settle()
        for s in self.seats:
            # Collect, then report gc.mem_free(): what the dashboard holds. Waiting for its own idle-time collection
            # instead counted the garbage of the link traffic since (up to 4 KB; a flat heap read as shrinking).
            s.dash.send("C")
            free = (s.dash.state or {}).get("free")
            if free is not None:
                self.heap[s.dev].append(free)
        self.rss.append(rss_kb())
        if tracemalloc.is_tracing():
            self.machinery.append(tablet_heap_kb(self.ref, (self.names,)))
        elif self.trace_from is not None:
            self.machinery.append(None)  # not traced yet
        self.log_kb.append(sum(len(json.dumps(e)) for e in self.ref.entries) // 1024)
        self.sample_turns.append(self.counts["turns"])

    def restarted(self):
        """The dashboards that restarted by themselves during the race: one that runs out of memory is started
        again by firmware/main.py, and its viewer channel goes quiet (the faults' kills start a new process)."""
        return [s.dev for s in self.seats if s.dash.proc.poll() is not None or not s.dash.reader.is_alive()]

    def result(self):
        """What must be identical between two runs of one seed, and the counts that show what happened."""
        restarted = self.restarted()  # asked first: the power cycles below start every dashboard again
        shown = [s.dash.car() for s in self.seats]
        saved = []  # what each dashboard comes back with after a power cycle, its cable out (no tablet to help)
        for s in self.seats:
            s.unplug()
            s.kill()
            s.start()
            saved.append(s.dash.car())
            s.plug()
        self.settle()
        reopened = Referee.open(self.path)
        try:
            replayed = reopened.race.snapshot()
            log = [e for e in reopened.entries[1:] if e.get("t") != "pair"]
        finally:
            reopened.close()
        return {
            "dashboards": shown,
            "saved": saved,
            "table": self.ref.race.snapshot(),
            "replayed": replayed,
            "log": log,
            "results": self.ref.race.results(),
            "counts": dict(self.counts),
            "applied": dict(self.applied),
            "refused": dict(self.refused),
            "fault_log": list(self.fault_log),
            "sync_log": list(self.sync_log),
            "restarted": restarted,
        }


def run(workdir, seed, **kw):
    """One whole race; returns Table.result() plus the memory samples."""
    os.makedirs(workdir, exist_ok=True)
    table = Table(workdir, seed, **kw)
    try:
        table.open()
        out = table.play()
        for k in ("heap", "rss", "machinery", "log_kb", "sample_turns"):
            out[k] = getattr(table, k)
        return out
    finally:
        table.close()


def after_warmup(samples, turns, warm):
    """The samples taken after `warm` turns, split in two halves (earlier, later)."""
    kept = [v for v, t in zip(samples, turns, strict=True) if t > warm]
    half = len(kept) // 2
    return kept[:half], kept[half:]


def heap_drift(out, warm):
    """Per dashboard: lowest free heap of the later half minus that of the earlier half (bytes; < 0: shrinking)."""
    drift = {}
    for dev, free in out["heap"].items():
        early, late = after_warmup(free, out["sample_turns"], warm)
        drift[dev] = min(late) - min(early)
    return drift


def growth(out, key, warm):
    """Highest value of the later half minus that of the earlier half (KB)."""
    early, late = after_warmup(out[key], out["sample_turns"], warm)
    return max(late) - max(early)
