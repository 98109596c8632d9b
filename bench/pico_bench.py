"""The dashboard on the emulated Pico (../shared/picosim through tests/pico/picosim.py), flashed with tools/flash.py.
Every figure is emulated time (picosim's clock; its CPU model has 1-cycle memory: a real Pico is somewhat slower).

- pico.play_tap_to_frame_ms_p50/_p99/_max: every tap of whole standalone races played through the buttons
  (tests/pico/play.Race: new race, dial, corners and dice, cards, laps, the pit, every message; saves on every
  confirmed action), one 10-lap race at a player's pace (held 80 ms, 120-500 ms between, one pause in eight 1-3 s)
  and one on a 150 ms beat (held 40 ms), each tap from its press to the last SSD1306 write before the next press
  (the whole update).
  Target p99 <= 20. pico.play_taps: how many.
- pico.press_to_frame_ms_p50/_p99: an UP/DOWN press in the speed dial (90 of them, each changing the screen) to the
  end of the last SSD1306 write it caused (the whole update), I2C at firmware/pins.py's I2C_FREQ. Target p99 <= 20.
- pico.presses_lost: taps 150 ms apart (held 40 ms), at least 600, over standalone turns that save three times each
  (littlefs erasing a block every few saves): the turns whose speed or screen on the main screen was not what the
  taps make (each at least one press lost; the burst stops there); plus the races' taps that drew nothing (each of
  the player's taps changes the screen). Target 0. pico.taps: how many were tapped in the burst.
- pico.idle_busy_pct: the share of the core's cycles not asleep, 5 s on the main screen. Target <= 10.
- pico.boot_to_state_ms: power-on to the last write of the first frame, the board mid-race (after that burst) with a
  journal of four tablet commands to replay. Target <= 400.
- pico.boot_first_after_flash_ms: the same for the first power-on after tools/flash.py (a fresh car, nothing saved
  yet). Target <= 400.
- pico.save_ms_p99 / pico.save_step_ms_max: a full save's own work (its steps added up, presses handled between them
  left out) and its longest step (the longest a press waits), over the saves of 20 turns (bench/pico_probe.py).
- pico.command_after_press_ack_ms_max / _p50: a tablet command a moment after a player's press (a linked turn: the
  dial to 40, OK, and 300 ms after that press the tablet's turn end, the save that press started still under way),
  from the command written to its ack read (tests/pico/tablet.py: emulated time, host delays only add: the
  machine's load shows here), over pico.command_after_press_runs turns. Target max <= 100.
  pico.command_after_press_ack_on_board_ms_max: the same answers timed on the board (bench/pico_probe.py's ACK),
  from the link's task seeing the bytes to the ack written.
- pico.heap_free_kb_min: the least heap free right after a collection (every 2 s) while the tablet's own Transport
  drives 12 turns mid-race (commands, acks, events, state frames). Target >= 160.
  pico.heap_free_kb_after_boot: the same before the tablet speaks (the power-on done, the link's code not loaded),
  on the same board: bench/pico_probe.py is its boot file, so the probe's code and the save's (which it wraps, loaded
  at power-on here) are in it; a board flashed plainly has a few KB more.

pico.baseline.*: the same play, boots and heap on the firmware whose taps waited for the flash (BASELINE, a commit of
this repository, flashed the same way in the same run; PICO_BASELINE=REF another, PICO_BASELINE= none).

Alone: `python -m bench.pico_bench` (everything, the baseline too), or `python -m bench.pico_bench PART ...` for some
parts of the present firmware only (latency_and_idle, races, burst_and_boot, command_after_press, saves,
linked_heap), each merged into bench/results.json as it is.

Where picosim cannot run (no ../shared/picosim, no node, not set up), nothing is measured and bench/notes.json says
why (docs/benchmarks.md shows it).
"""

import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import time
import types

from bench.results import note, record
from tests.pico import picosim, play
from tests.pico.tablet import RawTablet

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BASELINE = "1836b18"  # main before the taps stopped waiting for the flash
JOURNALED = [["b1", "turn", {"on": 1}], ["b2", "lap", {}], ["b3", "pen", {"spin": 0, "tyre": 1, "brake": 1, "dice": 0}],
             ["b4", "turn", {"on": 0}]]


def pct(values, q):
    v = sorted(values)
    return round(v[min(len(v) - 1, int(len(v) * q / 100))], 1)


def start(image, work, name):
    copy = os.path.join(work, name + ".bin")
    shutil.copyfile(image, copy)
    return picosim.Pico(flash=copy).start()


def latency_and_idle(image, work):
    """The first power-on after flashing, then the idle core and the speed dial."""
    with start(image, work, "latency") as board:
        _, first = board.settled(quiet_ms=1000)
        idle = play.busy_pct(board, 5)
        ms = play.press_to_frame(board, 90)
    return {"pico.boot_first_after_flash_ms": round(first / 1e6, 1), "pico.idle_busy_pct": round(idle, 1),
            "pico.press_to_frame_ms_p50": pct(ms, 50), "pico.press_to_frame_ms_p99": pct(ms, 99)}


