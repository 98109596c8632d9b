"""The app's mpy-cross helpers (companion/flashing/mpy_build.py), for the tests and benches that import them from here.
`python tools/mpy_build.py [OUT]` compiles shared_rules into OUT (default build/mpy)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from companion.flashing.mpy_build import compile_module, compile_package, mpy_cross, source_name  # noqa: E402

__all__ = ["compile_module", "compile_package", "mpy_cross", "source_name"]

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "mpy")
    n = compile_package(os.path.join(ROOT, "shared_rules"), out)
    print("compiled %d modules into %s" % (n, out))
