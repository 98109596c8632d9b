# bench/pico_bench.py's boot file on the emulated Pico (copied to /main.py, the firmware's own main.py beside it as
# /dash_main.py): the dashboard as flashed, plus two measurements written to UART0, which picosim copies to its log:
#   SAVE us=N step=N at=T steps=A,B,..   each save: the time of its own steps added up (the presses handled between
#                        them left out), its longest step (the longest the buttons waited for it), when it started
#                        (ticks_us) and each step's time
#   HEAP free=N          every 2 s, from a task of the app's own loop: gc.mem_free() right after gc.collect()
#   ACK us=N             with a file /ack_probe on the board: each tablet command, from the moment the link's task
#                        saw bytes waiting (its readable() returned) to its answer written
# Each byte goes straight into UART0's data register (machine.UART(0) never returns in picosim: see its README).
import time

import machine
from micropython import const

_UARTDR = const(0x40034000)


def _out(b):
    m = machine.mem32
    for c in b:
        m[_UARTDR] = c


def _timed_steps(steps):
    def timed(path, data):
        work = longest = 0
        each = []
        at = time.ticks_us()
        g = steps(path, data)
        while True:
            t = time.ticks_us()
            try:
                next(g)
                done = 0
            except StopIteration:
                done = 1
            d = time.ticks_diff(time.ticks_us(), t)
            work += d
            longest = max(longest, d)
            each.append(d)
            if done:
                break
            yield
        _out(b"SAVE us=%d step=%d at=%d steps=%s\n" % (work, longest, at, ",".join(str(d) for d in each)))

    return timed


async def _heap():
    import asyncio
    import gc

    while True:
        await asyncio.sleep_ms(2000)
        gc.collect()
        _out(b"HEAP free=%d\n" % gc.mem_free())


def _timed_commands():
    from firmware import mpy_internals
    from shared_rules.link import dashboard

    seen = [0]
    readable = mpy_internals.readable
    command = dashboard.DashboardProtocol._command

    async def timed_readable(stream):
        await readable(stream)
        seen[0] = time.ticks_us()

    def timed_command(self, msg, now_ms):
        command(self, msg, now_ms)
        _out(b"ACK us=%d\n" % time.ticks_diff(time.ticks_us(), seen[0]))

    mpy_internals.readable = timed_readable
    dashboard.DashboardProtocol._command = timed_command


def _install():
    import asyncio
    import os

    try:
        os.stat("ack_probe")
        _timed_commands()
    except OSError:
        pass

    try:
        from firmware.ondemand import store
    except ImportError:  # the bench's baseline (a firmware from before the ondemand/ folder) runs this probe too
        from firmware import store

    store.steps = _timed_steps(store.steps)
    run = asyncio.run

    def with_heap(coro):
        async def both():
            asyncio.create_task(_heap())
            await coro

        return run(both())

    asyncio.run = with_heap


_install()
import dash_main  # noqa: E402,F401  (the firmware's boot file: runs the app, never returns)
