"""The firmware's pure parts on the real MicroPython: button timing with a scripted clock, and the save format
(also on CPython, where the same store module reads a dashboard's save)."""

import binascii
import os

import pytest

from firmware import restore
from firmware.ondemand import journal, store
from shared_rules.f1.car import Car
from tests import mpy

BUTTON_SCRIPT = """
from firmware.buttons import Buttons
EVENT_NAMES = ("PRESS", "RELEASE", "LONG", "REPEAT")  # buttons.PRESS... are 0...3
log = []
# long press after 800 ms, auto-repeat 450 ms after the press, then every 120 ms
b = Buttons(2, lambda i, e: log.append((i, EVENT_NAMES[e])), debounce_ms=20, repeat_mask=1, long_mask=2)
import time
T = time.ticks_ms()  # the scripted clock starts now, as the real one would
def at(levels, t):
    b.update(levels, T + t)
at(0, 0)
at(1, 10)      # press: reported at once
at(0, 15)      # bounce inside 20 ms: ignored
at(1, 18)
at(1, 400)     # held, no repeat yet
at(1, 460)     # first repeat at 10 + 450
at(1, 590)     # second repeat at 10 + 570
at(0, 600)     # release
at(2, 700)     # button 1 pressed
at(2, 1499)    # not long yet
at(2, 1500)    # long at 700 + 800
at(2, 2500)    # long only once, and button 1 does not repeat
at(0, 2600)
b.ignore_held(1)   # held before we looked: silent, no long press, no repeat...
at(1, 3000)
at(1, 5000)
at(0, 5100)        # ...and its release is silent too
at(1, 5200)        # the next press counts
for e in log:
    print(e[0], e[1])
"""


def test_debounce_long_press_and_repeat_on_micropython():
    proc = mpy.run(["-c", BUTTON_SCRIPT], heap="64K")
    assert proc.returncode == 0, proc.stderr.decode()
    events = proc.stdout.decode().split("\n")
    assert [e for e in events if e] == [
        "0 PRESS", "0 REPEAT", "0 REPEAT", "0 RELEASE", "1 PRESS", "1 LONG", "1 RELEASE", "0 PRESS",
    ]


LATCH_SCRIPT = """
from firmware.buttons import Buttons, Latch
EVENT_NAMES = ("PRESS", "RELEASE", "LONG", "REPEAT")
log = []
b = Buttons(1, lambda i, e: log.append(EVENT_NAMES[e]), debounce_ms=20)
latch = Latch()
import time
T = time.ticks_ms()
# A tap while a flash erase held the core: its press and release latched together, taken at the same time...
latch.push(0, 1, T + 50)
latch.push(0, 0, T + 50)
b.update(0, T + 50, latch)
# ...and the next press (100 ms after the first) latched during the next save step, before the levels were read
# again: the release that waited for its bounce time to pass is not lost in it, nor the press.
latch.push(0, 1, T + 105)
b.update(1, T + 105, latch)
latch.push(0, 0, T + 130)
b.update(0, T + 130, latch)
# Bounce at a press: the edges undoing each other within 20 ms are nothing.
for t, down in ((200, 1), (201, 0), (203, 1), (204, 0), (206, 1)):
    latch.push(0, down, T + t)
b.update(1, T + 206, latch)
b.update(1, T + 240, None)
b.update(0, T + 300, None)
print(" ".join(log), latch.lost)
"""


def test_latched_edges_during_a_long_erase_are_all_taken_on_micropython():
    proc = mpy.run(["-c", LATCH_SCRIPT], heap="64K")
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().split() == ["PRESS", "RELEASE", "PRESS", "RELEASE", "PRESS", "RELEASE", "0"]


def test_save_round_trip_and_damage_detection(tmp_path):
    path = str(tmp_path / "state.json")
    assert restore.load(path) == (None, None)  # first boot: nothing saved, no error
    store.save(path, {"car": {"speed": 60}, "done": [["c1", ""]]})
    assert restore.load(path) == ({"car": {"speed": 60}, "done": [["c1", ""]]}, None)
    assert not os.path.exists(path + ".tmp")
    raw = open(path, "rb").read()
    for damaged in (raw[:-5], raw.replace(b"60", b"80"), b"", b"F1DASH1 zz\n{}", b"garbage\n"):
        open(path, "wb").write(damaged)
        data, error = restore.load(path)
        assert data is None and error, damaged  # the reason, for a maker: firmware/app.py prints it
        assert open(path + ".bad", "rb").read() == damaged  # kept, not deleted
        assert not os.path.exists(path)


