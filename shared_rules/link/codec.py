# Frames: one ASCII line each: `~`, canonical JSON object, `|`, crc32 of the JSON as 8 lowercase hex, "\n".
# At most MAX_FRAME bytes including the newline. Strings carry only printable ASCII without `"`, `\` and `~`,
# so `~` marks a frame start wherever it appears and no control byte (least of all 0x03, Ctrl-C) is ever sent.
# This module is what a dashboard imports; what only the tablet needs (encode, frames as a list, the bulk
# LineReader.feed, crc_hex) lives in tablet.py.
import binascii
import json

try:
    from micropython import const  # _UNDERSCORE constants vanish at compile time: no name, no dict entry

    _ascii = str  # MicroPython's bytearray takes a str as the buffer it is (and str(s) is s: no copy)
except ImportError:  # CPython: const(x) is just the int x, and bytearray wants bytes
    const = int
    _ascii = str.encode

PROTOCOL = 1
MAX_FRAME = 256
_START = const(0x7E)  # "~"
_SEP = const(0x7C)  # "|"
_NL = const(0x0A)
_CR = const(0x0D)
_MAX_DEPTH = const(3)  # frame > args > list or snapshot > list: deeper is never valid
# The JSON punctuation _enc appends, one byte each.
_QUOTE = const(0x22)  # '"'
_COMMA = const(0x2C)
_COLON = const(0x3A)
_OPEN_LIST = const(0x5B)  # "["
_CLOSE_LIST = const(0x5D)  # "]"
_OPEN_OBJECT = const(0x7B)  # "{"
_CLOSE_OBJECT = const(0x7D)  # "}"


class FrameError(ValueError):
    """A line that is not a valid frame (bad checksum, bad JSON, bad types), or a fragment that cannot be used:
    it is dropped, unanswered (the sender retries). The text says which check failed, for whoever debugs a link."""


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


def _enc(v, depth, out):
    # Appends the JSON of v to the bytearray out, in place: one growing buffer, no string per value.
    # type() is, not isinstance: bools (an int subclass) must not pass, and it is the fastest test on MicroPython.
    t = type(v) if depth <= _MAX_DEPTH else None  # too deep: refused like any value that cannot travel (below)
    if t is int:
        if 0 <= v <= 9:
            out.append(0x30 + v)  # most snapshot fields: no digit string at all
        else:
            out += _ascii(str(v))
    elif t is str and '"' not in v:
        out.append(_QUOTE)  # the other characters are checked once, on the whole body
        out += _ascii(v)
        out.append(_QUOTE)
    elif t is list or t is tuple:
        out.append(_OPEN_LIST)
        for x in v:
            _enc(x, depth + 1, out)
            out.append(_COMMA)
        if v:
            out[-1] = _CLOSE_LIST  # the last item's comma becomes the bracket
        else:
            out.append(_CLOSE_LIST)
    elif t is dict:
        for k in v:
            if type(k) is not str:
                raise ValueError("a key that is not a string cannot travel in a frame (docs/protocol.md)")
        out.append(_OPEN_OBJECT)
        for k in sorted(v):  # sorted: dicts keep no order on MicroPython, and both runtimes must agree
            _enc(k, depth, out)
            out.append(_COLON)
            _enc(v[k], depth + 1, out)
            out.append(_COMMA)
        if v:
            out[-1] = _CLOSE_OBJECT  # the last value's comma becomes the brace
        else:
            out.append(_CLOSE_OBJECT)
    elif depth > _MAX_DEPTH:
        raise ValueError("nested too deep to travel in a frame (docs/protocol.md)")
    elif t is str:
        raise ValueError('a string with a " cannot travel in a frame (docs/protocol.md)')
    else:
        raise ValueError("a %s cannot travel in a frame: only int, str, list, dict (docs/protocol.md)"
                         % type(v).__name__)


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


def _parse(body):
    """The message a frame body (JSON bytes) holds; FrameError if it is not one. A frame's body and a message
    put back together from fragments both pass here."""
    if not _plain(body):
        raise FrameError("a control byte, a backslash, a ~ or a non-ASCII byte in the body")
    try:
        msg = json.loads(body)
    except Exception:  # MicroPython raises ValueError or others for bad JSON: all mean "not a frame"
        raise FrameError("the body is not JSON")
    if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
        raise FrameError("the body is not an object with a type \"t\"")
    if not _valid(msg, 0):
        raise FrameError("a value that cannot travel (a float, true, false, null) or nested too deep")
    return msg


def decode(line):
    """The message in one line (bytes, no newline; a trailing CR is allowed). FrameError if invalid."""
    n = len(line)
    if n and line[n - 1] == _CR:
        n -= 1
    if n < 12 or line[0] != _START or n >= MAX_FRAME or line[n - 9] != _SEP:
        raise FrameError("not ~body|crc, or too long")
    body = line[1 : n - 9]
    if b"%08x" % binascii.crc32(body) != line[n - 8 : n]:  # crc32 is unsigned on both runtimes
        raise FrameError("bad checksum")
    return _parse(body)


