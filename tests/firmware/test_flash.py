"""The flash path (tools/flash.py, `make flash`) against the real `micropython` unix port on a pty, driven by the
real mpremote (`connect <pty> resume`): the old modules go (and the OLED driver an earlier flash left in /lib, never
another library there), shared_rules and the firmware arrive as .mpy, /main.py is the boot file, and the flashed
tree boots into a working dashboard."""

import json
import os
import select
import subprocess
import sys
import threading
import tty


from tests import mpy
from tests.firmware.dash import VirtualDashboard
from tools.mpy_build import compile_module

ROOT = mpy.ROOT
def raw_pty():
    m, s = os.openpty()
    tty.setraw(m)
    tty.setraw(s)
    return m, s


class PtyBoard:
    """The unix port's REPL on one pty, relayed to a second pty whose path mpremote opens, like a USB port."""

    def __init__(self, root):
        self.dev_m, self.dev_s = raw_pty()
        self.host_m, self.host_s = raw_pty()
        env = dict(os.environ, MICROPYPATH=".frozen:%s/lib:%s" % (root, root))
        self.proc = subprocess.Popen([mpy.micropython_path(), "-i"], stdin=self.dev_s, stdout=self.dev_s,
                                     stderr=self.dev_s, cwd=root, env=env)
        self.port = os.ttyname(self.host_s)
        self.running = True
        self.thread = threading.Thread(target=self._relay, daemon=True)
        self.thread.start()

    def _relay(self):
        while self.running:
            r, _, _ = select.select([self.dev_m, self.host_m], [], [], 0.2)
            for fd in r:
                try:
                    data = os.read(fd, 4096)
                    out = self.host_m if fd == self.dev_m else self.dev_m
                    while data:  # a pty takes what fits: write the rest too, or bytes vanish mid-file
                        data = data[os.write(out, data):]
                except OSError:
                    return

    def close(self):
        self.running = False
        self.proc.kill()
        self.proc.wait()
        # The relay must be gone before its fds close: a closed fd number is soon reused (by the next file the
        # test opens), and a relay still in select() would then read that file's bytes away.
        self.thread.join()
        for fd in (self.dev_m, self.dev_s, self.host_m, self.host_s):
            os.close(fd)


def test_flash_then_boot(tmp_path):
    root = str(tmp_path / "board")
    os.makedirs(os.path.join(root, "lib"))
    os.makedirs(os.path.join(root, "firmware"))
    with open(os.path.join(root, "firmware", "app.py"), "w") as f:
        f.write("raise RuntimeError('stale source from an old flash')\n")
    with open(os.path.join(root, "state.json"), "w") as f:
        f.write("the player's saved state")
    for name in ("ssd1306.py", "ssd1306.mpy"):  # what earlier flashes put there (mip's source, the pinned .mpy)
        with open(os.path.join(root, "lib", name), "w") as f:
            f.write("class SSD1306_I2C:\n    pass\n")
    with open(os.path.join(root, "lib", "servo.py"), "w") as f:
        f.write("# a library of the maker's own\n")
    with open(os.path.join(root, "dashboard.json"), "w") as f:
        f.write('{"app": "formula1-companion", "version": "0.0.1"}')  # an older dashboard, updated here
    board = PtyBoard(root)
    try:
        proc = subprocess.run(
            [sys.executable, os.path.join(ROOT, "tools", "flash.py"), "--port", board.port, "--resume",
             "--build", str(tmp_path / "build")],
            capture_output=True, timeout=120)
        out = proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")
        assert proc.returncode == 0, out
        # What the board holds once mpremote is done.
        with open(os.path.join(root, "main.py"), "rb") as f:
            flashed_main = f.read()
        with open(os.path.join(root, "dashboard.json")) as f:
            version = json.load(f)
    finally:
        board.close()
    assert os.listdir(os.path.join(root, "lib")) == ["servo.py"], out  # the old driver gone, the maker's kept
    # the boot file is one line: the boot code is firmware/main.mpy (a .py boot file is compiled at every power-on)
    assert flashed_main == b"import firmware.main\n"
    # the board says which version it holds, written last: the app's own
    from companion import __version__

    assert version == {"app": "formula1-companion", "version": __version__}
    assert os.path.exists(os.path.join(root, "firmware", "main.mpy"))
    for m in ("firmware/app.mpy", "firmware/ui.mpy", "firmware/ondemand/link.mpy", "shared_rules/f1/car.mpy",
              "shared_rules/link/codec.mpy"):
        assert os.path.exists(os.path.join(root, m)), m
    assert not os.path.exists(os.path.join(root, "firmware", "app.py")), "stale source left to shadow the .mpy"
    assert not [f for f in os.listdir(os.path.join(root, "firmware")) if f.endswith(".py")]
    assert open(os.path.join(root, "state.json")).read() == "the player's saved state"
    # the save's folder is made by the flash, not by the first power-on (whose littlefs commit then cost a block
    # erase on a Pico: the first boot after flashing was the slowest, 422 ms against a 400 ms target)
    assert os.path.isdir(os.path.join(root, "data"))
    # only what the Pico runs: the host stand-ins stay off the board...
    assert not [f for f in os.listdir(os.path.join(root, "firmware")) if f.startswith(("board_host.", "link_main."))]
    # ...so the unix port, standing in for the Pico here, is given its own board the way a Pico has its pins
    compile_module(os.path.join(ROOT, "firmware", "host", "board_host.py"), "firmware/host/board_host.py", root)
    # what was flashed boots: main.py from the board's root, every module from its .mpy files
    d = VirtualDashboard(str(tmp_path), dev="flashed", micropypath=".frozen:%s/lib:%s" % (root, root), cwd=root,
                         args=("main.py",))
    try:
        d.start()
        assert d.rows()[0] == "WAIT      LAPS 3"
        d.tap("OK", "UP", "OK")
        assert d.car()["speed"] == 20
    finally:
        d.kill()
