"""Pairing a Pico W by plugging it in once (the pairing screen's Wi-Fi part; its look is wifi_pairing.kv).

A plugged Pico says in its hello whether it has a radio and the network it is set to (docs/protocol.md §15a): the
screen shows "Wi-Fi: not set", "Wi-Fi: <network>", or that this Pico has no Wi-Fi (and offers none). The host types
the network's name (prefilled with the tablet's own network where the system says it) and its password; the tablet
sends them over the USB link with the table's id and a fresh key for the dashboard, keeps the key with the game
(companion/dashboards_wifi.py keep_key) and forgets the password: it is never logged, saved or shown.
"""

import shutil
import subprocess
import sys

from companion import dashboards_wifi

SSID_MAX = 32  # bytes of UTF-8: 802.11's limit
PASSWORD_MIN = 8  # WPA2: 8 to 63 characters (64 hex digits); an open network has none
PASSWORD_MAX = 64

NO_RADIO = "This Pico has no Wi-Fi: it plays on its cable"
NOT_SET = "Wi-Fi: not set"
SENT = "Sending the network to the Pico..."
PLUG_IN = "Plug this Pico into the tablet to set its Wi-Fi: the password goes over the cable only."
DONE = "Unplug it: it joins over Wi-Fi"


def tablet_network(run=subprocess.run, which=shutil.which, platform=sys.platform):
    """The name of the Wi-Fi network the tablet is on, where the system says it (NetworkManager's nmcli, else
    iwgetid), else "". Reads only: `run` and `which` are the subprocess and shutil calls (tests pass their own)."""
    if not platform.startswith("linux"):
        return ""
    asks = (("nmcli", "-t", "-f", "active,ssid", "dev", "wifi"), ("iwgetid", "-r"))
    for cmd in asks:
        if which(cmd[0]) is None:
            continue
        try:
            out = run(list(cmd), capture_output=True, text=True, timeout=3).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for line in out.splitlines():
            if cmd[0] == "iwgetid":
                return line.strip()
            if line.startswith("yes:"):  # nmcli -t: "yes:<ssid>", a ':' in the name written "\:"
                return line[4:].replace("\\:", ":")
    return ""


def wifi_line(wifi):
    """What a plugged Pico's line says of its Wi-Fi: `wifi` as its hello said it (Transport.wifi_of)."""
    if wifi is None:
        return NO_RADIO
    return "Wi-Fi: %s" % wifi if wifi else NOT_SET


def problem(ssid, password):
    """Why this network cannot be sent (None if it can): words for the host, never the password itself."""
    if not ssid or len(ssid.encode()) > SSID_MAX:
        return "The network's name must be 1 to %d bytes." % SSID_MAX
    if password and not PASSWORD_MIN <= len(password.encode()) <= PASSWORD_MAX:
        return "The password must be %d to %d characters (or none, for an open network)." % (PASSWORD_MIN,
                                                                                              PASSWORD_MAX)
    return None


class WifiPairing:
    """The Wi-Fi part of pairing for one game: send(dev, ssid, password) gives a plugged Pico W its network;
    said(dev) is what to tell the host about it now.

    transport: the app's (set_wifi, wifi_of); answers: {dev: the last Wifi note} (LinkBridge.wifi);
    game_folder: the game's dashboards folder (its keys); table_folder: where the table's id is kept; on_key: told
    when a key was kept (the app serves the game's keys again)."""

    def __init__(self, transport, answers, game_folder, table_folder, on_key=None):
        self.transport = transport
        self.on_key = on_key  # called once a new key is kept: the table serves it from then on (phones.wifi.refresh)
        self.answers = answers
        self.game_folder = game_folder
        self.table_folder = table_folder
        self.asked = {}  # dev -> the id of the wifi message sent to it and not answered when last looked

    def line(self, dev):
        return wifi_line(self.transport.wifi_of(dev))

    def offers(self, dev):
        """A Pico with a radio gets the form; one without gets none."""
        return self.transport.wifi_of(dev) is not None

    def send(self, dev, ssid, password):
        """Give `dev` (plugged in now) its network: returns what to tell the host."""
        why = problem(ssid, password)
        if why is not None:
            return why
        if str(self.transport.port_of(dev)).startswith("link:"):  # linked over the air: the password stays off it
            return PLUG_IN
        key = dashboards_wifi.new_key()
        self.answers.pop(dev, None)
        mid = self.transport.set_wifi(dev, ssid, password, dashboards_wifi.table_id(self.table_folder), key)
        if mid is None:
            return "This Pico is not plugged in now: plug it in, then try again."
        dashboards_wifi.keep_key(self.game_folder, dev, key)  # kept now: the Pico dials only once unplugged
        if self.on_key is not None:
            self.on_key()
        self.asked[dev] = mid
        return SENT

    def said(self, dev):
        """The answer, in the host's words, once it came (None before)."""
        note = self.answers.get(dev)
        if note is None or dev not in self.asked:
            return None
        del self.asked[dev]
        if note.code == "":
            return "%s is set to %s. %s." % (dev, note.ssid, DONE)
        if note.code == "nowifi":
            return NO_RADIO + "."
        return "The Pico refused the network: %s." % (note.message or note.code)
