# The dashboard-tablet wire protocol (docs/protocol.md): one codec and two state machines, used unchanged
# by the Pico firmware (MicroPython) and the tablet (CPython).
