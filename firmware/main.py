# Boot entry (copied to the board's root as main.py). Kept tiny: run the app; on an unexpected error
# print it (the link skips non-frame lines) and start the app again. Ctrl-C (KeyboardInterrupt) is never
# caught, so mpremote can always take the board over.
import gc
import sys
import time

BOOT_GC_BYTES = 4096


def run():
    while True:
        try:
            gc.collect()
            from firmware import board

            dev = board.make_board()  # its buffers first, while the heap is still in one piece
            # Collect every few KB while the modules load: what each load leaves behind (its top-level code) is
            # freed before the next module is placed, so the code that stays packs together instead of around
            # holes (the boot needs 13 KB less heap; see bench/firmware_bench.py). The app ends this once it runs.
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
            import asyncio

            asyncio.new_event_loop()  # drops the other tasks
            core = asyncio.core  # type: ignore[attr-defined]
            core.cur_task = None
            core._exc_context["exception"] = core._exc_context["future"] = None
        except Exception:
            pass
        time.sleep_ms(500)


run()
