# Freezes the Pico dashboard into your own MicroPython firmware build, micropython-lib style:
#     make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/firmware/manifest.py
# Frozen modules run from flash; the .mpy files `make flash` copies are loaded into RAM (heap) on import.
# Paths are relative to this file. tests/firmware/test_manifest.py checks every module below exists and that
# every module in firmware/ is either frozen here or listed in HOST_ONLY. tools/flash.py copies the same list.

metadata(description="Formula 1 dashboard for the Raspberry Pi Pico", version="0.2.0")

# A FROZEN_MANIFEST replaces the board's own: keep the port's modules (asyncio, and _boot.py, which mounts
# the filesystem the dashboard saves its state on).
include("$(PORT_DIR)/boards/manifest.py")

# No OLED driver: the dashboard sends the SSD1306's commands itself (board_pico.py).

# The game rules and wire protocol, all of them (package() without a file list takes every .py in the folder):
# frozen modules cost flash, not heap, and every shared_rules module runs on MicroPython by design
# (tests/rules/test_portability.py), so a module the dashboard starts to import later is already there.
package("shared_rules", base_path="..")

# Never frozen, never copied by `make flash` (tools/flash.py copies what this file freezes): the unix port's
# stand-in board (sockets; board.make_board() imports it only off the Pico), and the link run on its own, which
# the tests and the bench start on the unix port (`micropython firmware/host/link_main.py`).
# The Wi-Fi link's stand-in radio and its runner are the tests' (firmware/host/network_standin.py says why).
HOST_ONLY = ("host/__init__.py", "host/board_host.py", "host/link_main.py", "host/network_standin.py",
             "host/wifi_main.py")

# Never frozen either: the phone's board, what the browser's MicroPython lacks (firmware/webport.py) and the browser's
# asyncio internals it uses. The seat page loads every module this file freezes, and these (companion/phones/assets.py).
WEB_ONLY = ("board_web.py", "webport.py", "mpy_internals_web.py")
# Frozen, yet never sent to a phone: its page links over its own socket, never through a radio of its own.
NOT_ON_PHONES = ("ondemand/wifi_conf.py", "ondemand/wifi_link.py", "ondemand/wifi_seat.py")

# main.py is frozen inside the package, as firmware/main.py (`import firmware.main` starts the dashboard),
# never as a top-level main.py: MicroPython runs a frozen main.py ahead of the filesystem's /main.py, so the
# board could no longer be given a different boot file (or go back to `make flash`) without a rebuild. The
# boot file stays on the filesystem: a one-line /main.py, `import firmware.main`.
package(
    "firmware",
    files=(
        "__init__.py",
        "app.py",
        "board.py",
        "board_pico.py",
        "buttons.py",
        "display.py",
        "keeper.py",
        "main.py",
        "mpy_internals.py",
        "pins.py",
        "restore.py",
        "screens.py",
        "ui.py",
        # loaded on demand: Formula 5, the tablet link and its journal, standalone play, the save, the self-test
        "ondemand/__init__.py",
        "ondemand/f5_screens.py",
        "ondemand/f5_ui.py",
        "ondemand/journal.py",
        "ondemand/link.py",
        "ondemand/selftest.py",
        "ondemand/solo.py",
        "ondemand/store.py",
        # a Pico W's Wi-Fi (a plain Pico never imports them: no `network`): its network set at pairing, its link to
        # the table, and the seat that takes the Wi-Fi link while USB does not
        "ondemand/wifi_conf.py",
        "ondemand/wifi_link.py",
        "ondemand/wifi_seat.py",
    ),
    base_path="..",
)
