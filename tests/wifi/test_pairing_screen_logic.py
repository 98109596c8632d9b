"""The pairing screen's Wi-Fi part without a window (companion/wifi_pairing.py): what a plugged Pico's line says, the
tablet's network read from the system without side effects, and what sending a network keeps on the tablet: the
dashboard's key with the game, the table's id, and never the password."""

import os
import stat
import subprocess
import types

from companion import dashboards_wifi
from companion.wifi_pairing import DONE, NO_RADIO, NOT_SET, PLUG_IN, SENT, WifiPairing, tablet_network, wifi_line
from shared_rules.link import notes as note

PASSWORD = "correct horse battery"


def _ran(outputs):
    """A stand-in for subprocess.run: each command's stdout by its name; a name not given is not installed."""
    calls = []

    def run(cmd, **_kw):
        calls.append(cmd)
        return types.SimpleNamespace(stdout=outputs[cmd[0]])

    return run, (lambda name: "/usr/bin/" + name if name in outputs else None), calls


def test_the_tablets_network_is_read_from_nmcli_else_iwgetid_else_nothing():
    run, which, calls = _ran({"nmcli": "no:neighbours\nyes:track\\:7\n"})
    assert tablet_network(run, which, "linux") == "track:7"
    assert calls == [["nmcli", "-t", "-f", "active,ssid", "dev", "wifi"]]  # asked only, nothing changed
    run, which, _ = _ran({"iwgetid": "home\n"})
    assert tablet_network(run, which, "linux") == "home"
    run, which, _ = _ran({"nmcli": "no:neighbours\n"})  # on a cable: no active Wi-Fi
    assert tablet_network(run, which, "linux") == ""
    run, which, _ = _ran({})
    assert tablet_network(run, which, "linux") == ""
    assert tablet_network(run, which, "win32") == ""

    def broken(cmd, **_kw):
        raise subprocess.TimeoutExpired(cmd, 3)

    assert tablet_network(broken, lambda name: "/usr/bin/" + name, "linux") == ""


def test_a_plugged_picos_wifi_in_words():
    assert wifi_line(None) == NO_RADIO and "no Wi-Fi" in NO_RADIO
    assert wifi_line("") == NOT_SET == "Wi-Fi: not set"
    assert wifi_line("track") == "Wi-Fi: track"


class Transport:
    """The transport's two Wi-Fi calls, as the real one answers them (tests/wifi/test_pairing_by_plugging.py runs the
    real one end to end)."""

    def __init__(self, wifi):
        self.wifi = wifi
        self.sent = []

    def wifi_of(self, dev):
        return self.wifi.get(dev)

    def port_of(self, dev):
        return "link:3" if dev == "over-the-air" else "/dev/ttyACM0"

    def set_wifi(self, dev, ssid, password, table_id, key):
        if dev not in self.wifi:
            return None
        self.sent.append((dev, ssid, password, table_id, key))
        return "m.%d" % len(self.sent)


def test_sending_a_network_keeps_the_key_with_the_game_and_the_password_nowhere(tmp_path):
    game, data = str(tmp_path / "game.dash"), str(tmp_path / "data")
    os.makedirs(game)
    transport = Transport({"picow": "", "plain": None})
    answers = {}
    pairing = WifiPairing(transport, answers, game, data)
    assert pairing.offers("picow") and not pairing.offers("plain")
    assert pairing.line("picow") == NOT_SET and pairing.line("plain") == NO_RADIO

    assert pairing.send("picow", "track", PASSWORD) == SENT
    (dev, ssid, password, table_id, key), = transport.sent
    assert (dev, ssid, password) == ("picow", "track", PASSWORD)
    assert dashboards_wifi.dashboard_keys(game) == {"picow": key} and len(key) == 26
    assert table_id == dashboards_wifi.table_id(data)  # the same table id every time
    assert pairing.said("picow") is None  # not answered yet
    answers["picow"] = note.wifi("picow", "track", "", "")
    said = pairing.said("picow")
    assert said is not None and DONE in said and "Unplug it: it joins over Wi-Fi" in said
    keys_file = os.path.join(game, dashboards_wifi.KEYS_FILE)
    assert stat.S_IMODE(os.stat(keys_file).st_mode) == 0o600
    for folder, _dirs, files in os.walk(str(tmp_path)):
        for name in files:
            with open(os.path.join(folder, name), "rb") as f:
                assert PASSWORD.encode() not in f.read(), name

    # a Pico refusing: its words; a plain Pico: no Wi-Fi
    assert pairing.send("picow", "track", PASSWORD) == SENT
    answers["picow"] = note.wifi("picow", None, "bad", "network name not UTF-8")
    assert "network name not UTF-8" in pairing.said("picow")
    transport.wifi["plain"] = ""  # (a hello not yet heard again)
    assert pairing.send("plain", "track", PASSWORD) == SENT
    answers["plain"] = note.wifi("plain", None, "nowifi", "this dashboard has no Wi-Fi")
    assert "no Wi-Fi" in pairing.said("plain")


def test_a_network_the_pico_could_not_take_is_said_and_nothing_is_sent_or_kept(tmp_path):
    game = str(tmp_path / "game.dash")
    os.makedirs(game)
    transport = Transport({"picow": ""})
    pairing = WifiPairing(transport, {}, game, str(tmp_path / "data"))
    for ssid, password, words in (("", PASSWORD, "name"), ("n" * 33, PASSWORD, "name"), ("track", "short", "password"),
                                  ("track", "p" * 65, "password")):
        said = pairing.send("picow", ssid, password)
        assert words in said and password not in said, said
    assert transport.sent == [] and dashboards_wifi.dashboard_keys(game) == {}
    assert "not plugged in" in pairing.send("gone", "track", PASSWORD)
    transport.wifi["over-the-air"] = "track"  # linked over Wi-Fi: never sent a password over the air
    assert pairing.send("over-the-air", "track", PASSWORD) == PLUG_IN
    assert transport.sent == [] and dashboards_wifi.dashboard_keys(game) == {}
