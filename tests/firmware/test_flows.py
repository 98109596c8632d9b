"""Button flows on the virtual dashboard, checked on the screen (read back from the framebuffer) and the state."""

import os
import time

from tests.firmware.dash import art


def new_race(d, laps):
    d.hold("BACK", 0.9)  # long BACK on the main screen: a new race
    assert d.rows()[0] == "NEW RACE"
    for _ in range(abs(laps - 3)):
        d.tap("UP" if laps > 3 else "DOWN")
    d.tap("OK")
    assert d.rows()[0].startswith("NEW RACE")
    d.tap("OK")  # dismiss the message


def test_boot_screen_shows_the_dashboard(dash):
    d = dash().start()
    rows = d.rows()
    assert rows[0] == "WAIT      LAPS 3"
    assert d.big() == "  0"
    assert rows[3].endswith("MPH")
    assert rows[5].startswith("TYRE 0/8") and rows[6].startswith("BRAKE 0/5")
    assert rows[7] == "OK:START TURN"
    assert "SOLO" in rows[1]


def check_view(d, name):
    """The whole screen, pixel for pixel, against tests/firmware/views/<name>.txt ('#' lit, '.' dark).
    UPDATE_VIEWS=1 rewrites the files after a deliberate change of the screens (then review the diff)."""
    path = os.path.join(os.path.dirname(__file__), "views", name + ".txt")
    if os.environ.get("UPDATE_VIEWS"):
        with open(path, "w") as f:
            f.write(art(d.buf))
    with open(path) as f:
        assert art(d.buf) == f.read(), "screen differs from views/%s.txt:\n%s" % (name, art(d.buf))


def test_screens_match_the_expected_images(dash):
    d = dash().start()
    check_view(d, "main_boot")
    d.tap("OK", "UP", "UP", "UP", "OK", "DOWN", "DOWN", "DOWN", "OK")  # a turn at 60
    d.tap("OK", "UP", "UP", "UP")  # 120 on the dial
    d.tap("OK")
    check_view(d, "move_menu")
    d.tap("DOWN", "DOWN", "DOWN", "OK", "OK")  # next turn: the dial opens at 120
    d.tap("DOWN", "DOWN", "DOWN", "DOWN")  # 40: harsh braking, priced before OK
    check_view(d, "speed_dial_braking")


def test_set_speed_with_braking_preview_then_confirm(dash):
    d = dash().start()
    d.tap("OK")  # standalone: start the turn
    assert d.rows()[0].startswith("SET SPEED")
    assert d.car()["my_turn"] == 1
    d.tap("UP", "UP", "UP", "UP")  # +60 is the most: "never by more than 60 mph"
    assert d.big() == " 60"
    assert d.rows()[6] == "MOVE 3 SPACES"
    assert d.rows()[5] == "NO WEAR"
    d.tap("OK")
    assert d.car()["speed"] == 60 and d.car()["speed_set"] == 1
    assert d.rows()[0] == "YOUR MOVE"
    d.tap("DOWN", "DOWN", "DOWN", "OK")  # END TURN
    assert d.car()["my_turn"] == 0
    d.tap("OK", "UP", "UP", "UP", "OK")  # turn 2: 120
    assert d.car()["speed"] == 120
    d.tap("DOWN", "DOWN", "DOWN", "OK")
    d.tap("OK")
    # harsh braking shows its price before OK: 120 -> 40 is a reduction of 80
    while d.big() != " 40":
        d.tap("DOWN")
    assert d.rows()[5] == "BRAKE+3 TYRE+2"
    d.tap("BACK")  # changed my mind: nothing happened
    assert d.car()["speed"] == 120 and d.car()["brake"] == 0
    d.tap("OK")
    d.tap("DOWN", "DOWN", "DOWN", "DOWN")
    assert d.big() == " 40"
    d.tap("OK")
    assert (d.car()["speed"], d.car()["brake"], d.car()["tyre"]) == (40, 3, 2)
    assert d.rows()[0] == "YOUR MOVE"


def test_auto_repeat_runs_through_the_speeds(dash):
    d = dash().start()
    d.tap("OK")
    d.hold("UP", 1.0)  # held: repeats after 450 ms, every 120 ms
    assert d.big() == " 60"  # clamped at the legal maximum
    d.hold("DOWN", 1.0)
    assert d.big() == "  0"


def test_corner_roll_in_standalone_uses_its_own_dice(dash):
    d = dash().start()
    d.tap("OK", "UP", "UP", "UP", "OK")  # 60
    d.tap("OK")  # CORNER
    assert d.rows()[0] == "CORNER"
    assert d.rows()[1] == "SAFETY SPEED"
    assert d.big(0, 18) == " 40"
    assert d.rows()[6] == "+20: DICE"
    d.tap("OK")
    title = d.rows()[0]
    assert title.startswith("DICE ") and "+" in title, d.screen()
    d1, d2 = int(title[5]), int(title[7])
    assert 1 <= d1 <= 6 and 1 <= d2 <= 6
    assert d.car()["rolled"] == 1


