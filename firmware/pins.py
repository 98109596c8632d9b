"""The dashboard's pin map: plain integers, so it runs unchanged on any MicroPython port and on CPython.

hardware/pinout.md is the source of truth; tests/hardware checks that this file agrees with it.
Buttons connect their GPIO to GND: use Pin(n, Pin.IN, Pin.PULL_UP), so pressed reads 0.
"""

# The OLED: an SSD1306 128x64 on I2C0.
I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 400_000
OLED_ADDR = 0x3C
OLED_WIDTH = 128
OLED_HEIGHT = 64

# The five buttons (active low, internal pull-ups).
BTN_UP = 6
BTN_DOWN = 7
BTN_OK = 8
BTN_CARD = 9
BTN_BACK = 10

# Turn LED (through its resistor, 1 = on) and the piezo (driven with machine.PWM).
LED = 15
PIEZO = 16
