# The Wi-Fi network a Pico W dashboard joins, set at pairing over the USB link (docs/protocol.md §15a): the network's
# name and password, the table's id and this dashboard's key, in a file of their own beside the save (never in the
# save, never in the journal, not a save of the race: firmware/keeper.py owns those), replaced atomically (a temp file,
# then a rename: a power cut leaves the old file or the new one, whole). Only a
# board with a `network` module loads this. The password is read from the file when the radio joins and goes
# nowhere else: never answered, never printed, never in an error's words.
import binascii
import json
import os

_SSID_MAX = 32  # bytes: 802.11's limit
_PASSWORD_MIN = 8  # WPA2's passphrase: 8 to 63 characters, or 64 hex digits; none for an open network
_PASSWORD_MAX = 64
_ID_MAX = 40
_KEY_MIN = 16
_KEY_MAX = 64
_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789-"


def path_beside(state_path):
    """The settings' file, in the save's folder (/data/wifi.json on a Pico)."""
    i = state_path.rfind("/")
    return state_path[: i + 1] + "wifi.json"


def load(path):
    """{"ssid", "password", "table", "key"} as stored, or None (nothing set, or a damaged file: set it again)."""
    try:
        with open(path) as f:
            conf = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(conf, dict):
        return None
    for field in ("ssid", "password", "table", "key"):
        if not isinstance(conf.get(field), str):
            return None
    return conf


def _text(msg, field, what, least, most):
    """The UTF-8 text that `field` carries in base64, or raises ValueError naming `what` (never its value)."""
    raw = msg.get(field)
    if not isinstance(raw, str):
        raise ValueError(what + " missing")
    try:
        data = binascii.a2b_base64(raw)
    except ValueError:
        raise ValueError(what + " not base64")
    if not least <= len(data) <= most:
        raise ValueError("%s must be %d to %d bytes" % (what, least, most))
    try:
        return data.decode()
    except UnicodeError:
        raise ValueError(what + " not UTF-8")


def _word(msg, field, what, least, most):
    w = msg.get(field)
    if not isinstance(w, str) or not least <= len(w) <= most or any(c not in _LETTERS for c in w):
        raise ValueError("%s must be %d to %d letters and digits" % (what, least, most))
    return w


def _id(msg):
    """The message's id if it is one a frame can carry back, else ""."""
    cid = msg.get("id")
    if not isinstance(cid, str) or not 1 <= len(cid) <= _ID_MAX or any(c not in _LETTERS + "." for c in cid):
        return ""
    return cid


class WifiConf:
    """The stored network of one dashboard; `answer` is DashboardProtocol's on_wifi. `changed` counts the settings
    stored since power-on (the Wi-Fi seat joins the new network when it moves)."""

    def __init__(self, path):
        self.path = path
        conf = load(path)
        self.ssid = conf["ssid"] if conf else ""
        self.changed = 0

    def answer_unplugged(self, msg):
        """The Wi-Fi link's on_wifi: it names the network in its hello, but a network is set over USB only (the
        password never travels over the air)."""
        if msg is None:
            return self.answer(None)
        return {"t": "wifi", "id": _id(msg), "e": "unplugged", "m": "plug the dashboard in to set its Wi-Fi"}

    def answer(self, msg):
        if msg is None:  # the hello's `w`: the network's name, as the set-up sent it (base64 of its UTF-8)
            return binascii.b2a_base64(self.ssid.encode()).strip().decode() if self.ssid else ""
        cid = _id(msg)
        if not cid:
            return {"t": "wifi", "id": "", "e": "proto", "m": "wifi needs an id"}
        try:
            ssid = _text(msg, "s", "network name", 1, _SSID_MAX)
            password = _text(msg, "pw", "password", 0, _PASSWORD_MAX)
            if 0 < len(password) < _PASSWORD_MIN:
                raise ValueError("password must be empty or 8 to 64 bytes")
            table = _word(msg, "tb", "table id", 1, _ID_MAX)
            key = _word(msg, "k", "key", _KEY_MIN, _KEY_MAX)
        except ValueError as e:
            return {"t": "wifi", "id": cid, "e": "bad", "m": str(e)}  # names the field, never what it held
        try:
            tmp = self.path + ".tmp"
            with open(tmp, "w") as f:
                json.dump({"ssid": ssid, "password": password, "table": table, "key": key}, f)
            os.rename(tmp, self.path)
        except OSError:
            return {"t": "wifi", "id": cid, "e": "flash", "m": "could not store the network"}
        password = None
        self.ssid = ssid
        self.changed += 1
        return {"t": "wifi", "id": cid, "w": self.answer(None)}
