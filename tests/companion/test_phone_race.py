"""A whole Formula 1 race of three phones against the real app, on a tablet without `micropython`: the app in its
real (offscreen) window with its referee, link bridge and phones server (tests/companion/phone_race.py), each seat
a Chromium page on its seat's address running the firmware (one browser, a window per phone). The players set
their speeds on their phones' buttons; the tablet's operator taps Lap, Finish and End turn.

Meanwhile, as at a real table:
- a page is reloaded in the middle of a command: the `lap` the tablet sent it is applied and stored, and the page
  reloads before its ack leaves (the ack is held back by a spy on the page's socket, installed before its script);
- a page is frozen (DevTools' page lifecycle, as Chrome freezes a tab put away or a phone asleep) while the turn
  is handed to it, and made active again;
- the app is killed (SIGKILL) with the next car's turn in flight, and the race continued from the setup screen.
No page is touched after any of these but by its player's presses: each links again by itself, to its saved car.

Nothing lost, nothing applied twice: the log holds exactly the race the players played (every speed once, every
lap and end once, in order), every phone ends on the table's car, and the referee never had to send a phone its
car again (a command applied twice on a phone, or an action lost, shows as a sync), but for the command the killed
app had in flight: the app does not keep its unanswered commands (docs/protocol.md §9 says it resends them), so
the resumed referee finds that phone's car behind the table's at its hello and sends it the car.

Cost: about 60 s (two app starts, three phones booted, nine turns).
"""

import json
import signal
import subprocess
import time

import pytest

from tests.companion.test_any_tablet import ROOT, tablet_env
from tests.firmware.dash import text_rows
from tests.phones.browser import Browser, Page
from tests.phones.player import press
from tests.web.engines import MISSING
from tests.web.test_seat_page import boot
from tests.wait import poll, until

pytestmark = [pytest.mark.whole, pytest.mark.browser, pytest.mark.window, pytest.mark.skipif(MISSING["chromium"] is not None, reason=MISSING["chromium"] or "")]

RELOAD_AT = 1  # the turn whose `lap` the page reloads in the middle of
FREEZE_AT = 3  # the turn during which the next car's page is frozen
LAPS, PLAYERS, STEP = 3, 3, 20

# Installed in each phone's window before the page's own script, on every load. window.spy.armed = "lap": the next
# `lap` command to arrive is let through to the firmware, and the page reloads instead of sending its ack (the
# ack's fragments are read back from what the page sends; the firmware has stored the journal before any send).
SPY = """
(() => {
  const spy = (window.spy = {armed: null, id: null, sockets: 0, gone: false, frags: {}, ins: "", outs: ""});
  function frames(buf, text, each) {  // complete lines: each frame's JSON body; the rest kept for the next message
    buf += text;
    for (let nl = buf.indexOf("\\n"); nl >= 0; nl = buf.indexOf("\\n")) {
      const line = buf.slice(0, nl), at = line.indexOf("~"), bar = line.lastIndexOf("|");
      buf = buf.slice(nl + 1);
      if (at >= 0 && bar > at) { try { each(JSON.parse(line.slice(at + 1, bar))); } catch (e) { /* noise */ } }
    }
    return buf;
  }
  window.WebSocket = class extends WebSocket {
    constructor(url, protocols) {
      super(url, protocols);
      spy.sockets++;
      this.addEventListener("message", (e) => {
        if (typeof e.data === "string") spy.ins = frames(spy.ins, e.data, (f) => {
          if (f.t === "cmd" && spy.armed && f.c === spy.armed && !spy.id) spy.id = f.id;
        });
      });
    }
    send(data) {
      if (spy.gone) return;
      if (spy.id && typeof data === "string") {
        let ack = false;
        spy.outs = frames(spy.outs, data, (f) => {
          let m = f;
          if (f.t === "frag") {
            const parts = (spy.frags[f.f] = spy.frags[f.f] || []);
            parts[f.i] = f.d;
            if (f.i !== f.k - 1) return;
            try { m = JSON.parse(atob(parts.join(""))); } catch (e) { return; }
          }
          if (m.t === "ack" && m.id === spy.id) ack = true;
        });
        if (ack) {
          spy.gone = true;
          sessionStorage.setItem("spy.reloaded", JSON.stringify({id: spy.id, name: spy.armed}));
          location.reload();
          return;
        }
      }
      return super.send(data);
    }
  };
})();
"""