@pytest.mark.parametrize("heap", ["32K"])
def test_store_on_micropython_reads_what_cpython_wrote(tmp_path, heap):
    path = str(tmp_path / "s.json")
    store.save(path, {"car": {"tyre": 3}, "ev": []})
    script = (
        "from firmware import restore\n"
        "from firmware.ondemand import store\n"
        "d, e = restore.load(%r)\n"
        "assert e is None and d['car']['tyre'] == 3\n"
        "d['car']['tyre'] = 4\n"
        "store.save(%r, d)\n"
        "print('ok')\n" % (path, path)
    )
    proc = mpy.run(["-c", script], heap=heap)
    assert proc.stdout.strip() == b"ok", proc.stderr.decode()
    assert restore.load(path)[0]["car"]["tyre"] == 4


def test_the_boot_reads_the_journal_tag_the_journal_writes(tmp_path):
    # restore.py spells the journal's tag itself (importing journal.py would keep its code in the heap)
    path = str(tmp_path / "s.journal")
    journal.Journal(path).restart(7)
    assert restore._parse(open(path, "rb").read()) == [journal.MAGIC, 7]
    j = journal.Journal(path)
    j.append("c1", "lap", {})
    j.close()
    assert restore.read_journal(path, 7) == [["c1", "lap", {}]]
    assert restore.MAGIC == store.MAGIC  # the save's tag too, spelled in restore.py for a quicker boot



DISPLAY_SCRIPT = """
import gc
from firmware import board
from firmware.display import Display
d = Display(board.make_board())  # the host board, no viewer connected
print("%x" % d.flush())  # power-on: every page
LABELS = ("LAP 1", "LAP 1", "LAP 2", "LAP 2")
masks = [0] * 40
gc.collect()
gc.disable()
garbage = before = 0  # (a first assignment in the loop would grow the globals)
for x in range(40):
    d.fb.fill(0)  # the screens redraw the whole framebuffer every frame
    d.fb.text(LABELS[x % 4], 0, 24)  # page 3
    d.fb.pixel(127, 63, x % 3 == 0)  # page 7
    before = gc.mem_alloc()
    masks[x] = d.flush()
    garbage += gc.mem_alloc() - before
print(" ".join("%x" % m for m in masks[:6]), garbage)
"""


def test_display_sends_only_changed_pages_and_makes_no_garbage_per_frame():
    proc = mpy.run(["-c", DISPLAY_SCRIPT], heap="64K")
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().split("\n")[:2] == ["ff", "88 80 8 80 88 0 0"]


NARROW_DISPLAY_SCRIPT = """
import framebuf, random
from firmware import board as b
from firmware.display import Display

class Narrow:  # a board that takes part of a page, as the Pico's I2C does
    narrow = 1

    def __init__(self):
        self.buf = bytearray(b.WIDTH * b.PAGES)
        self.fb = framebuf.FrameBuffer(self.buf, b.WIDTH, b.HEIGHT, framebuf.MONO_VLSB)
        mv = memoryview(self.buf)
        self.pages = [mv[p * b.WIDTH : (p + 1) * b.WIDTH] for p in range(b.PAGES)]
        self.sent = []

    def send(self, rects, n):
        self.sent = [list(rects[k]) for k in range(n)]

board = Narrow()
d = Display(board)
d.flush()  # power-on: every page
random.seed(1962)
wrong = 0
for trial in range(400):
    p = random.getrandbits(3)
    before = bytes(board.buf)
    for _ in range(1 + random.getrandbits(2)):  # 1 to 4 bytes, the page's edges often
        x = random.choice((0, 7, 8, 119, 120, 127, random.getrandbits(7)))
        board.buf[p * b.WIDTH + x] ^= 1 + random.getrandbits(7)
    cells = [c for c in range(16) if board.buf[p * 128 + c * 8 : p * 128 + c * 8 + 8] != before[p * 128 + c * 8 : p * 128 + c * 8 + 8]]
    board.sent = []
    d.flush()
    want = [[p, p, cells[0], cells[-1] + 1]] if cells else []
    if board.sent != want:
        wrong += 1
        print(trial, board.sent, want)
print("wrong", wrong)
"""


