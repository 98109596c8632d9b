"""firmware/manifest.py read on the host: the one list of the modules a Pico runs.

MicroPython's build runs a manifest with its tools/manifestfile.py (not installed here); `Manifest` runs it the
same way (paths relative to the manifest's folder while it runs, `$(PORT_DIR)`-style includes left to the real
build) with stand-ins for the manifest functions that record what would be frozen. companion/flashing/flash.py
copies exactly those modules; tests/firmware/test_manifest.py checks the manifest covers every module once.
"""

import os

from companion.flashing import sources


class Options:
    """The `options` global: include()'s keyword arguments, None for any other name."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._defaults = {}

    def defaults(self, **kwargs):
        self._defaults = kwargs

    def __getattr__(self, name):
        return self._kwargs.get(name, self._defaults.get(name))


class Manifest:
    """Runs manifest files; `frozen` holds (target path, source path) pairs, in order."""

    def __init__(self):
        self.frozen = []
        self.required = []
        self.external = []  # includes resolved by the real build ($(PORT_DIR), $(MPY_DIR), ...)
        self.namespaces = {}  # manifest path -> its globals after running
        self.metadata_seen = []

    def run(self, path, **kwargs):
        path = os.path.abspath(path)
        if os.path.isdir(path):
            path = os.path.join(path, "manifest.py")
        if path in self.namespaces:
            return
        g = {
            "metadata": self.metadata, "include": self.include, "require": self.require,
            "package": self.package, "module": self.module, "freeze": self.freeze, "options": Options(**kwargs),
        }
        self.namespaces[path] = g
        with open(path) as f:
            source = f.read()
        before = os.getcwd()
        os.chdir(os.path.dirname(path))
        try:
            exec(compile(source, path, "exec"), g)
        finally:
            os.chdir(before)

    def metadata(self, **kwargs):
        self.metadata_seen.append(kwargs)

    def include(self, path, **kwargs):
        if "$(" in path:
            self.external.append(path)
        else:
            self.run(path, **kwargs)

    def require(self, name, **kwargs):
        self.required.append(name)

    def _add(self, base_path, target):
        self.frozen.append((target, os.path.abspath(os.path.join(base_path, target))))

    def package(self, package_path, files=None, base_path=".", opt=None):
        if files is None:
            for folder, dirs, names in sorted(os.walk(os.path.join(base_path, package_path))):
                dirs[:] = [d for d in dirs if d != "__pycache__"]
                for name in sorted(names):
                    if name.endswith(".py"):
                        self._add(base_path, os.path.relpath(os.path.join(folder, name), base_path))
        else:
            for f in files:
                self._add(base_path, os.path.join(package_path, f))

    def module(self, module_path, base_path=".", opt=None):
        assert module_path.endswith(".py"), "module must be .py file"
        self._add(base_path, module_path)

    def freeze(self, path, script=None, opt=None):
        raise AssertionError("legacy freeze() used: use package() or module()")

    def targets(self):
        return [target.replace(os.sep, "/") for target, _src in self.frozen]


def run_manifest(path=None):
    m = Manifest()
    m.run(path or sources.firmware_manifest())
    return m


def pico_modules(path=None):
    """The modules the Pico runs, as (import path on the board, source file): ("firmware/app.py", ".../app.py")."""
    return run_manifest(path).frozen
