# Framing the dashboard never needs, for the tablet: checksums, whole frames, a bulk line reader. Kept out of codec
# (whose every function is heap on a Pico) and out of tablet.py (each module here must compile within a 64 KB
# MicroPython heap, and the tablet's session is the biggest). tablet.py re-exports these names.
import binascii

from shared_rules.link import codec


def crc_hex(data):
    """A frame body's checksum as the frame spells it (codec.decode compares it in place)."""
    return "%08x" % (binascii.crc32(data) & 0xFFFFFFFF)


def frames(msg, frag_id=0):
    """The frames of msg as a list (codec.frames hands them to a write one by one, as the dashboard sends)."""
    out = []
    codec.frames(msg, frag_id, out.append)
    return out


def encode(msg):
    """The frame for msg (a dict with a "t" type), as bytes ending in a newline; ValueError if it needs more
    than one frame (codec.frames fragments those)."""
    if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
        raise ValueError("a frame is an object with a 't' type")
    out = frames(msg)
    if len(out) > 1:
        raise ValueError("frame longer than %d bytes" % codec.MAX_FRAME)
    return out[0]


class LineReader(codec.Receiver):
    """codec.Receiver with a bulk feed, for the tablet reading six dashboards."""

    def feed(self, data):
        """Take many bytes; return the list of completed frame lines. Same result as feed_byte on each byte,
        but the searching runs in C (bytes.find), which matters on the tablet reading six dashboards."""
        out = []
        start = 0
        n = len(data)
        while start < n:
            nl = data.find(b"\n", start)
            end = n if nl < 0 else nl
            tilde = data.rfind(b"~", start, end)
            if tilde >= 0:  # a frame starts here: whatever came before on this line is noise
                self.n = 0
                start = tilde
            if self.n >= 0 and end > start:  # (n is -1 while a line too long is skipped)
                k = end - start
                if self.n + k > codec.MAX_FRAME - 1:
                    self.n = -1
                else:
                    self.buf[self.n : self.n + k] = data[start:end]
                    self.n += k
            if nl < 0:
                break
            line = self.feed_byte(0x0A)  # the newline: the line ends exactly as feed_byte ends it
            if line is not None:
                out.append(line)
            start = nl + 1
        return out
