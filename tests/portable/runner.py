# Runs the portable test modules on MicroPython: `micropython runner.py tests.portable.test_x ...`.
# Each module's test_* functions are called in name order; the last line is "N passed, M failed".
import sys


def run_module(name, results):
    mod = __import__(name)
    for part in name.split(".")[1:]:
        mod = getattr(mod, part)
    names = sorted(n for n in dir(mod) if n.startswith("test_"))
    for n in names:
        fn = getattr(mod, n)
        try:
            fn()
            results[0] += 1
        except Exception as e:  # a failing test must not stop the others
            results[1] += 1
            print("FAIL %s.%s: %s %s" % (name, n, type(e).__name__, e))
            sys.print_exception(e)


def main(argv):
    results = [0, 0]
    for name in argv:
        run_module(name, results)
    print("%d passed, %d failed" % (results[0], results[1]))
    return 1 if results[1] or not results[0] else 0


sys.exit(main(sys.argv[1:]))
