"""The README's pictures of the race screen, made again from the app as it looks now.

    python -m tools.readme_pictures

Runs the showcase scenario of tests/companion/appdriver.py (a six-car race a few turns in, every dashboard on the
tablet, just after a corner's roll) in a real offscreen window, then copies its two screenshots to
docs/screenshot.png (1280x800) and docs/screenshot-800x480.png (the 7-inch display). About 30 s."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICTURES = {"race.png": "screenshot.png", "race-800x480.png": "screenshot-800x480.png"}


def main():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "showcase.json")
        env = dict(os.environ, F1_COMPANION_DATA=os.path.join(tmp, "data"), F1_COMPANION_SEED="3", PYTHONPATH=ROOT,
                   PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
        run = subprocess.run([sys.executable, "-m", "tests.companion.appdriver", "showcase", out, tmp], cwd=ROOT,
                             env=env, timeout=300, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seen = {"error": "no report (the app's log: %s)" % run.stderr[-2000:]}
        if os.path.exists(out):
            with open(out) as f:
                seen = json.load(f)
        if "error" in seen:
            sys.exit("the showcase stopped: " + seen["error"])
        for shot, picture in PICTURES.items():
            shutil.copyfile(os.path.join(tmp, shot), os.path.join(ROOT, "docs", picture))
            print("docs/" + picture)


if __name__ == "__main__":
    main()
