"""What six phones cost the tablet, the whole app in its window, against the same app with six dashboards on its own
screen, in the same run:

tablet.app_cpu_six_phones_vs_unix   the app's CPU (user + system, every thread of its process: Kivy, its window drawn
                                    by Mesa in an SDL offscreen window, the transport, the phones' server) through
                                    one race with six seats on phones (the firmware in tabs of Debian's headless
                                    Chromium, their CPU theirs: not counted), over the app's CPU through the same race
                                    with the six dashboards on the tablet's screen (the app's process and its six
                                    `micropython` children, the unix port running the firmware)
tablet.app_cpu_six_phones_s         the first (s of CPU)
tablet.app_cpu_six_unix_s           the second
tablet.app_cpu_six_unix_own_s       of the second, the app's own process (its children left out)
tablet.app_race_six_phones_s        each race's wall time: the same steps at the same pace, so about the same
tablet.app_race_six_unix_s
tablet.app_race_turns               the race's turns (the same seed, the same taps)
tablet.app_idle_cpu_pct_six_phones  the race screen left alone for IDLE_S before the race (the table talking, a player
tablet.app_idle_cpu_pct_six_unix    thinking): the app's CPU meanwhile, % of one core (the unix way's with its children)

The race: tests/companion/appdriver.py's app, six players, 3 laps (the setup's default), the same seed; every turn on
the race screen's buttons as a table plays it (the fastest live speed, Lap, or Finish and 2 on the last lap, End
turn), a tap every PACE_S of real time, the next turn begun once every dashboard holds its car (the table in step) and
the turn's TURN_S of real time are over (both races then last the same, unless the machine's load stretches a turn). The
CPU is counted from the race screen's first frame in step to the race's end in step. Each way runs in an app of its
own (one Kivy window per process).

    python -m bench.tablet_app_bench          both ways, figures to bench/results.json
"""

import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

SEED = 1962
PLAYERS = 6
PACE_S = 0.3  # real time between two of the operator's taps, both ways (a quick hand at the table)
TURN_S = 2.5  # a turn's slot of real time, both ways: the next turn starts when it is over (and the table in step),
# so that both races last the same (what the app costs each second weighs alike), whichever waited longer for its acks
IDLE_S = 5.0
TICK = os.sysconf("SC_CLK_TCK")


def _cpu_s(pid="self"):
    with open("/proc/%s/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _threads_cpu():
    """{thread's name: CPU s} of this process's threads (Python's names where it has them, else the system's)."""
    import threading

    names = {t.native_id: t.name for t in threading.enumerate()}
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open("/proc/self/task/%s/comm" % tid) as f:
                comm = f.read().strip()
            name = names.get(int(tid), comm)
            out[name] = out.get(name, 0.0) + _cpu_s("self/task/" + tid)
        except OSError:
            pass  # a thread that ended meanwhile
    return out


# ---- in the app's process ---------------------------------------------------------------------------------------

def race(d):
    from tests.companion.appdriver import button, open_f1, race_ids, real_time, speed_button, tap

    way = os.environ["F1_BENCH_WAY"]
    app = d.app
    yield lambda: app.bridge is not None and app.first_frame is not None
    yield from open_f1(app)
    ids = app.screen("setup").ids
    yield tap(ids.more)
    yield tap(ids.fewer)
    for _ in range(PLAYERS - 3):
        yield tap(ids.more)
    for i, w in enumerate(reversed(ids.names.children)):
        w.text = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][i]
    yield tap(ids.start)
    yield lambda: app.sm.current == "pairing"
    ref = app.f1.ref
    if way == "unix":
        for seat in range(PLAYERS):
            rows = list(reversed(app.screen("pairing").ids.seats.children))
            yield tap(rows[seat].virtual_button)  # "Show it on this tablet instead"
            yield lambda seat=seat: any(dev == "virtual-%d" % (seat + 1) for dev, _s in app.bridge.dashboards())
    else:
        yield lambda: app.phones is not None and app.phones.ready()
        d.note("addresses", [app.phones.address(seat) for seat in range(PLAYERS)])
        d.save()
        yield lambda: len(ref.pairs) == PLAYERS  # the six phones linked, each paired to its seat by its token
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "race"

    def in_step():
        return len(ref.pairs) == PLAYERS and not app.transport.pending() and all(
            app.transport.snapshot(dev) == ref.race.cars[seat].snapshot() for seat, dev in ref.pairs.items())

    children = [v.proc.pid for v in getattr(app.ports, "virtual", {}).values()] if way == "unix" else []

    def cpu():
        own = _cpu_s()
        return own, own + sum(_cpu_s(pid) for pid in children)

    yield in_step
    yield real_time(1.0)  # the race screen drawn and settled: then counted
    # The race screen left alone for IDLE_S (the table talking, a player thinking): what the app costs meanwhile
    idle0, idle_threads0 = cpu(), _threads_cpu()
    yield real_time(IDLE_S)
    idle1, idle_threads1 = cpu(), _threads_cpu()
    d.note("idle_cpu_s", idle1[1] - idle0[1])
    d.note("idle_threads_s", {k: round(v - idle_threads0.get(k, 0.0), 3) for k, v in idle_threads1.items()
                              if v - idle_threads0.get(k, 0.0) >= 0.005})
    from kivy.clock import Clock

    cpu0, wall0, threads0 = cpu(), time.monotonic(), _threads_cpu()
    frames0 = Clock.frames_displayed
    profile = None
    if os.environ.get("F1_BENCH_PROFILE"):  # where the UI thread's time goes: cProfile's stats to that file
        import cProfile

        profile = cProfile.Profile(time.thread_time)  # the UI thread's own CPU, not its waits
        profile.enable()
    race = race_ids(app)
    turns = 0
    while not ref.race.game_over and turns < 60:
        slot = time.monotonic() + TURN_S
        car = app.f1.view.active_car()
        yield app.f1.ready
        if not car.speed_set:
            yield tap(speed_button(app, fastest=True))
            yield real_time(PACE_S)
        if car.laps_left == 1:
            yield tap(race.finish)
            yield real_time(PACE_S)
            yield tap(button(race.speeds, "2"))
        else:
            yield tap(race.lap)
        yield real_time(PACE_S)
        yield tap(race.end)
        yield real_time(PACE_S)
        yield in_step
        yield lambda slot=slot: time.monotonic() >= slot
        turns += 1
    yield in_step
    cpu1, wall1, threads1 = cpu(), time.monotonic(), _threads_cpu()
    if profile is not None:
        profile.disable()
        profile.dump_stats(os.environ["F1_BENCH_PROFILE"])
    d.note("frames", Clock.frames_displayed - frames0)
    d.note("threads_s", {k: round(v - threads0.get(k, 0.0), 2) for k, v in threads1.items()
                         if v - threads0.get(k, 0.0) >= 0.05})
    d.note("turns", turns)
    d.note("game_over", ref.race.game_over)
    d.note("cpu_own_s", cpu1[0] - cpu0[0])
    d.note("cpu_s", cpu1[1] - cpu0[1])
    d.note("wall_s", wall1 - wall0)
    d.note("children", len(children))
    d.note("over", 1)
    d.save()
    yield lambda: os.path.exists(d.out + ".looked")  # the phones' pages are closed first, then the app quits


