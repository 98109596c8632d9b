"""One process that runs the app's window scenarios one after another (tests/companion/appdriver.py's serve()),
shared by the tests of one pytest process: Kivy, SDL and the app are loaded once instead of once per test.

Each scenario still has its own app (made after the last one let go of the window), its own data folder, seed and
window size, and its own OUT.json. A scenario that fails, times out or takes the process down ends that process:
the next test starts a fresh one, so no test sees what a failed one left. A failure names its scenario."""

import atexit
import json
import os
import select
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Each app leaves some memory behind in the process (Mesa's, SDL's: about 5 MB a race scenario, 60 MB one that
# resizes the window through three sizes): past this the process is ended after its scenario and a fresh one
# takes the next.
MAX_RSS_MB = 1200
PREFIX = "F1_"  # the app's settings from the environment (data folder, seed, phones' address, window size...)


class AppHost:
    def __init__(self):
        self.proc = None
        self.log = None  # the process's stderr (Kivy's log, tracebacks), kept in a file: a pipe could fill

    def _start(self):
        self.log = tempfile.TemporaryFile()
        env = dict(os.environ, PYTHONPATH=ROOT)
        for key in [k for k in env if k.startswith(PREFIX)]:
            del env[key]  # each run brings its own
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.companion.app_serve"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)

    def close(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            for pipe in (self.proc.stdin, self.proc.stdout):
                pipe.close()
            self.log.close()
        self.proc = self.log = None

    def run(self, scenario, out, shots, env, timeout=90):
        """Run `scenario` (a name in appdriver.SCENARIOS, or "module:name") to its end with the app's settings of
        `env` (its F1_ variables, as a process started with that environment would have them; F1_WINDOW the
        window's size); returns the stderr it wrote (for a failure's message). Raises AssertionError naming the
        scenario if it did not end in time or took the process down."""
        if self.proc is None or self.proc.poll() is not None:
            self.close()
            self._start()
        start = self.log.seek(0, os.SEEK_END)
        ask = {"scenario": scenario, "out": str(out), "shots": shots,
               "env": {key: str(value) for key, value in env.items() if key.startswith(PREFIX)}}
        try:
            self.proc.stdin.write((json.dumps(ask) + "\n").encode())
            self.proc.stdin.flush()
            end = time.monotonic() + timeout
            line = None  # None: no answer in time; b"": the process ended (its stdout closed)
            while time.monotonic() < end:
                ready, _, _ = select.select([self.proc.stdout], [], [], min(1.0, max(0.0, end - time.monotonic())))
                if ready:
                    line = self.proc.stdout.readline()
                    break
        except OSError:
            line = b""
        self.log.seek(start)
        said = self.log.read().decode(errors="replace")
        if line is None or line.strip() != b"done":
            why = "took longer than %d s" % timeout if line is None else "ended its process"
            self.close()
            raise AssertionError("scenario %r %s; its log:\n%s" % (scenario, why, said[-3000:]))
        if self._rss_mb() > MAX_RSS_MB:
            self.close()  # the next scenario in a fresh process (what each app leaves in the GL driver adds up)
        return said

    def _rss_mb(self):
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                return next(int(ln.split()[1]) // 1024 for ln in f if ln.startswith("VmRSS:"))
        except (OSError, StopIteration, ValueError):
            return 0


_HOST = []


def app_host():
    """This pytest process's AppHost (made on first use, its process killed when pytest exits)."""
    if not _HOST:
        _HOST.append(AppHost())
        atexit.register(_HOST[0].close)
    return _HOST[0]


def played(scenario, out, shots, env, timeout=90):
    """`scenario` run to its end in this pytest process's app process; what it saw (its OUT.json). A failure names
    the scenario, and the next test gets a fresh process."""
    host = app_host()
    said = host.run(scenario, out, shots, env, timeout=timeout)
    assert os.path.exists(out), "scenario %r wrote nothing; its log:\n%s" % (scenario, said[-3000:])
    with open(out) as f:
        seen = json.load(f)
    if "error" in seen:
        host.close()  # nothing this failure left reaches the next test
    assert "error" not in seen, "scenario %r: %s" % (scenario, seen["error"])
    return seen
