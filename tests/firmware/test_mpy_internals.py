"""MicroPython's internals (asyncio's, with no public call for what the firmware needs) are used in one module,
firmware/mpy_internals.py, which names the release they were read from; each name it uses is checked here on the
unix port and on the Pico's own release (picosim), and the web_* ones (for firmware/webport.py) in the browser's port
(tests/web/test_seat_page.py), so the day a release drops or renames one this fails, loudly, before a dashboard does.
The guard reads every module under firmware/, subfolders too."""

import ast
import os
import re
import subprocess

import pytest

from tests import mpy
from tests.pico import picosim

HELPER = os.path.join(mpy.ROOT, "firmware", "mpy_internals.py")
WEB_HELPER = os.path.join(mpy.ROOT, "firmware", "mpy_internals_web.py")  # the browser's, never loaded on a Pico
FIRMWARE = os.path.join(mpy.ROOT, "firmware")
# What reaches inside asyncio: its module, its scheduler's privates, a task's private slot (where a waiting task's
# queue is kept).
INTERNAL = re.compile(r"(\b(_io_queue|cur_task|_exc_context|_task_queue|_run_iter|_exc_handler|asyncio\.core)\b"
                      r"|\.data\b)")


def _source(path):
    with open(path) as f:
        return f.read()


def _core_attributes(web):
    """The attributes of asyncio.core read or written by the helper's functions for the browser's asyncio (web: the
    web_* ones) or for the Pico's and the unix port's (the others), as (name, read) pairs."""
    found = set()
    for fn in ast.parse(_source(WEB_HELPER if web else HELPER)).body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name.startswith("web_") != web:
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute):
                base = node.value
                if (isinstance(base, ast.Name) and base.id == "core") or (isinstance(base, ast.Attribute)
                                                                          and base.attr == "core"):
                    found.add((node.attr, isinstance(node.ctx, ast.Load)))
    return found


def used_names():
    """The attributes of asyncio.core the Pico's helpers read or write ("_io_queue", ...)."""
    return sorted({name for name, _ in _core_attributes(web=False)})


def web_read_names():
    """The attributes of the browser's asyncio.core the web_* helpers read (what they only set, that port lacks)."""
    return sorted({name for name, read in _core_attributes(web=True) if read})


def check_script():
    """MicroPython code printing MISSING <name> for each internal the helper uses that the running release lacks."""
    lines = ["import asyncio", "core = asyncio.core"]
    for name in used_names():
        lines.append("print('HAVE' if hasattr(core, %r) else 'MISSING', %r)" % (name, name))
    lines.append("print('HAVE' if hasattr(core._io_queue, 'queue_read') else 'MISSING', '_io_queue.queue_read')")
    lines.append("print('HAVE' if isinstance(core._exc_context, dict) else 'MISSING', '_exc_context dict')")
    return "\n".join(lines) + "\n"


def web_check_script():
    """The same for the browser's asyncio (run in the seat page: tests/web/test_seat_page.py), ending with a line
    WEB INTERNALS CHECKED."""
    lines = ["import asyncio", "core = asyncio.core"]
    for name in web_read_names():
        lines.append("print('HAVE' if hasattr(core, %r) else 'MISSING', %r)" % (name, name))
    lines.append("print('HAVE' if hasattr(core._task_queue, 'push') else 'MISSING', '_task_queue.push')")
    lines.append("print('HAVE' if hasattr(core.Loop, 'call_exception_handler') else 'MISSING', "
                 "'Loop.call_exception_handler')")
    lines.append("print('WEB INTERNALS CHECKED')")
    return "\n".join(lines) + "\n"


