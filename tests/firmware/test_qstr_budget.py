"""The dashboard's interned strings (qstrs) stay inside the qstr pool they already have.

MicroPython keeps every identifier and short string of the loaded code in qstr pools that never shrink, and
a full pool is followed by one twice its size: for the dashboard that next pool would hold 640 entries, about
7 KB of heap on the unix port (half on a Pico) for a few new names. These tests load the firmware as it is
flashed (.mpy files from tools/mpy_build.py), as far as a standalone race takes it, then count how many more
qstrs fit before the next pool is allocated. A module or a batch of names that tips it over fails here, with
the numbers, rather than as a mysteriously higher firmware.min_heap_kb.
"""

import os
import re
import subprocess

from tests import mpy
from tools.mpy_build import mpy_cross, source_name

HEADROOM = 12  # qstrs the firmware still makes while it runs (a few attribute and file names)

SCRIPT = """
import micropython
from firmware import board
dev = board.make_board()
from firmware import app
import firmware.solo
micropython.qstr_info()
class _Probe:
    pass
p = _Probe()
for i in range(2000):
    setattr(p, "zz%d" % i, 0)  # each one a new qstr
    micropython.qstr_info()
"""

INFO = re.compile(r"n_pool=(\d+), n_qstr=(\d+)")


def headroom(where, tmp_path):
    """(qstrs in use after loading, how many more fit before a new pool) for code compiled into `where`."""
    env = dict(os.environ, MICROPYPATH=".frozen:" + where, F1DASH_STATE=str(tmp_path / "state.json"))
    env.pop("F1DASH_UI", None)
    proc = subprocess.run([mpy.micropython_path(), "-X", "heapsize=1M", "-c", SCRIPT], env=env, cwd=where,
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    rows = [tuple(map(int, m.groups())) for m in INFO.finditer(proc.stdout.decode())]
    pools, used = rows[0]
    for extra, (n_pool, _n) in enumerate(rows[1:]):
        if n_pool > pools:
            return used, extra
    raise AssertionError("2000 new qstrs and no new pool: cannot measure")


def test_the_dashboard_leaves_room_in_its_qstr_pool(built, tmp_path):
    used, room = headroom(built, tmp_path)
    assert room >= HEADROOM, (
        "%d qstrs in use leave room for only %d more before MicroPython allocates the next, twice as large "
        "qstr pool (about 7 KB of heap): trim names (const() for module-private constants, fewer modules)"
        % (used, room))


def test_source_names_are_the_module_names_already_interned():
    # A path as the source name would be one more qstr per module (see tools/mpy_build.py).
    assert source_name("firmware", ".", "app.py") == "firmware.app"
    assert source_name("shared_rules", "f1", "car.py") == "shared_rules.f1.car"
    assert source_name("shared_rules", "f1", "__init__.py") == "shared_rules.f1"


def test_the_budget_check_notices_a_batch_of_new_names(built, tmp_path):
    # The same firmware with 40 more module-level names in one of its modules must report 40 fewer free slots.
    _, room = headroom(built, tmp_path)
    src = os.path.join(mpy.ROOT, "firmware", "display.py")
    with open(src) as f:
        text = f.read() + "".join("EXTRA_NAME_%d = %d\n" % (i, i) for i in range(40))
    patched = tmp_path / "display.py"
    patched.write_text(text)
    out = os.path.join(built, "firmware", "display.mpy")
    keep = out + ".orig"
    os.rename(out, keep)
    try:
        subprocess.run([mpy_cross(), "-o", out, "-s", "firmware.display",
                        str(patched)], check=True)
        _, room2 = headroom(built, tmp_path)
    finally:
        os.replace(keep, out)
    assert room - room2 == 40 or (room < 40 and room2 > room), (room, room2)
