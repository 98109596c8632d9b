"""The pairing screen's Pico set-up run by the INSTALLED app (setup_driver.py under its venv's Python, from a folder
that is not the checkout), its entry's changes read as they come: for the tests and bench/install_bench.py.

    run = SetupRun(bin_dir, env, folder, port, start=True)   # started at once
    run.until(lambda e: e["done"] >= 10, wall_s)             # the first entry that matches (TimeoutError in words)
    run.finish(wall_s)                                        # every entry seen, once the driver has ended
"""

import json
import os
import shutil
import subprocess
import threading

from tests.wait import poll

HERE = os.path.dirname(os.path.abspath(__file__))


class SetupRun:
    def __init__(self, bin_dir, env, folder, port, start=True, drive=None, new_port=None):
        driver = shutil.copy(os.path.join(HERE, "setup_driver.py"), folder)
        cmd = [os.path.join(bin_dir, "python"), "-I", driver, port] + (["start"] if start else [])
        if drive:
            cmd += ["--drive", drive]
        if new_port:
            cmd += ["--new-port", new_port]
        self.entries = []
        self.out = []
        self.proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.out.append(line)
            if line.startswith("ENTRY {"):
                self.entries.append(json.loads(line[6:]))

    def until(self, match, wall_s):
        got = poll(lambda: next((e for e in list(self.entries) if match(e)), None), wall_s, 0.05)
        if got is None:
            raise TimeoutError("the set-up never got there in %d s; it said:\n%s" % (wall_s, "".join(self.out)[-3000:]))
        return got

    def finish(self, wall_s):
        try:
            self.proc.wait(wall_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise TimeoutError("the set-up did not end in %d s:\n%s" % (wall_s, "".join(self.out)[-3000:])) from None
        self._reader.join(10)
        return self.entries

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
