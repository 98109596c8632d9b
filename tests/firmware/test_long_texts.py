"""A refusal or a message is never cut on the OLED: it is word-wrapped at 16 columns over the rows it needs and,
past them, shown a page at a time (firmware/ui.py's refuse and next_page, firmware/screens.py's footer and
message_screen). Checked on the screen read back from the real firmware's framebuffer on the unix port."""

import json

from tests import mpy
from tests.firmware.dash import text_rows

# The real Ui and screens with a host that only counts; each `show` prints the framebuffer as hex.
SCRIPT = """
import framebuf, time
from shared_rules.f1 import car as f1car
from firmware import screens, ui as u

class Host:
    def linked(self): return 0
    def beep(self, hz, ms): pass

buf = bytearray(1024)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
ui = u.Ui(Host(), f1car.Car())
now = time.ticks_ms()

def show():
    ui.draw(fb, 0)
    print(bytes(buf).hex())

def later(ms):
    global now
    now = time.ticks_add(now, ms)
    print(ui.tick(now))

%s
"""


def run(body):
    """Run the script's `body`; the screens it showed (as text rows) and the ticks' answers, in order."""
    proc = mpy.run(["-c", SCRIPT % body], heap="128K")
    assert proc.returncode == 0, proc.stderr.decode()
    out = []
    for ln in proc.stdout.decode().split():
        out.append(text_rows(bytes.fromhex(ln)) if len(ln) == 2048 else int(ln))
    return out


def test_a_long_refusal_is_shown_whole_over_the_bottom_rows():
    # a refusal of the speed rules (shared_rules/f1/car.py), over the main screen: three rows, nothing cut
    before, after, gone = [run("show()\nu.refuse(ui, %s, now)\nshow()\nlater(2500)\nshow()"
                               % json.dumps("brakes at 5: reduce speed by 20 mph at most"))[i] for i in (0, 1, 3)]
    assert after[5:] == ["brakes at 5:", "reduce speed by", "20 mph at most"]
    assert after[:5] == before[:5]  # the screen above it stays
    assert gone == before  # its time up: the screen as it was


def test_a_refusal_longer_than_four_rows_is_paged():
    text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    shown = run("u.refuse(ui, %s, now)\nshow()\nlater(100)\nlater(2400)\nshow()\nlater(2500)\nshow()"
                % json.dumps(text))
    first, early, turned, second, ended, gone = shown
    assert first[4:] == ["one two three", "four five six", "seven eight nine", "ten eleven"]
    assert early == 0 and turned == 1  # each page stays its time
    assert second[6:] == ["twelve thirteen", "fourteen fifteen"]
    assert ended == 1 and gone[7] == "OK:START TURN"
    assert " ".join(first[4:] + second[6:]).split() == text.split()


def test_a_word_longer_than_a_row_is_split_not_cut():
    rows = run("u.refuse(ui, 'SAVE DAMAGED: /flash/state.json.tmp', now)\nshow()")[0]
    assert rows[5:] == ["SAVE DAMAGED:", "/flash/state.jso", "n.tmp"]


def test_a_message_longer_than_the_screen_turns_its_pages():
    text = " ".join("word%d" % i for i in range(20))  # two words a row: ten rows, two pages
    shown = run("ui.message('SAVE DAMAGED', %s, now, alarm=1)\nshow()\n"
                "ui.on_button(2, 0, now)\nshow()\nui.on_button(2, 0, now)\nshow()" % json.dumps(text))  # OK pressed
    first, second, closed = shown
    assert first[0] == "SAVE DAMAGED" and first[7] == "OK:MORE 1/2"
    assert second[0] == "SAVE DAMAGED" and second[7] == "OK 2/2"
    assert " ".join(" ".join(s[1:7]) for s in (first, second)).split() == text.split()
    assert closed[0].startswith("YOUR TURN") or closed[0].startswith("WAIT")  # OK on the last page closes it


def test_a_long_message_pages_on_its_own_then_times_out():
    text = " ".join("word%d" % i for i in range(20))
    shown = run("ui.message('LAP', %s, now)\nlater(4000)\nshow()\nlater(4000)\nshow()" % json.dumps(text))
    turned, second, closed, main = shown
    assert turned == 1 and second[7] == "OK 2/2"
    assert closed == 1 and main[0] != "LAP"


def test_a_refusal_met_with_the_buttons_is_shown_whole(dash):
    # standalone, LAP CROSSED twice in one move: the rules refuse the second, in words longer than a row
    d = dash().start()
    d.tap("OK", "UP", "OK")  # a turn at 20
    d.tap("DOWN", "OK")  # LAP CROSSED
    d.tap("OK")  # its message away: the move menu
    d.tap("DOWN", "OK")  # LAP CROSSED again
    rows = d.rows()
    assert rows[5:] == ["lap already", "counted this", "turn"], d.screen()
    assert rows[0] == "YOUR MOVE" and d.car()["laps_left"] == 2  # refused: nothing changed
