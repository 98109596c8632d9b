"""Files onto a MicroPython board in one raw-REPL session (mpremote's serial transport, used as a library).

`mpremote fs cp` writes a file 256 bytes per round trip, each sent as the text of a Python statement (a byte is
mostly four characters, \\xNN) that the board compiles: most of an install's time went there. Here one small
receiver runs on the board for all the files; the host streams each file's bytes to it over the serial port
(escaped: no Ctrl-C on the wire), and the board answers each file once it is written. Before that, one round trip
reads the SHA-256 of the files the board already holds, so a file unchanged since the last install is not sent
again (an update or a repair writes only what changed).

    with Session(port, soft_reset=True) as board:
        board.run(code)                       # what the code printed (BoardError with the board's words)
        board.hashes(paths, first=code)       # {path: sha256 hex} of those the board holds, after code ran
        board.put([(path, data), ...], done)  # done(path) after each file is on the board
        board.reset()                         # machine.reset(), the session ends
"""

FILE_S = 60  # a board that does not answer a file in this long is gone (a real one writes ~10 KB/s at worst)
ESC = 0x10  # the escape byte on the wire: ESC 0x00 is ESC, ESC 0x01 is Ctrl-C (0x03); every other byte is itself

# On the board: each file is a 4-digit path length and its path, a 7-digit length and that many bytes, escaped so
# that no Ctrl-C is among them (the board's USB stdin takes one for an interrupt while code runs, and must: a host
# that goes away mid-file leaves a board the next connection's Ctrl-C stops). A path length of 0000 ends it. Each
# file is answered "W <path>" once it is closed. A file goes through the heap whole (twice its size at most,
# escaped; a module is 5 KB at most). The files go as they are: zlib (the deflate module) took a quarter of the
# bytes off and gave the time back decompressing them, on picosim.
RECEIVER = """
def _rx():
    import sys
    i = sys.stdin.buffer
    def _read(n):
        b = bytearray(n)
        v = memoryview(b)
        r = 0
        while r < n:
            r += i.readinto(v[r:]) or 0
        return bytes(b)
    print('RDY')
    while True:
        p = int(_read(4))
        if not p:
            return
        path = _read(p).decode()
        d = _read(int(_read(7))).replace(b'\\x10\\x01', b'\\x03').replace(b'\\x10\\x00', b'\\x10')
        with open(path, 'wb') as f:
            f.write(d)
        d = None
        print('W', path)
_rx()
del _rx
"""


def escaped(data):
    """data with no Ctrl-C in it: see ESC."""
    return data.replace(b"\x10", b"\x10\x00").replace(b"\x03", b"\x10\x01")


def framed(path, data):
    """One file as the receiver reads it."""
    name = path.encode()
    body = escaped(data)
    return b"%04d" % len(name) + name + b"%07d" % len(body) + body


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
"""


class BoardError(Exception):
    """The board answered with an error, or not at all; str() is its last words."""


class Session:
    """One raw-REPL session on `port`. soft_reset: as mpremote does on connecting (False: join a running REPL
    as `mpremote resume` does)."""

    def __init__(self, port, soft_reset=True):
        self.port = port
        self.soft_reset = soft_reset
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
        code `first` has run (in the same round trip)."""
        out = self.run(first + "\n" + HASHES % (list(paths),))
        return {p: h for _tag, h, p in (ln.split(" ", 2) for ln in out.splitlines() if ln.startswith("H "))}

    def put(self, files, done=lambda path: None):
        """Writes each (board path, bytes) to the board, in order; done(path) once the board has closed it."""
        self.t.exec_raw_no_follow(RECEIVER)
        self._expect("RDY")
        for path, data in files:
            self.t.serial.write(framed(path, data))
            self._expect("W " + path)
            done(path)
        self.t.serial.write(b"0000")
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
