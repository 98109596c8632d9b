"""Formula 5 on the real dashboard firmware (micropython unix port): the tablet's `f5` view of a seat shows
the hand grouped by colour with counts; the buttons play a race card or make a pit stop with discards, sent to
the tablet as events carrying the turn token; moves out of turn, without the tablet or after the end are
refused on the dashboard; a bad view is refused and changes nothing."""

from shared_rules.f5.cards import FIRST_PIT
from tests.firmware.test_linked import start

# red 0..13, yellow 14..27, green 28..41, blue 42..55, white 56..69, pit stop cards 70..75
HAND = [0, 1, 2, 15, 30, 31, 43, 44, 45, 46, FIRST_PIT, FIRST_PIT + 1]
COL = [3, 4]  # two red cards in this car's column: a red card played gives speed 3


def view(**kw):
    v = {"car": 2, "hand": HAND, "col": COL, "pos": 1, "speed": 2, "ahead": 2, "round": 1, "k": 1, "turn": 0, "deal": 1}
    v.update(kw)
    return v


def events(t, name):
    with t.cond:
        return [n for n in t.notes if n[0] == "event" and n[3] == name]


def test_hand_grouped_by_colour_and_a_race_card_played(tmp_path):
    d, t = start(tmp_path, dev="f5a")
    try:
        assert t.command("a1", "f5", view())[0] == "done"
        d.wait(lambda: d.rows()[0].startswith("FORMULA 5"))
        d.tap("OK")  # leave the message
        d.wait(lambda: d.rows()[0].startswith("WAIT"))
        rows = d.rows()
        assert rows[1].startswith("CAR GREEN") and rows[2].startswith("POS 2  SPEED 2")
        assert rows[4].startswith("R3 Y1 G2 B4 W0") and rows[5].startswith("PIT 2  HAND 12")
        d.tap("OK")  # the hand, grouped by colour: count and the speed that colour would give
        d.wait(lambda: d.rows()[0].startswith("HAND 12"))
        rows = d.rows()
        assert [r.rstrip() for r in rows[:6]] == [
            "HAND 12    SPEED",
            "3 RED          3",
            "1 YELLOW       1",
            "2 GREEN        1",
            "4 BLUE         1",
            "2 PIT STOP",
        ]
        d.tap("OK")  # not this car's turn: refused on the dashboard, nothing sent
        d.wait(lambda: d.rows()[7].startswith("NOT YOUR TURN"))
        assert not events(t, "f5race")
        d.tap("BACK")
        assert t.command("a2", "f5", view(turn=1, k=2, deal=0))[0] == "done"
        d.wait(lambda: d.rows()[0].startswith("YOUR TURN"))
        d.tap("OK", "OK")  # the hand, then the first row: a red card
        ev = t.wait_note(lambda n: n[0] == "event" and n[3] == "f5race")
        assert ev[4] == {"card": 0, "k": 2}
        d.wait(lambda: d.rows()[0].startswith("PLAYED RED"))
        assert "Speed 3" in " ".join(d.rows())
        d.tap("OK")
        d.wait(lambda: d.rows()[0].startswith("WAIT"))
        assert d.rows()[4].startswith("R2 Y1")
    finally:
        t.stop()
        d.kill()


def test_pit_stop_with_discards(tmp_path):
    d, t = start(tmp_path, dev="f5b")
    try:
        assert t.command("b1", "f5", view(turn=1))[0] == "done"
        d.tap("OK")  # the message
        d.tap("OK")  # the hand
        d.wait(lambda: d.rows()[0].startswith("HAND"))
        d.tap("DOWN", "DOWN", "DOWN", "DOWN", "OK")  # PIT STOP
        d.wait(lambda: d.rows()[0].startswith("PIT: PLAY WHICH"))
        assert d.rows()[1].startswith("PIT STOP CARD") and d.rows()[2].startswith("BLUE PIT SIDE")
        d.tap("OK")  # play a pit stop card
        d.wait(lambda: d.rows()[0].startswith("DISCARD"))
        assert [r.rstrip() for r in d.rows()[1:6]] == [
            "RED     0/3",
            "YELLOW  0/1",
            "GREEN   0/2",
            "BLUE    0/4",
            "CONFIRM PIT",
        ]
        d.tap("OK", "OK", "DOWN", "OK")  # two red, one yellow
        d.wait(lambda: d.rows()[2].startswith("YELLOW  1/1"))
        assert d.rows()[1].startswith("RED     2/3")
        d.tap("DOWN", "DOWN", "DOWN", "OK")
        ev = t.wait_note(lambda n: n[0] == "event" and n[3] == "f5pit")
        assert ev[4] == {"card": FIRST_PIT, "d": [0, 1, 15], "k": 1}
        d.wait(lambda: d.rows()[0].startswith("PIT STOP"))
        # the tablet sends the hand with the cards drawn
        hand = [2, 30, 31, 43, 44, 45, 46, FIRST_PIT + 1, 57, 58, 59]
        assert t.command("b2", "f5", view(hand=hand, drawn=[57, 58, 59], k=2, deal=0))[0] == "done"
        d.wait(lambda: "WHITE 3" in " ".join(d.rows()))
        d.tap("OK")
        d.wait(lambda: d.rows()[4].startswith("R1 Y0 G2 B4 W3"))
    finally:
        t.stop()
        d.kill()