def races(image, work, laps=10, seed=1962):
    """Two whole races through the buttons on one board: one at a player's pace, one on a 150 ms beat."""
    taps = []
    with start(image, work, "races") as board:
        board.settled(quiet_ms=1000)
        for n, pace in enumerate((play.PlayerPace(board, random.Random(seed)), play.BeatPace(board, 150, 40))):
            race = play.Race(board, pace, random.Random(seed + n))
            turns = race.play(laps)
            taps += race.taps
            slow = sorted((t["full_ms"] or 0, t["key"], t["screen"]) for t in race.taps)[-3:]
            print("  race %d (%s): %d turns, %d taps, %r; slowest %r" % (n, type(pace).__name__, turns,
                                                                        len(race.taps), race.stats, slow))
    ms = [t["full_ms"] for t in taps if t["full_ms"] is not None]
    return {"pico.play_tap_to_frame_ms_p50": pct(ms, 50), "pico.play_tap_to_frame_ms_p99": pct(ms, 99),
            "pico.play_tap_to_frame_ms_max": round(max(ms), 1), "pico.play_taps": len(taps),
            "pico.play_taps_undrawn": len(taps) - len(ms)}


def burst_and_boot(image, work):
    turns = 0
    taps_a_turn = play.TURN_TAPS + sum(abs(d) for d in play.DELTAS) / len(play.DELTAS)
    while turns * taps_a_turn < 600:
        turns += len(play.DELTAS)
    board = start(image, work, "burst")
    try:
        board.settled()
        taps, wrong = play.burst(board, turns)
        for w in wrong:
            print("  a tap was lost in turn %d: speed %s expected, %r shown; %r / %r" % w)
        play.put_state(board, None, JOURNALED)
        board.saveflash(os.path.join(work, "midrace.bin"))
    finally:
        board.stop()
    with start(os.path.join(work, "midrace.bin"), work, "boot") as board:
        _, last = board.settled(quiet_ms=1000)
        rows = board.rows()
    if not rows[0].endswith("LAPS 2"):  # the journal's lap, replayed
        raise AssertionError("the power-on did not replay the journal: %r" % rows)
    return {"pico.presses_lost": len(wrong), "pico.taps": taps, "pico.boot_to_state_ms": round(last / 1e6, 1)}


def command_after_press(image, work, runs=20):
    ms = []
    with start(probe_image(image, work, acks=True), work, "command") as board:
        board.settled(quiet_ms=1000)
        with RawTablet(board) as tablet:
            tablet.hello()
            for _ in range(runs):
                answer, took = play.command_after_press(board, tablet)
                if answer["t"] != "ack":
                    raise AssertionError("the turn's end was refused: %r" % answer)
                ms.append(took)
                board.wait_emu(1200)  # the saves that follow (the press's, the turn end's fold) before the next turn
        # the dashboard's side of each: every command's, the turns' starts too; the turns' ends are every other
        device = [us / 1000 for us in uart_values(board, "ACK", "us")][1::2]
    print("  command after a press: ack read in %s ms; written in %s ms" % (
        " ".join("%.0f" % m for m in ms), " ".join("%.0f" % m for m in device)))
    return {"pico.command_after_press_ack_ms_max": round(max(ms), 1),
            "pico.command_after_press_ack_ms_p50": pct(ms, 50),
            "pico.command_after_press_ack_on_board_ms_max": round(max(device), 1),
            "pico.command_after_press_runs": runs}


def probe_image(image, work, root=ROOT, acks=False):
    """The flashed image (of the checkout at `root`) with bench/pico_probe.py as its boot file (acks: timing each
    tablet command's answer too)."""
    board = start(image, work, "probe")
    try:
        board.settled()
        extra = ["+", "fs", "cp", os.path.join(HERE, "pico_probe.py"), ":ack_probe"] if acks else []
        play.mpremote(board, "fs", "cp", os.path.join(root, "firmware", "main.py"), ":dash_main.py", "+",
                      "fs", "cp", os.path.join(HERE, "pico_probe.py"), ":main.py", *extra)
        path = os.path.join(work, "probe_acks.bin" if acks else "probe_flashed.bin")
        board.saveflash(path)
    finally:
        board.stop()
    return path


def uart_values(board, tag, key):
    out = []
    for ln in board.uart().split("\n"):
        if ln.startswith(tag + " "):
            out.append(int(dict(kv.split("=") for kv in ln.split()[1:])[key]))
    return out


def saves(probe, work):
    with start(probe, work, "saves") as board:
        board.settled()
        _, wrong = play.burst(board, 20)
        us = uart_values(board, "SAVE", "us")
        step = uart_values(board, "SAVE", "step")
    if wrong or not us:
        raise AssertionError("the saves' burst went wrong: %r, %d saves" % (wrong, len(us)))
    return {"pico.save_ms_p99": pct([u / 1000 for u in us], 99), "pico.save_step_ms_max": round(max(step) / 1000, 1)}


