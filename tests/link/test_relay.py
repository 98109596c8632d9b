"""The fault-injecting relay of tests/link/harness.py keeps the last lines a dashboard wrote that are not frames:
an error firmware/main.py printed before it started the app again, which the tablet skips and a failing table test
shows (tests/table/table.py, Table.describe). A dashboard of the soak's long race that ran out of memory loading its
link after the last power cycle stayed `link=lost` for 30 s, and nothing said why."""

import os

from tests.link.harness import Relay, raw_pty
from tests.wait import until

TRACEBACK = b"Traceback (most recent call last):\r\nMemoryError: memory allocation failed, allocating 1552 bytes\r\n"
FRAME = b'~{"n":1,"t":"hb"}|00000000\n'


def test_the_relay_keeps_what_the_dashboard_printed_that_is_not_a_frame():
    dash_master, dash_slave = raw_pty()
    relay = Relay(dash_master)
    try:
        relay.plug()
        os.write(dash_slave, FRAME + TRACEBACK + FRAME)
        until(lambda: len(relay.printed) == 2, 10, "the two printed lines kept", seen=lambda: relay.printed)
        assert relay.printed == [b"Traceback (most recent call last):\r",
                                 b"MemoryError: memory allocation failed, allocating 1552 bytes\r"]
        assert not any(line.startswith(b"~") for line in relay.printed)  # frames are the tablet's, not kept here
    finally:
        relay.close()
        os.close(dash_slave)
        os.close(dash_master)