def test_hidden_hand_browse_and_play(dash):
    d = dash().start()
    d.tap("CARD")
    assert d.rows()[7] == "NO CARDS"  # a fresh dashboard has no hand
    new_race(d, 5)
    assert d.car()["laps_left"] == 5
    hand = d.car()["hand"]
    assert len(hand) == 5
    assert "HAND" not in d.screen()  # the hand stays hidden on the main screen
    d.tap("CARD")
    rows = d.rows()
    assert rows[0] == "HAND 5 CARDS"
    names = {"FG": "Fast Gear Change", "GC": "Good Carburettor", "QR": "Quick Reactions", "SS": "Slip Streaming",
             "SD": "Superb Driving"}
    assert rows[1:6] == [names[c] for c in hand]
    d.tap("OK")  # not my turn: refused with a short message, nothing changes
    assert d.rows()[7] == "not your turn"
    assert d.car()["hand"] == hand
    d.tap("BACK")
    assert d.rows()[0].startswith("WAIT")
    # on my turn, after the speed, a move card plays
    d.tap("OK", "UP", "OK")
    d.tap("CARD")
    move = [c for c in hand if c in ("FG", "QR", "SS")]
    if move:
        i = hand.index(move[0])
        d.tap(*(["DOWN"] * i))
        d.tap("OK")
        assert d.car()["hand"] == hand[:i] + hand[i + 1 :]
        assert d.car()["card_used"] == 1
        assert d.rows()[0] == names[move[0]].upper()


def test_lap_and_finish_in_standalone(dash):
    d = dash().start()
    for lap in range(3):
        d.tap("OK", "UP", "OK")  # a turn at 20
        d.tap("DOWN", "OK")  # LAP CROSSED
        left = 2 - lap
        assert d.car()["laps_left"] == left
        assert d.rows()[0] == ("LAP" if left else "FINISHED")
        d.tap("OK")  # message away, back to the move menu
        d.tap("DOWN", "DOWN", "DOWN", "OK")  # END TURN
    assert d.rows()[0].startswith("FINISHED")
    assert d.car()["status"] == "finished"


def test_back_long_press_goes_home(dash):
    d = dash().start()
    d.tap("OK")
    assert d.rows()[0].startswith("SET SPEED")
    d.hold("BACK", 0.9)
    assert d.rows()[0].startswith("YOUR TURN")


def test_messages_time_out(dash):
    d = dash().start()
    d.tap("OK", "UP", "OK", "DOWN", "OK")  # lap message
    assert d.rows()[0] == "LAP"
    d.wait(lambda: d.rows()[0] == "YOUR MOVE", 15)  # the message went by itself (the firmware's own timer)


def test_only_changed_pages_are_sent(dash):
    d = dash().start()
    d.tap("OK", "UP")

    def step(line):
        before, frames, old = d.pages, d.frames, bytes(d.buf)
        d.send(line)
        assert d.frames == frames + 1
        changed = [p for p in range(8) if old[p * 128 : (p + 1) * 128] != d.buf[p * 128 : (p + 1) * 128]]
        return changed, d.pages - before

    changed, sent = step("T UP")  # 20 -> 40: some digit rows and the line "MOVE n SPACES"
    assert 6 in changed and len(changed) < 8
    assert sent == len(changed), "exactly the changed pages are sent"
    changed, sent = step("T BACK")  # the main screen
    assert sent == len(changed) >= 6
    _, sent = step("Q")  # a viewer asking again gets every page, changed or not
    assert sent == 8


def test_a_viewer_reads_the_heap_the_dashboard_holds_with_its_garbage_collected(dash):
    """`Q` reports gc.mem_free() as it stands, garbage of the presses before it included (some 30 KB after these
    taps, unless the dashboard's own collection came first); `C` collects first, so that two in a row read the
    same heap (tests/table/ measures the dashboards' heap that way). The same within a slack: MicroPython's
    collector is conservative, and a stale word on the C stack can keep a dead object alive (192 bytes seen)."""
    slack = 1024
    d = dash().start()
    d.tap("OK", "UP", "UP", "DOWN", "BACK")
    d.send("Q")
    as_it_stands = d.state["free"]
    frames = d.frames
    d.send("C")
    collected = d.state["free"]
    d.send("C")
    assert d.frames == frames + 2  # each `C` drew the screen, its state line with it
    assert abs(d.state["free"] - collected) <= slack
    assert as_it_stands <= collected + slack


def test_selftest_when_back_held_at_power_on(dash):
    d = dash()
    d.start(held="BACK")
    d.wait(lambda: d.rows()[0] == "SELF TEST", 5)
    assert d.led == 0 and 2000 in d.tones
    d.release("BACK")
    for name in ("UP", "DOWN", "OK", "CARD", "BACK"):
        d.tap(name)
        assert d.rows()[2] == "PRESSED: " + name
    assert d.rows()[6] == "ALL BUTTONS OK"
    assert len([t for t in d.tones if t > 0]) >= 6
    d.press("BACK")
    d.wait(lambda: d.rows()[0].startswith("WAIT"), 5)  # held for a second: the dashboard starts
    time.sleep(1.0)  # real time is the point: held a long press's length on the firmware's clock, a press it did not see begin (no race setup)
    d.release("BACK")
    d.send("Q")
    assert d.rows()[0].startswith("WAIT")
