# The MicroPython internals the phone's page leans on: the browser's asyncio, for firmware/webport.py only. A module
# of its own beside firmware/mpy_internals.py (the Pico's), so that a Pico never loads these: in mpy_internals.py they
# cost the Pico's heap (a 116 KB dashboard no longer booted, tests/firmware/test_linked.py). The WebAssembly port's
# own asyncio (ports/webassembly/asyncio/core.py of MicroPython v1.27.0, the release companion/phones/static/runtime
# pins), not the Pico's; tests/firmware/test_mpy_internals.py names each one and the seat page checks them in that
# port (tests/web/test_seat_page.py).
import asyncio


def web_install_io_queue(queue):
    """Make `queue` asyncio's I/O queue (that port has none): readable() above parks a task with queue.queue_read."""
    asyncio.core._io_queue = queue  # type: ignore[attr-defined]


def web_park(owner):
    """Take the current task off the run queue until web_wake: `owner` is told by remove(task) if it is cancelled
    meanwhile (asyncio finds it in the task's data). Returns the task."""
    task = asyncio.core.cur_task  # type: ignore[attr-defined]
    task.data = owner
    return task


def web_run_again():
    """Put the current task back on the run queue at once, instead of parking it."""
    core = asyncio.core  # type: ignore[attr-defined]
    core._task_queue.push(core.cur_task)


def web_wake(task):
    """Put a task parked by web_park back on the run queue."""
    task.data = None
    asyncio.core._task_queue.push(task)  # type: ignore[attr-defined]


def web_throw_into(task, error):
    """Have `error` thrown into a task where it waits, as if what it awaits had raised it."""
    task.cancel()  # off whatever it waits on, and scheduled now...
    task.data = error  # ...to have this thrown in rather than CancelledError


def web_ready_runner():
    """The call that runs every task ready now, to its next wait (the port's loop runs it from its timer)."""
    return asyncio.core._run_iter  # type: ignore[attr-defined]


def web_on_task_failure(handle):
    """Have handle(context) called where the loop calls its exception handler for a task that died unawaited."""
    asyncio.core.Loop.call_exception_handler = handle  # type: ignore[attr-defined]


def web_set_queue_aside(inert, clear_timer):
    """Stop the loop: its run queue set aside whole (returned), an inert one in its place whose wake-up call is
    `inert`, and the loop's pending timer cleared with clear_timer(id) (left set, it would run what it woke)."""
    core = asyncio.core  # type: ignore[attr-defined]
    held = core._task_queue
    core._task_queue = type(held)(inert)
    if core.asyncio_timer is not None:
        clear_timer(core.asyncio_timer)
        core.asyncio_timer = None
    return held


def web_put_queue_back(held):
    """Run the loop again: the queue web_set_queue_aside returned back in place, with whatever woke meanwhile."""
    core = asyncio.core  # type: ignore[attr-defined]
    woken, core._task_queue = core._task_queue, held
    while woken.peek():
        task = woken.pop()
        core._task_queue.push(task, task.ph_key)
    core._schedule_run_iter(0)
