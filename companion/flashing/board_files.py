"""Files onto a MicroPython board in one raw-REPL session (mpremote's serial transport, used as a library).

`mpremote fs cp` writes a file 256 bytes per round trip, each sent as the text of a Python statement (a byte is
mostly four characters, \\xNN) that the board compiles: most of an install's time went there. Here one small
receiver runs on the board for all the files; the host streams the files to it over the serial port, compressed
(what crosses the USB cable is what costs: the emulated Pico takes 512 bytes per slice of its run), and the board
answers each file once it is written. Before that, one round trip reads the SHA-256 of the files the board already
holds, so a file unchanged since the last install is not sent again (an update or a repair writes only what changed).

    with Session(port, soft_reset=True) as board:
        board.run(code)                       # what the code printed (BoardError with the board's words)
        board.hashes(paths, first=code)       # {path: sha256 hex} of those the board holds, after code ran
        board.put([(path, data), ...], done)  # done(path) after each file is on the board
        board.reset()                         # machine.reset(), the session ends
"""

import zlib

FILE_S = 60  # a board that does not answer a file in this long is gone (a real one writes ~10 KB/s at worst)
WBITS = 15  # the deflate window: 32 KB of the board's heap while it receives (nothing else runs then)

# On the board: each file is a 4-digit path length and its path, a 7-digit length and its bytes; a path length of
# 0000 ends it. The whole of it is one zlib stream when the board has the deflate module (the files share their
# names and strings: a third of the bytes go). Each file is answered "W <path>" once it is closed. Ctrl-C is off
# while it receives (any byte may come), back on at its end; a host that goes away mid-file leaves a board to be
# plugged in again, as a pulled cable does.
RECEIVER = """
def _rx(z):
    import sys, micropython
    i = sys.stdin.buffer
    b = bytearray(1024)
    v = memoryview(b)
    def _read(n, w=None):
        while n:
            k = min(n, 1024)
            r = 0
            while r < k:
                r += s.readinto(v[r:k]) or 0
            if w is None:
                return bytes(v[:k])
            w.write(v[:k])
            n -= k
    micropython.kbd_intr(-1)
    try:
        print('RDY')
        if z:
            import deflate
            s = deflate.DeflateIO(i, deflate.ZLIB)
        else:
            s = i
        while True:
            p = int(_read(4))
            if not p:
                break
            path = _read(p).decode()
            n = int(_read(7))
            with open(path, 'wb') as f:
                _read(n, f)
            print('W', path)
        if z:
            while s.read(64):  # the stream's end and its checksum: nothing may be left for the REPL
                pass
    finally:
        micropython.kbd_intr(3)
_rx(%d)
del _rx
"""


def framed(path, data):
    """One file as the receiver reads it."""
    name = path.encode()
    return b"%04d" % len(name) + name + b"%07d" % len(data) + data


HASHES = """
import os
def _h(ps):
    try:
        import hashlib, binascii
    except ImportError:
        return
    b = bytearray(1024)
    for p in ps:
        try:
            f = open(p, 'rb')
        except OSError:
            continue
        h = hashlib.sha256()
        with f:
            while True:
                n = f.readinto(b)
                if not n:
                    break
                h.update(b if n == 1024 else b[:n])
        print('H', binascii.hexlify(h.digest()).decode(), p)
_h(%r)
del _h
try:
    import deflate
    print('DEFLATE')
except ImportError:
    pass
"""


class BoardError(Exception):
    """The board answered with an error, or not at all; str() is its last words."""


class Session:
    """One raw-REPL session on `port`. soft_reset: as mpremote does on connecting (False: join a running REPL
    as `mpremote resume` does)."""

    def __init__(self, port, soft_reset=True):
        self.port = port
        self.soft_reset = soft_reset
        self.deflate = False  # found out by hashes()
        self.t = None

    def __enter__(self):
        from mpremote.transport_serial import SerialTransport

        self.t = SerialTransport(self.port, baudrate=115200)
        try:
            self.t.enter_raw_repl(soft_reset=self.soft_reset)
        except BaseException:
            self.t.close()
            raise
        return self

    def __exit__(self, *exc):
        if self.t is not None:
            try:
                if self.t.in_raw_repl:
                    self.t.exit_raw_repl()
            except OSError:
                pass  # gone already
            self.t.close()
            self.t = None

    def run(self, code, timeout=FILE_S):
        """Runs code on the board; returns what it printed (text). BoardError with the last line of its error."""
        out, err = self.t.exec_raw(code, timeout=timeout)
        if err:
            lines = err.decode(errors="replace").strip().splitlines()
            raise BoardError(lines[-1] if lines else "error")
        return out.decode(errors="replace")

    def hashes(self, paths, first=""):
        """{path: sha256 hex} of the files among `paths` the board holds (none when it has no hashlib), after the
        code `first` has run (in the same round trip); notes whether the board can take the files compressed."""
        out = self.run(first + "\n" + HASHES % (list(paths),))
        self.deflate = "DEFLATE" in out.split()
        return {p: h for _tag, h, p in (ln.split(" ", 2) for ln in out.splitlines() if ln.startswith("H "))}

    def put(self, files, done=lambda path: None):
        """Writes each (board path, bytes) to the board, in order; done(path) once the board has closed it."""
        z = zlib.compressobj(9, zlib.DEFLATED, WBITS) if self.deflate else None
        self.t.exec_raw_no_follow(RECEIVER % bool(z))
        self._expect("RDY")
        for path, data in files:
            out = framed(path, data)
            self.t.serial.write(z.compress(out) + z.flush(zlib.Z_SYNC_FLUSH) if z else out)
            self._expect("W " + path)
            done(path)
        self.t.serial.write(z.compress(b"0000") + z.flush() if z else b"0000")
        out, err = self.t.follow(FILE_S)
        if err:
            raise BoardError(err.decode(errors="replace").strip().splitlines()[-1])

    def _expect(self, line):
        got = self.t.read_until(1, b"\n", timeout=FILE_S).decode(errors="replace")
        if got.strip() != line:
            # the receiver stopped: what follows its output is its error
            rest = self.t.read_until(1, b"\x04", timeout=5).decode(errors="replace")
            words = (got + rest).replace("\x04", "\n").strip().splitlines()
            raise BoardError("the board did not take the files: %s" % (words[-1] if words else "no answer"))

    def reset(self):
        """A hard reset (the board starts its boot file); the session is over."""
        self.t.exec_raw_no_follow("import time, machine; time.sleep_ms(100); machine.reset()")
        self.t.in_raw_repl = False
