import os

import pytest

from tests.install.wheel import build_wheel, install


@pytest.fixture(scope="session")
def installed(tmp_path_factory):
    """The app installed from its wheel into a fresh virtual environment outside the checkout, once per session:
    (the wheel's path, the venv's bin folder)."""
    work = tmp_path_factory.mktemp("installed")
    wheel = build_wheel(str(work / "dist"))
    return wheel, install(wheel, str(work / "venv"))


@pytest.fixture
def user(tmp_path):
    """A person's environment with nothing of the checkout in it: run from an empty folder, with their own home
    and data folders (the tests' F1_COMPANION_* and PYTHONPATH left out)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("F1_", "PYTHON", "KIVY_", "XDG_"))}
    home = tmp_path / "home"
    (home / "somewhere").mkdir(parents=True)
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               XDG_CACHE_HOME=str(home / "cache"), XDG_STATE_HOME=str(home / "state"),
               KIVY_HOME=str(home / "kivy"), SDL_VIDEODRIVER="offscreen", KIVY_WINDOW="sdl2",
               SDL_AUDIODRIVER="dummy")
    return env, str(home / "somewhere")
