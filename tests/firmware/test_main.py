"""firmware/main.py, the boot file: restarts the app after an unexpected error, never swallows Ctrl-C.
It runs here on MicroPython against a stand-in `firmware` package whose app fails on purpose."""

import os
import shutil
import subprocess

from tests import mpy

APP = """
import os
def main(board=None):
    n = len(os.listdir('runs'))
    open('runs/%d' % n, 'w').close()
    if n < 2:
        raise ValueError('bug number %d' % n)
    raise KeyboardInterrupt
"""


def _run_main(tmp_path, app):
    """firmware/main.py on MicroPython in tmp_path, with a stand-in `firmware` package whose app is `app`."""
    pkg = tmp_path / "firmware"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "board.py").write_text("def make_board():\n    return None\n")
    (pkg / "app.py").write_text(app)
    main_py = os.path.join(mpy.ROOT, "firmware", "main.py")
    return mpy.run([main_py], heap="64K", cwd=str(tmp_path), path_extra=(str(tmp_path),), timeout=30)


def test_main_restarts_after_errors_and_lets_ctrl_c_through(tmp_path):
    (tmp_path / "runs").mkdir()
    proc = _run_main(tmp_path, APP)
    out = proc.stdout.decode() + proc.stderr.decode()
    assert sorted(os.listdir(tmp_path / "runs")) == ["0", "1", "2"]  # two crashes, two restarts
    assert "bug number 0" in out and "bug number 1" in out
    assert "KeyboardInterrupt" in out and proc.returncode != 0  # Ctrl-C ends it, it is not restarted


# MicroPython keeps no built-in module in sys.modules: without main.py's, every `import time` of every module would
# search the filesystem's folders again first (on a Pico, littlefs lookups: some 40 ms of the power-on).
BUILTINS_APP = """
import sys
def main(board=None):
    open('missing', 'w').write(' '.join(n for n in ('binascii', 'io', 'json', 'machine', 'os', 'select', 'time')
                                        if n not in sys.modules))
    raise KeyboardInterrupt
"""


def test_main_leaves_the_builtins_in_sys_modules(tmp_path):
    _run_main(tmp_path, BUILTINS_APP)
    assert (tmp_path / "missing").read_text() == ""


# The run fails the way a small heap makes it fail: out of memory in a background task, whose frame holds the
# app (and the app the board). Each run needs a 20 KB board in a 48 KB heap: two do not fit, so the retry gets
# its board only if nothing of the failed run is left (neither main.py's reference nor asyncio's to the task).
BIG_BOARD = "def make_board():\n    return bytearray(20000)\n"

BIG_APP = """
import asyncio, os

class App:
    def __init__(self, board):
        self.board = board
        self.cards = bytearray(2000)

async def deal(app):
    await asyncio.sleep_ms(20)
    raise MemoryError('out of memory mid-run')

def _task_failed(loop, context):  # as firmware/app.py does: a dead task ends the run
    raise context['exception']

async def start(board):
    asyncio.get_event_loop().set_exception_handler(_task_failed)
    asyncio.create_task(deal(App(board)))
    while True:
        await asyncio.sleep_ms(5)

def main(board):
    n = len(os.listdir('runs'))
    open('runs/%d' % n, 'w').close()
    if n == 2:
        raise KeyboardInterrupt
    asyncio.run(start(board))
"""


def test_after_running_out_of_memory_the_retry_starts_from_a_clean_heap(tmp_path):
    pkg = tmp_path / "firmware"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "board.py").write_text(BIG_BOARD)
    (pkg / "app.py").write_text(BIG_APP)
    shutil.copy(os.path.join(mpy.ROOT, "firmware", "mpy_internals.py"), pkg)  # what drops asyncio's hold on the run
    (tmp_path / "runs").mkdir()
    main_py = os.path.join(mpy.ROOT, "firmware", "main.py")
    try:
        proc = mpy.run([main_py], heap="48K", cwd=str(tmp_path), path_extra=(str(tmp_path),), timeout=15)
        out = proc.stdout.decode() + proc.stderr.decode()
    except subprocess.TimeoutExpired as e:  # the old main.py: make_board runs out of memory forever
        out = (e.stdout or b"").decode() + (e.stderr or b"").decode()
    assert sorted(os.listdir(tmp_path / "runs")) == ["0", "1", "2"], out[-2000:]  # the board each time
    assert out.count("out of memory mid-run") == 2 and "allocating" not in out, out[-2000:]


FAILING_TASK = """
import asyncio
from firmware import app
from firmware.host import board_host

class Board(board_host.Board):
    async def serve(self, app):  # one of the app's background tasks
        await asyncio.sleep_ms(100)
        raise RuntimeError("a task died")

try:
    app.main(Board())
except RuntimeError as e:
    print("RUN ENDED:", e)
"""


def test_a_background_task_that_dies_ends_the_run_so_main_restarts_it(tmp_path):
    # Without this the dashboard would go on half alive (e.g. no link) and main.py would never see the error.
    env_state = str(tmp_path / "state.json")
    proc = mpy.run(["-c", "import os\nos.putenv('F1DASH_STATE', %r)\n" % env_state + FAILING_TASK],
                   heap="256K", cwd=str(tmp_path), timeout=20, input_bytes=b"")
    out = proc.stdout.decode() + proc.stderr.decode()
    assert "RUN ENDED: a task died" in out, out[-2000:]


def test_both_restart_loops_forget_the_failed_run_the_same_guarded_way():
    # A Pico (run) and a phone's page (start_async) restart the same way: the page's copy had dropped the guard
    # around forgetting the failed run. (One loop for both, as a coroutine driven by send(), cost the Pico's heap:
    # the 116 KB dashboard of test_linked no longer booted to its viewer channel; so two loops, held alike here.)
    import ast

    with open(os.path.join(mpy.ROOT, "firmware", "main.py")) as f:
        tree = ast.parse(f.read())
    loops = {f.name: f for f in tree.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
             and any(isinstance(n, ast.While) for n in ast.walk(f))}
    assert sorted(loops) == ["run", "start_async"]
    for name, fn in loops.items():
        guarded = [t for t in ast.walk(fn) if isinstance(t, ast.Try)
                   and any(isinstance(n, ast.Attribute) and n.attr == "forget_run" for n in ast.walk(t))
                   and any(h.type is not None and getattr(h.type, "id", "") == "Exception" for h in t.handlers)]
        assert guarded, "%s forgets the failed run without a guard" % name
