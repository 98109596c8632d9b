"""Virtual dashboards on the tablet's screen (a player without a Pico who chose it; a phone runs the firmware itself):
the real firmware on the `micropython` unix port.

Each one is the dashboard firmware (firmware/main.py with the host board, firmware/host/board_host.py) started
as a child process. Its game link is one end of a pseudo-terminal; the other end's path is listed by
VirtualPorts as if it were a Pico on USB, so the ordinary transport (pyserial) finds it exactly as it finds
a real dashboard. Its buttons and OLED travel on the host board's own channel (a unix socket): this module
keeps the latest OLED image and state from it, off the UI thread, and sends button taps.

Unix only (ptys, unix sockets, the unix port): the app imports this module everywhere and asks available()
before offering a dashboard on this tablet. Where `tty` (and termios under it) does not exist (Windows), the
module still imports and available() is False.
"""

import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import types

from companion.flashing import sources
from companion.transport.pyserial_backend import PICO_PID, PICO_VID, PyserialPorts

W, H, PAGES = 128, 64, 8
BUTTONS = ("UP", "DOWN", "OK", "CARD", "BACK")
HEAP = "256K"
_SOCKETS = [None]


def is_virtual(dev):
    """A dashboard id this module gives (the tablet's app names them; a Pico's id is its unique id in hex)."""
    return dev.startswith(("virtual-", "f5-virtual-"))


def micropython_path():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    return here if os.path.exists(here) else shutil.which("micropython")


def available():
    """A dashboard can run on this tablet: the unix port is found (beside this Python, or on PATH) and ptys exist."""
    return micropython_path() is not None and hasattr(os, "openpty") and _terminals() is not None


def _terminals():
    """The tty module (raw mode for the ptys), or None where it does not exist (Windows)."""
    try:
        import tty
    except ImportError:
        return None
    return tty


