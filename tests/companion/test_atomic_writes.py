"""Every file the app writes (the seats' tokens, the remembered names, the dice's sound, the desktop entries) is
written whole or not at all, through one writer: a temp file of its own, then a rename. Two threads (or two apps)
writing the same file at once never trip over each other's temp file, and none is left behind."""

import os
import stat
import threading

from companion.storage import write_atomic, write_private


def test_two_writers_of_one_file_at_once_both_succeed_and_leave_one_whole_file(tmp_path):
    path = str(tmp_path / "names.json")
    failures = []
    texts = ["%s" % n * 5000 for n in range(8)]

    def write(text):
        try:
            for _ in range(30):
                write_atomic(path, text)
        except OSError as e:  # a shared temp name made one writer rename the other's file away
            failures.append(e)

    threads = [threading.Thread(target=write, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    with open(path) as f:
        assert f.read() in texts  # one writer's text, whole
    assert os.listdir(tmp_path) == ["names.json"]  # no temp file left


def test_ordinary_files_are_readable_by_others_and_secrets_only_by_their_owner(tmp_path):
    write_atomic(str(tmp_path / "formula1.desktop"), b"[Desktop Entry]\n")
    write_private(str(tmp_path / "seats.json"), "{}")
    assert stat.S_IMODE(os.stat(tmp_path / "formula1.desktop").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(tmp_path / "seats.json").st_mode) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path):
    path = str(tmp_path / "names.json")
    write_atomic(path, "old")
    try:
        write_atomic(path, object())  # type: ignore[arg-type]  # not text: fails before the rename
    except TypeError:
        pass
    with open(path) as f:
        assert f.read() == "old"
    assert os.listdir(tmp_path) == ["names.json"]
