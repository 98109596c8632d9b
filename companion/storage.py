"""Where games are saved: one SQLite file per game in a per-user data folder; and the app's per-user cache and logs.

The data folder is $F1_COMPANION_DATA if set (tests, several tables on one machine), else the operating system's
per-user data folder (platformdirs: ~/.local/share/formula1-companion on Linux, as XDG_DATA_HOME says; AppData on
Windows; Application Support on macOS; the app's private storage on Android). Games saved where versions before 0.2
saved them on every system (XDG_DATA_HOME or ~/.local/share) are read where they are: listed and continued, never
moved (on Linux that is the same folder).

The cache ($F1_COMPANION_CACHE, else the system's per-user cache folder) holds what the app can make again (the seat
page's compiled firmware); the logs folder, Kivy's log files.
"""

import contextlib
import os
import tempfile
import time

import platformdirs

from companion.eventlog import EventLog, LogError

APP = "formula1-companion"
OLDER_VERSION = "saved by an older version"  # how companion/f1/referee.py starts the reason an old log is refused


def platform_data_dir():
    return platformdirs.user_data_dir(APP, appauthor=False)


def data_dir():
    path = os.environ.get("F1_COMPANION_DATA")
    if not path:
        if "ANDROID_PRIVATE" in os.environ:
            path = os.path.join(os.environ["ANDROID_PRIVATE"], APP)
        else:
            path = platform_data_dir()
    os.makedirs(os.path.join(path, "games"), exist_ok=True)
    return path


def older_data_dirs():
    """The folder versions before 0.2 saved games in, if it is not data_dir() and holds any: read in place."""
    if os.environ.get("F1_COMPANION_DATA") or "ANDROID_PRIVATE" in os.environ:
        return []
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    old = os.path.join(base, APP)
    if os.path.realpath(old) == os.path.realpath(data_dir()):
        return []
    return [old] if any(os.path.isdir(os.path.join(old, sub)) for sub in ("games", "f5-games")) else []


def cache_dir():
    path = os.environ.get("F1_COMPANION_CACHE") or (
        os.path.join(os.environ["ANDROID_PRIVATE"], APP, "cache") if "ANDROID_PRIVATE" in os.environ
        else platformdirs.user_cache_dir(APP, appauthor=False))
    os.makedirs(path, exist_ok=True)
    return path


def log_dir():
    return platformdirs.user_log_dir(APP, appauthor=False)


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


def write_atomic(path, data, mode=0o644):
    """`data` (str or bytes) to `path` whole or not at all: a temp file, then a rename (a crash leaves the old file
    or the new one, never half). mode: the file's permissions (0o600 for secrets)."""
    # A temp file of its own (mkstemp) for each write: two threads or two apps saving one file never share one
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_private(path, text):
    """`text` to `path` whole or not at all, readable by this user only: for secrets (phone seats' tokens, Wi-Fi
    dashboards' keys)."""
    write_atomic(path, text, mode=0o600)


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
    """(path, None) for the Formula 1 game played last if it is not over, (path, message) if it cannot be opened,
    else None (a finished race is never "in progress"). Read afresh at every call, like saved_games()."""
    for game in saved_games():
        if game.game != "F1":
            continue
        if game.error:
            return game.path, game.error
        return None if game.finished else (game.path, None)
    return None


# ---- the saved games list ------------------------------------------------------------------------------------

class SavedGame:
    """One saved game as the list shows it. `path` is for opening and deleting it, never for showing: the words
    are in text(). `error` is "" for a game that opens, else why it cannot (the rest is then what could be read).
    """

    __slots__ = ("path", "game", "players", "round", "last_played", "finished", "error")

    def __init__(self, path, game, players, round, last_played, finished, error=""):
        self.path = path
        self.game = game  # "F1" or "F5"
        self.players = players  # names, in seat order
        self.round = round  # the round being played, or once finished the number of rounds played
        self.last_played = last_played  # seconds since the epoch (the last write to the game)
        self.finished = finished
        self.error = error

    def __repr__(self):
        return "SavedGame(%s, %r, round %s, %s%s)" % (self.game, self.players, self.round,
                                                       "finished" if self.finished else "in progress",
                                                       ", " + self.error if self.error else "")

    def label(self):
        """The word the saved-games screen shows beside it."""
        if self.error:
            return "OLDER VERSION" if self.error.startswith(OLDER_VERSION) else "DAMAGED"
        return "FINISHED" if self.finished else "IN PROGRESS"

    def title(self):
        game = {"F1": "Formula 1", "F5": "Formula 5"}.get(self.game, "A game")
        who = ", ".join(self.players) if self.players else "players unknown"
        return "%s: %s" % (game, who)

    def text(self):
        """One line for the list: the game, its players, how far it got, when it was last played."""
        when = time.strftime("%d %b %H:%M", time.localtime(self.last_played)) if self.last_played else "?"
        if self.error:
            state = "cannot be opened: %s" % self.error
        elif self.finished:
            state = "finished after %d round%s" % (self.round, "" if self.round == 1 else "s")
        else:
            state = "round %d, in progress" % self.round
        return "%s. %s. Last played %s." % (self.title(), state, when)


