# Freezes the game rules and wire protocol into a MicroPython firmware build (included by firmware/manifest.py;
# see "Freezing the code into your own firmware build" in README.md). Paths are relative to this file.
#
# All of shared_rules, not only what a dashboard imports today: frozen modules cost flash (plenty on a Pico),
# not heap, and a module the dashboard starts to import later is then already in the firmware. Every module
# here runs on MicroPython by design (tests/rules/test_portability.py), so none needs leaving out.
# The list is built by walking the folder so a new module is frozen without touching this file; only this
# manifest itself is skipped (a build file, not a module).
import os

metadata(description="Formula 1 dashboard: game rules and wire protocol", version="0.1.0")

_files = []
for _folder, _dirs, _names in os.walk("."):
    _dirs[:] = sorted(d for d in _dirs if d != "__pycache__")
    for _name in sorted(_names):
        _path = os.path.normpath(os.path.join(_folder, _name))
        if _name.endswith(".py") and _path != "manifest.py":
            _files.append(_path.replace(os.sep, "/"))

package("shared_rules", files=_files, base_path="..")
