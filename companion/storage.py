"""Where games are saved: one SQLite file per game in a per-user data folder.

The folder is $F1_COMPANION_DATA if set (tests, several tables on one machine), else the platform's
per-user data folder (~/.local/share/formula1-companion on Linux, the app's private storage on Android).
"""

import os
import time

from companion.referee.eventlog import LogError
from companion.referee.referee import Referee

APP = "formula1-companion"


def data_dir():
    path = os.environ.get("F1_COMPANION_DATA")
    if not path:
        if "ANDROID_PRIVATE" in os.environ:
            path = os.path.join(os.environ["ANDROID_PRIVATE"], APP)
        else:
            base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
            path = os.path.join(base, APP)
    os.makedirs(os.path.join(path, "games"), exist_ok=True)
    return path


def games_dir():
    return os.path.join(data_dir(), "games")


def new_game_path():
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = os.path.join(games_dir(), "game-%s.db" % stamp)
    n = 1
    while os.path.exists(path):
        n += 1
        path = os.path.join(games_dir(), "game-%s-%d.db" % (stamp, n))
    return path


def dashboards_dir(game_path):
    """Virtual dashboards of a game keep their saved state next to it (their 'flash')."""
    path = game_path[:-3] + ".dash" if game_path.endswith(".db") else game_path + ".dash"
    os.makedirs(path, exist_ok=True)
    return path


def latest_game():
    """The newest saved game file, or None."""
    try:
        names = [n for n in os.listdir(games_dir()) if n.endswith(".db")]
    except OSError:
        return None
    if not names:
        return None
    paths = [os.path.join(games_dir(), n) for n in names]
    return max(paths, key=lambda p: (os.path.getctime(p), p))  # names are timestamps too


def game_in_progress():
    """(path, None) for the newest game if it is not over, (path, message) if it cannot be opened, else None."""
    path = latest_game()
    if path is None:
        return None
    try:
        ref = Referee.open(path)
    except LogError as e:
        return path, str(e)
    try:
        over = ref.race.game_over
    finally:
        ref.close()
    return None if over else (path, None)
