# The command journal (firmware/ondemand/journal.py) and the boot that replays it, on both runtimes: tests/firmware/
# test_journal.py runs these functions on CPython and again on MicroPython (tests/portable/runner.py).
# Power cuts are played out at the file level, at every instant that matters: every byte of an append, every
# step of a compaction (the full save, then the fresh journal).
import os

from firmware.ondemand import store
from firmware.ondemand.journal import Journal, line
from firmware.restore import load, read_journal, replay

DIR = os.getenv("F1_TEST_DIR") or "/tmp"  # type: ignore[attr-defined]


def _path(name):
    p = DIR + "/" + name
    for suffix in ("", ".tmp", ".journal", ".journal.tmp", ".bad"):
        try:
            os.remove(p + suffix)
        except OSError:
            pass
    return p


def _write(path, raw):
    with open(path, "wb") as f:
        f.write(raw)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def header(gen):
    return line("F1J1", gen)  # the first line names the save generation the journal follows


def entry(cid, name, args):
    return line(cid, name, args)


CMDS = [["c.1", "add", {"n": 1}], ["c.2", "add", {"n": 10}], ["c.3", "add", {"n": 100}], ["c.4", "add", {"n": 1000}]]


class Counter:
    """A stand-in for the car: `add` commands sum up, so a command applied twice or lost shows in the total."""

    def __init__(self, total=0):
        self.total = total

    def apply(self, name, args):
        if name != "add" or args.get("n", 0) < 0:
            raise ValueError("refused")
        self.total += args["n"]


def boot(path):
    """The firmware's boot, in little: the last full save, then the journal's commands not in its done ids."""
    data, _error = load(path)
    if data is None:
        data = {"total": 0, "done": [], "gen": 0}
    c = Counter(data["total"])
    done = data["done"]
    ids = [d[0] for d in done] + replay(read_journal(path + ".journal", data["gen"]), done, c.apply)
    return c.total, ids


def fold(path, c, ids, gen, journal):
    store.save(path, {"total": c.total, "done": [[i, ""] for i in ids], "gen": gen})
    journal.restart(gen)


def test_appended_commands_read_back_in_order_for_their_save_only():
    p = _path("j1")
    j = Journal(p + ".journal")
    j.restart(3)
    for cid, name, args in CMDS:
        j.append(cid, name, args)
    j.close()
    assert j.count == 4
    assert read_journal(p + ".journal", 3) == CMDS
    assert read_journal(p + ".journal", 2) == []  # a journal follows one save: never replayed onto another
    assert read_journal(p + ".missing", 0) == []


def test_a_line_torn_at_any_byte_is_skipped_and_the_lines_before_it_kept():
    p = _path("j2") + ".journal"
    whole = header(0) + entry(*CMDS[0]) + entry(*CMDS[1])
    last = entry(*CMDS[2])
    for cut in range(len(last) + 1):
        _write(p, whole + last[:cut])
        got = read_journal(p, 0)
        assert got == (CMDS[:3] if cut >= len(last) - 1 else CMDS[:2]), (cut, got)  # only the newline missing: whole
    h = header(0)
    for cut in range(len(h)):
        _write(p, h[:cut])
        assert read_journal(p, 0) == []


def test_a_damaged_line_is_skipped_and_the_others_kept():
    p = _path("j3") + ".journal"
    lines = [entry(*c) for c in CMDS[:3]]
    bad = bytearray(lines[1])
    bad[14] ^= 0x04  # one bit flipped inside the JSON: the crc32 no longer matches
    _write(p, header(5) + lines[0] + bytes(bad) + lines[2] + b"garbage without a checksum\n" + b"x" * 900 + b"\n")
    assert read_journal(p, 5) == [CMDS[0], CMDS[2]]


def test_replay_skips_done_ids_and_refused_commands_and_keeps_the_order():
    seen = []

    def apply(name, args):
        if args["n"] < 0:
            raise ValueError("refused")
        seen.append(args["n"])

    entries = [["a", "add", {"n": 1}], ["b", "add", {"n": -1}], ["c", "add", {"n": 2}], ["a", "add", {"n": 1}]]
    assert replay(entries, [["c", ""]], apply) == ["a"]
    assert seen == [1]


