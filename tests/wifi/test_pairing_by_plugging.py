"""Pairing a Pico W by plugging it in once, then playing without the cable: the whole dashboard app (firmware/main.py)
on the `micropython` unix port with the stand-in radio, its USB link a pty through a relay that can be unplugged, the
tablet's real transport, phones' server (the dashboard's link socket) and beacon, all on loopback. The network set
at pairing is stored on the dashboard apart from its save and never comes back: every byte the dashboard sends, on
USB and over Wi-Fi (its WebSocket frames unmasked), on its console and its viewer channel, is searched for it."""

import base64
import json
import logging
import os
import socket
import subprocess
import threading

import pytest

from companion import dashboards_wifi, wifi_pairing
from companion.dashboards_wifi import Beacon
from companion.phones.server import PhoneServer
from companion.transport import AllPorts, Transport
from companion.transport.pyserial_backend import PyserialPorts
from companion.transport.websocket_backend import LinkPorts
from companion.wifi_pairing import WifiPairing
from tests import mpy
from tests.firmware.dash import VirtualDashboard
from tests.link.harness import FAST, FakeUsb, Notes, Relay, raw_pty, wait_for
from tests.portable import link_script
from tests.wifi.harness import STANDIN, Air

PASSWORD = "correct horse battery"
SSID = "track"
TABLE = "table-7"
LAPS = 3  # the dashboard app's own, before the table syncs it


def _free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Recorder:
    """A loopback TCP relay between the dashboard and the tablet's server that keeps every byte the dashboard sends."""

    def __init__(self, to_port):
        self.to_port = to_port
        self.up = []  # one bytearray per connection, what the dashboard sent on it
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while self.running:
            try:
                dash, _ = self.listener.accept()
            except OSError:
                return
            table = socket.create_connection(("127.0.0.1", self.to_port))
            kept = bytearray()
            self.up.append(kept)
            threading.Thread(target=self._pump, args=(dash, table, kept), daemon=True).start()
            threading.Thread(target=self._pump, args=(table, dash, None), daemon=True).start()

    @staticmethod
    def _pump(src, dst, kept):
        try:
            while True:
                data = src.recv(4096)
                if not data:
                    break
                if kept is not None:
                    kept.extend(data)
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self):
        self.running = False
        self.listener.close()


def unmasked(stream):
    """What a WebSocket client sent: its HTTP request, then each frame's payload unmasked (RFC 6455 5.3)."""
    head_end = stream.find(b"\r\n\r\n")
    if head_end < 0:
        return bytes(stream)
    out = bytearray(stream[: head_end + 4])
    at = head_end + 4
    while at + 2 <= len(stream):
        n = stream[at + 1] & 127
        head = 2
        if n == 126:
            n = int.from_bytes(stream[at + 2 : at + 4], "big")
            head = 4
        elif n == 127:
            n = int.from_bytes(stream[at + 2 : at + 10], "big")
            head = 10
        masked = stream[at + 1] & 128
        mask = stream[at + head : at + head + 4] if masked else b"\0\0\0\0"
        start = at + head + (4 if masked else 0)
        out.extend(b ^ mask[i & 3] for i, b in enumerate(stream[start : start + n]))
        at = start + n
    return bytes(out)


@pytest.fixture
def table(tmp_path):
    """The tablet: USB ports (the relay's pty, shown as a Pico) and link sockets, the beacon, a recorder."""
    made = []
    usb = FakeUsb()
    links = LinkPorts()
    t = Transport(AllPorts(PyserialPorts(usb), links), FAST)
    t.start()
    made.append(t)
    server = PhoneServer(links, files=object())
    port = server.start("127.0.0.1", 0)
    made.append(server)
    recorder = Recorder(port)
    made.append(recorder)
    beacon_port = _free_port(socket.SOCK_DGRAM)
    data = tmp_path / "data"  # the app's data folder: the table's id
    table_id = dashboards_wifi.table_id(str(data))
    made.append(Beacon(table_id, recorder.port, to=[("127.0.0.1", beacon_port)], every_s=0.2).start())
    yield t, usb, server, recorder, beacon_port
    for thing in reversed(made):
        thing.stop()


