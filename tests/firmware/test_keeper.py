"""One save path (firmware/keeper.py): the fold rule, the save and the journal live there, and both runners (the app
on a Pico or the unix port, link_main for the link's tests) keep their state through it. The fold rule was written
twice (app.py and link_main.py's Keeper, which saved plain JSON without the checksum); these fail if a second copy
comes back or the rule changes in one place only."""

import os
import re

from firmware import restore
from tests import mpy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

FOLD_SCRIPT = """
import os, sys
from firmware.keeper import Keeper
from shared_rules.f1.car import Car
path = sys.argv[1]
yes = lambda x: 1 if x else 0
k = Keeper(path, fold_lines=4)
car = Car(3)
print(k.restore(car)[2], k.dirty, k.gen)     # no save: a first save is due
k.save(car, [], [])
k.open_journal()
k.journaled("c1", "turn", {"on": 1})
k.journaled("c2", "lap", {})
print(yes(k.due()), k.journal.count)            # two lines, no turn's end: not yet
k.journaled("c3", "turn", {"on": 0})
print(yes(k.due()))                         # a turn's end: fold at once
k.save(car, [["c1", ""], ["c2", ""], ["c3", ""]], [])
print(yes(k.due()), k.journal.count, k.gen, k.saves)
for n in range(4):
    k.journaled("d%d" % n, "deal", {"card": "FG"})
print(yes(k.due()))                         # fold_lines commands
"""


def test_the_fold_rule_and_the_save_are_one_keepers(tmp_path):
    path = str(tmp_path / "s.json")
    proc = mpy.run(["-c", FOLD_SCRIPT.replace("sys.argv[1]", repr(path))])
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().split() == ["None", "1", "0", "0", "2", "1", "0", "0", "2", "2", "1"]
    with open(path, "rb") as f:
        saved = restore.decode(f.read())  # the checksummed save
    assert saved["gen"] == 2 and [d[0] for d in saved["done"]] == ["c1", "c2", "c3"]
    assert restore.read_journal(path + ".journal", 2) == [["d%d" % n, "deal", {"card": "FG"}] for n in range(4)]


def test_only_the_keeper_writes_saves_and_journals():
    # Any other module of firmware/ that writes a save or a journal is a second save path (restore.py reads them).
    writers = []
    firmware = os.path.join(ROOT, "firmware")
    every = [os.path.relpath(os.path.join(d, n), firmware) for d, _dirs, names in os.walk(firmware) for n in names]
    for name in sorted(every):
        if not name.endswith(".py") or name in ("keeper.py", "ondemand/store.py", "ondemand/journal.py", "restore.py"):
            continue
        with open(os.path.join(firmware, name)) as f:
            text = f.read()
        if re.search(r"\bJournal\(|store\.(save|steps)\(|\.restart\(|FOLD_MS", text):
            writers.append(name)
    assert writers == [], writers
