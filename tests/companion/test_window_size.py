"""The 7-inch screen: `python -m companion` takes the screen it is given. Before, the window was
1280x800 whatever the screen, and an 800x480 display showed its middle. The display is a real X server (Xvfb)
of each size; SDL2 (Kivy's window library) is asked its size as the app asks it."""

import os
import shutil
import subprocess
import sys

import pytest

from companion import window_size

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# main() as `python -m companion ARGS` runs it, the app left out (Kivy's window would open): what the window
# is asked to be, as Kivy's Config holds it.
CODE = ("import sys, types; sys.modules['companion.app'] = types.SimpleNamespace(run=lambda: None); "
        "from companion.__main__ import main; main(sys.argv[1:]); from kivy.config import Config; "
        "print('WINDOW', Config.get('graphics', 'width'), Config.get('graphics', 'height'), "
        "Config.get('graphics', 'fullscreen'))")


def window_on(screen, args, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY")}
    env.update(KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy"), PYTHONPATH=ROOT)
    out = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 %sx24" % screen, sys.executable, "-c", CODE] + args,
                         cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    line = [x for x in out.stdout.splitlines() if x.startswith("WINDOW ")]
    assert line, out.stdout + out.stderr
    return line[-1].split()[1:]


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs Xvfb (Debian's xvfb, in .ci/apt-deps)")
def test_the_window_takes_the_screen_it_is_given(tmp_path):
    assert window_on("800x480", [], tmp_path) == ["800", "480", "auto"]  # the 7-inch display: all of it
    assert window_on("1920x1200", [], tmp_path) == ["1280", "800", "0"]  # a desktop: a tablet-sized window
    assert window_on("1920x1200", ["--size", "800x480"], tmp_path) == ["800", "480", "0"]
    assert window_on("1920x1200", ["--fullscreen"], tmp_path) == ["1920", "1200", "auto"]


def test_size_words():
    assert window_size.parse_size("800x480") == (800, 480)
    for bad in ("800", "x480", "big", "10x10"):
        with pytest.raises(ValueError):
            window_size.parse_size(bad)
    assert window_size.choose(None, False, None) == (1280, 800, False)  # no screen known: the tablet's size
    assert window_size.choose(None, False, (1280, 800)) == (1280, 800, True)  # exactly a tablet: all of it
    assert window_size.choose((1024, 600), False, (800, 480)) == (1024, 600, False)