def linked_heap(probe, work, turns=12):
    from companion.transport import Transport
    from companion.transport.pyserial_backend import PICO_PID, PICO_VID, PyserialPorts

    with start(probe, work, "linked") as board:
        board.settled()
        board.wait_emu(4500)  # two of the probe's samples, every 2 s, before the tablet speaks
        boot = uart_values(board, "HEAP", "free")
        if not boot:
            raise AssertionError("no heap sample before the tablet spoke")
        port = types.SimpleNamespace(device=board.tty, vid=PICO_VID, pid=PICO_PID, description="picosim")
        t = Transport(PyserialPorts(list_ports_fn=lambda: [port]))  # the pty named as a Pico's USB port
        t.start()
        try:
            dev = _wait(t, lambda n: n[0] == "hello")[1]
            for turn in range(turns):
                command(t, dev, "turn", {"on": 1})  # the dial opens by itself: the player sets 20
                board.settled()
                board.tap("UP")
                board.tap("OK")
                _wait(t, lambda n: n[0] == "event")
                if turn % 5 == 2:
                    command(t, dev, "lap", {})
                command(t, dev, "pen", {"spin": 0, "tyre": 0, "brake": 0, "dice": 34})  # a corner: its message
                board.settled()
                board.tap("OK")
                command(t, dev, "turn", {"on": 0})
            board.wait_emu(2500)
        finally:
            t.stop()
        free = uart_values(board, "HEAP", "free")[len(boot):]
    return {"pico.heap_free_kb_min": round(min(free) / 1024, 1),
            "pico.heap_free_kb_after_boot": round(min(boot) / 1024, 1)}


def command(t, dev, name, args):
    cid = t.send(dev, name, args)
    n = _wait(t, lambda n: n[0] in ("done", "refused") and n[2] == cid)
    if n[0] != "done":
        raise AssertionError("the dashboard refused %s %r: %r" % (name, args, n))


def _wait(t, match, wall_s=60):
    end = time.monotonic() + wall_s
    while time.monotonic() < end:
        try:
            n = t.events.get(timeout=0.1)
        except queue.Empty:
            continue
        if match(n):
            return n
    raise AssertionError("no such note from the Transport in %d s" % wall_s)


def checkout(ref, out):
    """The repository's files at `ref` in `out` (git archive), or None when git or the ref is not there."""
    try:
        tar = subprocess.run(["git", "-C", ROOT, "archive", ref], capture_output=True, check=True, timeout=120).stdout
        os.makedirs(out)
        subprocess.run(["tar", "-x", "-C", out], input=tar, check=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        print("  pico: no baseline (%s: %s)" % (ref, e))
        return None
    return out


def measure(image, work, parts_on_image, parts_on_probe, root=ROOT):
    figures = {}
    for part in parts_on_image:
        figures.update(part(image, work))
        print("  %s done" % part.__name__, flush=True)
    if parts_on_probe:
        probe = probe_image(image, work, root)
        for part in parts_on_probe:
            figures.update(part(probe, work))
            print("  %s done" % part.__name__, flush=True)
    return figures


ON_IMAGE = (latency_and_idle, races, burst_and_boot, command_after_press)
ON_PROBE = (saves, linked_heap)


def main(names=()):
    reason = picosim.missing()
    if reason:
        note("pico", "missing: " + reason)
        print("  pico: missing: %s" % reason)
        return
    chosen = [part for part in ON_IMAGE + ON_PROBE if part.__name__ in names]
    if len(chosen) != len(names):
        raise SystemExit("parts: %s" % " ".join(part.__name__ for part in ON_IMAGE + ON_PROBE))
    figures = {}
    with tempfile.TemporaryDirectory() as work:
        ref = os.environ.get("PICO_BASELINE", BASELINE) if not names else ""
        base = checkout(ref, os.path.join(work, "baseline")) if ref else None
        if base:
            print("  the baseline: %s" % ref, flush=True)
            # the baseline's firmware loads micropython-lib's ssd1306, which its flash takes from a folder
            image = picosim.flashed_image(os.path.join(work, "baseline-image"), root=base,
                                          args=("--index", picosim.DRIVERS))
            for k, v in measure(image, work, (latency_and_idle, races, burst_and_boot), (saves,), base).items():
                figures[k.replace("pico.", "pico.baseline.", 1)] = v
        image = picosim.flashed_image(os.path.join(work, "image"))
        parts = chosen or ON_IMAGE + ON_PROBE
        figures.update(measure(image, work, [p for p in parts if p in ON_IMAGE], [p for p in parts if p in ON_PROBE]))
    if "pico.play_taps_undrawn" in figures and "pico.presses_lost" in figures:
        figures["pico.presses_lost"] += figures["pico.play_taps_undrawn"]
    note("pico", "")
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-42s %s" % (k, v))


if __name__ == "__main__":
    main(tuple(sys.argv[1:]))