@pytest.fixture
def plugged(tmp_path, table):
    """The Pico W dashboard app on a pty, behind a relay the test plugs and unplugs (its USB cable)."""
    t, usb, _key, _recorder, beacon_port = table
    (tmp_path / "air").mkdir()  # the stand-in access point's own (it knows the password): not the dashboard's files
    air = Air(tmp_path / "air", ssid=SSID, password=PASSWORD, join_ms=200)
    master, slave = raw_pty()
    d = VirtualDashboard(str(tmp_path), dev="picow-1", heap="256K", path_extra=(STANDIN,), stdin=slave, stdout=slave,
                         env={"F1_AIR": air.path, "F1_BEACON": "127.0.0.1:%d" % beacon_port})
    d.start()
    os.close(slave)
    relay = Relay(master)
    sent_on_usb = bytearray()

    def keep(way, line):
        if way == "up":
            sent_on_usb.extend(line)
        return [line]

    relay.sieve = keep
    yield d, relay, usb, sent_on_usb
    relay.close()
    d.kill()
    os.close(master)


def plug(relay, usb):
    usb.paths = [relay.plug()]


def unplug(relay, usb):
    usb.paths = []
    relay.unplug()


def _answered_all(notes, ids):
    return notes.drain() is not None and set(ids) <= set(notes.answered())


def test_paired_by_plugging_once_it_plays_over_wifi_and_back_on_usb_losing_and_doubling_nothing(
        tmp_path, table, plugged, caplog):
    caplog.set_level(logging.DEBUG)  # every log line of the tablet's side, searched for the password at the end
    t, usb, server, recorder, _beacon = table
    d, relay, _usb, sent_on_usb = plugged
    notes = Notes(t)
    plug(relay, usb)
    assert wait_for(lambda: notes.of("hello", d.dev), 20), "the plugged dashboard never said hello"
    game = tmp_path / "game.dash"  # the game's dashboards folder: the key is kept there
    game.mkdir()
    answers = {}  # the app's LinkBridge.wifi
    pairing = WifiPairing(t, answers, str(game), str(tmp_path / "data"))
    assert pairing.offers(d.dev) and pairing.line(d.dev) == "Wi-Fi: not set"  # a Pico W with nothing set

    assert pairing.send(d.dev, SSID, PASSWORD) == wifi_pairing.SENT
    answer = wait_for(lambda: notes.of("wifi", d.dev), 10)
    assert answer and answer[-1].ssid == SSID and answer[-1].code == "", notes.all
    answers[d.dev] = answer[-1]
    said = pairing.said(d.dev)
    assert said is not None and wifi_pairing.DONE in said, said
    assert pairing.line(d.dev) == "Wi-Fi: " + SSID
    key = dashboards_wifi.dashboard_keys(str(game))[d.dev]
    server.serve_dashboards({key: "Ann"})  # the table serves the key it made (the app does it from the game's keys)
    with open(os.path.join(str(tmp_path), "wifi.json")) as f:
        stored = json.load(f)
    table_id = dashboards_wifi.table_id(str(tmp_path / "data"))
    assert stored == {"ssid": SSID, "password": PASSWORD, "table": table_id, "key": key}

    cmds = link_script.commands(16)
    for cid, name, args in cmds[:4]:
        t.send(d.dev, name, args, cid)
    assert wait_for(lambda: _answered_all(notes, [c[0] for c in cmds[:4]]), 20), notes.all
    assert str(t.port_of(d.dev)).startswith("/dev/"), "USB holds the seat while plugged in"

    # Unplugged: the USB link falls silent, the dashboard joins the Wi-Fi, finds its table by the beacon and links
    unplug(relay, usb)
    for cid, name, args in cmds[4:10]:  # sent while it moves: each reaches it once, over Wi-Fi
        t.send(d.dev, name, args, cid)
    assert wait_for(lambda: str(t.port_of(d.dev)).startswith("link:"), 30), (t.port_of(d.dev), notes.all[-5:])
    assert wait_for(lambda: _answered_all(notes, [c[0] for c in cmds[:10]]), 20), notes.all
    assert wait_for(lambda: "WI-FI" in d.rows()[1] and "-55DBM" in d.rows()[4], 10), d.rows()  # how, and signal
    assert t.wifi_of(d.dev) == SSID  # its hello over Wi-Fi names the network too
    with open(os.path.join(str(tmp_path), "wifi.json"), "rb") as f:
        before = f.read()
    assert pairing.send(d.dev, "other", "another secret") == wifi_pairing.PLUG_IN  # not over the air
    assert t.set_wifi(d.dev, "other", "another secret", "table-x", "b" * 26)  # and a table that tries is refused
    refused = wait_for(lambda: [n for n in notes.of("wifi", d.dev) if n.code == "unplugged"], 10)
    assert refused and refused[-1].ssid is None, notes.all
    with open(os.path.join(str(tmp_path), "wifi.json"), "rb") as f:
        assert f.read() == before

    # Plugged in again: USB takes the seat back
    plug(relay, usb)
    for cid, name, args in cmds[10:]:
        t.send(d.dev, name, args, cid)
    assert wait_for(lambda: str(t.port_of(d.dev)).startswith("/dev/"), 30), t.port_of(d.dev)
    assert wait_for(lambda: _answered_all(notes, [c[0] for c in cmds]), 20), notes.all
    assert wait_for(lambda: "TABLET" in d.rows()[1], 10), d.rows()

    # nothing lost, nothing doubled: each command answered once, in order, and the car is each applied once
    assert notes.answered(d.dev) == [c[0] for c in cmds]
    assert [n.code for n in notes.of("refused", d.dev)] == []
    expected = link_script.expected(cmds, laps=LAPS)
    assert wait_for(lambda: t.snapshot(d.dev) == expected, 10), (t.snapshot(d.dev), expected)

    # The password is stored on the dashboard only, apart from its save, and never came back
    secrets = [PASSWORD.encode(), base64.b64encode(PASSWORD.encode())]
    over_wifi = b"".join(unmasked(bytes(s)) for s in recorder.up)
    assert b"GET /dashboard/%s/link" % key.encode() in over_wifi and b"~{" in over_wifi, "nothing recorded on Wi-Fi"
    d.proc.kill()  # a power cut, then its console (stderr) read to the end
    d.proc.wait()
    console = d.proc.stderr.read()
    for place, data in (("USB", bytes(sent_on_usb)), ("Wi-Fi", over_wifi), ("console", console)):
        for secret in secrets:
            assert secret not in data, "the password went out on " + place
    assert PASSWORD not in caplog.text and PASSWORD not in said
    for folder, _dirs, files in os.walk(str(tmp_path)):
        for name in files:
            path = os.path.join(folder, name)
            if os.path.dirname(path) == str(tmp_path / "air") or path == os.path.join(str(tmp_path), "wifi.json"):
                continue  # the stand-in access point's, and the dashboard's own place for it
            if not os.path.isfile(path):
                continue  # the viewer channel's socket
            with open(path, "rb") as f:
                assert PASSWORD.encode() not in f.read(), path + " holds the password"


