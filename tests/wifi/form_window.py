"""The pairing screen's Wi-Fi form in the real app, in a real window (run by tests/wifi/test_pairing_window.py):

    python -m tests.wifi.form_window OUT.json PORT PASSWORD SHOTS

PORT is a Pico W dashboard's USB port (a pty: the app names it as `--port` does). The scenario opens Formula 1's
setup and pairing, finds the plugged Pico and its Wi-Fi line, opens its form, types the network and the password,
sends them, and notes what every widget on the screen says then."""

import sys

PASSWORD = None


def _texts(root):
    return [w.text for w in root.walk(restrict=True) if isinstance(getattr(w, "text", None), str)]


def _shot(d, form, name):
    """The form as drawn (the app's screenshot is of its screens, under the form)."""
    import os

    if d.shots:
        os.makedirs(d.shots, exist_ok=True)
        form.export_to_png(os.path.join(d.shots, name + ".png"))


def scenario(d):
    from companion.wifi_form import WifiForm
    from tests.companion.appdriver import open_f1, tap

    app = d.app
    yield from open_f1(app)
    yield tap(app.screen("setup").ids.start)
    yield lambda: app.sm.current == "pairing"
    found = app.screen("pairing").ids.found

    def wifi_button():
        app.pairing.refresh()
        return next((w for w in found.walk(restrict=True) if getattr(w, "text", "") == "Set its Wi-Fi"), None)

    yield wifi_button
    d.note("before", _texts(found))
    yield tap(wifi_button())
    yield lambda: any(isinstance(w, WifiForm) for w in app.root_window.children)
    form = next(w for w in app.root_window.children if isinstance(w, WifiForm))
    d.note("prefilled", form.ids.ssid.text)
    form.ids.ssid.text = "track"
    form.ids.password.text = PASSWORD
    d.note("hidden", form.ids.password.password)
    yield 0.3
    _shot(d, form, "wifi-form-typed")
    yield tap(form.ids.send)
    yield lambda: "Unplug it" in form.said or "refused" in form.said or "did not answer" in form.said
    d.note("said", form.said)
    d.note("password_left", form.ids.password.text)
    d.note("form", _texts(form))
    d.note("message", app.screen("pairing").ids.pair_message.text)
    _shot(d, form, "wifi-form-answered")
    yield tap(form.ids.close)
    yield lambda: not any(isinstance(w, WifiForm) for w in app.root_window.children)
    app.pairing.refresh(force=True)
    yield 0.1
    d.note("after", _texts(found))
    d.shot("wifi-pairing-after")


def main(argv):
    global PASSWORD
    out, port, PASSWORD, shots = argv[:4]
    from companion.transport import pyserial_backend

    pyserial_backend.NAMED_PORTS[:] = [port]  # as `formula1 --port PORT`
    from tests.companion import appdriver

    appdriver.drive(scenario, out, shots)


if __name__ == "__main__":
    main(sys.argv[1:])
