"""The companion app's Formula 5 screens in a real (offscreen) window: the game chosen on the setup screen,
a solo game of bots played by the tablet, left and resumed from its log, the rows sliding to the positions."""

import pytest
import os

from shared_rules.f5 import bot
from shared_rules.f5.game import Game
from tests.companion.app_host import played

pytestmark = [pytest.mark.window]

SEED = 55


def test_solo_game_on_the_tablet(tmp_path):
    out = tmp_path / "f5.json"
    env = dict(os.environ, F1_COMPANION_DATA=str(tmp_path / "data"), F1_COMPANION_SEED=str(SEED))
    seen = played("tests.f5_devices.f5_window:solo_with_bots", out, str(tmp_path / "shots"), env)  # its own folder
    assert seen["roles"][0].endswith("Bot") and seen["roles"][4].endswith("No player (plays the deck)")
    assert seen["resume_enabled"] and seen["resumed_at"] == seen["left_at"]
    alone = Game(SEED, [0, 1, 2, 3])
    while not alone.over:
        alone.apply(bot.choose(alone))
    assert seen["events"] == alone.events  # the bots' game, the same across the leave and resume
    assert seen["rows_order"] == seen["order"]  # each car's row slid to its place
    assert seen["status"].startswith("The race is over")
    # no hand on the tablet: no label lists a hand's cards ("R R G ..." is a column, never a hand)
    text = "\n".join(seen["labels"])
    assert "hand" not in text.lower().replace("hands", "")