def _answer(script_lines):
    """Run WifiConf on the unix port (the real module) over a list of messages; prints each answer and the file."""
    script = "\n".join(script_lines)
    proc = mpy.run(["-c", script], heap="128K", path_extra=(STANDIN,))
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode()


BAD = (
    ({"id": "x.1", "pw": "", "tb": TABLE, "k": "k" * 26}, "network name missing"),
    ({"id": "x.2", "s": base64.b64encode(b"n" * 33).decode(), "pw": "", "tb": TABLE, "k": "k" * 26},
     "network name must be 1 to 32 bytes"),
    ({"id": "x.3", "s": base64.b64encode(b"\xff\xfe").decode(), "pw": "", "tb": TABLE, "k": "k" * 26},
     "network name not UTF-8"),
    ({"id": "x.4", "s": "dHJhY2s=", "pw": base64.b64encode(b"p" * 65).decode(), "tb": TABLE, "k": "k" * 26},
     "password must be 0 to 64 bytes"),
    ({"id": "x.5", "s": "dHJhY2s=", "pw": base64.b64encode(b"short").decode(), "tb": TABLE, "k": "k" * 26},
     "password must be empty or 8 to 64 bytes"),
    ({"id": "x.6", "s": "dHJhY2s=", "pw": base64.b64encode(b"\xc3(\xc3(\xc3(\xc3(").decode(), "tb": TABLE,
      "k": "k" * 26}, "password not UTF-8"),
    ({"id": "x.7", "s": "dHJhY2s=", "pw": "", "k": "k" * 26}, "table id must be"),
    ({"id": "x.8", "s": "dHJhY2s=", "pw": "", "tb": TABLE, "k": "short"}, "key must be"),
    ({"s": "dHJhY2s=", "pw": "", "tb": TABLE, "k": "k" * 26}, "wifi needs an id"),
)


