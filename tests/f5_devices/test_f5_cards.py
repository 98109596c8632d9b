"""Formula 5 followed from across the table (the columns as race cards), in the real app in a
real (offscreen) window, driven by tests/f5_devices/f5_cards_window.py: each column drawn as its race cards
(every one in view, the face-down stops as backs), an overtake told long enough to read, moves arriving together
told one after the other, the history, Results at the end and from Saved games, no hand's card anywhere on the
tablet; and every Formula 5 screen from 800x480 to 1920x1200 for five and two players, screenshots in the test's
tmp dir."""

import pytest
import os

from shared_rules.f5.cards import PIT_SIDE
from tests.companion.app_host import played

pytestmark = [pytest.mark.window]

SEED = 3


def run(scenario, tmp_path, timeout=150):
    """f5_cards_window's `scenario` in the app process this pytest process shares (tests/companion/app_host.py),
    with an app of its own."""
    out = tmp_path / (scenario + ".json")
    shots = tmp_path / "shots"
    shots.mkdir()
    env = dict(os.environ, F1_COMPANION_DATA=str(tmp_path / "data"), F1_COMPANION_SEED=str(SEED))
    return played("tests.f5_devices.f5_cards_window:" + scenario, out, str(shots), env, timeout=timeout)


def check_columns(columns):
    for pos, col in enumerate(columns):
        assert col["entries"] == col["column"], pos  # every card of the column drawn, in the order played
        assert col["backs"] == [e == PIT_SIDE for e in col["column"]], pos  # a stop's card shows its back
        assert col["least_strip"] >= 16, col  # each card keeps a strip in view, as the rulebook lays them
        assert col["inside"], pos


def test_formula5_can_be_followed_from_across_the_table(tmp_path):
    """Fails on the old main: the columns were a line of letters ending in an ellipsis (no card drawn), the first
    overtake's words were replaced by the next car's 0.8 s later, two moves arriving together showed only the
    second, the table had no History, and a finished game's Results (on the table and in Saved games) did not
    exist or was dimmed. About 45 s of wall time on a loaded 2-core machine."""
    seen = run("follow", tmp_path)
    assert " overtakes " in seen["overtake_text"]
    assert seen["overtake_shown_s"] >= 2.5 and seen["played_on"], seen  # read, then the game goes on
    assert seen["overtake_glow"] > 0.5  # the overtaking car's row lit while its words are up (and it slides)
    told = [text for text, _t in seen["told"]]
    first, second = seen["movers"]
    assert len(told) >= 2 and told[-2].startswith(first) and told[-1].startswith(second), seen["told"]
    assert seen["told"][-1][1] - seen["told"][-2][1] >= 1.0, seen["told"]  # the first stayed up to be read
    assert seen["history_live"][0] == "f5history" and seen["history_live"][1] in (1, 2) and seen["history_live"][2]
    assert seen["history_back"] == ["f5table", True]  # a double tap opened it once; the move read there was told
    hands = {card for hand in seen["hands_mid_game"] for card in hand}
    assert seen["cards_mid_game"] and not hands & set(seen["cards_mid_game"])  # no hand's card on the tablet
    check_columns(seen["columns_mid_game"])
    check_columns(seen["columns_over"])
    assert all(len(col["column"]) == 13 for col in seen["columns_over"])  # the start card and 12 rounds
    assert any(True in col["backs"] for col in seen["columns_over"])  # this game had pit stops
    assert seen["history_button"] and seen["history_screen"] == "f5history" and seen["after_history"] == "f5table"
    history = seen["history"]
    assert all("Round %d" % r in history for r in range(1, 13))
    moves = [t for t in history if t.startswith(tuple(seen["standings"]))]
    assert len(moves) == seen["events"] - 1, history  # every move, none twice
    assert seen["results_button"] and seen["results_screen"] == "f5results" and seen["after_results"] == "f5table"
    results = "\n".join(seen["results"])
    assert "%s wins" % seen["winner"] in results
    assert all(name in results for name in seen["standings"]) and "since round" in results  # what decided them
    assert seen["saved_rows"] == 1 and seen["saved_results"] == ["Results", False]  # not dimmed
    assert seen["saved_results_screen"] == "f5results" and seen["saved_results_texts"] == seen["results"]
    assert seen["saved_results_back"] == "saved" and seen["saved_back"] == "games"


def test_every_formula5_screen_fits_from_800x480_to_1920x1200(tmp_path):
    """The setup, the table (start, mid-game, over with every column full), the history and the results for five
    players (one dashboard on this tablet narrowing the table) and two, at 800x480, 1024x600, 1280x800 and
    1920x1200: nothing outside the window, no text beyond its box, buttons touch-sized and apart, texts at
    800x480 at least 16 px (the virtual dashboard's own keys aside: Formula 1's shared widget), every card in
    view. Screenshots: tmp_path/shots/f5-<screen>-<w>x<h>.png. About 40 s of wall time on a loaded 2-core machine."""
    seen = run("looks", tmp_path, timeout=240)
    fits = seen["fits"]
    keys = ["setup", "table-5p-start", "table-5p-over", "history-5p", "results-5p", "table-2p-mid", "table-2p-over",
            "history-2p", "results-2p"]
    assert sorted(fits) == sorted("%s-%s" % (k, s) for k in keys for s in ("800x480", "1024x600", "1280x800",
                                                                            "1920x1200"))
    assert {k: f["faults"][:3] for k, f in fits.items() if f["faults"]} == {}
    assert {k: f["small"][:3] for k, f in fits.items() if f.get("small")} == {}
    for key, fit in fits.items():
        if key.startswith("table"):
            check_columns(fit["columns"])
    assert len(list((tmp_path / "shots").glob("f5-*.png"))) == len(fits)
