"""The app's per-user folders are the operating system's (platformdirs): games in its data folder, what can be made
again (the seat page's compiled firmware) in its cache. Games saved where older versions saved them are still listed
and continued, read where they are. The seat page's firmware is compiled once per version, not at every start."""

import os

import pytest

from companion import storage
from companion.f1.referee import Referee
from companion.phones import assets


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A user with no data yet, whose system puts per-user data somewhere other than ~/.local/share (macOS,
    Windows); nothing set by the tests' environment."""
    monkeypatch.delenv("F1_COMPANION_DATA", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(storage, "platform_data_dir", lambda: str(tmp_path / "Application Support" / storage.APP))
    return tmp_path


def test_the_data_folder_is_the_systems_per_user_one(tmp_path, monkeypatch):
    monkeypatch.delenv("F1_COMPANION_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert storage.data_dir() == str(tmp_path / "xdg" / "formula1-companion")
    assert os.path.isdir(tmp_path / "xdg" / "formula1-companion" / "games")
    assert storage.older_data_dirs() == []  # on Linux the older versions' folder is this one


def test_a_race_saved_by_an_older_version_is_listed_and_continued_where_it_is(home):
    old_games = home / "home" / ".local" / "share" / storage.APP / "games"
    old_games.mkdir(parents=True)
    old = str(old_games / "game-20260101-120000.db")
    Referee.new(old, ["Ann", "Bob"], 3, seed=1).close()

    assert storage.data_dir() == str(home / "Application Support" / storage.APP)
    listed = storage.saved_games()
    assert [g.path for g in listed] == [old] and sorted(listed[0].players) == ["Ann", "Bob"]
    assert storage.game_in_progress() == (old, None)  # "Continue" opens it
    # A new race goes to the new folder; both are listed, the old one stays where it was.
    new = storage.new_game_path()
    Referee.new(new, ["Cat", "Dan"], 3, seed=2).close()
    assert new.startswith(str(home / "Application Support"))
    assert sorted(g.path for g in storage.saved_games()) == sorted([old, new])
    assert os.path.exists(old)


def test_the_seat_pages_firmware_is_compiled_once_per_version(tmp_path, monkeypatch):
    monkeypatch.setenv("F1_COMPANION_CACHE", str(tmp_path / "cache"))
    first = assets.firmware_bundle()
    assert [n for n in os.listdir(tmp_path / "cache") if n.startswith("seat-firmware-")]

    def compile_again(*args):
        raise AssertionError("compiled again: the cached bundle was not used")

    monkeypatch.setattr(assets, "compile_module", compile_again)
    assert assets.firmware_bundle() == first  # the next start: from the cache, byte for byte

    # Another version of a module is another bundle, compiled afresh (never an older version's files).
    modules = assets.firmware_modules()
    changed = tmp_path / "app.py"
    with open(dict(modules)["firmware/app.py"], "rb") as f:
        changed.write_bytes(f.read() + b"\n# another version\n")
    monkeypatch.setattr(assets, "firmware_modules",
                        lambda: [(t, str(changed) if t == "firmware/app.py" else s) for t, s in modules])
    with pytest.raises(AssertionError, match="compiled again"):
        assets.firmware_bundle()
