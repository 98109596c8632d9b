"""The dashboard's heap on the emulated Pico, measured as bench/pico_bench.py measures pico.heap_free_kb_after_boot:
bench/pico_probe.py as the boot file, gc.mem_free() right after gc.collect() every 2 s from a task of the app's own
loop. The room a Pico W's Wi-Fi link needs comes out of what the power-on leaves."""

from bench import pico_bench
from tests.wait import until

# Free after a collection once the dashboard has booted, on an earlier firmware (the turn-2 dashboard, measured the
# same way): the power-on may take no more than it took then.
EARLIER_BOOT_FREE = 182320


def test_the_booted_dashboard_leaves_as_much_heap_as_an_earlier_firmware(pico, flashed_image, tmp_path):
    board = pico(flash=pico_bench.probe_image(flashed_image, str(tmp_path)))
    board.settled()

    def samples():
        return pico_bench.uart_values(board, "HEAP", "free")

    until(lambda: len(samples()) >= 2, 120, "two heap samples from the probe", every=0.2,
          seen=lambda: board.uart()[-1000:])
    assert min(samples()) >= EARLIER_BOOT_FREE, samples()
