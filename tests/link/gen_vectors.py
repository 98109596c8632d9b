"""Regenerate tests/portable/link_vectors.json: `python -m tests.link.gen_vectors`.

The file is the codec's contract: both runtimes must reproduce it byte for byte. Regenerate only on a
deliberate protocol change (and bump codec.PROTOCOL when old dashboards could not read the new frames).
"""

import json
import os

from shared_rules.link import codec, tablet

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "portable", "link_vectors.json")

SNAP = {
    "brake": 0, "cap": 0, "card_used": 0, "fixed": 0, "hand": ["FG", "QR"], "lap_done": 0, "laps": 5,
    "laps_left": 5, "miss": 0, "my_turn": 1, "rolled": 0, "rules": 0, "special": 0, "speed": 60,
    "speed_set": 1, "start_speed": 0, "status": "racing", "superb": 0, "tyre": 2,
}

MESSAGES = [
    {"t": "hi", "p": 1},
    {"t": "hb", "r": 3, "n": 17},
    {"t": "get"},
    {"t": "cmd", "id": "7f3a.1", "c": "pen", "a": {"tyre": 2, "brake": 1, "spin": 0, "dice": 34}},
    {"t": "cmd", "id": "7f3a.2", "c": "deal", "a": {"card": "SS"}},
    {"t": "cmd", "id": "7f3a.3", "c": "lap", "a": {}},
    {"t": "ack", "id": "e6614103.a1.1"},
    {"t": "err", "id": "7f3a.4", "e": "card", "m": "card not in hand", "n": 9},
    {"t": "ev", "id": "614103.a1.1", "e": "play", "a": {"card": "GC"}, "n": 4},
    {"t": "ev", "id": "x", "e": "neg", "a": {"v": -40, "l": [1, -2, "a b"]}, "n": 2147483647},
]

BIG = [
    {"t": "hello", "p": 1, "dev": "e6614103e7452d2f", "fw": "0.1.0", "r": 0, "s": SNAP, "n": 1},
    {"t": "ack", "id": "7f3a.1", "dup": 0, "r": 1, "s": dict(SNAP, hand=["FG"] * 40), "n": 2},
    # a player's action carrying the state it made, one event waiting (itself)
    {"t": "ev", "id": "614103.a1.5", "e": "card", "a": {"card": "FG"}, "r": 4, "q": 1, "s": dict(SNAP, hand=["QR"]),
     "n": 5},
]

# Lines that must be skipped or dropped: (why, line). Valid-looking ones carry a correct checksum on bad JSON.
BAD_LINES = [
    ("empty", ""),
    ("prompt", ">>> "),
    ("soft reboot", "MPY: soft reboot"),
    ("traceback", 'Traceback (most recent call last):'),
    ("no checksum", '~{"t":"hi"}'),
    ("wrong checksum", '~{"t":"hi","p":1}|00000000'),
    ("upper-case checksum", '~{"p":1,"t":"hi"}|' + tablet.crc_hex(b'{"p":1,"t":"hi"}').upper()),
    ("bad json", "~{t:hi}|" + tablet.crc_hex(b"{t:hi}")),
    ("not an object", '~[1,2]|' + tablet.crc_hex(b"[1,2]")),
    ("no type", '~{"p":1}|' + tablet.crc_hex(b'{"p":1}')),
    ("float", '~{"t":"hb","r":1.5}|' + tablet.crc_hex(b'{"t":"hb","r":1.5}')),
    ("bool", '~{"t":"hb","r":true}|' + tablet.crc_hex(b'{"t":"hb","r":true}')),
    ("null", '~{"t":"hb","r":null}|' + tablet.crc_hex(b'{"t":"hb","r":null}')),
    ("too deep", '~{"a":{"b":[[1]]},"t":"x"}|' + tablet.crc_hex(b'{"a":{"b":[[1]]},"t":"x"}')),
    ("escape in string", '~{"t":"a\\u0003"}|' + tablet.crc_hex(b'{"t":"a\\u0003"}')),
    ("truncated", '~{"c":"lap","id":"7f3a.3","t":"cm'),
]


def build():
    frames = [[m, tablet.encode(m).decode()] for m in MESSAGES]
    big = [[m, [f.decode() for f in tablet.frames(m, 5)]] for m in BIG]
    noise = b">>> \r\nMPY: soft reboot\r\ngarbage~~~" + tablet.encode(MESSAGES[1]) + b"x" * 300 + b"\n"
    noise += b"Traceback:" + tablet.encode(MESSAGES[0]).replace(b"\n", b"\r\n")
    return {
        "protocol": codec.PROTOCOL,
        "max_frame": codec.MAX_FRAME,
        "frames": frames,
        "fragmented": big,
        "bad_lines": BAD_LINES,
        "stream": [noise.decode(), [MESSAGES[1], MESSAGES[0]]],
    }


if __name__ == "__main__":
    with open(OUT, "w") as f:
        json.dump(build(), f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", OUT)
