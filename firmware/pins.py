"""The dashboard's pin map: plain integers, so it runs unchanged on any MicroPython port and on CPython.

hardware/pinout.md is the source of truth; tests/hardware checks that this file agrees with it.
Buttons connect their GPIO to GND: use Pin(n, Pin.IN, Pin.PULL_UP), so pressed reads 0.
"""

# The OLED: an SSD1306 128x64 on I2C0.
I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
# 1 MHz: a whole frame takes 9 ms of bus instead of 23 ms at 400 kHz, which alone broke the 20 ms from a tap to its
# screen. The SSD1306 datasheet gives 400 kHz; common modules run at 1 MHz. A module that shows garbage: 400_000.
I2C_FREQ = 1_000_000
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
