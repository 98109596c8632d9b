"""A plain Pico (the official RPI_PICO UF2: no `network` module) asked to join a Wi-Fi network at pairing says it has
no Wi-Fi: its hello names no network, its answer is "nowifi", and it plays on over USB as before. The tablet's own
Transport against the dashboard flashed onto the emulated Pico (skipped, with the reason, where picosim is missing)."""

from companion.transport import Transport
from companion.transport.pyserial_backend import PyserialPorts
from tests.pico.test_tablet_link import Notes


def test_a_plain_pico_says_it_has_no_wifi_and_plays_on(pico):
    board = pico()
    board.settled(quiet_ms=1000)  # booted, and its first save written
    t = Transport(PyserialPorts(list_ports_fn=lambda: [], named=[board.tty]))
    notes = Notes(t)
    t.start()
    try:
        dev = notes.wait(lambda n: n[0] == "hello")[1]
        assert t.wifi_of(dev) is None  # its hello names no network: it has no radio
        assert t.set_wifi(dev, "track", "correct horse battery", "table-1", "a" * 26)
        answer = notes.wait(lambda n: n[0] == "wifi", 30)
        assert answer.dev == dev and answer.ssid is None and answer.code == "nowifi", answer
        assert "no Wi-Fi" in answer.message
        cid = t.send(dev, "turn", {"on": 1})  # and it plays on over USB
        done = notes.wait(lambda n: n[0] in ("done", "refused") and n[2] == cid, 30)
        assert done[0] == "done", done
        board.wait_rows(lambda rows: rows[1].endswith("TABLET") or rows[0].startswith("SET SPEED"))
    finally:
        t.stop()
