"""The app as a person gets it: its wheel installed with pipx (a virtual environment of its own outside the checkout,
its command linked into a folder on the PATH), run from a folder that is not the checkout. `formula1 --version`
answers; the app opens on the game choice (an offscreen window); every file it opens that is the app's own comes
from the installed package, none from the checkout; the wheel puts no top-level `tools` or `firmware` on a user's
sys.path."""

import json
import os
import shutil
import subprocess
import zipfile

from tests.install.wheel import ROOT, on_path

HERE = os.path.dirname(os.path.abspath(__file__))
APP_FILES = (".kv", ".otf", ".ttf", ".json", ".js", ".mjs", ".wasm", ".html", ".png", ".py")


def test_formula1_version_from_any_folder(installed, user):
    _wheel, bin_dir = installed
    env, folder = user
    from companion import __version__

    # the command in the app's venv, and the one pipx put on a person's PATH
    for command in (os.path.join(bin_dir, "formula1"), os.path.join(on_path(bin_dir), "formula1")):
        done = subprocess.run([command, "--version"], cwd=folder, env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "formula1 " + __version__


def test_the_wheel_puts_no_tools_or_firmware_on_sys_path(installed):
    wheel, _bin = installed
    with zipfile.ZipFile(wheel) as z:
        tops = {name.split("/")[0] for name in z.namelist() if not name.split("/")[0].endswith(".dist-info")}
        names = set(z.namelist())
    assert tops == {"companion", "shared_rules"}, tops
    # The firmware travels as files inside the app, under the names the board gives them.
    assert "companion/flashing/files/firmware/main.py" in names
    assert "companion/flashing/files/shared_rules/f1/race.py" in names
    assert "companion/fonts/LICENSE-BebasNeue.txt" in names and "companion/phones/static/runtime/LICENSE" in names
    assert "companion/icons/formula1.png" in names  # the window's and the desktop entry's icon
    # no OLED driver: the dashboard drives the panel itself, so a flash copies only the dashboard's own files
    assert not [n for n in names if "ssd1306" in n or n.startswith("companion/flashing/drivers/")]
    # MicroPython for a Pico in BOOTSEL mode, with its pin and licence
    assert {"companion/flashing/micropython/micropython-rp2-pico-v1.27.0.uf2", "companion/flashing/micropython/PIN.json",
            "companion/flashing/micropython/LICENSE-micropython.txt"} <= names


def test_the_installed_app_shows_the_game_choice_with_only_its_own_files(installed, user, tmp_path):
    _wheel, bin_dir = installed
    env, folder = user
    probe = shutil.copy(os.path.join(HERE, "probe.py"), folder)
    out = tmp_path / "seen.json"
    done = subprocess.run([os.path.join(bin_dir, "python"), "-I", probe, str(out)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)
    assert out.exists(), "the app never wrote what it saw (rc %d):\n%s" % (done.returncode, done.stderr[-4000:])
    seen = json.loads(out.read_text())
    assert seen["screen"] == "games", seen["screen"]
    assert "Which game?" in seen["texts"] and "Saved games" in seen["texts"]
    package = seen["package"]
    assert package.startswith(os.path.realpath(os.path.join(bin_dir, ".."))), package
    assert seen["sources"] == os.path.join(package, "flashing", "files")

    checkout = os.path.realpath(ROOT) + os.sep
    from_checkout = [p for p in seen["opened"] if p.startswith(checkout)]
    assert from_checkout == [], from_checkout
    own = [p for p in seen["opened"] if p.endswith(APP_FILES) and "/companion/" in p]
    assert all(p.startswith(package + os.sep) for p in own), [p for p in own if not p.startswith(package)]
    names = {os.path.relpath(p, package) for p in own}
    # What it loads is there: its screens, its faces, the seat page's runtime and the firmware it compiles.
    for needed in ("theme.kv", "game_choice.kv", "fonts/BebasNeue-Bold.otf", "phones/static/runtime/micropython.wasm",
                   "phones/static/seat.js", "flashing/files/firmware/manifest.py", "flashing/files/firmware/app.py",
                   "flashing/files/shared_rules/f1/race.py"):
        assert needed in names, (needed, sorted(names))
