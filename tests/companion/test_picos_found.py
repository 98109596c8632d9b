"""The pairing screen's "Picos found" lists the Picos plugged in now, never the phones of earlier games (after a
5-phone game they stayed listed, tappable, as "16329B4A5D391009 (LOST)" until a restart) nor a Pico unplugged.
The link's notes are the ones the real transport posts (a dashboard's hello, then its status), read by the app's
real LinkBridge; the pairing screen's code path is Pairing.found, which fills the list (no window needed)."""

import types

from companion.link_bridge import LinkBridge
from companion.pairing import Pairing
from companion.transport import Transport
from companion.transport.pyserial_backend import PyserialPorts
from shared_rules.link import notes

EARLIER_PHONES = ["16329B4A5D391009", "2A11C07F9E3B4410", "33AA0B1C2D3E4F50", "4F00FF11EE22DD33", "5B5B5B5B5B5B5B5B"]


def bridge_after_an_earlier_game():
    transport = Transport(PyserialPorts(lambda: [], named=[]))  # nothing on USB: the notes say what came and went
    bridge = LinkBridge(transport)
    for dev in EARLIER_PHONES + ["E661A4D41723262F", "E661A4D417AAAAAA"]:
        bridge._note(notes.hello(dev, "0.1", 1, None, True))
    for dev in EARLIER_PHONES:  # the phones of the game left: their sockets closed
        bridge._note(notes.status(dev, "lost"))
    bridge._note(notes.status("E661A4D417AAAAAA", "lost"))  # a Pico unplugged
    bridge._note(notes.hello("virtual-3", "0.1", 1, None, True))  # a dashboard on this tablet's screen
    return bridge


def pairing(bridge):
    app = types.SimpleNamespace(bridge=bridge, ports=None, phones=None, serves_phones=lambda: False)
    return Pairing(app)


def test_only_picos_plugged_in_now_are_found():
    bridge = bridge_after_an_earlier_game()
    assert pairing(bridge).found() == [("E661A4D41723262F", "connected")]


def test_a_pico_plugged_back_in_is_found_again():
    bridge = bridge_after_an_earlier_game()
    bridge._note(notes.hello("E661A4D417AAAAAA", "0.1", 1, None, True))
    assert pairing(bridge).found() == [("E661A4D41723262F", "connected"), ("E661A4D417AAAAAA", "connected")]