def _last_played(path):
    """The game's last write: SQLite in WAL mode writes its -wal file first, the main file only at checkpoints."""
    times = []
    for p in (path, path + "-wal"):
        try:
            times.append(os.path.getmtime(p))
        except OSError:
            pass
    return max(times) if times else 0


def error_words(message, path):
    """An error about a saved game with its file named as "this saved game" (no file names on screen)."""
    return str(message).replace(path, "this saved game").replace(os.path.basename(path), "this saved game")


_cache = {}  # path -> ((mtime, size of the file and its -wal), SavedGame): a game unchanged is not replayed


def _signature(path):
    sig = []
    for p in (path, path + "-wal"):
        try:
            st = os.stat(p)
            sig.append((st.st_mtime_ns, st.st_size))
        except OSError:
            sig.append(None)
    return tuple(sig)


def _players_in_log(path, game):
    """The names in a game log's first entry, for a game that cannot be opened ([] if even that cannot be read)."""
    try:
        log = EventLog(path)
        try:
            first = log.entries()[0]
        finally:
            log.close()
        names = first["setup"]["names"] if game == "F1" else first["names"]
        return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []
    except Exception:  # noqa: BLE001  (damaged past its first entry, or not ours: the list says "players unknown")
        return []


def _read_f1(path):
    from companion.f1.referee import Referee

    ref = Referee.open(path)
    try:
        race = ref.race
        return "F1", list(race.names), (race.round - 1 if race.game_over else race.round), bool(race.game_over)
    finally:
        ref.close()


def _read_f5(path):
    from companion.f5.referee import F5Referee

    ref = F5Referee.open(path)
    try:
        g = ref.game
        cars = list(g.order) if g.over else list(range(len(ref.names())))  # finished: in the order they finished
        players = [ref.names()[car] for car in cars if g.is_player(car)] or [ref.names()[car] for car in cars]
        return "F5", players, g.round, bool(g.over)
    finally:
        ref.close()


def saved_game(path, game):
    """The SavedGame for one file (game "F1" or "F5"); a damaged one carries its error and nothing more."""
    sig = _signature(path)
    hit = _cache.get(path)
    if hit is not None and hit[0] == sig:
        return hit[1]
    try:
        game, players, rnd, finished = (_read_f1 if game == "F1" else _read_f5)(path)
        error = ""
    except LogError as e:
        players, rnd, finished, error = _players_in_log(path, game), 0, False, error_words(e, path)
    except Exception as e:  # noqa: BLE001  (a file the app did not write: named in the list, nothing else breaks)
        players, rnd, finished, error = [], 0, False, error_words("not a saved game (%s)" % e, path)
    sg = SavedGame(path, game, players, rnd, _last_played(path), finished, error)
    _cache[path] = (sig, sg)
    return sg


def saved_games(folder=None):
    """Every saved game (Formula 1 and Formula 5), newest first, read afresh at every call. `folder` is the data
    folder (default data_dir(), and the older versions' folder where that is another: older_data_dirs())."""
    folders = [folder] if folder else [data_dir()] + older_data_dirs()
    found = []
    kinds = (("games", "F1"), ("f5-games", "F5"))
    for d, game in ((os.path.join(f, sub), game) for f in folders for sub, game in kinds):
        try:
            names = sorted(n for n in os.listdir(d) if n.endswith(".db"))
        except OSError:
            continue
        found += [saved_game(os.path.join(d, n), game) for n in names]
    found.sort(key=lambda g: (g.last_played, g.path), reverse=True)
    return found


def delete_saved_game(path):
    """Delete one saved game and whatever belongs to it (its SQLite side files, its virtual dashboards' saves).
    Refuses anything that is not a saved game (a .db file in a games folder). Returns True if something went."""
    import shutil

    real = os.path.realpath(path)
    if not real.endswith(".db") or os.path.basename(os.path.dirname(real)) not in ("games", "f5-games"):
        raise ValueError("not a saved game")
    gone = False
    for p in (real, real + "-wal", real + "-shm", real + "-journal"):
        try:
            os.remove(p)
            gone = True
        except FileNotFoundError:
            pass
    dash = real[:-3] + ".dash"
    if os.path.isdir(dash):
        shutil.rmtree(dash, ignore_errors=True)
    _cache.pop(path, None)
    return gone