def _die_with_parent():
    # A killed app must not leave dashboards behind: the kernel ends the child when the app dies.
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class VirtualDashboard:
    """One virtual dashboard. `image` is the OLED (SSD1306 pages, MONO_VLSB), `frame` counts redraws."""

    def __init__(self, workdir, dev):
        self.workdir = workdir  # the dashboard's "flash": its saved state survives the app
        self.dev = dev
        _SOCKETS[0] = _SOCKETS[0] or tempfile.mkdtemp(prefix="f1v-")  # short: a socket path has 108 bytes
        self.sock_path = os.path.join(_SOCKETS[0], dev + ".sock")
        self.state_path = os.path.join(workdir, dev + ".state")
        self.image = bytearray(W * PAGES)
        self.frame = 0
        self.state = None
        self.state_frame = -1
        self.led = 0
        self.handled = 0  # lines of ours the firmware has handled to the end, its save included (its `A` lines)
        self.proc = None
        self.sock = None
        self.slave = None
        self.path = None  # the pty the transport opens
        self.lock = threading.Lock()
        self.tap_lock = threading.Lock()  # taps come from the UI thread and from tests' threads

    def start(self):
        import tty  # unix only: a dashboard is started only where available()

        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        root = sources.root()  # firmware/ and shared_rules/ as on a Pico: the installed app's own
        env = dict(os.environ, MICROPYPATH=".frozen:" + root, F1DASH_UI=self.sock_path,
                   F1DASH_STATE=self.state_path, F1_DASH_ID=self.dev)
        self.proc = subprocess.Popen(
            [micropython_path(), "-X", "heapsize=" + HEAP, "-c", "import firmware.main"],
            stdin=master, stdout=master, stderr=subprocess.DEVNULL, env=env, cwd=root,
            preexec_fn=_die_with_parent)
        os.close(master)
        self.slave = slave  # kept open: the pty lives while the transport closes and reopens its end
        self.path = os.ttyname(slave)
        threading.Thread(target=self._viewer, name="virtual-" + self.dev, daemon=True).start()
        return self

    def _viewer(self):
        end = time.monotonic() + 15
        while self.proc is not None and self.proc.poll() is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(self.sock_path)
            except OSError:
                s.close()
                if time.monotonic() > end:
                    return
                time.sleep(0.02)
                continue
            self.sock = s
            try:
                for raw in s.makefile("rb"):
                    if raw.endswith(b"\n"):  # one cut short is the last of a dashboard killed as it wrote it
                        self._line(raw)
            except OSError:
                pass
            return

    def _line(self, raw):
        try:
            self._take(raw)
        except ValueError:
            pass  # not a line the firmware writes whole: nothing of it is taken, the next frame redraws

    def _take(self, raw):
        op, _, rest = raw.rstrip(b"\n").partition(b" ")
        with self.lock:
            if op == b"G":
                page, _, hexdata = rest.partition(b" ")
                p = int(page)
                if 0 <= p < PAGES:
                    self.image[p * W : (p + 1) * W] = bytes.fromhex(hexdata.decode())
            elif op == b"F":
                self.frame = int(rest)
            elif op == b"S":
                self.state = json.loads(rest)
                self.state_frame = self.frame  # the state that goes with this frame (it follows the frame's pages)
            elif op == b"L":
                self.led = int(rest)
            elif op == b"A":
                self.handled += 1

    def tap(self, button):
        """Press and release one of BUTTONS (a short write to a local socket: fine on the UI thread)."""
        if button not in BUTTONS or self.sock is None:
            return 0
        try:
            with self.tap_lock:
                self.sock.sendall(b"T " + button.encode() + b"\n")
        except OSError:
            return 0
        return 1

    def pixels(self):
        """The OLED as rows of 0/1, top to bottom (for drawing)."""
        with self.lock:
            buf = bytes(self.image)
        return [[(buf[(y // 8) * W + x] >> (y % 8)) & 1 for x in range(W)] for y in range(H)]

    def rgba(self, on=(120, 200, 255), off=(4, 8, 16)):
        """The OLED as RGBA bytes, bottom row first (a Kivy texture's order)."""
        with self.lock:
            buf = bytes(self.image)
        lit = bytes(on) + b"\xff"
        dark = bytes(off) + b"\xff"
        out = bytearray()
        for y in range(H - 1, -1, -1):
            page, bit = (y // 8) * W, 1 << (y % 8)
            out += b"".join(lit if buf[page + x] & bit else dark for x in range(W))
        return bytes(out)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
            self.sock = None
        if self.slave is not None:
            os.close(self.slave)
            self.slave = None


class VirtualPorts(PyserialPorts):
    """The real USB scan, plus the virtual dashboards' ptys shown as Picos (pyserial cannot tell a pty is one)."""

    def __init__(self, real=True):
        self.virtual = {}  # dev -> VirtualDashboard
        self.real = real
        super().__init__(self._ports)

    def _ports(self):
        ports = []
        if self.real:
            try:
                from serial.tools import list_ports

                ports = list(list_ports.comports())
            except Exception:  # no USB enumeration here (a sandbox): virtual dashboards only
                ports = []
        for d in list(self.virtual.values()):
            if d.path and os.path.exists(d.path):
                ports.append(types.SimpleNamespace(device=d.path, vid=PICO_VID, pid=PICO_PID, description=d.dev))
        return ports

    def add(self, workdir, dev):
        d = self.virtual.get(dev)
        if d is None:
            d = VirtualDashboard(workdir, dev)
            self.virtual[dev] = d.start()
        return d

    def remove(self, dev):
        """Stop one (its car got a Pico, or its game was closed); its saved state stays with its game."""
        d = self.virtual.pop(dev, None)
        if d is not None:
            d.stop()

    def stop(self):
        """Stop them all: the app ends, or another game opens (which starts its own)."""
        for d in self.virtual.values():
            d.stop()
        self.virtual = {}
