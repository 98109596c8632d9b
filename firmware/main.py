# Boot entry (the board's /main.py is one line, `import firmware.main`: tools/flash.py, a frozen build the same).
# Kept tiny: run the app; on an unexpected error print it (the link skips non-frame lines) and start the app again.
# Ctrl-C (KeyboardInterrupt) is never caught, so mpremote can always take the board over.
import gc
import sys

# Collect every this many bytes allocated while the modules load (see run). A Pico's 190 KB free gain nothing from
# collecting every 4 KB (its boot then spent 67 ms collecting); the unix port's heap is made small in the tests. A
# phone's page (start_async) sets none.
BOOT_GC_BYTES = 32768 if sys.platform == "rp2" else 4096

def _builtins():
    # On a Pico, `import json` (os, machine, time, ...) first looks for json/, json.py and json.mpy in every folder
    # of sys.path, the filesystem's root included (such built-ins may be extended by a file): littlefs lookups of
    # 1 to 3 ms each, 4 to 8 ms an import. Built-in modules are not kept in sys.modules, so each later `import time`
    # of every module would search again (13 of them before the first frame, some 50 ms of the boot). Found here
    # with only the frozen modules on the path, and put in sys.modules, every later import of them is at once.
    path = sys.path[:]
    sys.path[:] = [".frozen"]
    try:
        for name in ("asyncio", "binascii", "io", "json", "machine", "os", "select", "time"):
            sys.modules[name] = __import__(name)
    finally:
        sys.path[:] = path


_builtins()
import time  # noqa: E402  (after _builtins: found at once)


def run():
    while True:
        try:
            gc.collect()
            from firmware import board

            dev = board.make_board()  # its buffers first, while the heap is still in one piece
            # Collect every few KB while the modules load: what each load leaves behind (its top-level code) is
            # freed before the next module is placed, so the code that stays packs together instead of around
            # holes (a small heap needs 13 KB less; see bench/firmware_bench.py). The app ends this once it runs.
            gc.threshold(BOOT_GC_BYTES)
            from firmware import app

            gc.collect()
            app.main(dev)
        except KeyboardInterrupt:
            raise
        except Exception as e:  # a bug must not leave a player with a dead dashboard
            sys.print_exception(e)  # type: ignore[attr-defined]
        # The next run starts from a clean heap (after a MemoryError it would fail at once otherwise): nothing
        # of this run may stay reachable. Its board, and its tasks: asyncio keeps the one that failed (as its
        # current task, and in the context it gave the exception handler), and that task's frame holds the app.
        dev = None
        try:
            from firmware import mpy_internals

            mpy_internals.forget_run()
        except Exception:
            pass
        time.sleep_ms(500)


async def start_async():
    """run() for a host whose loop cannot block: a browser page (firmware/webport.py), where asyncio's loop runs on the
    page's timers and there is no asyncio.run. The same restart after an error; the pause between runs is the loop's."""
    import asyncio

    while True:
        try:
            gc.collect()
            from firmware import board

            dev = board.make_board()
            # No collection every few KB while the modules load (run()'s packing, for a small heap): the page's heap
            # is large and grows, and each collection there is first-frame time on a slow phone
            from firmware import app

            gc.collect()
            await app.start(dev)
        except Exception as e:
            sys.print_exception(e)  # type: ignore[attr-defined]
        dev = None
        try:
            from firmware import mpy_internals

            mpy_internals.forget_run(loop_goes_on=True)
        except Exception:
            pass
        await asyncio.sleep_ms(500)  # type: ignore[attr-defined]


if sys.platform != "webassembly":  # a page's loop cannot block: firmware/webport.py starts start_async() instead
    run()
