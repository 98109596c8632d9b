"""Phone seats on a tablet with no `micropython` (Windows, Android, a Pi without the unix port): the real app in a
real window (SDL offscreen, run by tests/companion/any_tablet.py --phone from a Python with no `micropython` on
its PATH) and a real phone browser (Debian's Chromium) on the seat's address from the pairing screen.

The seat's card gives the firmware's own seat page (".../<token>/"); the page boots the firmware, links on its
seat's socket, and the tablet pairs it to that seat by the token (nothing chosen on the tablet); its buttons set
the car's speed and the tablet's car shows it; a reload links again, to the same seat, as a replug; a second phone on the
same address takes the car over (the first is told). Then the tablet app ends and starts again, and the race is
continued: the phone, left on its page, links again to its car by itself, on the same address.

Cost: about 35 s (two app starts, two browsers, the firmware booted three times).
"""

import json
import subprocess

import pytest

from tests.companion.test_any_tablet import ROOT, tablet_env
from tests.web.engines import MISSING, open_engine, phone_id, visit
from tests.web.test_seat_page import boot
from tests.wait import poll

pytestmark = [pytest.mark.browser, pytest.mark.window, pytest.mark.skipif(MISSING["chromium"] is not None, reason=MISSING["chromium"] or "")]
LINKED = "Linked to the tablet."
LEFT = "The table left this game; this phone links again when the game is continued."


def shows(page):
    """The phone's OLED as text, row by row."""
    from tests.firmware.dash import text_rows

    got = page.screen()
    return " | ".join(text_rows(got[1])) if got is not None else ""


def _seen(out, proc, key, timeout=90):
    """The app's notes once they hold `key` (the scenario writes them at each stage)."""
    def look():
        try:
            seen = json.loads(out.read_text())
        except (OSError, ValueError):
            seen = {}
        assert "error" not in seen, seen["error"]
        if key in seen:
            return seen
        if proc.poll() is not None:
            raise AssertionError("the app ended before %r: %s" % (key, proc.stderr.read().decode(errors="replace")[-3000:]))
        return None

    seen = poll(look, timeout, 0.1)
    if seen is None:
        raise TimeoutError("the app did not reach %r" % key)
    return seen


def test_a_phone_plays_its_seat_on_the_firmware_page_of_a_tablet_without_micropython(tmp_path):
    python, env = tablet_env(tmp_path)  # its phones' server on loopback, on a port no other test's server takes
    out = tmp_path / "seen.json"
    proc = subprocess.Popen([python, "-m", "tests.companion.any_tablet", str(out), "--phone"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        seen = _seen(out, proc, "addresses")
        assert seen["virtual"] is False  # the premise: no unix port, so no dashboard runs on this tablet
        first, addresses = seen["first"], seen["addresses"]
        assert len(set(addresses)) == 3 and all(a.startswith("http://127.0.0.1:") and a.endswith("/")
                                                for a in addresses)  # the firmware's own seat page, one per seat
        for address, texts in zip(addresses, seen["cards"], strict=True):
            assert address in texts  # the card's address (its QR code beside it) is that page
            assert not any("Needs a Pico" in t or "this tablet instead" in t for t in texts), texts
        assert seen["offered"] == [None, None, None]
        with open_engine("chromium") as browser:
            page = visit(browser, addresses[first])
            boot(page)
            page.wait(lambda: page.text("status") == LINKED, timeout=30, what="the page linked")
            dev = phone_id(page)
            seen = _seen(out, proc, "racing")
            paired = seen["paired"]
            assert paired["dev"] == dev and paired["pairs"] == {str(first): dev}  # its seat, and only its seat
            assert "phone connected" in paired["card"], paired["card"]
            assert not any(dev in t for t in paired["found"])  # on its seat's card, not in the Picos' list
            assert first in paired["served"]  # still served while its phone holds it (no 4002)
            page.wait(lambda: "YOUR TURN" in shows(page), timeout=30, what="the phone told it is its turn")
            page.press("OK", "UP", "UP", "UP", "OK")  # the speed dial: open it, 60, set it
            try:
                seen = _seen(out, proc, "speed", 30)
            except TimeoutError:
                raise AssertionError("the phone shows %r" % shows(page)) from None
            assert seen["speed"]["speed"] == 60
            assert [seen["speed"]["panels"][i][1] for i in range(3)].count("60") == 1  # the tablet's car shows it
            browser.driver.refresh()  # a reload: the firmware starts again from the car saved in the browser
            boot(page)
            page.wait(lambda: page.text("status") == LINKED, timeout=30, what="the page linked again")
            seen = _seen(out, proc, "relinked")
            relinked = seen["relinked"]
            assert relinked["pairs"] == {str(first): dev} and relinked["phone"] == dev  # the same seat, not guessed
            assert relinked["ports"][0] != relinked["ports"][1] and relinked["speed"] == 60
            assert first in relinked["served"]
            # Another phone (a browser of its own: another dashboard id) opens the same address: it takes the car
            with open_engine("chromium") as phone2:
                page2 = visit(phone2, addresses[first])
                boot(page2)
                # Linked: the tablet pairs it (taken_over below). Its status line is not waited for here: the scenario
                # ends the game 0.2 s after the takeover, and on a loaded machine the page was told "gone" before a
                # poll saw "Linked" (one run at load 25)
                dev2 = phone_id(page2)
                assert dev2 != dev
                taken = _seen(out, proc, "taken_over")["taken_over"]
                assert taken["pairs"] == {str(first): dev2} and taken["phone"] == dev2 and taken["speed"] == 60
                assert first in taken["served"]
                page.wait(lambda: page.dash()["taken"], what="the first phone told its seat was taken")
                assert proc.wait(60) == 0
                assert json.loads(out.read_text()).get("ok") == 1
                # The tablet starts again; the race is continued: the second phone's page dials until its seat is
                # served again (the first, taken over, stays stopped)
                out = tmp_path / "resumed.json"
                links = page2.dash()["links"]
                proc = subprocess.Popen([python, "-m", "tests.companion.any_tablet", str(out), "--resume"],
                                        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                resumed = _seen(out, proc, "resumed")["resumed"]
                # Linked to the restarted tablet, and said so. The scenario leaves the game 0.2 s after "resumed":
                # a loaded machine's poll may come after that, when the page says the table left (it did)
                page2.wait(lambda: page2.dash()["links"] > links and page2.text("status") in (LINKED, LEFT),
                           timeout=30, what="linked to the restarted tablet")
                assert page2.dash()["error"] is None and page.dash()["taken"]
        assert resumed["pairs"] == {str(first): dev2} and resumed["phone"] == dev2 and resumed["speed"] == 60
        assert resumed["address"] == addresses[first] and first in resumed["served"]
        assert proc.wait(60) == 0
        assert json.loads(out.read_text()).get("ok") == 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
