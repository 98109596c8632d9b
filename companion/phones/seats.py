"""The seats a phone may hold in one game: a random token each (128 bits or more) and the server's port.

Kept in the game's own folder (storage.dashboards_dir: next to its log, with its virtual dashboards' saved
state), so a tablet app killed and resumed serves the same addresses on the same port, and the phones that
had them reconnect by themselves. A new game makes new tokens: an old game's address is refused.
"""

import base64
import json
import os
import secrets
import threading

from companion import storage

FILE = "phones.json"
TOKEN_BYTES = 16  # 128 bits; base32, 26 letters and digits: no case, no symbol to find on a phone's keyboard
PHONE, TABLET = "phone", "tablet"


def new_token():
    return base64.b32encode(secrets.token_bytes(TOKEN_BYTES)).decode().lower().rstrip("=")


class PhoneSeats:
    def __init__(self, folder):
        self.path = os.path.join(folder, FILE)
        # The phones' server (its thread) binds phones to seats while the app's screens move seats: one change and
        # its save at a time, so the file always ends as the seats are
        self.lock = threading.RLock()
        self.port = None
        self.seats = {}  # seat -> {"token": str, "place": PHONE | TABLET[, "dev": the phone's dashboard id]}
        try:
            with open(self.path) as f:
                data = json.load(f)
            self.port = data.get("port")
            self.seats = {int(k): dict(v) for k, v in data.get("seats", {}).items()}
        except (OSError, ValueError, AttributeError, TypeError):
            pass  # none yet (a new game), or unreadable: new tokens, the phones scan again

    def token(self, seat):
        with self.lock:
            entry = self.seats.get(seat)
            if entry is None:
                entry = self.seats[seat] = {"token": new_token(), "place": PHONE}
                self.save()
            return entry["token"]

    def place(self, seat):
        entry = self.seats.get(seat)
        return entry["place"] if entry else PHONE

    def set_place(self, seat, place):
        with self.lock:
            self.token(seat)
            if self.seats[seat]["place"] != place:
                self.seats[seat]["place"] = place
                self.save()

    def seat_of(self, token):
        """The seat whose token this is (None for any other)."""
        return next((seat for seat, entry in self.seats.items() if token is not None and entry["token"] == token),
                    None)

    def dev(self, seat):
        """The dashboard id of the phone that linked on this seat's token last (None: none yet)."""
        entry = self.seats.get(seat)
        return entry.get("dev") if entry else None

    def set_dev(self, seat, dev):
        with self.lock:
            self.token(seat)
            if self.seats[seat].get("dev") != dev:
                self.seats[seat]["dev"] = dev
                self.save()

    def set_port(self, port):
        with self.lock:
            if port != self.port:
                self.port = port
                self.save()

    def save(self):
        """Atomically (temp file, then rename), readable by this user only: the tokens are the seats' keys."""
        with self.lock:
            data = {"port": self.port, "seats": {str(k): v for k, v in sorted(self.seats.items())}}
            storage.write_private(self.path, json.dumps(data))
