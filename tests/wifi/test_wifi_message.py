"""The `wifi` message between the tablet's half of the protocol (shared_rules/link/tablet.py) and a dashboard's
(shared_rules/link/dashboard.py), on CPython with no I/O: a dashboard without a radio, and one from before the
message, both read as "no Wi-Fi"; an answer that never comes is given up and the password forgotten."""

from shared_rules.link import tablet, wifi
from shared_rules.link.dashboard import DashboardProtocol


class Line:
    """A dashboard's protocol and a tablet session on one line, on a clock the test moves."""

    def __init__(self, on_wifi=None):
        self.now = 0
        self.to_tablet = []
        self.to_dash = []
        self.notes = []
        self.devices = {}
        self.session = tablet.Session(self.to_dash.append, self.devices, self.now)
        self.dash = DashboardProtocol("dash-1", "t", dict, lambda n, a: None, self.to_tablet.append, now_ms=self.now,
                                      on_wifi=on_wifi)
        self.pump()

    def pump(self):
        while self.to_tablet or self.to_dash:
            up, self.to_tablet[:] = b"".join(self.to_tablet), []
            self.notes += self.session.feed(up, self.now)
            down, self.to_dash[:] = b"".join(self.to_dash), []
            self.dash.feed(down, self.now)

    def set_wifi(self):
        d = self.devices["dash-1"]
        d.wifi_out = wifi.message("m.1", "track", "correct horse battery", "table-1", "k" * 26)
        wifi.send(self.session, d, self.now)
        return d

    def wifi_notes(self):
        return [n for n in self.notes if n.kind == "wifi"]


def test_a_dashboard_without_a_radio_says_so_and_names_no_network():
    line = Line()
    assert line.devices["dash-1"].wifi is None  # its hello has no "w"
    sent = []
    line.session.write = lambda data: (sent.append(data), line.to_dash.append(data))
    d = line.set_wifi()
    line.pump()
    (answer,) = line.wifi_notes()
    assert (answer.ssid, answer.code) == (None, "nowifi") and "no Wi-Fi" in answer.message
    assert d.wifi_out is None and d.wifi is None
    assert b"correct horse battery" not in b"".join(sent)  # in base64 on the line, as the frame needs


def test_a_dashboard_from_before_the_message_answers_err_type_read_as_no_wifi():
    line = Line()
    d = line.set_wifi()
    line.to_dash.clear()  # lost: the older dashboard answers as below instead
    frame = tablet.encode({"t": "err", "id": "m.1", "e": "type", "m": "unknown message type wifi", "n": 9})
    line.notes += line.session.feed(frame, line.now)
    (answer,) = line.wifi_notes()
    assert answer.code == "nowifi" and d.wifi_out is None


def test_a_radio_answers_with_the_network_and_the_hello_names_it():
    said = {"w": ""}

    def on_wifi(msg):
        if msg is None:
            return said["w"]
        said["w"] = msg["s"]
        return {"t": "wifi", "id": msg["id"], "w": msg["s"]}

    line = Line(on_wifi)
    assert line.devices["dash-1"].wifi == ""  # a radio, nothing set
    line.set_wifi()
    line.pump()
    (answer,) = line.wifi_notes()
    assert (answer.ssid, answer.code) == ("track", "")
    assert line.devices["dash-1"].wifi == "track"


def test_an_answer_that_never_comes_is_given_up_and_the_password_forgotten():
    line = Line()
    d = line.set_wifi()
    line.to_dash.clear()
    for _ in range(wifi.WIFI_TRIES + 2):
        line.now += tablet.COMMAND_RETRY_MS
        line.session.tick(line.now)
        line.to_dash.clear()  # every resend lost
    assert d.wifi_out is None and d.wifi_tries == wifi.WIFI_TRIES
