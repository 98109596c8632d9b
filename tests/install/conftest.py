import fcntl
import json
import os

import pytest

from tests.install.wheel import build_wheel, install
from tests.pico.conftest import flashed_image, picosim_here  # noqa: F401  the run's one flashed image, shared


@pytest.fixture(scope="session")
def installed(tmp_path_factory, worker_id):
    """The app installed from its wheel into a fresh virtual environment outside the checkout, once per run:
    (the wheel's path, the venv's bin folder). Under xdist the workers share it (the run's folder, under a lock):
    the tests that use it land on different workers, and each paid a whole build and install."""
    root = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        root = root.parent  # the run's folder, above each worker's own
    with open(root / "installed.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second worker waits here for the first one's install
        made = root / "installed.json"
        if not made.exists():
            work = root / "installed"
            wheel = build_wheel(str(work / "dist"))
            bin_dir = install(wheel, str(work / "venv"))
            tmp = root / "installed.json.tmp"
            tmp.write_text(json.dumps([wheel, bin_dir]))
            os.replace(tmp, made)
        wheel, bin_dir = json.loads(made.read_text())
    return wheel, bin_dir


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