def start(python, env, scenario, out):
    return subprocess.Popen([python, "-m", "tests.companion.phone_race", scenario, str(out)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def seen(out, proc, pred, timeout=90, what="the app's next step"):
    """The app's notes once pred(notes) holds."""
    last = {}

    def look():
        try:
            got = json.loads(out.read_text())
        except (OSError, ValueError):
            got = {}
        last["got"] = got
        assert "error" not in got, got["error"]
        if pred(got):
            return got
        if proc.poll() is not None:
            raise AssertionError("the app ended before %s: %s" % (what, proc.stderr.read().decode(errors="replace")[-3000:]))
        return None

    return until(look, timeout, what, every=0.05,
                 seen=lambda: {k: last["got"].get(k) for k in ("turn", "speed", "steps")})


def open_phone(browser, url):
    """A phone: a window of its own with the spy installed before its first load."""
    driver = browser.driver
    if browser.pages:
        driver.switch_to.new_window("window")
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SPY})
    page = Page(browser, driver.current_window_handle, url)
    browser.current = page
    driver.get(url)
    browser.pages.append(page)
    return page


def cdp(page, command, args):
    page.js("return 1")  # its window in front of the driver: DevTools commands go to the current window
    return page.browser.driver.execute_cdp_cmd(command, args)


def rows(page):
    got = page.screen()
    return " | ".join(text_rows(got[1])) if got is not None else ""


def set_speed(page, taken):
    """The player's turn on the phone: the speed dial (opened by the turn, or by OK on YOUR TURN) at the car's speed,
    UP one step, OK sets it; then the player waits for the table (the dashboard resends its event until the table
    has it). Each press is made on the screen it is meant for, looked at first."""
    end = time.monotonic() + 60
    while not taken():
        shown = rows(page)
        if shown.startswith("SET SPEED"):
            press(page, "UP")
            if rows(page).startswith("SET SPEED"):
                press(page, "OK")
                if not rows(page).startswith("SET SPEED"):  # set: the rest is the link's ...
                    # ... unless it was set while the tablet was away (the app killed): a dashboard alone posts no
                    # event, and the table, back, sends its car again: the dial is open again, and the player sets
                    # the speed once more, as at a real table
                    page.wait(lambda: taken() or asks(page), timeout=60, what="the table given the speed")
                    if taken():
                        return
        elif "YOUR TURN" in shown:
            press(page, "OK")
        else:
            poll(lambda shown=shown: rows(page) != shown or taken(), max(0.0, end - time.monotonic()), 0.05)
        if time.monotonic() > end:
            raise AssertionError("the speed never reached the table: the phone shows %r" % shown)


def asks(page):
    """The phone asks its player for the turn's speed (the dial, or YOUR TURN before it)."""
    shown = rows(page)
    return shown.startswith("SET SPEED") or "YOUR TURN" in shown


