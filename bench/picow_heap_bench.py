"""What a Pico W leaves the dashboard, and what the Wi-Fi link costs of it (docs/wifi.md says how to read these).

1. On picosim, with official MicroPython UF2s (never committed: the plain Pico's v1.27.0 ships with picosim; the
   Pico W's is looked for at $PICOW_UF2, else /tmp/picow/RPI_PICO_W-20251209-v1.27.0.uf2, else the v1.26.1 one
   beside it, the newest found): gc.mem_free() after gc.collect() at the first REPL command, and on the Pico W also
   after `import network` and after constructing network.WLAN(STA_IF) (picosim has no radio chip: that step may
   hang or fail, and the bench says which). Without a Pico W UF2 that part is skipped with the reason, in
   bench/notes.json.
     picow.boot_heap_free_kb, picow.heap_free_with_network_kb, pico.boot_heap_free_kb (the plain Pico, to compare)
   Then the dashboard flashed onto the Pico W's firmware and linked over USB, played as bench/pico_bench.py's
   linked_heap plays it (the Wi-Fi seat loaded, as on any Pico W), and what importing the Wi-Fi link's module
   keeps on that firmware:
     picow.heap_free_kb_min_usb, picow.heap_free_kb_after_boot, picow.wifi_link_module_kb, and
     picow.heap_free_kb_min = the first less the module less the link object as the unix port keeps it (below):
     the dashboard linked over Wi-Fi at its smallest, as near as a board without a radio can say (pessimistic:
     a 64-bit object, and the USB link still counted).
2. On the unix port (64-bit: objects about twice a Pico's): the heap each link keeps once imported and made,
   after gc.collect(): the USB link (firmware/ondemand/link.py), the Wi-Fi link (firmware/ondemand/wifi_link.py,
   our own WebSocket client) and micropython-lib's aiohttp with its WebSocket module (at $MPLIB_AIOHTTP, a
   directory holding the `aiohttp` package, default /tmp/picow/mplib/python-ecosys/aiohttp; skipped if absent).
     wifi.heap_kb_serial_link_unix, wifi.heap_kb_wifi_link_unix, wifi.heap_kb_aiohttp_unix, and
     wifi.heap_kb_wifi_link_object_unix: the Wi-Fi link's object alone (its module imported before)
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from bench import results  # noqa: E402
from tests import mpy  # noqa: E402
from tests.pico.picosim import PICOW_UF2S, picow_uf2  # noqa: E402

PICOW_UF2 = picow_uf2() or PICOW_UF2S[0]
AIOHTTP = os.environ.get("MPLIB_AIOHTTP") or "/tmp/picow/mplib/python-ecosys/aiohttp"
STANDIN = os.path.join(ROOT, "tests", "wifi", "standin")

_FREE = "import gc\ngc.collect()\nprint('FREE', gc.mem_free())\n"

# Each module's kept heap: what gc.mem_free() loses from before the import to after the link is made
_MAKE = {
    "serial_link": "from firmware.ondemand.link import DashboardLink\n"
                   "keep = DashboardLink(lambda: {}, lambda n, a: None, dev='d')\n",
    "wifi_link": "from firmware.ondemand.wifi_link import WifiLink\n"
                 "keep = WifiLink(lambda: {}, lambda n, a: None, 'ssid', 'pw', '127.0.0.1', 9, '/k/link', 'd')\n",
    "aiohttp": "import aiohttp\nfrom aiohttp import aiohttp_ws\nkeep = aiohttp.ClientSession()\n",
}
_MAKE["wifi_link_object"] = _MAKE["wifi_link"]
_MODULE_FIRST = {"wifi_link_object": "from firmware.ondemand.wifi_link import WifiLink\n"}


def kept_heap_unix(which):
    """Bytes of heap the link `which` keeps on the unix port, or None if its code is absent here."""
    extra = (STANDIN,)
    if which == "aiohttp":
        if not os.path.isdir(os.path.join(AIOHTTP, "aiohttp")):
            return None
        extra = (AIOHTTP,)
    # What the dashboard has loaded already either way (the app runs on asyncio), so only the link is counted
    loaded = "import gc, json, os, select, socket, binascii, micropython, asyncio, random\n"
    if which in _MODULE_FIRST:  # the object alone: its module imported before the first reading
        loaded += _MODULE_FIRST[which]
    script = loaded + _FREE + _MAKE[which] + _FREE
    env = dict(os.environ, MICROPYPATH=mpy.micropypath(*extra), F1_AIR="/nonexistent")
    out = subprocess.run([mpy.micropython_path(), "-X", "heapsize=512K", "-c", script], env=env, cwd=ROOT,
                         capture_output=True, timeout=60)
    free = [int(line.split()[1]) for line in out.stdout.decode().splitlines() if line.startswith("FREE")]
    if len(free) != 2:
        raise RuntimeError("%s: %s" % (which, out.stdout.decode() + out.stderr.decode()))
    return free[0] - free[1]


def _mpremote(tty, code, timeout):
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    try:
        out = subprocess.run([mpremote, "connect", tty, "exec", code], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "no answer in %d s" % timeout
    text = out.stdout.decode("utf-8", "replace") + out.stderr.decode("utf-8", "replace")
    for line in text.splitlines():
        if line.startswith("FREE"):
            return int(line.split()[1]), text
    return None, text.strip()[-300:]


def boot_heap(uf2, steps):
    """gc.mem_free() after gc.collect() on picosim running `uf2`, after each code step (a fresh boot each)."""
    from tests.pico.picosim import Pico

    found = []
    for code in steps:
        with Pico(extra_args=("--uf2", uf2)) as pico:
            free, text = _mpremote(pico.tty, code + _FREE, 120)
            found.append((free, text))
    return found


_IMPORTS = ("import gc\ngc.collect()\nprint('FREE', gc.mem_free())\nimport firmware.ondemand.link\n"
            "import firmware.ondemand.wifi_seat\ngc.collect()\nprint('FREE', gc.mem_free())\n"
            "import firmware.ondemand.wifi_link\ngc.collect()\nprint('FREE', gc.mem_free())\n")


def linked_on_picow(uf2):
    """The dashboard flashed (tools/flash.py) onto picosim running the Pico W's `uf2`: linked over USB and played as
    bench/pico_bench.py's linked_heap plays it, and what the Wi-Fi link's module keeps of that firmware's heap (read
    at the REPL: the USB link and the Wi-Fi seat imported first, as the dashboard has them)."""
    from bench import pico_bench
    from tests.pico import picosim, play

    picosim.UF2 = uf2  # every board started below runs it (its filesystem is where that firmware puts it)
    try:
        with tempfile.TemporaryDirectory() as work:
            image = picosim.flashed_image(os.path.join(work, "image"))
            with pico_bench.start(image, work, "imports") as board:
                board.settled()
                free = [int(line.split()[1]) for line in play.mpremote(board, "exec", _IMPORTS).splitlines()
                        if line.startswith("FREE")]
            linked = pico_bench.linked_heap(pico_bench.probe_image(image, work), work)
    finally:
        picosim.UF2 = None
    return {"picow.heap_free_kb_min_usb": linked["pico.heap_free_kb_min"],
            "picow.heap_free_kb_after_boot": linked["pico.heap_free_kb_after_boot"],
            "picow.wifi_link_module_kb": round((free[1] - free[2]) / 1024, 1)}


def main():
    figures = {}
    for which in ("serial_link", "wifi_link", "wifi_link_object", "aiohttp"):
        kept = kept_heap_unix(which)
        if kept is not None:
            figures["wifi.heap_kb_%s_unix" % which] = round(kept / 1024, 1)
    if not os.path.isdir(os.path.join(AIOHTTP, "aiohttp")):
        results.note("wifi", "aiohttp not measured: no micropython-lib checkout at %s" % AIOHTTP)

    from tests.pico.picosim import HOME, missing

    why = missing()
    if why:
        results.note("picow", "picosim is not set up here: %s" % why)
    else:
        pico_uf2 = os.path.join(HOME, "fw.uf2")  # picosim's own: the official plain Pico v1.27.0 UF2
        if os.path.exists(pico_uf2):
            (free, _text), = boot_heap(pico_uf2, [""])
            if free is not None:
                figures["pico.boot_heap_free_kb"] = round(free / 1024, 1)
        if not os.path.exists(PICOW_UF2):
            results.note("picow", "the Pico W UF2 is not here (%s): the official RPI_PICO_W v1.27.0 UF2 was not found "
                                  "in any public repository the project's search reaches (docs/wifi.md)" % PICOW_UF2)
        else:
            (boot, _t1), (net, _t2), (wlan, t3) = boot_heap(PICOW_UF2, [
                "", "import network\n", "import network\nw = network.WLAN(network.STA_IF)\nw.active(True)\n"])
            if boot is not None:
                figures["picow.boot_heap_free_kb"] = round(boot / 1024, 1)
            if net is not None:
                figures["picow.heap_free_with_network_kb"] = round(net / 1024, 1)
            if wlan is not None:
                figures["picow.heap_free_wlan_active_kb"] = round(wlan / 1024, 1)
            else:
                results.note("picow", "network.WLAN(STA_IF).active(True) on picosim (no radio chip): %s" % t3)
            figures.update(linked_on_picow(PICOW_UF2))
            if "wifi.heap_kb_wifi_link_object_unix" in figures:
                figures["picow.heap_free_kb_min"] = round(figures["picow.heap_free_kb_min_usb"]
                                                          - figures["picow.wifi_link_module_kb"]
                                                          - figures["wifi.heap_kb_wifi_link_object_unix"], 1)
    if figures:
        results.record(figures)
    for k, v in sorted(figures.items()):
        print("  %-40s %s" % (k, v))


if __name__ == "__main__":
    main()
