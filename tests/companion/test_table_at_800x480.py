"""The table on the 7-inch display (800x480) from a player's chair, in the real app in a real (offscreen) window
(tests/companion/appdriver.py started at that size). Words are measured as drawn, in the window's pixels
(tests/companion/glyphs.py): capitals under 14 px are not read from a chair at a 7-inch screen."""

import pytest

from tests.companion.test_app_window import run

pytestmark = [pytest.mark.window]

CAPS_MIN_PX = 14  # the least capital height of a word the game needs read, as drawn
TURN_CAPS_PX = 22  # whose turn: Formula 1's turn bar draws its name's capitals 22-23 px high at 800x480


@pytest.fixture
def seven_inch(monkeypatch):
    monkeypatch.setenv("F1_WINDOW", "800x480")


def _small(words, least=CAPS_MIN_PX):
    """The (text, line heights) of those drawn with a line under `least`."""
    return [(t, h) for t, h, *_ in words if not h or min(h) < least]


def test_the_race_words_are_read_from_a_chair(tmp_path, seven_inch):
    """The message, whose turn, the odds, the roll in words and every button's words drawn with capitals of at
    least 14 px (16 px text drew 11 px capitals), the tablet's dashboard at twice the OLED's size at least (it
    was drawn at 1x, its text 7 px high) when its car's panel is tapped; the message's sentences whole (it was cut
    in the middle: "Christopher keeps the same spe...ristopher's turn ended. Next: Ann"), wrapped."""
    seen = run("play_words", tmp_path, tmp_path / "data", seed=3, timeout=240)
    message = seen["message"]
    assert "keeps the same speed" in message["text"] and ": lap, 2 to go" in message["text"], message
    assert message["shown"] == message["text"] and not message["cut"], message  # every sentence whole
    assert min(message["caps"]) >= CAPS_MIN_PX, message
    assert min(seen["turn"]["caps"]) >= TURN_CAPS_PX, seen["turn"]
    assert seen["odds"]["caps"] and min(seen["odds"]["caps"]) >= CAPS_MIN_PX and not seen["odds"]["cut"], seen["odds"]
    rolled = seen["rolled"]
    assert rolled["caps"] and min(rolled["caps"]) >= CAPS_MIN_PX, rolled
    assert rolled["message"][0] == rolled["message"][1] and min(rolled["message"][2]) >= CAPS_MIN_PX, rolled
    # every button's words; a speed key's first line is its speed, its cost under it a note
    words = [[t, h[:1] if kind == "SpeedKey" else h, kind] for t, h, kind in seen["buttons"]]
    assert len(words) > 20 and _small(words) == [], _small(words)
    oled = seen["oled"]  # a car's panel tapped: its dashboard in the table's place, at twice its size at least
    assert oled["face"] == "dash" and oled["scale"] >= 2 and oled["faults"] == [], oled
    keys = [[t, h, kind] for t, h, kind in oled["buttons"] if kind == "DashKey"]
    assert len(keys) == 5 and _small(keys) == [], keys
    assert seen["face_after"] == "dice"
    assert seen["faults_800"] == [] and seen["faults_1280"] == [], (seen["faults_800"][:3], seen["faults_1280"][:3])
    figures = rolled["figures"]
    assert figures["die"] >= 80 and min(figures["speed"], figures["laps"], figures["turn"]) >= 32, figures


def test_formula_5_says_whose_turn_as_large_as_formula_1(tmp_path, seven_inch):
    """Whose turn was a small heading ("ROUND 1 OF 12: BLUE TO PLAY") and a thin strip: now a bar with the
    name as large as Formula 1's turn bar. A car's colour name was smaller than the word under it. Pairing
    said every colour twice ("RED  Red")."""
    seen = run("f5_words", tmp_path, tmp_path / "data", seed=5, timeout=180)
    for words in (b.lower().split() for b in seen["seat_buttons"]):
        assert len(set(words)) == len(words), seen["seat_buttons"]
    assert seen["status"]["turn"], seen["status"]  # a turn bar
    for text, heights in seen["status"]["turn"]:
        assert min(heights) >= TURN_CAPS_PX, (text, heights)  # as Formula 1's (the heading's were 13 px)
    for name, name_caps, who, who_caps in seen["rows"]:
        assert min(name_caps) > max(who_caps), (name, name_caps, who, who_caps)
    assert _small(seen["buttons"]) == [], _small(seen["buttons"])
    assert min(seen["oleds"]) >= 2 and seen["faults"] == [], (seen["oleds"], seen["faults"][:3])


def test_results_choice_and_saved_games_in_the_1962_look(tmp_path, seven_inch):
    """The brake chart had no values up its side at 800x480 (the tyre chart had); a fresh install's Continue
    was dimmed with no word why; the game choice, both Results and Saved games drew names in Kivy's stock
    Roboto under a plain title. Now the theme's faces and the box lid's title on each."""
    from companion import theme

    seen = run("first_screens", tmp_path, tmp_path / "data", seed=5, timeout=240)
    resume, disabled = seen["fresh"]["resume"]
    assert disabled and seen["fresh"]["note"], seen["fresh"]  # dimmed, and says why
    charts = seen["charts"]
    assert len(charts["brake_chart"]) >= 2 and len(charts["tyre_chart"]) >= 2, charts
    faces = {theme.DISPLAY_FONT, theme.FIGURE_FONT}
    for screen, look in seen["screens"].items():
        assert look["titles"] and all(t[1] == theme.DISPLAY_FONT for t in look["titles"]), (screen, look)
        assert set(look["faces"]) <= faces, (screen, look)
        assert look["faults"] == [], (screen, look["faults"][:3])
    assert seen["screens"]["results"]["names"] and seen["screens"]["f5results"]["names"], seen["screens"]
    assert seen["screens"]["saved"]["names"], seen["screens"]["saved"]
