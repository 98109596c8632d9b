"""The app as a person installs it: its wheel, built from a copy of the checkout's sources (the build writes its
scratch folders beside the sources, never into the checkout), and a fresh virtual environment holding it.

    build_wheel(out)        the wheel's path (pip wheel, the pyproject's own build backend)
    install(wheel, root)    `pipx install` of the wheel, as a person installs the app (its dependencies from the
                            index), with pipx's folders under ROOT: returns the app's venv's bin folder
    on_path(bin_dir)        the folder where pipx put the `formula1` command (a person's PATH)
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


def _pipx_env(root):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIPX_", "PYTHON"))}
    env.update(PIPX_HOME=os.path.join(root, "pipx"), PIPX_BIN_DIR=os.path.join(root, "bin"),
               PIPX_MAN_DIR=os.path.join(root, "man"))
    return env


def install(wheel, root):
    """pipx installs the wheel into a venv of its own (root/pipx/venvs/formula1-companion) and links its command
    into root/bin; returns the venv's bin folder (its python and its formula1)."""
    os.makedirs(root, exist_ok=True)
    _run([sys.executable, "-m", "pipx", "install", "--python", sys.executable, wheel], 900, cwd=root,
         env=_pipx_env(root))
    return os.path.join(root, "pipx", "venvs", "formula1-companion", "bin")


def on_path(bin_dir):
    """The folder pipx links the app's commands into, beside its venvs (see install)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(bin_dir)))), "bin")
