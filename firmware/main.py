# Boot entry (copied to the board's root as main.py). Kept tiny: run the app; on an unexpected error
# print it (the link skips non-frame lines) and start the app again. Ctrl-C (KeyboardInterrupt) is never
# caught, so mpremote can always take the board over.
import gc
import sys
import time

BOOT_GC_BYTES = 4096


def start():
    """One run of the app. Its board and app live in this frame only: gone once it raises."""
    from firmware import board

    dev = board.make_board()  # its buffers first, while the heap is still in one piece
    # Collect every few KB while the modules load: what each load leaves behind (its top-level code) is
    # freed before the next module is placed, so the code that stays packs together instead of around
    # holes (the boot needs 13 KB less heap; see bench/firmware_bench.py). The app ends this once it runs.
    gc.threshold(BOOT_GC_BYTES)
    from firmware import app

    gc.collect()
    app.main(dev)


def forget_failed_run():
    # asyncio keeps the task that failed (as its current task, and in the context it gave the exception
    # handler), and that task's frame holds the whole app: after a MemoryError the retry would find the heap
    # as full as it was. A fresh event loop drops the old tasks; these two are asyncio's own globals.
    import asyncio

    asyncio.new_event_loop()
    core = asyncio.core  # type: ignore[attr-defined]
    core.cur_task = None
    core._exc_context["exception"] = core._exc_context["future"] = None


def run():
    while True:
        try:
            gc.collect()
            start()
        except KeyboardInterrupt:
            raise
        except Exception as e:  # a bug must not leave a player with a dead dashboard
            sys.print_exception(e)  # type: ignore[attr-defined]
        try:
            forget_failed_run()
        except Exception:
            pass
        time.sleep_ms(500)


run()
