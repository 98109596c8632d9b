"""A virtual dashboard for tests (and for the tablet, for players without hardware).

The real firmware runs on the `micropython` unix port with the host board (firmware/host/board_host.py); this
class starts it, connects to its viewer channel (a unix socket) and offers: tap/press/release buttons, wait
for the screen and the state, read the OLED back as text (the firmware's own 8x8 font, read from
MicroPython once), kill it like a power cut and start it again on the same saved state.
"""

import json
import os
import socket
import subprocess
import threading
import time

from tests import mpy

W, H, PAGES = 128, 64, 8


def restored(state_path):
    """What the firmware restores at boot from `state_path` (firmware/app.py): its last full save with the tablet
    commands journaled since re-applied (the same firmware/restore.py code), as the save's dict; None if no save."""
    from firmware import restore
    from shared_rules.f1.car import Car, apply_command

    with open(state_path, "rb") as f:
        data = restore.decode(f.read())
    car = Car.from_snapshot(data["car"])
    applied = restore.replay(restore.read_journal(state_path + ".journal", data.get("gen", 0)), data["done"],
                     lambda name, args: apply_command(car, name, args))
    data["car"] = car.snapshot()
    data["done"] = data["done"] + [[cid, ""] for cid in applied]
    return data

def modes(module):
    """The modes firmware/<module> names (ui.py's `_MAIN = const(0)`, f5_ui.py's `MAIN = 20`), read from its source,
    by name without the underscore: a test reads the viewer's "mode" by these names, never by numbers of its own."""
    import ast

    with open(os.path.join(mpy.ROOT, "firmware", module)) as f:
        tree = ast.parse(f.read())
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "const":
                value = value.args[0]
            name = node.targets[0].id.lstrip("_")
            if isinstance(value, ast.Constant) and type(value.value) is int and name in _MODE_NAMES:
                found[name] = value.value
    return found


_MODE_NAMES = ("MAIN", "SPEED", "HAND", "MENU", "CORNER", "SETUP", "MESSAGE", "WAIT", "PIT", "DISCARD")

_FONT = None
_FONT_SCRIPT = """
import framebuf
b = bytearray(8)
fb = framebuf.FrameBuffer(b, 8, 8, framebuf.MONO_VLSB)
for c in range(32, 127):
    fb.fill(0)
    fb.text(chr(c), 0, 0, 1)
    print(c, bytes(b).hex())
"""


def font():
    """{8 column bytes: char} for the built-in framebuf font, straight from MicroPython."""
    global _FONT
    if _FONT is None:
        proc = mpy.run(["-c", _FONT_SCRIPT], heap="64K")
        table = {}
        for ln in proc.stdout.decode().split("\n"):
            if ln.strip():
                c, hx = ln.split()
                table.setdefault(bytes.fromhex(hx), chr(int(c)))
        table[bytes(8)] = " "
        _FONT = table
    return _FONT


def cell(buf, row, col):
    i = row * W + col * 8
    return bytes(buf[i : i + 8])


