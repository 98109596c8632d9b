"""The dashboard flashed with tools/flash.py onto the emulated Pico (the official MicroPython RP2040 firmware)
boots to its main screen on the OLED and answers its buttons. Costs the session's flash (about 25 s, shared by
tests/pico) and about 5 s."""


def test_flashed_dashboard_boots_to_its_main_screen_and_answers_a_button(pico):
    board = pico()
    board.settled(quiet_ms=1000)  # the first screen (one write: the driver sends no blank frame first)
    rows = board.rows()
    assert rows[0].startswith("WAIT") and "LAPS 3" in rows[0], rows
    assert "MPH" in rows[3], rows
    board.tap("OK")
    board.settled()
    assert board.rows()[0].startswith("SET SPEED"), board.rows()