def test_a_narrow_board_is_sent_exactly_the_changed_cells_of_a_page():
    # The Pico takes part of a page: the rectangle sent spans the first to the last changed 8-column cell, found from
    # views made per frame (the edges first, then by halving), never a cell more or less.
    proc = mpy.run(["-c", NARROW_DISPLAY_SCRIPT], heap="128K")
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().split("\n")[-2] == "wrong 0", proc.stdout.decode()[-2000:]


BOOT_SCRIPT = """
import sys
from firmware import board, app
a = app.App(board.make_board())
a.refresh()  # the first frame
print(a.car.snapshot()["tyre"], a.keeper.gen)
print(" ".join(sorted(m for m in sys.modules if m == "firmware.restore" or m.startswith("firmware.ondemand"))))
import firmware
print(hasattr(firmware, "restore"))
"""


def test_the_boot_code_is_forgotten_after_the_boot_and_the_journal_waits_for_the_tablet(tmp_path, monkeypatch):
    # firmware/restore.py runs once at power-on and is then garbage; nothing of firmware/ondemand/ is loaded by
    # the first frame (a dashboard without a tablet never loads the journal or the link: their code is heap on a
    # Pico all race long).
    state = str(tmp_path / "s.json")
    store.save(state, {"car": dict(Car(3).snapshot(), tyre=2), "done": [], "ev": [], "gen": 4})
    monkeypatch.setenv("F1DASH_STATE", state)
    # 160K: every module compiled from source in one go, without main.py's collections while loading (the
    # compiler's peak, not the dashboard's: the race's 128 KB guard is test_race.py, and a Pico loads .mpy files)
    proc = mpy.run(["-c", BOOT_SCRIPT], heap="160K", input_bytes=b"")
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    assert proc.stdout.decode().split("\n")[:3] == ["2 4", "", "False"]


def test_a_save_of_the_first_format_is_still_read(tmp_path):
    # F1DASH1 (the checksum in the first line) was the format before the checksum moved after the state
    path = str(tmp_path / "old.json")
    body = b'{"car": {"speed": 60}, "done": [], "gen": 2}'
    open(path, "wb").write(b"F1DASH1 %08x\n%s\n" % (binascii.crc32(body), body))
    assert restore.load(path) == ({"car": {"speed": 60}, "done": [], "gen": 2}, None)
    open(path, "wb").write(b"F1DASH1 %08x\n%s\n" % (binascii.crc32(body) ^ 1, body))
    assert restore.load(path)[1] == "checksum mismatch"


SAVE_ALLOC_SCRIPT = """
import gc, os
from firmware.ondemand import store
from shared_rules.f1.car import Car
for n in (0, 64):
    data = {"car": Car(3).snapshot(), "done": [["a3c9e1.%%d" %% i, ""] for i in range(n)], "ev": [], "gen": 9}
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    store.save(%r, data)
    print(gc.mem_alloc() - before, os.stat(%r)[6])
    gc.enable()
"""


def test_a_save_is_written_as_it_is_encoded_on_micropython(tmp_path):
    # Late in a race the save is 2 KB (64 command ids); a fragmented heap may have no free block that large, so
    # the save never makes its text in RAM: what it allocates does not grow with what it writes.
    path = str(tmp_path / "s.json")
    proc = mpy.run(["-c", SAVE_ALLOC_SCRIPT % (path, path)], heap="64K")
    assert proc.returncode == 0, proc.stderr.decode()
    (small, small_size), (big, big_size) = [map(int, line.split()) for line in proc.stdout.decode().split("\n")[:2]]
    assert big_size - small_size > 1000 and big - small < 128, (small, small_size, big, big_size)
    assert restore.load(path)[0]["done"][63] == ["a3c9e1.63", ""]
