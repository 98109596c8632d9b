# The real dashboard: a Pico (or Pico 2), an SSD1306 on I2C, five buttons to GND, a turn LED, a piezo.
# Pin numbers come from firmware/pins.py (checked against hardware/pinout.md). The `ssd1306` driver is
# micropython-lib's, installed on the board with `mpremote mip install ssd1306` (see tools/flash.py).
import machine
import ssd1306  # type: ignore[import-not-found]  # installed on the board by mip, not in the repo

from firmware import board as b
from firmware import pins

BUTTON_PINS = (pins.BTN_UP, pins.BTN_DOWN, pins.BTN_OK, pins.BTN_CARD, pins.BTN_BACK)  # order of b.BUTTONS


class Board:
    name = "pico"
    viewer = 0
    poll_ms = 10  # scan every 10 ms: a press shows well within 30 ms
    debounce_ms = 20  # tactile switches settle within a few ms; 20 also ignores a shaky finger
    state_path = "/state.json"

    def __init__(self):
        self._buttons = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in BUTTON_PINS]
        self._led = machine.Pin(pins.LED, machine.Pin.OUT, value=0)
        self._piezo = machine.PWM(machine.Pin(pins.PIEZO), freq=2000, duty_u16=0)
        i2c = machine.I2C(pins.I2C_ID, sda=machine.Pin(pins.I2C_SDA), scl=machine.Pin(pins.I2C_SCL),
                          freq=pins.I2C_FREQ)
        self.oled = ssd1306.SSD1306_I2C(pins.OLED_WIDTH, pins.OLED_HEIGHT, i2c, addr=pins.OLED_ADDR)
        self.buf = self.oled.buffer
        self.fb = self.oled  # SSD1306_I2C is a FrameBuffer over self.buf
        mv = memoryview(self.buf)
        self.pages = [mv[p * b.WIDTH : (p + 1) * b.WIDTH] for p in range(b.PAGES)]

    def unique_id(self):
        return "".join("%02x" % x for x in machine.unique_id())

    def buttons(self):
        levels = 0
        for i, pin in enumerate(self._buttons):
            if not pin.value():  # pulled up: pressed reads 0
                levels |= 1 << i
        return levels

    def send_pages(self, mask):
        # Only the changed pages: set the column window to the full width and the page window to one page,
        # then send that page's 128 bytes (about 3 ms each at 400 kHz instead of 23 ms for a whole frame).
        o = self.oled
        for p in range(b.PAGES):
            if mask & (1 << p):
                o.write_cmd(0x21)  # column address
                o.write_cmd(0)
                o.write_cmd(b.WIDTH - 1)
                o.write_cmd(0x22)  # page address
                o.write_cmd(p)
                o.write_cmd(p)
                o.write_data(self.pages[p])

    def contrast(self, level):
        self.oled.contrast(level)

    def led(self, on):
        self._led.value(1 if on else 0)

    def tone(self, hz):
        if hz:
            self._piezo.freq(hz)
            self._piezo.duty_u16(32768)
        else:
            self._piezo.duty_u16(0)

    def emit(self, line):
        pass  # no viewer channel on the device: the screen is the screen

    async def serve(self, app):
        return

    async def wait_viewer(self, ms):
        return
