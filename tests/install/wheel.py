"""The app as a person installs it: its wheel, built from a copy of the checkout's sources (the build writes its
scratch folders beside the sources, never into the checkout), and a fresh virtual environment holding it.

    build_wheel(out)        the wheel's path (pip wheel, the pyproject's own build backend)
    install(wheel, venv)    `python -m venv VENV`, then pip installs the wheel into it (its dependencies from the index)
"""

import glob
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "companion", "firmware", "shared_rules")


def _run(cmd, timeout, **kwargs):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)
    if done.returncode != 0:
        raise RuntimeError("%s failed (rc %d):\n%s\n%s" % (" ".join(cmd), done.returncode, done.stdout[-3000:],
                                                           done.stderr[-3000:]))
    return done


def build_wheel(out):
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="f1-wheel-src-") as src:
        for name in SOURCES:
            path = os.path.join(ROOT, name)
            if os.path.isdir(path):
                shutil.copytree(path, os.path.join(src, name), ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy(path, src)
        _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, src], 600)
    (wheel,) = glob.glob(os.path.join(out, "formula1_companion-*.whl"))
    return wheel


def install(wheel, venv):
    """A fresh venv with the wheel installed; returns its bin folder. The venv is made without a pip of its own
    (seeding one was about a third of the install's time) and this pip installs into it (`pip --python`): the same
    wheel, its dependencies from the index, into the same fresh environment."""
    _run([sys.executable, "-m", "venv", "--without-pip", venv], 300)
    python = os.path.join(venv, "bin", "python")
    _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--disable-pip-version-check", wheel],
         900, cwd=venv)
    return os.path.join(venv, "bin")
