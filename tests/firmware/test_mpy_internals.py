"""MicroPython's internals (asyncio's, with no public call for what the firmware needs) are used in one module,
firmware/mpy_internals.py, which names the release they were read from; each name it uses is checked here on the
unix port and on the Pico's own release (picosim), so the day a release drops or renames one this fails, loudly,
before a dashboard does."""

import ast
import os
import re
import subprocess

import pytest

from tests import mpy
from tests.pico import picosim

HELPER = os.path.join(mpy.ROOT, "firmware", "mpy_internals.py")
# The browser's port fills what its own asyncio (ports/webassembly/asyncio, another module than the Pico's) lacks,
# _io_queue among them: that is its one job, in its one module, tested in the browser (tests/web).
WEB_PORT = os.path.join(mpy.ROOT, "firmware", "webport.py")
INTERNAL = re.compile(r"\b(_io_queue|cur_task|_exc_context|asyncio\.core)\b")


def _source(path):
    with open(path) as f:
        return f.read()


def used_names():
    """The attributes of asyncio.core the helper reads or writes ("_io_queue", ...)."""
    names = set()
    for node in ast.walk(ast.parse(_source(HELPER))):
        if isinstance(node, ast.Attribute):
            base = node.value
            if (isinstance(base, ast.Name) and base.id == "core") or (isinstance(base, ast.Attribute)
                                                                      and base.attr == "core"):
                names.add(node.attr)
    return sorted(names)


def check_script():
    """MicroPython code printing MISSING <name> for each internal the helper uses that the running release lacks."""
    lines = ["import asyncio", "core = asyncio.core"]
    for name in used_names():
        lines.append("print('HAVE' if hasattr(core, %r) else 'MISSING', %r)" % (name, name))
    lines.append("print('HAVE' if hasattr(core._io_queue, 'queue_read') else 'MISSING', '_io_queue.queue_read')")
    lines.append("print('HAVE' if isinstance(core._exc_context, dict) else 'MISSING', '_exc_context dict')")
    return "\n".join(lines) + "\n"


def test_the_helper_names_its_release_and_uses_what_the_firmware_needs():
    src = _source(HELPER)
    assert re.search(r"MicroPython v\d+\.\d+\.\d+", src), "say which release the internals were read from"
    assert used_names() == ["_exc_context", "_io_queue", "cur_task"]


def test_no_other_firmware_module_reaches_into_micropython_internals():
    firmware = os.path.join(mpy.ROOT, "firmware")
    found = []
    for name in sorted(os.listdir(firmware)):
        path = os.path.join(firmware, name)
        if name.endswith(".py") and path not in (HELPER, WEB_PORT):
            for n, line in enumerate(_source(path).splitlines(), 1):
                if INTERNAL.search(line.split("#")[0]):
                    found.append("%s:%d: %s" % (name, n, line.strip()))
    assert found == []


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
