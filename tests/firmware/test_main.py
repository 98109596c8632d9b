"""firmware/main.py, the boot file: restarts the app after an unexpected error, never swallows Ctrl-C.
It runs here on MicroPython against a stand-in `firmware` package whose app fails on purpose."""

import os

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


def test_main_restarts_after_errors_and_lets_ctrl_c_through(tmp_path):
    pkg = tmp_path / "firmware"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "board.py").write_text("def make_board():\n    return None\n")
    (pkg / "app.py").write_text(APP)
    (tmp_path / "runs").mkdir()
    main_py = os.path.join(mpy.ROOT, "firmware", "main.py")
    proc = mpy.run([main_py], heap="64K", cwd=str(tmp_path), path_extra=(str(tmp_path),), timeout=30)
    out = proc.stdout.decode() + proc.stderr.decode()
    assert sorted(os.listdir(tmp_path / "runs")) == ["0", "1", "2"]  # two crashes, two restarts
    assert "bug number 0" in out and "bug number 1" in out
    assert "KeyboardInterrupt" in out and proc.returncode != 0  # Ctrl-C ends it, it is not restarted


FAILING_TASK = """
import asyncio
from firmware import app, board_host

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
