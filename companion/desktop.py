"""The app in a Linux desktop: its entry in the applications menu, and a dedicated table that starts it at boot.

    install_desktop()   `formula1 --install-desktop`: the menu entry ($XDG_DATA_HOME/applications) and its icon
                        (the hicolor theme, 256x256), for this user
    autostart(on)       `formula1 --autostart on|off`: an XDG autostart entry ($XDG_CONFIG_HOME/autostart) that
                        starts the app full screen when the user's desktop session starts (the Raspberry Pi 7-inch
                        display set to log in by itself: the table is ready at power-on); off removes it

Both entries start the very command that wrote them (the formula1 script beside this Python), so an app installed
with pipx or into a venv starts from the menu without its folder on PATH. Files are written whole (temp, rename).
"""

import os
import shutil
import subprocess
import sys

APP_ID = "formula1-companion"
ICON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "icons", "formula1.png")


def _data_home():
    return os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")


def _config_home():
    return os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")


def menu_entry_path():
    return os.path.join(_data_home(), "applications", APP_ID + ".desktop")


def autostart_path():
    return os.path.join(_config_home(), "autostart", APP_ID + ".desktop")


def icon_path():
    return os.path.join(_data_home(), "icons", "hicolor", "256x256", "apps", APP_ID + ".png")


def command():
    """The command line that starts this installation of the app, as an Exec value (quoted where needed)."""
    script = os.path.join(os.path.dirname(sys.executable), "formula1")
    argv = [script] if os.path.exists(script) else [sys.executable, "-m", "companion"]
    return " ".join(_quote(a) for a in argv)


def _quote(arg):
    """An argument quoted as the Desktop Entry Specification's Exec key wants it."""
    if not any(ch in arg for ch in ' \t\n"\'\\><~|&;$*?#()`'):
        return arg
    return '"%s"' % arg.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")


def entry(extra_args="", comment="Referee for the 1962 board game Formula 1, with Pico dashboards"):
    from companion import __version__

    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        "Name=Formula 1 companion",
        "GenericName=Board game referee",
        "Comment=" + comment,
        "Exec=" + command() + extra_args,
        "Icon=" + APP_ID,
        "Terminal=false",
        "Categories=Game;BoardGame;",
        "Keywords=Formula 1;Formula 5;race;board game;Pico;",
        "StartupNotify=false",
        "X-Formula1-Companion-Version=" + __version__,
        "",
    ])


def _write(path, data):
    from companion.storage import write_atomic

    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_atomic(path, data)


def install_desktop():
    """Write the menu entry and its icon; returns the entry's path."""
    with open(ICON, "rb") as f:
        _write(icon_path(), f.read())
    _write(menu_entry_path(), entry().encode())
    return menu_entry_path()


def autostart(on):
    """Start the app full screen with the desktop session (on) or no longer (off); returns the entry's path."""
    path = autostart_path()
    if on:
        with open(ICON, "rb") as f:
            _write(icon_path(), f.read())
        _write(path, entry(" --fullscreen", "The table's referee, full screen from the start").encode())
    else:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
    return path


def main(install, switch):
    """`formula1 --install-desktop` / `--autostart on|off`: does it and says where, in words."""
    if install:
        print("The Formula 1 companion is in the applications menu: %s" % install_desktop())
    if switch is not None:
        path = autostart(switch == "on")
        if switch == "on":
            print("The Formula 1 companion starts full screen when you log in: %s\n"
                  "To stop that: formula1 --autostart off" % path)
        else:
            print("The Formula 1 companion no longer starts when you log in (%s removed)." % path)
    tool = shutil.which("update-desktop-database")
    if install and tool:  # menus that cache entries see the new one at once
        subprocess.run([tool, "-q", os.path.dirname(menu_entry_path())], check=False, capture_output=True)
    return 0