def test_bad_wifi_settings_get_a_clear_error_and_change_nothing(tmp_path):
    path = os.path.join(str(tmp_path), "wifi.json")
    good = {"t": "wifi", "id": "ok.1", "s": base64.b64encode(SSID.encode()).decode(),
            "pw": base64.b64encode(PASSWORD.encode()).decode(), "tb": TABLE, "k": "a" * 26}
    lines = ["import json", "from firmware.ondemand.wifi_conf import WifiConf", "c = WifiConf(%r)" % path,
             "print(json.dumps(c.answer(%r)))" % good, "before = open(%r, 'rb').read()" % path]
    for msg, _why in BAD:
        lines.append("print(json.dumps(c.answer(%r)))" % dict(msg, t="wifi"))
        lines.append("assert open(%r, 'rb').read() == before" % path)
    lines.append("print(json.dumps(c.answer(None)))")
    out = _answer(lines).splitlines()
    answers = [json.loads(line) for line in out]
    assert answers[0] == {"t": "wifi", "id": "ok.1", "w": "dHJhY2s="}, answers[0]
    assert len(answers) == len(BAD) + 2, out
    for (msg, why), answer in zip(BAD, answers[1:], strict=False):
        assert why in answer["m"] and answer["e"] and "w" not in answer, (msg, answer)  # said, and nothing set
    assert answers[-1] == "dHJhY2s="  # the network set before every bad one, still
    for line in out:
        assert PASSWORD not in line and good["pw"] not in line


def _imported(extra_path, tmp_path, air=None):
    """The modules the dashboard app has loaded a moment after it started (no tablet), on the unix port."""
    script = """
import sys, asyncio
from firmware import board as b
from firmware import app
dev = b.make_board()
async def main():
    a = app.App(dev)
    asyncio.create_task(a.run())
    await asyncio.sleep_ms(300)
    print(" ".join(sorted(sys.modules)))
asyncio.run(main())
"""
    env = dict(os.environ, MICROPYPATH=mpy.micropypath(*extra_path), F1DASH_STATE=os.path.join(str(tmp_path), "s"))
    env.pop("F1_AIR", None)
    if air is not None:
        env["F1_AIR"] = air  # the stand-in radio's air: the unix port has a radio only then
    proc = subprocess.run([mpy.micropython_path(), "-X", "heapsize=256K", "-c", script], env=env, cwd=mpy.ROOT,
                          capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode().split()


def test_a_board_without_a_radio_loads_nothing_of_wifi_and_one_with_a_radio_only_what_it_needs(tmp_path):
    plain = _imported((), tmp_path)
    assert "firmware.app" in plain
    assert [m for m in plain if "wifi" in m or m == "network"] == [], plain
    radio = _imported((STANDIN,), tmp_path, air=os.path.join(str(tmp_path), "air.json"))
    # nothing stored yet: the seat and its settings, not the link nor the radio's driver (loaded once there is a
    # network to join)
    assert {"firmware.ondemand.wifi_seat", "firmware.ondemand.wifi_conf"} <= set(radio), radio
    assert "firmware.ondemand.wifi_link" not in radio and "network" not in radio


def test_the_dashboard_says_its_wifi_state_in_words(tmp_path):
    """A Pico W with a network stored and no table plugged in: its main screen says why it has no table yet."""
    (tmp_path / "air").mkdir()
    air = Air(tmp_path / "air", ssid=SSID, password="not the one stored", join_ms=100)
    with open(os.path.join(str(tmp_path), "wifi.json"), "w") as f:  # as pairing stored it
        json.dump({"ssid": SSID, "password": PASSWORD, "table": "table-1", "key": "k" * 26}, f)
    d = VirtualDashboard(str(tmp_path), dev="picow-2", path_extra=(STANDIN,),
                         env={"F1_AIR": air.path, "F1_BEACON": "127.0.0.1:%d" % _free_port(socket.SOCK_DGRAM)})
    d.start()
    try:
        assert wait_for(lambda: d.rows()[7].strip() == "WRONG PASSWORD", 20), d.rows()
        assert "WI-FI" in d.rows()[1]
        air.write(password=PASSWORD)  # the network's password is the one stored after all: joined, no table heard
        assert wait_for(lambda: d.rows()[7].strip() == "NO TABLE FOUND", 20), d.rows()
        air.write(up=False)
        assert wait_for(lambda: d.rows()[7].strip() == "NO WI-FI NETWORK", 20), d.rows()
    finally:
        d.kill()