def test_a_whole_race_of_three_phones_with_a_reload_a_freeze_and_the_app_killed(tmp_path):
    python, env = tablet_env(tmp_path)
    env["F1_COMPANION_SEED"] = "1962"
    out = tmp_path / "race.json"
    proc = start(python, env, "race", out)
    runs, order, frozen, reloaded = [], [], None, None
    try:
        with Browser() as browser:
            got = seen(out, proc, lambda g: "addresses" in g)
            assert got["laps"] == LAPS
            addresses = got["addresses"]
            assert len(set(addresses)) == PLAYERS
            phones = [open_phone(browser, url) for url in addresses]
            for page in phones:
                boot(page)
            n = 0
            while True:
                got = seen(out, proc, lambda g, n=n: g.get("over") or g.get("kill") or g.get("turn", {}).get("n", -1) >= n)
                if got.get("kill"):  # the next car's turn in flight: the app dies as in a crash
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(10)
                    runs.append(got)
                    out = tmp_path / "resumed.json"
                    proc = start(python, env, "resume", out)
                    assert seen(out, proc, lambda g: "resumed" in g)["addresses"] == addresses  # the same pages
                    # the players go on once their phones say they are linked again: a speed set before that is no
                    # event (a dashboard alone posts none) and the table would send the car back (set_speed)
                    for phone in phones:
                        phone.wait(lambda phone=phone: phone.js("return window.dash.linked"), timeout=30,
                                   what="the phone linked to the resumed app")
                    continue
                if got.get("over"):
                    break
                n, seat = got["turn"]["n"], got["turn"]["seat"]
                order.append(seat)
                page = phones[seat]
                if n == RELOAD_AT:
                    page.js("window.spy.armed = 'lap'")  # its `lap`, once the speed is set: reloaded before its ack
                if n == FREEZE_AT:
                    frozen = phones[order[n - 2]]  # the car after this one (the table's order goes round)
                    sockets = frozen.js("return window.spy.sockets")
                    cdp(frozen, "Page.setWebLifecycleState", {"state": "frozen"})
                set_speed(page, lambda out=out, proc=proc, n=n: seen(out, proc, lambda g: True).get("speed", {}).get("n") == n)
                if n == RELOAD_AT:
                    reloaded = page.wait(lambda page=page: page.js("return sessionStorage.getItem('spy.reloaded')"),
                                         timeout=30, what="the page reloaded before its ack of the lap")
                    boot(page)  # the firmware again, from the car stored with the lap's journal line
                if n == FREEZE_AT:
                    seen(out, proc, lambda g, n=n: g.get("kill") or g.get("turn", {}).get("n", -1) > n)
                    time.sleep(1.0)  # real time is the point: its turn sent to it, the page stays frozen a while (a phone put away)
                    cdp(frozen, "Page.setWebLifecycleState", {"state": "active"})
                n += 1
            final = got
            runs.append(final)
            for page in phones:  # each on its own, no tab taken over, no error, linked
                dash = page.dash()
                assert dash["error"] is None and not dash["taken"] and dash["linked"], dash["status"]
            assert frozen is not None and frozen.js("return window.spy.sockets") > sockets  # it lost its socket
            (tmp_path / (out.name + ".looked")).write_text("")  # the app may quit now
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert json.loads(reloaded)["name"] == "lap"
    assert len(runs) == 2 and runs[0]["kill"] == 1  # killed mid-race, resumed to the end
    # Nothing lost, nothing applied twice: the log is the race the players played, in order ...
    assert len(order) == PLAYERS * LAPS
    assert order[FREEZE_AT + 1] == order[FREEZE_AT - 2]  # the frozen page's car was the one handed the turn
    expected, played = [], {}
    for seat in order:
        played[seat] = played.get(seat, 0) + 1
        last = played[seat] == LAPS
        expected += [("speed", seat, STEP * played[seat]), ("lap", seat, 2 if last else 0), ("end", seat, None)]
    log = [(e["t"], e["seat"], e.get("v", e.get("over"))) for e in final["log"]]
    assert log == expected
    # ... every phone ends on the table's car, and no car was ever sent to a phone again after pairing
    assert final["phones"] == final["cars"]
    assert all(c["laps_left"] == 0 for c in final["cars"])
    assert runs[0]["synced"] == []
    assert set(runs[1]["synced"]) <= set(runs[0]["in_flight"]), (runs[1]["synced"], runs[0]["in_flight"])
