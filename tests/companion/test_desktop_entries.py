"""The app in a Linux desktop: `formula1 --install-desktop` writes a menu entry and its icon, `formula1 --autostart
on|off` writes and removes the entry that starts the app full screen with the desktop session. Both entries pass
desktop-file-validate (Debian's desktop-file-utils), start this installation's command, and land in the user's
XDG folders (temporary ones here)."""

import os
import shutil
import subprocess
import sys

import pytest

from companion import desktop
from companion.__main__ import main

VALIDATE = shutil.which("desktop-file-validate")
needs_validator = pytest.mark.skipif(VALIDATE is None, reason="desktop-file-validate missing: apt-get install "
                                                              "desktop-file-utils (.ci/apt-deps)")


@pytest.fixture
def xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def validate(path):
    done = subprocess.run([VALIDATE, path], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def keys(path):
    with open(path) as f:
        return dict(line.split("=", 1) for line in f.read().splitlines() if "=" in line)


@needs_validator
def test_install_desktop_writes_a_valid_menu_entry_with_its_icon(xdg, capsys):
    assert main(["--install-desktop"]) == 0
    path = xdg / "data" / "applications" / "formula1-companion.desktop"
    assert str(path) in capsys.readouterr().out
    validate(str(path))
    entry = keys(path)
    assert entry["Name"] == "Formula 1 companion" and entry["Icon"] == "formula1-companion"
    assert "Game" in entry["Categories"].split(";")
    assert entry["Exec"].split()[0] in (os.path.join(os.path.dirname(sys.executable), "formula1"), sys.executable)
    icon = xdg / "data" / "icons" / "hicolor" / "256x256" / "apps" / "formula1-companion.png"
    with open(desktop.ICON, "rb") as f:
        assert icon.read_bytes() == f.read()
    assert icon.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_validator
def test_autostart_on_starts_full_screen_and_off_removes_it(xdg, capsys):
    path = xdg / "config" / "autostart" / "formula1-companion.desktop"
    assert main(["--autostart", "on"]) == 0
    assert "formula1 --autostart off" in capsys.readouterr().out  # how to leave it, said when it is set
    validate(str(path))
    assert keys(path)["Exec"].endswith(" --fullscreen")
    assert main(["--autostart", "on"]) == 0  # twice: still one entry, whole
    validate(str(path))
    assert main(["--autostart", "off"]) == 0
    assert not path.exists()
    assert main(["--autostart", "off"]) == 0  # already off: nothing to do, no error


def test_an_exec_path_with_spaces_is_quoted(monkeypatch, tmp_path):
    folder = tmp_path / "My Apps" / "bin"
    folder.mkdir(parents=True)
    (folder / "formula1").write_text("")
    monkeypatch.setattr(sys, "executable", str(folder / "python"))
    assert desktop.command() == '"%s"' % (folder / "formula1")