def text_rows(buf):
    """The screen's 8x8 grid read as 8 strings of 16 characters; inverted text reads the same, unknown '?'."""
    f = font()
    rows = []
    for r in range(PAGES):
        s = ""
        for c in range(W // 8):
            g = cell(buf, r, c)
            ch = f.get(g)
            if ch is None:
                ch = f.get(bytes(255 - x for x in g), "?")
            s += ch
        rows.append(s.rstrip())
    return rows


def pixel(buf, x, y):
    return (buf[(y // 8) * W + x] >> (y % 8)) & 1


def big_text(buf, x, y, n, scale=3):
    """n characters of the font drawn `scale` times larger with their top left corner at (x, y)."""
    f = font()
    out = ""
    for k in range(n):
        g = bytearray(8)
        for col in range(8):
            for row in range(8):
                if pixel(buf, x + k * 8 * scale + col * scale + scale // 2, y + row * scale + scale // 2):
                    g[col] |= 1 << row
        out += f.get(bytes(g), "?")
    return out


def art(buf):
    """The whole screen as 64 lines of '#' and '.' (for expected views kept as text files)."""
    return "\n".join("".join("#" if pixel(buf, x, y) else "." for x in range(W)) for y in range(H)) + "\n"


class VirtualDashboard:
    def __init__(self, workdir, dev="dash1", heap="256K", env=None, path_extra=(), stdin=None, stdout=None,
                 micropypath=None, cwd=None, args=("-c", "import firmware.main")):
        self.workdir = workdir
        self.dev = dev
        self.heap = heap
        self.sock_path = os.path.join(workdir, dev + ".sock")
        self.state_path = os.path.join(workdir, dev + ".state")
        self.extra_env = dict(env or {})
        self.path_extra = path_extra
        self.stdin = stdin
        self.stdout = stdout
        self.micropypath = micropypath  # replaces the default path (.frozen, path_extra, the repo)
        self.cwd = cwd or mpy.ROOT
        self.args = list(args)
        self.proc = None
        self.sock = None
        self._reset()

    def _reset(self):
        self.cond = threading.Condition()
        self.buf = bytearray(W * PAGES)  # the last complete frame
        self._incoming = bytearray(W * PAGES)
        self.frames = 0
        self.frame_time = 0.0
        self.acks = 0
        self.sent = 0
        self.state = None
        self.saves = 0
        self.led = 0
        self.tones = []
        self.lines = 0
        self.pages = 0  # G lines received: pages the firmware sent
        self.press_us = -1  # the firmware's own time from the last button edge to its frame
        self.dead = False

    # ---- process ------------------------------------------------------------------------------------
    def start(self, held=None, timeout=10):
        path = self.micropypath or mpy.micropypath(*self.path_extra)
        env = dict(os.environ, MICROPYPATH=path, F1DASH_UI=self.sock_path,
                   F1DASH_STATE=self.state_path, F1_DASH_ID=self.dev)
        env.update(self.extra_env)
        if held:
            env["F1DASH_HELD"] = held
        self._reset()
        self.proc = subprocess.Popen(
            [mpy.micropython_path(), "-X", "heapsize=" + self.heap] + self.args,
            env=env, cwd=self.cwd, stdin=self.stdin if self.stdin is not None else subprocess.DEVNULL,
            stdout=self.stdout if self.stdout is not None else subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.connect(timeout)
        return self

    def connect(self, timeout=10):
        end = time.monotonic() + timeout
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(self.sock_path)
                break
            except OSError:
                s.close()
                if self.proc is not None and self.proc.poll() is not None:
                    err = self.proc.stderr.read().decode(errors="replace")
                    raise RuntimeError("firmware exited: %s" % err)
                if time.monotonic() > end:
                    raise TimeoutError("no viewer channel at " + self.sock_path)
                time.sleep(0.01)  # the poll period while the firmware opens its socket (nothing to wait on before it)
        self.sock = s
        self.sent = 0
        self.dead = False
        self.reader = threading.Thread(target=self._reader, args=(s,), daemon=True)
        self.reader.start()
        self.wait(lambda: self.frames > 0 and self.state is not None, timeout)

    def _reader(self, s):
        try:
            self._read_lines(s)
        except OSError:
            pass  # the dashboard went away (a power cut in a test)
        with self.cond:  # ...or its app started again after an error, which closes the channel (board_host.py)
            self.dead = True
            self.cond.notify_all()

    def _read_lines(self, s):
        f = s.makefile("rb")
        for raw in f:
            if not raw.endswith(b"\n"):
                break  # cut off by a power cut: the firmware writes its long state line in pieces
            parts = raw.split(b" ", 2)
            op = parts[0].strip()
            with self.cond:
                self.lines += 1
                if op == b"G":
                    p = int(parts[1])
                    self._incoming[p * W : (p + 1) * W] = bytes.fromhex(parts[2].strip().decode())
                    self.pages += 1
                elif op == b"F":
                    self.buf[:] = self._incoming  # a frame is whole only once its F line is in
                    self.frames = int(parts[1])
                    self.frame_time = time.perf_counter()
                elif op == b"S":
                    self.state = json.loads(raw[2:])
                elif op == b"A":
                    self.acks = int(parts[1])
                    self.press_us = int(parts[2]) if len(parts) > 2 else -1
                elif op == b"W":
                    self.saves = int(parts[1])
                elif op == b"L":
                    self.led = int(parts[1])
                elif op == b"B":
                    self.tones.append(int(parts[1]))
                self.cond.notify_all()

    def wait(self, pred, timeout=10):
        with self.cond:
            if not self.cond.wait_for(lambda: self.dead or pred(), timeout):
                raise TimeoutError("dashboard %s: condition not met; %s; screen:\n%s"
                                   % (self.dev, self.blocked_in(), self.screen()))
            if self.dead and not pred():
                raise self._gone()

    def _gone(self):
        if self.proc is not None and self.proc.poll() is None:
            return ConnectionError("dashboard %s closed its viewer channel: its app started again after an error "
                                   "(firmware/main.py printed it on the link)" % self.dev)
        return ConnectionError("dashboard %s is off" % self.dev)

    def blocked_in(self):
        """Where the firmware process is waiting, from Linux's /proc: a dashboard that stops answering is
        either busy, waiting for input (poll) or stuck writing to a reader that has stopped (write, and to what)."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return "the firmware process has ended"
        base = "/proc/%d/" % proc.pid
        try:
            with open(base + "syscall") as f:
                call = f.read().split()
            with open(base + "wchan") as f:
                where = f.read().strip()
        except OSError as e:
            return "the firmware process: %s" % e
        if call and call[0] == "1" and len(call) > 1:  # write(2) on x86-64: to which file
            try:
                target = os.readlink(base + "fd/%d" % int(call[1], 16))
            except (OSError, ValueError):
                target = "?"
            return "the firmware is blocked writing to %s (%s)" % (target, where)
        if call and call[0] == "230":  # clock_nanosleep: an idle firmware waits in poll (7), never here
            return "the firmware is asleep (clock_nanosleep: firmware/main.py's pause before it starts the app again " \
                   "after an error)"
        return "the firmware is in system call %s (%s)" % (call[0] if call else "?", where)

    def send(self, line, timeout=10):
        """Send one channel line and wait until the firmware has handled it, screen included."""
        if self.dead:
            raise self._gone()
        self.sock.sendall(line.encode() + b"\n")
        self.sent += 1
        n = self.sent
        self.wait(lambda: self.acks >= n, timeout)

    def tap(self, *names):
        for name in names:
            self.send("T " + name)

    def press(self, name):
        self.send("P " + name)

    def release(self, name):
        self.send("R " + name)

    def hold(self, name, seconds):
        self.press(name)
        time.sleep(seconds)  # real time is the point: the firmware times a long press on its own clock (ticks_ms)
        self.release(name)

    def kill(self):
        """A power cut: SIGKILL, no goodbye. Everything it sent before is still read."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            self.proc.wait()
            self.proc.stderr.close()
        if self.sock is not None:
            self.reader.join(5)
            try:
                self.sock.close()
            except OSError:
                pass
            self.sock = None
        with self.cond:
            self.dead = True
            self.cond.notify_all()

    stop = kill

    # ---- reading the screen ------------------------------------------------------------------------
    def screen(self):
        return "\n".join(text_rows(self.buf))

    def rows(self):
        return text_rows(self.buf)

    def big(self, x=0, y=10, n=3):
        return big_text(self.buf, x, y, n)

    def car(self):
        return self.state["car"]

    def mode(self):
        return self.state["mode"]