def test_a_race_card_face_down_cannot_also_be_discarded(tmp_path):
    d, t = start(tmp_path, dev="f5c")
    try:
        assert t.command("c1", "f5", view(turn=1, hand=[0, 1, 15]))[0] == "done"
        d.tap("OK", "OK")
        d.wait(lambda: d.rows()[0].startswith("HAND"))
        d.tap("DOWN", "DOWN", "OK")  # PIT STOP
        d.wait(lambda: d.rows()[0].startswith("PIT: PLAY WHICH"))
        assert [r.rstrip() for r in d.rows()[1:3]] == ["YELLOW PIT SIDE", "RED PIT SIDE"]
        d.tap("OK")  # yellow face down: its only yellow, so yellow is not offered for discarding
        d.wait(lambda: d.rows()[0].startswith("DISCARD"))
        assert [r.rstrip() for r in d.rows()[1:3]] == ["RED     0/2", "CONFIRM PIT"]
        d.tap("DOWN", "OK")
        ev = t.wait_note(lambda n: n[0] == "event" and n[3] == "f5pit")
        assert ev[4] == {"card": 15, "d": [], "k": 1}
    finally:
        t.stop()
        d.kill()


def test_refusals(tmp_path):
    d, t = start(tmp_path, dev="f5d")
    try:
        bad = t.command("d0", "f5", view(hand=[0, 99]))
        assert bad[0] == "refused"
        d.send("Q")
        assert d.mode() == 0  # still the Formula 1 main screen
        assert t.command("d1", "f5", view(over=1, win=1, pos=0))[0] == "done"
        d.wait(lambda: d.rows()[0].startswith("RACE OVER"))
        assert "YOU WIN" in " ".join(d.rows())
        d.tap("OK", "OK", "OK")
        d.wait(lambda: d.rows()[7].startswith("RACE OVER"))  # the hand can be seen, not played
        assert not events(t, "f5race")
        # a Formula 1 command brings the Formula 1 screens back
        assert t.command("d2", "deal", {"card": "QR"})[0] == "done"
        d.wait(lambda: d.rows()[0].startswith("CARD DEALT"))
        d.tap("OK")
        d.wait(lambda: d.mode() == 0 and "MPH" in d.rows()[3])
    finally:
        t.stop()
        d.kill()


def test_no_move_without_the_tablet(tmp_path):
    d, t = start(tmp_path, dev="f5e")
    try:
        assert t.command("e1", "f5", view(turn=1))[0] == "done"
        d.tap("OK")
        d.wait(lambda: d.rows()[0].startswith("YOUR TURN") and d.rows()[1].endswith("TABLET"))
        t.stop()  # the tablet goes quiet: no heartbeats
        d.wait(lambda: d.rows()[6] == "NO TABLET" and not d.rows()[1].endswith("TABLET"), 8)
        d.tap("OK", "OK")  # the hand, then a red card
        d.wait(lambda: d.rows()[7].startswith("NO TABLET"))
        assert d.rows()[0].startswith("HAND 12")  # nothing played: the move waits for the tablet
    finally:
        t.stop()
        d.kill()


def test_the_same_turn_told_again_leaves_the_player_in_their_hand(tmp_path):
    """A resend or a resync of the view the dashboard has (same turn token) while its player is choosing: the
    player stays where they are. (Before: back to the main screen, mid-choice; seen at a game's start, when the
    tablet sends a freshly paired dashboard its view again after its hello.) A new turn still brings it back."""
    d, t = start(tmp_path, dev="f5s")
    try:
        assert t.command("s1", "f5", view(turn=1, k=2))[0] == "done"
        d.tap("OK")  # the message
        d.wait(lambda: d.rows()[0].startswith("YOUR TURN"))
        d.tap("OK", "DOWN")  # the hand, the second row
        d.wait(lambda: d.rows()[0].startswith("HAND"))
        assert t.command("s2", "f5", view(turn=1, k=2, deal=0))[0] == "done"
        assert d.rows()[0].startswith("HAND")
        d.tap("OK")  # plays the row chosen before the resend: yellow
        ev = t.wait_note(lambda n: n[0] == "event" and n[3] == "f5race")
        assert ev[4] == {"card": 15, "k": 2}
        assert t.command("s3", "f5", view(turn=1, k=5, deal=0))[0] == "done"  # a new turn
        d.wait(lambda: d.rows()[0].startswith("YOUR TURN"))
    finally:
        t.stop()
        d.kill()


def test_before_the_tables_start_the_dashboard_waits_for_it_and_plays_nothing(tmp_path):
    """Paired while the table is still pairing: the hand is there to look at, the screen says the game waits for
    the table's Start, and a card chosen is refused on the dashboard (nothing sent). Start brings the turn."""
    d, t = start(tmp_path, dev="f5w")
    try:
        assert t.command("w1", "f5", view(turn=0, wait=1))[0] == "done"
        d.tap("OK")  # the message
        d.wait(lambda: d.rows()[0].startswith("WAIT FOR START"))
        d.tap("OK", "OK")  # the hand, then a red card
        d.wait(lambda: d.rows()[7].startswith("WAIT FOR START"))
        assert d.rows()[0].startswith("HAND 12") and not events(t, "f5race")
        d.tap("BACK")
        assert t.command("w2", "f5", view(turn=1, deal=0))[0] == "done"  # the table's Start
        d.wait(lambda: d.rows()[0].startswith("YOUR TURN"))
        d.tap("OK", "OK")
        ev = t.wait_note(lambda n: n[0] == "event" and n[3] == "f5race")
        assert ev[4] == {"card": 0, "k": 1}
    finally:
        t.stop()
        d.kill()
