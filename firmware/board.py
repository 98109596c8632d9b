# The one board module: the rest of the firmware never touches pins, I2C or sockets directly.
# On a Pico it is the real hardware (board_pico); in a phone's browser, the page (board_web, on MicroPython's
# WebAssembly port); anywhere else (the `micropython` unix port) it is the host stand-in (board_host), whose buttons
# and screen reach the outside through a channel of their own.
import sys

# Button order is the bit order of Board.buttons(): bit i is BUTTONS[i].
BUTTONS = ("UP", "DOWN", "OK", "CARD", "BACK")
UP = 0
DOWN = 1
OK = 2
CARD = 3
BACK = 4

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8  # SSD1306 pages: 8 pixel rows each, 128 bytes (MONO_VLSB)

# What every board offers (board_pico.Board, board_host.Board, board_web.Board):
#   buf, fb            the framebuffer's bytes and the framebuf.FrameBuffer drawing into them
#   pages              one memoryview of buf per page, made once: display.py compares them
#   narrow             1 if part of a page can be sent (display.py then finds the changed 8-column cells)
#   send(rects, n)     put n rectangles [first page, last page, first cell, end cell] on the panel
#   buttons()          bit i set while BUTTONS[i] is held down
#   latch, flag        every button edge as it happened (firmware/buttons.Latch), and the asyncio.ThreadSafeFlag
#                      set with each: a pin interrupt on a Pico, the viewer's lines on the host, the page's buttons
#   led(on), tone(hz)  the turn LED, the piezo (0 = off)
#   emit(line), viewer, serve(app), wait_viewer(ms)   the host's viewer channel (nothing on a Pico; on a phone, emit's
#                      "W n" stores the save in the browser)
#   state_path, poll_ms (the scan while a button is held), debounce_ms
# A board reaches the app only through what the app hands it (serve(app)); it imports none of the app's modules.
# The same, as the list tests/firmware/test_board_contract.py holds the three boards to (methods with their
# parameters; "async" for a coroutine the app awaits or runs as a task):
INTERFACE = (
    "buf", "fb", "pages", "narrow", "send(rects, n)", "buttons()", "latch", "flag", "led(on)", "tone(hz)",
    "emit(line)", "viewer", "async serve(app)", "async wait_viewer(ms)", "state_path", "poll_ms", "debounce_ms",
)
# And the other way: what a board may call on the app that serve(app) hands it (the host's viewer asks for the
# whole screen again, hands it a button edge at once, waits for its save), and nothing else.
APP_INTERFACE = ("resend()", "scan_buttons()", "async saved()")


def page_mask(rects, n):
    """The pages the first n rectangles of display.py cover, bit p for page p: what a board that takes whole pages
    (narrow = 0) sends."""
    mask = 0
    for k in range(n):
        r = rects[k]
        for p in range(r[0], r[1] + 1):
            mask |= 1 << p
    return mask


def make_board():
    """The board this firmware runs on."""
    if sys.platform == "rp2":
        import firmware.board_pico as impl
    elif sys.platform == "webassembly":  # a phone's browser (MicroPython's WebAssembly port)
        import firmware.board_web as impl
    else:
        import firmware.host.board_host as impl
    return impl.Board()
