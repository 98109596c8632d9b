"""`make run`: the tablet app. It is being built (issue 5); until then say so plainly."""

import sys

MESSAGE = """Formula 1 companion: the tablet app is not built yet.

What works today:
  make test    runs every test (rules engine on CPython and MicroPython, link, firmware, hardware)
  make bench   writes the performance figures to bench/results.json

The rules engine lives in shared_rules/ and the rule decisions in docs/rules.md.
"""


def main():
    print(MESSAGE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
