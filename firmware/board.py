# The one board module: the rest of the firmware never touches pins, I2C or sockets directly.
# On a Pico it is the real hardware (board_pico); anywhere else (the `micropython` unix port) it is the
# host stand-in (board_host), whose buttons and screen reach the outside through a channel of their own.
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


def is_pico():
    return sys.platform == "rp2"


def make_board():
    """The board this firmware runs on."""
    if is_pico():
        import firmware.board_pico as impl
    else:
        import firmware.board_host as impl
    return impl.Board()
