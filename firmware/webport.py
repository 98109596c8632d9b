# The one place where the browser's MicroPython (the official WebAssembly port, the npm package
# @micropython/micropython-webassembly-pyscript, sys.platform "webassembly") is made to offer what this firmware uses
# on a Pico. Its asyncio is the port's own (ports/webassembly/asyncio/core.py of MicroPython v1.27.0, the release
# companion/phones/static/runtime pins), not the Pico's: the internals reached here are that module's, through
# firmware/mpy_internals_web.py's web_* functions (as every internal the firmware uses). install() fills each gap before
# firmware/main.py loads; start() then runs the dashboard. Nothing else in the firmware knows it runs in a page; the
# page's side of each gap is `dashpage`, a JS module the seat page registers (companion/phones/static/seat.js). The
# gaps, and why each is filled this way:
#
#   machine            no such module; main.py imports it at boot and link.py asks it for unique_id(). A stand-in
#                      whose unique_id() is this phone's dashboard id (random, kept in the browser by the page).
#   os.urandom         absent (the event prefixes of shared_rules.link and the standalone dice need it): the
#                      browser's crypto.getRandomValues, through the page.
#   os.getenv          absent (a page has no environment): always None, as an unset variable on the unix port.
#   asyncio.run        absent: the port's loop runs on the page's timers (setTimeout), and nothing may block the
#                      page, so there is no call that runs a loop to its end. main.py's run() blocks; start()
#                      runs main.py's start_async() (the same restart after an error) as a task of that loop.
#   a press at once    the loop runs when its timer fires: a press that wakes the buttons' task would wait for a
#                      setTimeout (4 ms at least when set from inside another timer's callback, much longer on a
#                      slow phone: the most of a tap's time with the CPU slowed 4x). The page runs the loop's ready
#                      tasks (mpy_internals_web.web_ready_runner) in the press's own input event instead: the frame is
#                      on the canvas when the event returns. Safe: the page's events never come in the middle of a step.
#   the loop's exception handler   app.py's handler ends the run by raising: asyncio.run would raise it to main.py.
#                      Here it would escape into a JS timer and leave half the tasks running; it is thrown into the
#                      run's own task instead (start_async catches it there and restarts, as run() does).
#   asyncio.ThreadSafeFlag   absent (no threads, no interrupts): the page's events run between two steps of the
#                      loop, never inside one, so an Event that clears itself when its waiter wakes is the same.
#   asyncio's I/O queue   absent (the loop never polls streams): app.py parks its link task there until stdin is
#                      readable. Only stdin is ever waited for here: one waiting task, woken by the page when the
#                      seat's WebSocket brings bytes.
#   binascii.a2b_base64   the port's binascii is micropython-lib's pure-Python one: it takes bytes only (a str, as
#                      the link's fragments carry, raises TypeError and stopped the link at the first message the
#                      tablet sent in fragments, a newly paired car's sync) and reports bad base64 with a bare
#                      Exception. A stand-in takes both, and raises ValueError as the Pico's built-in does.
#   a stopped page     pause() and resume(): the page stops its firmware while another page holds its seat or the
#                      table left the game (nothing drawn, nothing stored, nothing sent), and runs it again when
#                      the game comes back to it. The port's loop has no call to stop it: its queue is set aside.
#   select.poll        the port's says stdin is always readable, and a read with nothing there gives b'' or raises
#                      EAGAIN (to link.py: the end of input). A stand-in poll asks the page how many bytes wait.
#
# sys.stdin and sys.stdout are the port's own: the page feeds stdin (Module.stdin) from the WebSocket and sends
# what is written to stdout (Module.stdout) on it, so the link is byte for byte a Pico's USB serial line.
import asyncio
import os
import sys

import dashpage  # type: ignore[import-not-found]  # registered by the seat page

from firmware import mpy_internals_web

_POLLIN = 1


class _Machine:
    """The `machine` module's one function the firmware calls off a Pico."""

    @staticmethod
    def unique_id():
        import binascii

        return binascii.unhexlify(dashpage.device_id())


def _urandom(n):
    return bytes(dashpage.random_byte() for _ in range(n))


def _getenv(name, default=None):
    return default


