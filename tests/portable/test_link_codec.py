# The frame codec against the shared test vectors (tests/portable/link_vectors.json), on both runtimes.
import json

from shared_rules.link import codec, tablet
from tests.portable.check import raises


def _vectors():
    path = __file__.rsplit("/", 1)[0] + "/link_vectors.json"
    with open(path) as f:
        return json.load(f)


V = _vectors()


def _lines(stream):
    r = tablet.LineReader()
    return r, r.feed(stream)


def test_protocol_version_and_frame_limit_match_the_vectors():
    assert V["protocol"] == codec.PROTOCOL
    assert V["max_frame"] == codec.MAX_FRAME == 256


def test_every_vector_encodes_to_exactly_the_recorded_frame():
    for msg, frame in V["frames"]:
        assert tablet.encode(msg) == frame.encode(), frame


def test_every_vector_frame_decodes_to_its_message():
    for msg, frame in V["frames"]:
        line = frame.encode()[:-1]
        assert codec.decode(line) == msg
        assert codec.decode(line + b"\r") == msg  # the Pico's stdout may turn "\n" into "\r\n"


def test_frames_are_printable_ascii_lines_within_the_limit_and_never_hold_ctrl_c():
    for _msg, frame in V["frames"]:
        b = frame.encode()
        assert len(b) <= codec.MAX_FRAME and b.endswith(b"\n") and b.count(b"\n") == 1
        for ch in b[:-1]:
            assert 0x20 <= ch <= 0x7E
    for _msg, frames in V["fragmented"]:
        for frame in frames:
            b = frame.encode()
            assert len(b) <= codec.MAX_FRAME and 3 not in b


def test_big_messages_split_into_the_recorded_fragments_and_reassemble():
    for msg, frames in V["fragmented"]:
        assert [f.decode() for f in tablet.frames(msg, 5)] == frames
        a = codec.Receiver()
        got = [a.add(codec.decode(f.encode()[:-1])) for f in frames]
        assert got[:-1] == [None] * (len(frames) - 1)
        assert got[-1] == msg


def test_a_missing_fragment_drops_the_whole_message_and_the_next_one_gets_through():
    msg, frames = V["fragmented"][1]
    a = codec.Receiver()
    assert a.add(codec.decode(frames[0].encode()[:-1])) is None
    for f in frames[2:]:  # the second one lost: each later one is dropped, it continues nothing
        raises(codec.FrameError, a.add, codec.decode(f.encode()[:-1]))
    got = None
    for f in frames:
        got = a.add(codec.decode(f.encode()[:-1]))
    assert got == msg


def test_bad_lines_are_refused():
    for why, line in V["bad_lines"]:
        e = raises(codec.FrameError, codec.decode, line.encode())
        assert isinstance(e, ValueError), why


def test_a_refused_line_says_which_check_it_failed():
    why = {}
    for name, line in V["bad_lines"]:
        why[name] = str(raises(codec.FrameError, codec.decode, line.encode()))
    assert why["wrong checksum"] == "bad checksum"
    assert why["bad json"] == "the body is not JSON"
    assert "float" in why["float"] and "nested too deep" in why["too deep"]
    assert "backslash" in why["escape in string"]


def test_a_fragment_that_is_not_base64_is_a_frame_error():
    a = codec.Receiver()
    e = raises(codec.FrameError, a.add, {"t": "frag", "f": 1, "i": 0, "k": 2, "d": "not base64!"})
    assert "base64" in str(e)


def test_a_message_that_cannot_travel_says_why():
    sent = []
    assert "float" in str(raises(ValueError, codec.frames, {"t": "hb", "r": 1.5}, 1, sent.append))
    assert '"' in str(raises(ValueError, codec.frames, {"t": 'a"b'}, 1, sent.append))
    assert "2 KB" in str(raises(ValueError, codec.frames, {"t": "x", "a": ["y" * 100] * 30}, 1, sent.append))
    assert sent == []


def test_noise_prompts_and_oversize_lines_are_skipped_in_a_stream():
    stream, expected = V["stream"]
    r, lines = _lines(stream.encode())
    assert [codec.decode(x) for x in lines] == expected
    assert r.n == 0  # nothing left over: the last line ended


