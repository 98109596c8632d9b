"""The pairing screen's Wi-Fi part, in a window (its look: wifi_pairing.kv; its logic: companion/wifi_pairing.py).
pairing.py hooks it in with add_lines(pairing, box, dev) under each plugged Pico."""

import os

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from companion import storage
from companion.wifi_pairing import WifiPairing, tablet_network

KV = os.path.join(os.path.dirname(__file__), "wifi_pairing.kv")
ANSWER_WAIT_S = 10  # the Pico answers within a second; the tablet resends meanwhile


class WifiForm(ModalView):
    """The network's name (prefilled) and password for one Pico W; Send gives them to it over its cable."""

    dev = StringProperty("")
    ssid = StringProperty("")
    said = StringProperty("")

    def __init__(self, wifi, then, **kw):
        super().__init__(**kw)
        self.wifi = wifi
        self.then = then  # then(words): the pairing screen's message once the Pico answered
        self.waited = None

    def send(self):
        password = self.ids.password.text
        self.ids.password.text = ""  # not kept on the screen either
        self.said = self.wifi.send(self.dev, self.ids.ssid.text.strip(), password)
        password = None
        if self.dev in self.wifi.asked and self.waited is None:
            self.waited = 0.0
            Clock.schedule_interval(self._answer, 0.2)

    def _answer(self, dt):
        words = self.wifi.said(self.dev)
        self.waited += dt
        if words is None and self.waited < ANSWER_WAIT_S:
            return True
        self.waited = None
        self.said = words or "The Pico did not answer: is it still plugged in?"
        self.then(self.said)
        return False

    def close(self):
        self.dismiss(animation=False)


def _wifi(pairing):
    return WifiPairing(pairing.bridge.transport, pairing.bridge.wifi, storage.dashboards_dir(pairing._game_path()),
                       storage.data_dir(), on_key=lambda: _serve_keys(pairing))


def _serve_keys(pairing):
    """The key just kept is served on the phones' server, and the beacon runs (companion/dashboards_wifi.py)."""
    phones = pairing.phones
    if phones is not None and phones.wifi is not None:
        phones.wifi.refresh()


def add_lines(pairing, box, dev):
    """Under a plugged Pico in `box`: its Wi-Fi in words, and for a Pico W the button that opens the form."""
    if KV not in Builder.files:
        Builder.load_file(KV)
    wifi = _wifi(pairing)
    box.add_widget(Factory.WifiLine(text=wifi.line(dev)))
    if wifi.offers(dev):
        button = Factory.WifiSet(text="Set its Wi-Fi")
        button.bind(on_release=lambda w: open_form(pairing, wifi, dev))
        box.add_widget(button)


def open_form(pairing, wifi, dev):
    def then(words):
        pairing._ids().pair_message.text = words
        pairing.refresh(force=True)

    form = WifiForm(wifi, then, dev=dev, ssid=tablet_network())
    form.open()
    return form
