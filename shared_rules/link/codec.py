# Frames: one ASCII line each: `~`, canonical JSON object, `|`, crc32 of the JSON as 8 lowercase hex, "\n".
# At most MAX_FRAME bytes including the newline. Strings carry only printable ASCII without `"`, `\` and `~`,
# so `~` marks a frame start wherever it appears and no control byte (least of all 0x03, Ctrl-C) is ever sent.
# This module is what a dashboard imports (every function here is heap on a Pico); what only the tablet needs
# (encode, LineReader.feed) lives in tablet.py.
import binascii
import json

try:
    from micropython import const  # _UNDERSCORE constants vanish at compile time: no name, no dict entry
except ImportError:  # CPython: const(x) is just the int x
    const = int

PROTOCOL = 1
MAX_FRAME = 256
_START = const(0x7E)  # "~"
_SEP = const(0x7C)  # "|"
_NL = const(0x0A)
_CR = const(0x0D)
_MAX_DEPTH = const(3)  # frame > args > list or snapshot > list: deeper is never valid


# A line that is not a valid frame (bad checksum, bad JSON, bad types): the line is dropped. ValueError itself,
# not a subclass: a class costs ~200 bytes of a Pico's heap, and decode raises nothing else to tell apart.
FrameError = ValueError


def _plain(b):
    # One check of a whole frame body instead of one per string (min/max/in run in C on both runtimes):
    # printable ASCII up to "}" and no backslash means no "~", no control byte and no JSON escape inside,
    # so every string reads exactly as it is written.
    return not b or (min(b) >= 0x20 and max(b) <= 0x7D and b"\\" not in b)


def clean_text(s, limit=60):
    """A free text (an error message) made safe for a frame: forbidden characters become '?'."""
    out = []
    for ch in str(s)[:limit]:
        o = ord(ch)
        out.append(ch if 0x20 <= o <= 0x7D and o != 0x22 and o != 0x5C else "?")
    return "".join(out)


def _enc(v, depth):
    # type() is, not isinstance: bools (an int subclass) must not pass, and it is the fastest test on MicroPython.
    if depth > _MAX_DEPTH:
        raise ValueError("frame nested too deeply")
    t = type(v)
    if t is int:
        return str(v)
    if t is str:
        if '"' in v:
            raise ValueError("no quotes in frame strings")
        return '"%s"' % v  # the other characters are checked once, on the whole body
    if t is list or t is tuple:
        return "[%s]" % ",".join([_enc(x, depth + 1) for x in v])
    if t is dict:
        # sorted: dicts keep no order on MicroPython, and frames must be identical on both runtimes
        # ("%" formatting: one allocation where "+" makes three, and MicroPython hashes every new string).
        # Ints and strings are spelled in place: a function call per value was most of an ack's cost.
        for k in v:
            if type(k) is not str or '"' in k:
                raise ValueError("object keys must be strings without quotes")
        inline = depth < _MAX_DEPTH  # deeper values go through _enc, which refuses them
        parts = []
        for k in sorted(v):
            x = v[k]
            tx = type(x)
            if inline and tx is int:
                parts.append('"%s":%d' % (k, x))
            elif inline and tx is str and '"' not in x:
                parts.append('"%s":"%s"' % (k, x))
            else:
                parts.append('"%s":%s' % (k, _enc(x, depth + 1)))
        return "{%s}" % ",".join(parts)
    raise ValueError("only ints, strings, lists and objects go in a frame")


def canonical(obj):
    """The one JSON spelling of obj: sorted keys, no spaces. ValueError if obj cannot travel."""
    text = _enc(obj, 0)
    if not _plain(text.encode()):
        raise ValueError("frame strings are printable ASCII without backslash or tilde")
    return text


def crc_hex(data):
    return "%08x" % (binascii.crc32(data) & 0xFFFFFFFF)


def _valid(v, depth):
    if depth > _MAX_DEPTH:
        return False
    t = type(v)
    if t is int or t is str:  # strings need no check: the body was plain ASCII without escapes
        return True
    if t is list:
        for x in v:
            if not _valid(x, depth + 1):
                return False
        return True
    if t is dict:
        for k in v:
            if not _valid(v[k], depth + 1):
                return False
        return True
    return False  # floats, true/false/null


def decode(line):
    """The message in one line (bytes, no newline; a trailing CR is allowed). FrameError if invalid."""
    n = len(line)
    if n and line[n - 1] == _CR:
        line = line[: n - 1]
        n -= 1
    if n < 12 or line[0] != _START or n >= MAX_FRAME or line[n - 9] != _SEP:
        raise FrameError("not a frame")
    body = bytes(line[1 : n - 9])
    if crc_hex(body).encode() != bytes(line[n - 8 :]):
        raise FrameError("bad checksum")
    if not _plain(body):
        raise FrameError("bytes not allowed in a frame")
    try:
        msg = json.loads(body.decode())
    except Exception:  # MicroPython raises ValueError or others for bad JSON: all mean "not a frame"
        raise FrameError("bad JSON")
    if not isinstance(msg, dict) or not isinstance(msg.get("t"), str) or not _valid(msg, 0):
        raise FrameError("bad frame content")
    return msg