def uses_of_internals(folder, allowed=(HELPER, WEB_HELPER)):
    """Every line of a .py file under `folder`, subfolders too, that reaches into asyncio's internals, but in
    `allowed`: "path:line: text", the path relative to folder."""
    found = []
    for top, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(top, name)
            if name.endswith(".py") and path not in allowed:
                for n, line in enumerate(_source(path).splitlines(), 1):
                    if INTERNAL.search(line.split("#")[0]):
                        found.append("%s:%d: %s" % (os.path.relpath(path, folder), n, line.strip()))
    return found


def test_the_helper_names_its_release_and_uses_what_the_firmware_needs():
    src = _source(HELPER)
    assert re.search(r"MicroPython v\d+\.\d+\.\d+", src), "say which release the internals were read from"
    assert used_names() == ["_exc_context", "_io_queue", "cur_task"]
    assert web_read_names() == ["Loop", "_run_iter", "_schedule_run_iter", "_task_queue", "asyncio_timer", "cur_task"]


def test_no_other_firmware_module_reaches_into_micropython_internals():
    assert uses_of_internals(FIRMWARE) == []


def test_the_guard_sees_a_use_planted_in_a_subfolder(tmp_path):
    (tmp_path / "app.py").write_text("import asyncio\n")
    (tmp_path / "ondemand").mkdir()
    (tmp_path / "ondemand" / "link.py").write_text(
        "import asyncio\n\ndef wake(task):\n    asyncio.core._task_queue.push(task)  # at once\n")
    assert uses_of_internals(str(tmp_path)) == [
        os.path.join("ondemand", "link.py") + ":4: asyncio.core._task_queue.push(task)  # at once"]


def test_the_guard_sees_each_kind_of_reach(tmp_path):
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "board.py").write_text(
        "t = core.cur_task\nrun = loop._exc_handler\ntask.data = e\n# core._run_iter in a comment is fine\n")
    assert [f.split(": ", 1)[1] for f in uses_of_internals(str(tmp_path))] == [
        "t = core.cur_task", "run = loop._exc_handler", "task.data = e"]


def test_the_unix_ports_release_has_every_internal_used():
    proc = mpy.run(["-c", check_script()], timeout=30)
    out = proc.stdout.decode()
    assert proc.returncode == 0 and "MISSING" not in out, out + proc.stderr.decode()
    assert out.count("HAVE") == len(used_names()) + 2


# The helper at work on the unix port: a task parked on stdin wakes when bytes come; after a run that died, nothing
# of its failed task stays reachable from asyncio.
AT_WORK = """
import asyncio, sys
from firmware import mpy_internals

async def reader():
    await mpy_internals.readable(sys.stdin)
    print('READ', sys.stdin.buffer.read(3))

asyncio.run(reader())

class Held:
    pass

async def dies(held):
    raise ValueError('task died')

def failed(loop, context):
    raise context['exception']

async def start():
    asyncio.get_event_loop().set_exception_handler(failed)
    asyncio.create_task(dies(Held()))
    await asyncio.sleep_ms(50)

try:
    asyncio.run(start())
except ValueError:
    pass
core = asyncio.core
print('HELD BEFORE', core._exc_context['exception'] is not None)
mpy_internals.forget_run()
print('HELD AFTER', core.cur_task is not None or core._exc_context['exception'] is not None)
"""


def test_the_helper_works_on_the_unix_port():
    proc = mpy.run(["-c", AT_WORK], timeout=30, input_bytes=b"abc")
    out = proc.stdout.decode()
    assert "READ b'abc'" in out, out + proc.stderr.decode()
    assert "HELD BEFORE True" in out and "HELD AFTER False" in out, out + proc.stderr.decode()


def test_the_picos_release_has_every_internal_used():
    reason = picosim.missing()
    if reason:
        pytest.skip(reason)
    with picosim.Pico(flash=None, speed=0) as pico:
        done = subprocess.run([picosim._tool("mpremote"), "connect", pico.tty, "exec", check_script()],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "MISSING" not in done.stdout, done.stdout + done.stderr
    assert done.stdout.count("HAVE") == len(used_names()) + 2, done.stdout
