"""Picos set up from the pairing screen: find them, say what each needs, install it with progress in words.

What happens, per plugged Pico (plain Python: the view is companion/pico_setup_view.py and pico_setup.kv):

    look()      lists the serial ports with the Raspberry Pi USB vendor id (no other device is ever touched) and
                the drives of Picos held in BOOTSEL (bootsel_drives); a new one is probed off the UI thread
    probe       mpremote reads the board's version file (/dashboard.json), whether it holds dashboard files, and
                whether a race is saved on it (/data)
    offer       "Install the dashboard" (MicroPython, no dashboard), "Update" (an older version), "Repair" (the
                files of a dashboard without its version file: an install cut short), "Install MicroPython" (a
                Pico in BOOTSEL); a dashboard of this version is left alone
    start(key)  runs it on a thread of its own: the files of the installed app (companion/flashing) written in one
                mpremote session (files the board holds unchanged left), each step said ("Copying 12 of 31:
                firmware/app.mpy")

Every result reaches the app through `schedule` (the app's Kivy Clock: tests pump it themselves), so nothing here
touches a widget. While a port is being probed or installed the link leaves it alone (pyserial_backend.HELD).
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time

from companion import __version__
from companion.flashing import bootsel, flash
from companion.transport import pyserial_backend

RPI_VID = 0x2E8A  # the Raspberry Pi USB vendor id: only such devices are probed or written to
INSTALL, UPDATE, REPAIR, MICROPYTHON = "install", "update", "repair", "micropython"
ACTION = {INSTALL: "Install the dashboard", UPDATE: "Update", REPAIR: "Repair", MICROPYTHON: "Install MicroPython"}
RACE_KEPT = "The race in progress on this dashboard is kept."
PROBE_S = 60  # one mpremote round trip; a board that does not answer in this long is not a MicroPython Pico
COMES_BACK_S = 30
# A board still starting its boot file takes Ctrl-C as an ordinary byte (MicroPython makes it an interrupt once a
# script runs) and mpremote gives up: asked again, it finds the script running and stops it.
RAW_REPL_BUSY = "could not enter raw repl"
RAW_REPL_TRIES = 3  # a Pico restarts as a serial port within seconds of its UF2's last block

# Runs on the board: what it holds, as one line the host reads.
PROBE = """import os, json
def _has(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False
try:
    with open('dashboard.json') as _f:
        _v = json.load(_f).get('version')
except Exception:
    _v = None
print('F1SETUP', json.dumps({'version': _v, 'files': _has('main.py') or _has('firmware'),
                             'race': _has('data/state.json') or _has('state.json')}))"""


class SetupError(Exception):
    """A step that failed; str() says it in words, with what to do."""


def refused(info):
    """Why the device listed as `info` (a pyserial ListPortInfo) is not touched, in words; None for a Pico."""
    if getattr(info, "vid", None) == RPI_VID:
        return None
    vid = info.vid
    return ("%s is not a Raspberry Pi device (USB vendor id %s): the app leaves it alone. A Pico says 2E8A."
            % (info.device, "%04X" % vid if vid is not None else "unknown"))


def version_tuple(text):
    try:
        return tuple(int(p) for p in str(text).split("."))
    except ValueError:
        return (0,)


def offer(board, version=__version__):
    """What a probed board needs: INSTALL, UPDATE, REPAIR, or None (its dashboard is this version or newer)."""
    if board["version"] is None:
        return REPAIR if board["files"] else INSTALL
    return UPDATE if version_tuple(board["version"]) < version_tuple(version) else None


def notice(board):
    """What the table must know before it starts."""
    return RACE_KEPT if board.get("race") else ""


def default_roots():
    """Where this system mounts USB drives: a Pico in BOOTSEL shows its RPI-RP2 drive there."""
    if sys.platform == "win32":
        return ["%s:\\" % c for c in "DEFGHIJKLMNOPQRSTUVWXYZ"]
    if sys.platform == "darwin":
        return ["/Volumes"]
    user = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
    return ["/media/" + user, "/run/media/" + user, "/media"]


def bootsel_drives(roots):
    """The drives of Picos held in BOOTSEL under `roots`: a root that is itself such a drive (a Windows drive
    letter), or a folder in it holding INFO_UF2.TXT (RPI-RP2 under /media/$USER, /Volumes). Returns
    [(path, why)]: why is "" for an RP2040's drive, else why it is refused (another board's drive)."""
    found = []
    for root in roots:
        candidates = [root]
        try:
            candidates += sorted(os.path.join(root, n) for n in os.listdir(root))
        except OSError:
            continue  # no such root here
        for path in candidates:
            if os.path.isfile(os.path.join(path, bootsel.INFO)):
                found.append((path, bootsel.is_rp2040_drive(path)[1]))
    return found


def pico_ports(list_ports):
    """{device: info} of the listed serial ports with the Raspberry Pi vendor id."""
    return {p.device: p for p in list_ports() if refused(p) is None}


def _mpremote(args, timeout):
    try:
        return subprocess.run([flash.mpremote()] + args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SetupError("The Pico did not answer in %d s: unplug it, plug it in again, and wait for it here."
                         % timeout) from None


def probe(port):
    """{"version": str or None, "files": bool, "race": bool} of the board on `port` (SetupError in words)."""
    for _attempt in range(RAW_REPL_TRIES):
        done = _mpremote(["connect", port, "exec", PROBE], PROBE_S)
        if RAW_REPL_BUSY not in done.stdout + done.stderr:
            break
    for line in done.stdout.splitlines():
        if line.startswith("F1SETUP "):
            return json.loads(line[8:])
    out = (done.stdout + done.stderr).strip()
    last = out.splitlines()[-1] if out else "no answer"
    if not os.path.exists(port):
        raise SetupError("The Pico went away while it was being read: plug it in again.")
    raise SetupError("This Pico does not answer as MicroPython does (%s). Hold BOOTSEL while plugging it in: the "
                     "app then offers to install MicroPython." % last)


def restart(port):
    """A board interrupted by a probe runs its boot file again (Ctrl-B: the normal REPL, Ctrl-D: soft reset)."""
    import serial

    try:
        with serial.Serial(port, 115200, timeout=0.5) as s:
            s.write(b"\r\x02\x04")
            s.flush()
    except (OSError, serial.SerialException):
        pass  # unplugged meanwhile: it boots when plugged in again


def _failed(port, last):
    if not os.path.exists(port) or "failed to access" in last or "disconnected" in last.lower():
        return ("The Pico went away during the install (a cable pulled?). Plug it in again: it is offered "
                "\"Repair\" here. A race saved on it is kept.")
    return ("The install stopped (%s). Unplug the Pico, plug it in again and tap \"Repair\". A race saved on it is "
            "kept." % last)


def install(port, step, build_dir=None):
    """The dashboard of the installed app onto the board on `port`, as `formula1 flash` does it (the saved race on
    /data kept, /dashboard.json removed first and written last, a file the board holds unchanged left as it is);
    step(done, total, words) says each step. Raises SetupError in words."""
    from mpremote.transport import TransportError

    from companion.flashing.board_files import BoardError

    with tempfile.TemporaryDirectory(prefix="formula1-setup-") as tmp:
        out = build_dir or os.path.join(tmp, "build")
        step(0, 1, "Preparing the dashboard's files")
        folders = flash.build(out)
        total = 1 + sum(len(mpys) for _f, mpys in folders)  # the modules, the boot file
        step(0, total, "Copying 0 of %d" % total)
        done = [0]

        def said(kind, path, _local):
            done[0] = min(done[0] + 1, total)
            verb = "Copying" if kind == "cp" else "Up to date"
            step(done[0], total, "%s %d of %d: %s" % (verb, done[0], total, path))

        for _attempt in range(RAW_REPL_TRIES):
            try:
                flash.put_dashboard(port, False, True, folders, out, said)
                break
            except (TransportError, BoardError, OSError) as e:
                last = str(e) or type(e).__name__
                if done[0] or RAW_REPL_BUSY not in last or _attempt == RAW_REPL_TRIES - 1:
                    raise SetupError(_failed(port, last)) from None
        step(total, total, "Installed: the Pico restarts into the dashboard")


class PicoSetup:
    """The pairing screen's Picos to set up. entries: {key: entry}, key a serial port or a BOOTSEL drive, entry a
    dict: kind (an offer, or None), state ("probing", "offered", "running", "done", "failed", "refused",
    "current"), words (what to tell the table), notice (said before it starts), done and total (the progress
    bar). on_change() is called (through schedule) whenever one changes."""

    def __init__(self, schedule, list_ports=None, roots=None, version=__version__):
        self.schedule = schedule  # schedule(fn): fn runs on the UI thread (the app's Clock)
        self.list_ports = list_ports or pyserial_backend.comports
        self.roots = default_roots() if roots is None else roots
        self.version = version
        self.entries = {}
        self.on_change = lambda: None
        # released(port): waits until the link has let go of a held port (the app's transport closes it at its
        # next scan); the default is for a port nothing else has open
        self.released = lambda port: None

    # ---- finding ----
    def look(self):
        """What is plugged in now; new Picos are probed (off this thread), gone ones forgotten."""
        try:
            ports = pico_ports(self.list_ports)
        except Exception:  # no USB enumeration here
            ports = {}
        drives = dict(bootsel_drives(self.roots))
        busy = {k for k, e in self.entries.items() if e["state"] in ("probing", "running")}
        for key in list(self.entries):
            if key not in ports and key not in drives and key not in busy:
                del self.entries[key]
                self._changed()
        for path, why in drives.items():
            if path not in self.entries:
                if why:
                    self._set(path, None, "refused", why)
                else:
                    self._set(path, MICROPYTHON, "offered", "A Pico in BOOTSEL mode: it needs MicroPython first.",
                              "MicroPython %s is copied onto it; then the dashboard is installed."
                              % bootsel.pin()["version"])
        # A Pico given MicroPython comes back as a new port: the job that copied it installs the dashboard there
        coming_back = any(e["kind"] == MICROPYTHON and e["state"] == "running" for e in self.entries.values())
        for port in ports:
            if port not in self.entries and port not in pyserial_backend.HELD and not coming_back:
                self._probe(port)

    def refuse(self, info):
        """A device another part of the app asked about: refused in words when it is not a Pico."""
        why = refused(info)
        if why:
            self._set(info.device, None, "refused", why)
        return why

    def _set(self, key, kind, state, words, note="", done=0, total=0):
        self.entries[key] = {"kind": kind, "state": state, "words": words, "notice": note, "done": done,
                             "total": total}
        self._changed()

    def _changed(self):
        self.on_change()

    def _later(self, fn, *args):
        self.schedule(lambda: fn(*args))

    def _thread(self, fn, *args):
        threading.Thread(target=fn, args=args, name="pico-setup", daemon=True).start()

    def _probe(self, port):
        self._set(port, None, "probing", "Reading what this Pico holds...")
        pyserial_backend.HELD.add(port)
        self._thread(self._probe_thread, port)

    def _probe_thread(self, port):
        try:
            self.released(port)
            board = probe(port)
        except SetupError as e:
            pyserial_backend.HELD.discard(port)
            self._later(self._set, port, None, "failed", str(e))
            return
        kind = offer(board, self.version)
        if kind in (None, UPDATE):
            restart(port)  # its dashboard runs again, linked as before, until the table chooses to update it
        pyserial_backend.HELD.discard(port)
        if kind is None:
            self._later(self._set, port, None, "current", "Dashboard %s: up to date." % board["version"])
            return
        words = {INSTALL: "MicroPython without the dashboard.",
                 UPDATE: "Dashboard %s: this app brings %s." % (board["version"], self.version),
                 REPAIR: "An install that did not finish (a cable pulled?): the dashboard is incomplete."}[kind]
        self._later(self._set, port, kind, "offered", words, notice(board))

    # ---- doing ----
    def start(self, key):
        """The offer for `key` runs (a thread of its own); False if there is nothing to start."""
        e = self.entries.get(key)
        if e is None or e["state"] not in ("offered", "failed") or e["kind"] is None:
            return False
        e.update(state="running", done=0, total=1, words="Starting")
        self._changed()
        if e["kind"] == MICROPYTHON:
            self._thread(self._micropython_thread, key)
        else:
            pyserial_backend.HELD.add(key)
            self._thread(self._install_thread, key)
        return True

    def _progress(self, key, done, total, words):
        def show():
            e = self.entries.get(key)
            if e is not None:
                e.update(done=done, total=total, words=words)
                self._changed()

        self.schedule(show)

    def _install_thread(self, key):
        try:
            self.released(key)
            install(key, lambda d, t, w: self._progress(key, d, t, w))
        except (SetupError, OSError, subprocess.CalledProcessError) as e:
            words = str(e) if isinstance(e, SetupError) else "The install could not start (%s)." % e
            self._later(self._finish, key, "failed", words)
            return
        finally:
            pyserial_backend.HELD.discard(key)
        self._later(self._finish, key, "done", "The dashboard is installed: the Pico restarts and appears in the "
                                               "list. A race saved on it is kept.")

    def _finish(self, key, state, words):
        e = self.entries.get(key)
        if e is not None:
            e.update(state=state, words=words)
            if state == "done":
                e["done"] = e["total"]
            self._changed()

    def _micropython_thread(self, drive):
        before = set(pico_ports(self.list_ports))
        self._progress(drive, 0, 3, "Copying MicroPython %s onto the Pico" % bootsel.pin()["version"])
        try:
            bootsel.install_micropython(drive)
        except (ValueError, OSError) as e:
            self._later(self._finish, drive, "failed", "MicroPython could not be copied: %s Unplug the Pico, hold "
                                                       "BOOTSEL, plug it in again and tap again." % e)
            return
        self._progress(drive, 1, 3, "MicroPython copied whole. Waiting for the Pico to restart as a serial port "
                                    "(up to %g s)" % COMES_BACK_S)
        port = wait_for_new_port(self.list_ports, before, COMES_BACK_S)
        if port is None:
            self._later(self._finish, drive, "failed", "The Pico did not come back as a serial port in %g s. Unplug "
                                                       "it and plug it in again (without BOOTSEL): it is then offered "
                                                       "\"Install the dashboard\"." % COMES_BACK_S)
            return
        self._progress(drive, 2, 3, "MicroPython runs on %s: installing the dashboard" % port)
        pyserial_backend.HELD.add(port)
        try:
            install(port, lambda d, t, w: self._progress(drive, 2 + d, 2 + t, w))
        except (SetupError, OSError, subprocess.CalledProcessError) as e:
            self._later(self._finish, drive, "failed", str(e))
            return
        finally:
            pyserial_backend.HELD.discard(port)
        self._later(self._finish, drive, "done", "MicroPython and the dashboard are installed: the Pico restarts "
                                                 "and appears in the list.")


def wait_for_new_port(list_ports, before, deadline_s):
    """The first Raspberry Pi serial port not in `before` to appear within deadline_s, or None."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            new = sorted(set(pico_ports(list_ports)) - set(before))
        except Exception:
            new = []
        if new:
            return new[0]
        time.sleep(0.2)  # the poll period of the USB listing (nothing to wait on: the OS adds the port)
    return None