# -- messages larger than one frame ----------------------------------------------------------------------
# A full snapshot (every field plus a hand of up to 40 cards) does not fit in 256 bytes. Such a message
# travels as "frag" frames: {"t":"frag","f":message number,"i":index,"k":count,"d":base64 of a slice of
# its JSON}.
# Fragments of one message are consecutive on the line; a repeated or stale fragment is dropped alone, a gap drops
# the whole message (the sender's retry or the next heartbeat repairs it). Reassembly is bounded by _MAX_MESSAGE.
_FRAG_BYTES = const(144)  # 192 base64 characters: the fragment frame stays under MAX_FRAME
_MAX_MESSAGE = const(2048)
_MAX_FRAGS = const((_MAX_MESSAGE + _FRAG_BYTES - 1) // _FRAG_BYTES)  # 15
_FRAG_START_CRC = const(0x14624D82)  # binascii.crc32(b'{"d":"'): how every fragment's body starts


def frames(msg, frag_id, write):
    """Sends msg (a dict with a "t" type: the caller's to check) as frames through write(bytes), one call per
    frame, as each is made (no message-sized join); one frame if it fits, else numbered fragments (frag_id names
    the message). ValueError, before anything is written, if msg cannot travel. (tablet.frames: as a list.)
    """
    body = bytearray()  # its canonical JSON (sorted keys, no spaces), the one spelling both runtimes agree on
    _enc(msg, 0, body)
    if not _plain(body):
        raise ValueError("a string with a character that cannot travel in a frame (docs/protocol.md)")
    n = len(body)
    if n + 11 <= MAX_FRAME:
        # bytes(): "%s" spells a bytearray's repr on MicroPython. crc32 is unsigned on both runtimes.
        write(b"~%s|%08x\n" % (bytes(body), binascii.crc32(body)))
        return
    if n > _MAX_MESSAGE:
        raise ValueError("a message over 2 KB cannot travel (docs/protocol.md)")
    k = (n + _FRAG_BYTES - 1) // _FRAG_BYTES
    body = memoryview(body)  # slices of it copy nothing
    for i in range(k):
        b64 = binascii.b2a_base64(body[i * _FRAG_BYTES : (i + 1) * _FRAG_BYTES], newline=False)  # type: ignore
        rest = b'","f":%d,"i":%d,"k":%d,"t":"frag"}' % (frag_id, i, k)
        # The canonical spelling of {"t":"frag","f":..,"i":..,"k":..,"d":..} (base64 is plain ASCII), its checksum
        # taken piece by piece: the frame is the only copy of it.
        crc = binascii.crc32(rest, binascii.crc32(b64, _FRAG_START_CRC))
        write(b'~{"d":"%s%s|%08x\n' % (b64, rest, crc))


class Receiver:
    """The receiving end of a line: feed_byte splits the byte stream into candidate frame lines inside one fixed
    buffer; add puts fragmented messages back together.

    A line longer than MAX_FRAME is discarded up to its newline without growing anything; a `~` restarts
    the line, so noise glued in front of a frame (a `>>> ` prompt, garbage) does not spoil the frame. What is
    skipped is not counted: nothing would read the count.
    """

    def __init__(self):
        self.buf = bytearray(MAX_FRAME)
        self.n = 0  # bytes of the line in buf; -1 while skipping a line too long to be a frame
        self.parts = []  # the fragments of the message being put together, as bytes
        self.key = None  # (message number, fragment count) of that message

    def feed_byte(self, b):
        """Take one byte; return the completed frame line (bytes) or None."""
        n = self.n
        if b == _NL:
            self.n = 0
            if n > 0 and self.buf[0] == _START:
                return bytes(self.buf[:n])
        elif b == _START:  # a frame starts: whatever came before it on this line is noise
            self.buf[0] = b
            self.n = 1
        elif n >= MAX_FRAME - 1:  # no room left for the newline: this line can't be a frame
            self.n = -1
        elif n >= 0:
            self.buf[n] = b
            self.n = n + 1
        return None

    def add(self, msg):
        """A decoded frame in; out the message it completes (msg itself if not a fragment), or None while more
        fragments are to come. FrameError for a fragment that cannot be used, dropped like a bad frame.

        A line repeats and loses, it never reorders: a repeat of a fragment already held, or a fragment of another
        message arriving in the middle (a stale or late copy), is dropped alone; only a gap in this message (a
        fragment really missing) or a whole frame in between drops it."""
        parts = self.parts
        if msg["t"] != "frag":
            if parts:
                self.parts = []  # a whole frame in the middle: the rest of the message was lost
            return msg
        i = msg.get("i")
        key = (msg.get("f"), msg.get("k"))
        k = key[1]
        d = msg.get("d")
        if type(i) is not int or type(k) is not int or not 1 < k <= _MAX_FRAGS or type(d) is not str:
            raise FrameError("a fragment without i, k (2 to 15) and d")
        if i == 0:
            parts = self.parts = []  # a message starts: one half-built before it lost its end
        elif not parts or key != self.key or i < len(parts):
            raise FrameError("a repeated fragment, or one of another message")  # only it is dropped
        elif i != len(parts):
            self.parts = []  # a gap: a fragment of this message is missing, the message is lost
            raise FrameError("a fragment missing before this one")
        try:
            parts.append(binascii.a2b_base64(d))
        except ValueError:  # binascii.Error on CPython, ValueError on MicroPython
            raise FrameError("a fragment that is not base64")
        self.key = key
        if len(parts) < k:
            return None
        self.parts = []
        whole = _parse(b"".join(parts))
        if whole["t"] == "frag":
            raise FrameError("a fragment inside a fragmented message")
        return whole