# ---- in the bench's process -------------------------------------------------------------------------------------

def _free_port():
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _read(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def _wait(path, pred, proc, timeout, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        seen = _read(path)
        if "error" in seen:
            raise RuntimeError("the app failed: %s" % seen["error"])
        if pred(seen):
            return seen
        if proc.poll() is not None:
            raise RuntimeError("the app ended before %s: %s" % (what, proc.stderr.read().decode()[-3000:]))
        time.sleep(0.2)
    raise TimeoutError("waited %d s for %s" % (timeout, what))


def _answering(url, timeout):
    """Wait until the phones' server answers the seat's page (listed before its socket listens, on a loaded machine)."""
    import urllib.request

    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            if time.monotonic() > end:
                raise
        time.sleep(0.2)


def way(name):
    """One race in an app of its own; what its scenario saw."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "seen.json")
        env = dict(os.environ, F1_COMPANION_DATA=os.path.join(tmp, "data"), PYTHONPATH=ROOT,
                   F1_COMPANION_SEED=str(SEED), F1_PHONE_HOST="127.0.0.1", F1_PHONE_PORT=str(_free_port()),
                   F1_BENCH_WAY=name)
        proc = subprocess.Popen([sys.executable, "-m", "bench.tablet_app_bench", "app", out], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            if name == "phones":
                from tests.phones.browser import Browser

                seen = _wait(out, lambda s: "addresses" in s, proc, 120, "the seats' addresses")
                _answering(seen["addresses"][0], 60)
                with Browser() as browser:
                    pages = [browser.open(address) for address in seen["addresses"]]
                    for seat, page in enumerate(pages):
                        page.wait(lambda page=page: page.dash()["linked"], timeout=120, what="phone %d linked" % seat)
                    seen = _wait(out, lambda s: "over" in s, proc, 600, "the race's end")
            else:
                seen = _wait(out, lambda s: "over" in s, proc, 600, "the race's end")
            open(out + ".looked", "w").close()
            proc.wait(60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    return seen


def main():
    from bench.results import record
    from tests import mpy
    from tests.web.engines import MISSING

    if MISSING["chromium"] or not mpy.micropython_path():
        print("tablet app bench skipped: needs Chromium and the micropython unix port")
        return
    unix = way("unix")
    phones = way("phones")
    if phones["turns"] != unix["turns"]:
        raise RuntimeError("not the same race: %d turns with phones, %d on the tablet" % (phones["turns"],
                                                                                          unix["turns"]))
    figures = {
        "tablet.app_cpu_six_phones_vs_unix": round(phones["cpu_s"] / unix["cpu_s"], 3),
        "tablet.app_cpu_six_phones_s": round(phones["cpu_s"], 2),
        "tablet.app_cpu_six_unix_s": round(unix["cpu_s"], 2),
        "tablet.app_cpu_six_unix_own_s": round(unix["cpu_own_s"], 2),
        "tablet.app_race_six_phones_s": round(phones["wall_s"], 1),
        "tablet.app_race_six_unix_s": round(unix["wall_s"], 1),
        "tablet.app_race_turns": phones["turns"],
        "tablet.app_idle_cpu_pct_six_phones": round(100 * phones["idle_cpu_s"] / IDLE_S, 1),
        "tablet.app_idle_cpu_pct_six_unix": round(100 * unix["idle_cpu_s"] / IDLE_S, 1),
    }
    record(figures)
    for k, v in sorted(figures.items()):
        print("  %-36s %s" % (k, v))
    for name, seen in (("phones", phones), ("unix", unix)):  # where the CPU went, by thread
        print("  %s: race %s; idle %s" % (name, seen["threads_s"], seen["idle_threads_s"]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["app"]:
        from tests.companion import appdriver

        appdriver.WAIT_S = 120  # a step may wait on six pages booting the firmware, on a shared machine
        appdriver.drive(race, sys.argv[2])
    else:
        main()
