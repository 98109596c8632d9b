"""docs/protocol.md stays true: every example frame in it is a valid frame, and the fragments put together
give the messages the text says."""

import os

from shared_rules.link import codec
from tests.mpy import ROOT

DOC = os.path.join(ROOT, "docs", "protocol.md")


def _example_lines():
    with open(DOC) as f:
        return [line.rstrip("\n").encode() for line in f if line.startswith("~")]


def test_every_example_frame_in_the_protocol_doc_decodes():
    lines = _example_lines()
    assert len(lines) >= 12
    assembler = codec.Receiver()
    messages = []
    for line in lines:
        assert len(line) + 1 <= codec.MAX_FRAME
        m = assembler.add(codec.decode(line))
        if m is not None:
            messages.append(m)
    kinds = [m["t"] for m in messages]
    assert kinds == ["hi", "hi", "hello", "cmd", "ack", "cmd", "err", "hb", "hb", "get", "ev", "ack"]
    hello = messages[2]
    assert hello["dev"] == "e6614103e7452d2f" and hello["p"] == codec.PROTOCOL
    assert messages[4]["s"]["hand"] == ["SS"] and messages[4]["id"] == messages[3]["id"]