def test_power_cut_at_every_step_of_appends_and_compactions_loses_no_acked_command_and_applies_none_twice():
    """Play CMDS with a compaction after the second one; cut the power after every byte written to any file and
    after every rename; boot; the total must count every acknowledged command exactly once (plus, at most, the
    one in flight, not yet acknowledged)."""
    p = _path("j4")
    # The file operations of the run, in order: ("w", file, bytes, n) leaves the file holding the first n bytes
    # (the write cut after its n-th byte), ("r", src, dst) renames.
    ops = []
    total_acked = []  # after each op: the total of the commands acknowledged so far

    def write(name, raw, acked, start=0):
        for i in range(start, len(raw)):
            ops.append(("w", name, raw, i + 1))
            total_acked.append(acked)

    acked = 0
    write(p + ".journal.tmp", header(0), 0)
    ops.append(("r", p + ".journal.tmp", p + ".journal"))
    total_acked.append(0)
    journal_bytes = header(0)
    for k, (cid, name, args) in enumerate(CMDS):
        line = entry(cid, name, args)
        write(p + ".journal", journal_bytes + line, acked, len(journal_bytes))  # appending: acked once it is whole
        journal_bytes += line
        acked += args["n"]
        total_acked[-1] = acked  # the last byte written: now the ack goes out
        if k == 1:  # compaction: the full save (temp, rename), then a fresh journal (temp, rename)
            save = store.encode({"total": acked, "done": [[c[0], ""] for c in CMDS[:2]], "gen": 1})
            write(p + ".tmp", save, acked)
            ops.append(("r", p + ".tmp", p))
            total_acked.append(acked)
            write(p + ".journal.tmp", header(1), acked)
            ops.append(("r", p + ".journal.tmp", p + ".journal"))
            total_acked.append(acked)
            journal_bytes = header(1)
    in_flight = [0] + [c[2]["n"] for c in CMDS]
    _path("j4")
    for cut in range(len(ops) + 1):
        if cut:  # the files as the cut after op cut-1 leaves them (boot only reads them)
            op = ops[cut - 1]
            if op[0] == "w":
                _write(op[1], op[2][: op[3]])
            else:
                os.rename(op[1], op[2])
        total, ids = boot(p)
        acked = total_acked[cut - 1] if cut else 0
        assert total == acked or total - acked in in_flight, (cut, total, acked)
        assert len(ids) == len(set(ids))
        # and the power back, the tablet resends what was not acknowledged: each command counts once
        c = Counter(total)
        for cid, name, args in CMDS:
            if cid not in ids:
                c.apply(name, args)
        assert c.total == 1111, (cut, c.total)


def test_the_whole_save_and_journal_cycle_through_the_real_files():
    p = _path("j5")
    j = Journal(p + ".journal")
    j.restart(0)
    c = Counter()
    ids = []
    gen = 0
    for k, (cid, name, args) in enumerate(CMDS):
        c.apply(name, args)
        j.append(cid, name, args)
        ids.append(cid)
        if k % 2 == 1:
            gen += 1
            fold(p, c, ids, gen, j)
        assert boot(p) == (c.total, ids)
    j.close()
    assert _read(p + ".journal") == header(2)


def test_commands_acked_while_a_save_is_under_way_survive_a_power_cut_at_every_step():
    """A full save takes its state, then waits between its steps (for a pause in play); the tablet's commands that
    come meanwhile are journaled and acked at once: after a line naming the save under way, and kept by the fresh
    journal that follows it. Cut the power after every byte and every rename: each acked command counts once."""
    p = _path("j6")
    j = Journal(p + ".journal")
    j.restart(0)
    for cid, name, args in CMDS[:2]:
        j.append(cid, name, args)
    j.saving(1)  # save 1 takes its state: c.1 and c.2
    j.append(*CMDS[2])  # acked during the save, before its rename...
    assert _read(p + ".journal") == header(0) + entry(*CMDS[0]) + entry(*CMDS[1]) + header(1) + entry(*CMDS[2])
    j.append(*CMDS[3])  # ...and after it
    j.restart(1)
    j.close()
    assert _read(p + ".journal") == header(1) + entry(*CMDS[2]) + entry(*CMDS[3]) and j.count == 2

    ops = []  # as in the test above: ("w", file, bytes, n) or ("r", src, dst)
    total_acked = []

    def write(name, raw, acked, start=0):
        for i in range(start, len(raw)):
            ops.append(("w", name, raw, i + 1))
            total_acked.append(acked)

    def rename(src, dst, acked):
        ops.append(("r", src, dst))
        total_acked.append(acked)

    write(p + ".journal.tmp", header(0), 0)
    rename(p + ".journal.tmp", p + ".journal", 0)
    journal_bytes = header(0)
    acked = 0
    for k, (cid, name, args) in enumerate(CMDS):
        if k == 3:  # the save, its state taken before c.3: written and renamed between c.3 and c.4
            write(p + ".tmp", store.encode({"total": 11, "done": [[c[0], ""] for c in CMDS[:2]], "gen": 1}), acked)
            rename(p + ".tmp", p, acked)
        added = (header(1) if k == 2 else b"") + entry(cid, name, args)  # the save's line: in the same write
        write(p + ".journal", journal_bytes + added, acked, len(journal_bytes))
        journal_bytes += added
        acked += args["n"]
        total_acked[-1] = acked  # the last byte written: the ack goes out
    fresh = header(1) + entry(*CMDS[2]) + entry(*CMDS[3])
    write(p + ".journal.tmp", fresh, acked)
    rename(p + ".journal.tmp", p + ".journal", acked)

    in_flight = [0] + [c[2]["n"] for c in CMDS]
    _path("j6")
    for cut in range(len(ops) + 1):
        if cut:
            op = ops[cut - 1]
            if op[0] == "w":
                _write(op[1], op[2][: op[3]])
            else:
                os.rename(op[1], op[2])
        total, ids = boot(p)
        acked = total_acked[cut - 1] if cut else 0
        assert total == acked or total - acked in in_flight, (cut, total, acked)
        assert len(ids) == len(set(ids))
        c = Counter(total)
        for cid, name, args in CMDS:
            if cid not in ids:
                c.apply(name, args)
        assert c.total == 1111, (cut, c.total)
