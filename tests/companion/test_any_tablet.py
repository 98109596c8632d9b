"""Any tablet runs the app: one with no `micropython` anywhere (not beside its Python, not on its PATH), and one
whose Python has no `pty`, `termios`, `tty` or `fcntl` (as on Windows). The real app in a real window (SDL
offscreen), driven by tests/companion/any_tablet.py: it reaches the setup screen and the pairing screen, and a
dashboard on this tablet's screen ("Show it on this tablet instead") is offered only where the unix port can run
it, which is neither of these; each seat's card gives its phone the firmware's own seat page
(tests/companion/test_phone_seats.py plays one).

The tablet's Python is this project's environment seen from a folder without `micropython`: a pyvenv.cfg and
bin/python (a link to the same interpreter) and lib (a link to the same packages).

Cost: about 15 s (two app starts).
"""

import pytest
import json
import os
import random
import shutil
import socket
import subprocess
import sys

pytestmark = [pytest.mark.window]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def tablet_python(tmp_path):
    """A Python with this environment's packages and no `micropython` beside it."""
    venv = os.path.dirname(os.path.dirname(os.path.abspath(sys.executable)))
    home = tmp_path / "tablet"
    (home / "bin").mkdir(parents=True)
    shutil.copy(os.path.join(venv, "pyvenv.cfg"), home / "pyvenv.cfg")
    os.symlink(os.path.realpath(sys.executable), home / "bin" / "python")
    os.symlink(os.path.join(venv, "lib"), home / "lib")
    return str(home / "bin" / "python")


def phone_port():
    """A free loopback port below the range the system hands out for port 0. Some tests stop the tablet and start
    it again, and its phones' pages dial the port it had; another test's server, bound to port 0 meanwhile, could
    get that port from the system's range and answer the pages that their seat is gone (it did, twice in CI)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        low = 49152  # the IANA range's start (macOS, Windows)
    for port in random.Random().sample(range(20000, low), 200):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError("no free port below %d" % low)


def tablet_env(tmp_path):
    """(the tablet's Python, the environment to run the app in): no `micropython` it could find."""
    python = tablet_python(tmp_path)
    # The system's folders, but one holding a micropython (installed by hand, say) is left out
    system = [d for d in SYSTEM_PATH.split(":") if not os.path.exists(os.path.join(d, "micropython"))]
    path = ":".join([os.path.dirname(python)] + system)
    assert shutil.which("micropython", path=path) is None  # the premise: no unix port on this tablet
    env = dict(os.environ, PATH=path, PYTHONPATH=ROOT, F1_COMPANION_DATA=str(tmp_path / "data"),
               F1_PHONE_HOST="127.0.0.1", F1_PHONE_PORT=str(phone_port()))  # its phones' server, on loopback
    env.pop("MICROPYPATH", None)
    return python, env


def run(tmp_path, *flags):
    python, env = tablet_env(tmp_path)
    out = tmp_path / "seen.json"
    proc = subprocess.run([python, "-m", "tests.companion.any_tablet", str(out), *flags], cwd=ROOT, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=90)
    assert out.exists(), proc.stderr.decode(errors="replace")[-3000:]
    seen = json.loads(out.read_text())
    assert "error" not in seen, seen["error"]
    return seen


def _offers_no_dashboard_here(seen, phones=True):
    assert seen["screen"] == "games" and seen["ok"] == 1
    assert seen["virtual"] is False
    assert seen["offered"] == [None, None, None]  # no "Show it on this tablet instead", no "Use a phone"
    for texts in seen["cards"]:
        assert not any("this tablet instead" in t for t in texts), texts
        if phones:  # each seat's phone runs the firmware itself: its card gives that page's address (and QR code)
            assert any(t.startswith("http://127.0.0.1:") and t.endswith("/") for t in texts), texts
            assert not any("Needs a Pico" in t for t in texts), texts
        else:
            assert any("Needs a Pico" in t for t in texts), texts


def test_a_tablet_without_micropython_runs_the_app_and_offers_no_dashboard_on_its_screen(tmp_path):
    seen = run(tmp_path)
    _offers_no_dashboard_here(seen)
    assert seen["source"] == ["PyserialPorts", "LinkPorts"]  # Picos on USB, and phones' link sockets


def test_the_app_starts_where_pty_termios_tty_and_fcntl_do_not_exist(tmp_path):
    seen = run(tmp_path, "--no-unix-terminals")
    assert seen["imported"] == []  # none of them came in by another way
    _offers_no_dashboard_here(seen)
    # pyserial needs termios and fcntl on POSIX (on Windows it has its own backend): here it cannot load, so no
    # USB port is listed (the log says why); the phones' link sockets are still ports.
    assert seen["source"] == ["NoPorts", "LinkPorts"]


def test_a_tablet_that_cannot_serve_phones_asks_for_picos_and_still_runs(tmp_path):
    """An APK built without aiohttp (companion/android/README.md): no phones' server, the seats need Picos."""
    seen = run(tmp_path, "--no-phones-server")
    _offers_no_dashboard_here(seen, phones=False)
    assert seen["phones"] is False
