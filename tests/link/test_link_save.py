"""The link runner (firmware/host/link_main.py, what the link tests and bench run) keeps its state exactly as a Pico does:
one save path (firmware/keeper.py) on both. Its save is store.py's checksummed file, read back by restore.py, and it
folds the journal in on the same rule (a turn's end folds at once). The old runner wrote plain JSON with no
checksum, a format no Pico writes, and folded on its own rule: the link tests tested a save nobody made."""

from firmware import restore
from firmware.ondemand import store
from shared_rules.f1.car import Car
from tests.link.harness import Dashboard, FakeUsb, Notes, Relay, transport, wait_for
from tests.portable import link_script


def _run(tmp_path, cmds):
    """link_main on the unix port, the tablet's transport sending `cmds`; the dashboard killed once all are acked
    (a power cut). Returns (the dashboard, the tablet's snapshot of it)."""
    dash = Dashboard(tmp_path)
    relay = Relay(dash.start())
    usb = FakeUsb()
    usb.paths.append(relay.plug())
    t = transport(usb)
    notes = Notes(t)
    try:
        assert wait_for(lambda: notes.of("hello"), 10)
        for cid, name, args in cmds:
            t.send("dash-1", name, args, cid)
        ids = [c[0] for c in cmds]
        assert wait_for(lambda: notes.drain() and set(ids) <= set(notes.answered()), 20)
        snap = t.snapshot("dash-1")
    finally:
        t.stop()
        relay.close()
        dash.kill()
    return dash, snap


def test_the_link_runner_saves_the_picos_checksummed_file_and_boots_through_restore(tmp_path):
    cmds = [["c1", "turn", {"on": 1}], ["c2", "lap", {}], ["c3", "pen", {"spin": 0, "tyre": 1, "brake": 1, "dice": 0}],
            ["c4", "turn", {"on": 0}], ["c5", "turn", {"on": 1}], ["c6", "lap", {}]]
    dash, snap = _run(tmp_path, cmds)
    with open(dash.store, "rb") as f:
        raw = f.read()
    assert raw.startswith(store.MAGIC + b"\n"), raw[:40]  # the Pico's format, its checksum line last
    saved = restore.decode(raw)  # StoreError on a file without a good checksum
    # the turn's end (c4) folded the journal in at once, as on a Pico: the save holds c1..c4. The save runs in
    # steps after the fold is due, so a command applied before its first step (c5, on a loaded machine) is in it
    # too; whatever came after is in the journal, replayed below
    saved_ids = [d[0] for d in saved["done"]]
    assert saved_ids[:4] == ["c1", "c2", "c3", "c4"], saved["done"]
    assert saved["gen"] >= 1 and saved["ev"] == []
    # What the Pico's power-on makes of it (firmware/restore.py): the save, then the journal replayed
    car = Car(5)
    gen, done, events, applied, error = restore.restore(dash.store, car)
    assert error is None and gen == saved["gen"]
    assert saved_ids + list(applied) == [c[0] for c in cmds]  # each command once: in the save or replayed
    assert car.snapshot() == snap == link_script.expected(cmds)


def test_the_link_runner_boots_from_a_save_the_pico_wrote_and_folds_the_replayed_commands(tmp_path):
    # A save written by store.py (as the app writes it) and a journal of two commands acked after it: the runner
    # starts from them, folds the two into a new save before journaling anything else, and carries on.
    path = str(tmp_path / "dash-1.json")
    car = Car(5)
    car.speed = 60
    store.save(path, {"car": car.snapshot(), "done": [["a1", ""]], "ev": [], "gen": 3})
    from firmware.ondemand.journal import Journal

    j = Journal(path + ".journal")
    j.restart(3)
    j.append("a2", "turn", {"on": 1})
    j.append("a3", "lap", {})
    j.close()
    dash, snap = _run(tmp_path, [["a4", "pen", {"spin": 0, "tyre": 2, "brake": 0, "dice": 0}]])
    with open(path, "rb") as f:
        saved = restore.decode(f.read())
    assert saved["gen"] >= 4  # the replayed commands folded in: a new save
    assert [d[0] for d in saved["done"]][:3] == ["a1", "a2", "a3"]
    car = Car(5)
    assert restore.restore(path, car)[4] is None
    assert car.snapshot() == snap
    assert snap["speed"] == 60 and snap["tyre"] == 2 and snap["laps_left"] == 4 and snap["my_turn"] == 1
