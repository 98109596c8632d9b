"""`make bench`: run every bench/*_bench.py (each has main()), which merge figures into bench/results.json."""

import importlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def main(argv):
    names = argv or sorted(f[:-3] for f in os.listdir(HERE) if f.endswith("_bench.py"))
    for name in names:
        started = time.time()
        print("bench: %s ..." % name, flush=True)
        importlib.import_module("bench." + name).main()
        print("bench: %s done in %.1f s" % (name, time.time() - started), flush=True)
    from bench import report
    from bench.results import PATH, load

    report.main()

    print("figures in %s:" % os.path.relpath(PATH))
    for key, value in sorted(load().items()):
        print("  %-40s %s" % (key, value))


if __name__ == "__main__":
    main(sys.argv[1:])
