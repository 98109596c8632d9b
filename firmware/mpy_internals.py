# The MicroPython internals the firmware leans on, all of them here and nowhere else: asyncio has no public call for
# these. Read from MicroPython v1.27.0's extmod/asyncio/core.py (the Pico's release); the unix port's is newer.
# tests/firmware/test_mpy_internals.py checks every name used here on both, and fails the day a release drops one.
import asyncio


async def readable(stream):
    """Await this to park the task until `stream` has something to read (how asyncio's own streams wait)."""
    yield asyncio.core._io_queue.queue_read(stream)  # type: ignore


def forget_run(loop_goes_on=False):
    """After asyncio.run ended with an error: drop the tasks of that run, and what asyncio still holds of the one
    that failed (its current task, the context given to the exception handler), whose frame holds the app.
    loop_goes_on: called from a task of a loop that runs on (main.start_async in a browser): that task is the
    current one and stays so."""
    asyncio.new_event_loop()  # drops the other tasks
    core = asyncio.core  # type: ignore[attr-defined]
    if not loop_goes_on:
        core.cur_task = None
    core._exc_context["exception"] = core._exc_context["future"] = None


# The browser's asyncio, for firmware/webport.py only: the WebAssembly port's own module (ports/webassembly/asyncio/
# core.py of v1.27.0, the release companion/phones/static/runtime pins), not the Pico's. Functions named web_*; their
# names are checked in that port, in the seat page (tests/web/test_seat_page.py).


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
