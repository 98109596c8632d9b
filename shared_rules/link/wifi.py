# The tablet's half of the `wifi` message (docs/protocol.md §15a): a Pico W given its network at pairing, over USB.
# Kept out of tablet.py (every module here must compile within a 64 KB MicroPython heap). The tablet's side only.
import binascii

from shared_rules.link import notes as note

WIFI_TRIES = 12  # a `wifi` message unanswered after this many sends is given up (the pairing screen says so)


def _b64(text):
    return binascii.b2a_base64(text.encode()).strip().decode()


def unb64(text):
    """A name sent as base64 of its UTF-8, or None if it is not one."""
    try:
        return binascii.a2b_base64(text).decode()
    except (ValueError, UnicodeError):
        return None


def message(mid, ssid, password, table_id, key):
    """The `wifi` message: the name and password as base64 of their UTF-8 (a frame holds printable ASCII only, and
    neither may be)."""
    return {"t": "wifi", "id": mid, "s": _b64(ssid), "pw": _b64(password), "tb": table_id, "k": key}


def send(session, d, now_ms):
    """Device d's `wifi` message on `session`, now and at each command retry until answered, at most WIFI_TRIES times,
    then forgotten (its password with it)."""
    if d.wifi_out is not None and d.session is session:
        if d.wifi_tries >= WIFI_TRIES:
            d.wifi_out = None
            return
        d.wifi_tries += 1
        d.wifi_sent = now_ms
        session.send(d.wifi_out, now_ms)


def answered(d, msg, notes):
    """The dashboard's answer (or an older dashboard's err "type": no Wi-Fi): a Wifi note; the message forgotten."""
    if d.wifi_out is None or msg.get("id") != d.wifi_out["id"]:
        return  # a late repeat's answer
    d.wifi_out = None
    ssid = unb64(msg["w"]) if msg["t"] == "wifi" and "w" in msg else None
    code = "" if ssid is not None else msg.get("e") or "bad"
    if msg["t"] == "err" or code == "nowifi":
        code = "nowifi"
        d.wifi = None
    elif ssid is not None:
        d.wifi = ssid
    notes.append(note.wifi(d.dev, ssid, code, msg.get("m", "")))