class LineReader:
    """Splits a byte stream into candidate frame lines inside one fixed buffer.

    A line longer than MAX_FRAME is discarded up to its newline without growing anything; a `~` restarts
    the line, so noise glued in front of a frame (a `>>> ` prompt, garbage) does not spoil the frame.
    """

    def __init__(self):
        self.buf = bytearray(MAX_FRAME)
        self.n = 0
        self.overflow = False
        self.noise = 0  # lines skipped: not frames, or too long

    def feed_byte(self, b):
        """Take one byte; return the completed frame line (bytes) or None."""
        if b == _NL:
            if self.overflow:
                self.overflow = False
                self.noise += 1
                return None
            n = self.n
            self.n = 0
            if n == 0:
                return None
            if self.buf[0] != _START:
                self.noise += 1
                return None
            return bytes(self.buf[:n])
        if b == _START:
            if self.n and not self.overflow:
                self.noise += 1
            self.overflow = False
            self.buf[0] = b
            self.n = 1
            return None
        if self.overflow:
            return None
        if self.n >= MAX_FRAME - 1:  # no room left for the newline: this line can't be a frame
            self.overflow = True
            self.n = 0
            return None
        self.buf[self.n] = b
        self.n += 1
        return None


# -- messages larger than one frame ----------------------------------------------------------------------
# A full snapshot (every field plus a hand of up to 40 cards) does not fit in 256 bytes. Such a message
# travels as "frag" frames: {"t":"frag","f":message number,"i":index,"k":count,"d":base64 of a slice of
# its JSON}.
# Fragments of one message are consecutive on the line; a gap drops the whole message (the sender's retry or
# the next heartbeat repairs it). Reassembly is bounded by _MAX_MESSAGE.
_FRAG_BYTES = const(144)  # 192 base64 characters: the fragment frame stays under MAX_FRAME
_MAX_MESSAGE = const(2048)
MAX_FRAGS = const((_MAX_MESSAGE + _FRAG_BYTES - 1) // _FRAG_BYTES)


def frames(msg, frag_id=0):
    """The frames carrying msg: one if it fits, else numbered fragments (frag_id names the message)."""
    if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
        raise ValueError("a frame is an object with a 't' type")
    body = canonical(msg).encode()
    if len(body) + 11 <= MAX_FRAME:
        return [b"~" + body + b"|" + crc_hex(body).encode() + b"\n"]
    if len(body) > _MAX_MESSAGE:
        raise ValueError("message longer than %d bytes" % _MAX_MESSAGE)
    k = (len(body) + _FRAG_BYTES - 1) // _FRAG_BYTES
    out = []
    for i in range(k):
        b64 = binascii.b2a_base64(body[i * _FRAG_BYTES : (i + 1) * _FRAG_BYTES]).decode().strip()
        # The canonical spelling of {"t":"frag","f":..,"i":..,"k":..,"d":..}, written out: base64 is plain ASCII.
        frag = ('{"d":"%s","f":%d,"i":%d,"k":%d,"t":"frag"}' % (b64, frag_id, i, k)).encode()
        out.append(b"~" + frag + b"|" + crc_hex(frag).encode() + b"\n")
    return out


class Assembler:
    """Puts fragmented messages back together; add(msg) returns a complete message or None."""

    def __init__(self):
        self.parts = []
        self.fid = None
        self.k = 0
        self.dropped = 0

    def add(self, msg):
        if msg["t"] != "frag":
            if self.parts:  # a message in the middle of fragments: the rest of them was lost
                self._reset(1)
            return msg
        f, i, k, d = msg.get("f"), msg.get("i"), msg.get("k"), msg.get("d")
        if not (isinstance(f, int) and isinstance(i, int) and isinstance(k, int) and isinstance(d, str)):
            self._reset(1)
            return None
        if not 1 < k <= MAX_FRAGS or i != len(self.parts) or (i and (f != self.fid or k != self.k)):
            self._reset(1 if self.parts else 0)
            if i != 0 or not 1 < k <= MAX_FRAGS:
                self.dropped += 1
                return None
        try:
            chunk = binascii.a2b_base64(d)
        except Exception:
            self._reset(1)
            return None
        self.parts.append(chunk)
        self.fid = f
        self.k = k
        if len(self.parts) < k:
            return None
        body = b"".join(self.parts)
        self._reset(0)
        if not _plain(body):
            self.dropped += 1
            return None
        try:
            whole = json.loads(body.decode())
        except Exception:
            self.dropped += 1
            return None
        if not isinstance(whole, dict) or not isinstance(whole.get("t"), str) or whole["t"] == "frag":
            self.dropped += 1
            return None
        if not _valid(whole, 0):
            self.dropped += 1
            return None
        return whole

    def _reset(self, lost):
        self.parts = []
        self.fid = None
        self.k = 0
        self.dropped += lost