def _a2b_base64_over(decode):
    """The port's a2b_base64 (decode), taking a str too and raising ValueError for bad base64."""

    def a2b_base64(data):
        try:
            return decode(data.encode() if isinstance(data, str) else data)
        except ValueError:
            raise
        except Exception as e:  # the pure-Python module's "Incorrect padding" and the like
            raise ValueError(str(e))

    return a2b_base64


_a2b_base64 = None  # the stand-in, once install() made it


class _ThreadSafeFlag:
    def __init__(self):
        self._event = asyncio.Event()

    def set(self):
        self._event.set()

    def clear(self):
        self._event.clear()

    async def wait(self):
        await self._event.wait()
        self._event.clear()


class _StdinQueue:
    """asyncio's I/O queue for the one stream waited on here: stdin, the link."""

    def __init__(self):
        self.waiting = None  # the task parked until the link has bytes

    def queue_read(self, stream):
        if stream is not sys.stdin:
            raise OSError("the web port waits on stdin only")
        if dashpage.link_waiting():
            mpy_internals_web.web_run_again()  # bytes already there
        else:
            self.waiting = mpy_internals_web.web_park(self)

    def remove(self, task):
        if self.waiting is task:
            self.waiting = None

    def wake(self):
        """Called by the page when bytes arrived on the seat's WebSocket."""
        task = self.waiting
        if task is not None:
            self.waiting = None
            mpy_internals_web.web_wake(task)


class _Poll:
    """select.poll() over stdin, answered from the bytes the page holds."""

    def register(self, stream, mask=_POLLIN):
        self.stream = stream

    def poll(self, timeout=-1):
        # Never waits (the page's loop cannot): the link polls with timeout 0, and its task waits in the I/O queue.
        return [(self.stream, _POLLIN)] if dashpage.link_waiting() else []


class _Select:
    POLLIN = _POLLIN
    poll = _Poll


_run = None  # the task running main.start_async()


def _call_exception_handler(context):
    loop = asyncio.get_event_loop()
    try:
        (loop.get_exception_handler() or loop.default_exception_handler)(loop, context)  # type: ignore[attr-defined]
    except Exception as e:  # the handler ends the run: asyncio.run would have raised this to main.py
        run = _run
        if run is not None and not run.done():
            mpy_internals_web.web_throw_into(run, e)


def install():
    """Fill the gaps, before firmware/main.py (or anything else of the firmware) is imported."""
    sys.modules["machine"] = _Machine  # type: ignore[assignment]  # import takes any object put there
    sys.modules["select"] = _Select  # type: ignore[assignment]
    global _a2b_base64
    import binascii

    if _a2b_base64 is None:  # once: a stand-in over the stand-in would be harmless, but one is enough
        _a2b_base64 = binascii.a2b_base64 = _a2b_base64_over(binascii.a2b_base64)  # type: ignore[assignment]
    os.urandom = _urandom  # type: ignore[attr-defined]
    os.getenv = _getenv  # type: ignore[attr-defined]
    asyncio.ThreadSafeFlag = _ThreadSafeFlag  # type: ignore[attr-defined]
    queue = _StdinQueue()
    mpy_internals_web.web_install_io_queue(queue)
    mpy_internals_web.web_on_task_failure(_call_exception_handler)
    dashpage.on_link(queue.wake)
    dashpage.on_loop(mpy_internals_web.web_ready_runner())  # what the page runs after a press (see "a press at once")


_held = None  # the loop's task queue while the page is stopped (pause())


def _nothing(dt):
    pass  # a stopped page's queue: a task woken there (a timer due, a byte, a press) is not scheduled


def pause():
    """The page stopped (another page holds the seat, or the table left the game): no task of the firmware runs and
    nothing is drawn until resume(). The loop's timer is cleared and its queue set aside whole; an inert one takes its
    place, where whatever wakes meanwhile waits (the timer left set would run it: seen with the heartbeat's)."""
    global _held
    if _held is None:
        import js  # type: ignore[import-not-found]  # the port's own module: the page's globals

        _held = mpy_internals_web.web_set_queue_aside(_nothing, js.clearTimeout)


def resume():
    """The page runs the firmware again: the tasks set aside, with any woken meanwhile, in the loop's queue again."""
    global _held
    if _held is not None:
        held, _held = _held, None
        mpy_internals_web.web_put_queue_back(held)


def start():
    """Start the dashboard on the page's loop; returns at once."""
    global _run
    install()
    from firmware import main

    _run = asyncio.create_task(main.start_async())
