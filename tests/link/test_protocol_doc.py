"""docs/protocol.md stays true: every example frame in it is a valid frame, and the fragments put together
give the messages the text says."""

import os
import re

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


# ---- what the spec cites exists, and the viewer channel is specified whole ----------------------------------
def _doc():
    with open(DOC) as f:
        return f.read()


def _read(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def _defines(source, name):
    return re.search(r"^\s*(def |class )?%s\b\s*[(=:]" % re.escape(name), source, re.M) is not None


def test_every_file_and_name_the_spec_cites_exists():
    doc = _doc()
    for path in set(re.findall(r"`((?:firmware|shared_rules|companion|tests|bench)/[\w/.-]+\.(?:py|json|html))`", doc)):
        assert os.path.exists(os.path.join(ROOT, path)), path
    # `firmware.ondemand.link.FIRMWARE`: a module's name, which must be defined there
    for dotted in set(re.findall(r"`((?:firmware|shared_rules|companion)(?:\.\w+)+)`", doc)):
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            path = os.path.join(ROOT, *parts[:cut]) + ".py"
            if os.path.exists(path):
                break
        else:
            raise AssertionError("no module for %s" % dotted)
        for name in parts[cut:cut + 1]:
            assert _defines(_read(os.path.relpath(path, ROOT)), name), dotted
    # "`_FIRMWARE` in `firmware/ondemand/link.py`"
    for name, path in re.findall(r"`(\w+)` in `((?:firmware|shared_rules|companion)/[\w/]+\.py)`", doc):
        assert _defines(_read(path), name), (name, path)


def _viewer_section():
    doc = _doc()
    return doc[doc.index("The viewer channel of a virtual dashboard"):]


def test_the_viewer_channel_is_specified_whole():
    spec = _viewer_section()
    host = _read("firmware/host/board_host.py")
    app = _read("firmware/app.py")
    said = set(re.findall(r'emit\(b?"([A-Z]) ', host + app)) | set(re.findall(r"emit\(b'([A-Z]) ", app))
    assert said >= {"G", "F", "L", "B", "H", "A", "W", "S"}
    to_client = spec.split("| dashboard to client |")[1]
    for op in said:
        assert "`%s " % op in to_client, "dashboard to client: %s" % op
    heard = set(re.findall(r'op == "([A-Z])"', host))
    assert heard >= {"P", "R", "T", "Q", "C"}
    for op in heard:
        assert "`%s" % op in spec.split("| dashboard to client |")[0], "client to dashboard: %s" % op
    # the state line's fields, as firmware/app.py writes them
    fields = {"car"} | set(re.findall(r'"(\w+)": %d', app[app.index("def refresh"):]))
    assert fields >= {"car", "mode", "hand", "saves", "free"}
    state_row = next(ln for ln in spec.splitlines() if ln.startswith("| `S <json>`"))
    for f in fields:
        assert '"%s"' % f in state_row and "- `%s`" % f in spec, f


def test_pointers_to_the_viewer_channel_name_its_section():
    number = re.search(r"^## (\d+)\. The viewer channel", _doc(), re.M).group(1)
    for path in ("firmware/README.md", "firmware/host/board_host.py"):
        cited = re.findall(r"protocol\.md\)?,? section (\d+)", _read(path))
        assert cited and set(cited) == {number}, (path, cited, number)


def test_the_saves_section_gives_the_keepers_fold_rule():
    # firmware/keeper.py decides when a full save folds the journal in; the spec quotes its numbers
    with open(os.path.join(ROOT, "firmware", "keeper.py")) as f:
        keeper = f.read()
    lines = re.search(r"^FOLD_LINES = (\d+)", keeper, re.M)
    ms = re.search(r"^_FOLD_MS = const\((\d+)\)", keeper, re.M)
    assert lines and ms, "keeper.py's fold constants moved"
    rule = "after %d journaled commands, or %g s after the first of them" % (int(lines.group(1)),
                                                                            int(ms.group(1)) / 1000)
    text = " ".join(_doc().split())
    assert rule in text
    assert "A command never waits for a save." in text and "journal.saving(" in text
