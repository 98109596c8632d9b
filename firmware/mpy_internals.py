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