def test_an_oversize_line_does_not_grow_the_buffer():
    r = tablet.LineReader()
    buf = r.buf
    assert r.feed(b"~" + b"a" * 5000) == []
    assert r.buf is buf and len(buf) == codec.MAX_FRAME
    frame = tablet.encode({"t": "hb"})
    assert r.feed(b"\n" + frame) == [frame[:-1]]


def test_values_that_cannot_travel_are_refused_when_encoding():
    for bad in ({"t": "x", "v": 1.5}, {"t": "x", "v": True}, {"t": "x", "v": None}, {"t": 'q"'},
                {"t": "x~"}, {"t": "x", "m": "a\x03"}, {"v": 1}, {"t": "x", 1: 2},
                {"t": "x", "a": {"b": [[1]]}}):
        raises(ValueError, tablet.encode, bad)
    raises(ValueError, tablet.encode, {"t": "x", "m": "a" * 300})


def test_clean_text_makes_any_message_sendable():
    m = codec.clean_text('bad "card" \\ ~ \x03 end')
    assert codec.decode(tablet.encode({"t": "err", "m": m})[:-1])["m"] == m


def test_feeding_a_stream_whole_or_byte_by_byte_gives_the_same_lines():
    stream = V["stream"][0].encode() + b"~abc~" + b"y" * 300 + b"~" + tablet.encode({"t": "hb"})
    stream += b"z" * 255 + b"\n" + b"~" + b"w" * 254 + b"\n" + b"~" + b"w" * 255 + b"\n"
    whole = tablet.LineReader()
    one = codec.Receiver()  # the dashboard's reader: byte by byte only
    by_byte = []
    for b in stream:
        line = one.feed_byte(b)
        if line is not None:
            by_byte.append(line)
    for size in (1, 7, 64, len(stream)):
        r = tablet.LineReader()
        got = []
        for i in range(0, len(stream), size):
            got += r.feed(stream[i : i + size])
        assert got == by_byte, size
    assert len(whole.feed(stream)) == 4  # hb, hi, hb, and the 255-byte line (not a frame, dropped by decode)


def _fragment_lines(msg, frag_id):
    return [f[:-1] for f in tablet.frames(msg, frag_id)]


def test_a_repeated_fragment_is_dropped_alone_and_the_message_gets_through():
    # A line may repeat any frame, a middle fragment too (docs/protocol.md: duplicates are harmless).
    msg, frames = V["fragmented"][1]
    lines = [f.encode()[:-1] for f in frames]
    assert len(lines) >= 3
    for repeat in range(len(lines)):
        a = codec.Receiver()
        got = []
        for i, line in enumerate(lines):
            got.append(a.add(codec.decode(line)))
            if i == repeat:  # dropped (the first one again: a start again, the same start)
                try:
                    assert a.add(codec.decode(line)) is None
                except codec.FrameError:
                    pass
        assert got[-1] == msg, repeat


def test_a_stale_fragment_in_the_middle_of_a_message_is_dropped_alone():
    msg, frames = V["fragmented"][1]
    old = _fragment_lines(dict(msg, id="older"), 4)  # another message's fragments (a late copy)
    lines = [f.encode()[:-1] for f in frames]
    a = codec.Receiver()
    assert a.add(codec.decode(lines[0])) is None
    raises(codec.FrameError, a.add, codec.decode(old[1]))
    raises(codec.FrameError, a.add, codec.decode(old[-1]))
    got = None
    for line in lines[1:]:
        got = a.add(codec.decode(line))
    assert got == msg


def test_a_new_message_starting_drops_the_one_half_built():
    msg, frames = V["fragmented"][1]
    lines = [f.encode()[:-1] for f in frames]
    a = codec.Receiver()
    assert a.add(codec.decode(lines[0])) is None  # its rest lost
    got = None
    for line in _fragment_lines(dict(msg, id="next"), 6):
        got = a.add(codec.decode(line))
    assert got == dict(msg, id="next")
