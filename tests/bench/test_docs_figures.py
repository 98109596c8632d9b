"""Figures in the docs stay true. A doc names a bench figure by its key and states its target; the value is in
docs/benchmarks.md, which `make bench` writes from bench/results.json (bench/report.py), so no copy can go stale:
a line that names a figure may carry no number but those of the figure's target and description, every figure
named exists, and docs/benchmarks.md shows the values bench/results.json holds."""

import os
import re

import pytest

from bench import report
from bench.results import load
from tests.mpy import ROOT

DOCS = ("firmware/README.md", "docs/protocol.md", "README.md")
GROUPS = ("rules", "link", "firmware", "companion", "phone", "table", "pico")
# a figure's key ends in its unit or statistic (`pico.heap_free_kb_min`); code (`link.post_event`) does not
FIGURE = re.compile(r"`((?:%s)\.\w+?_(?:ms|us|s|kb|b|pct|p50|p90|p99|max|min|lost|ratio|ok|identical|faults|"
                    r"kinds|refused|loss)\w*)`" % "|".join(GROUPS))
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


def _known():
    described = {key: what + " " + target for key, what, target, _check in report.TARGETS}
    return described, set(load())


def _read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("doc", DOCS)
def test_a_doc_names_figures_and_targets_never_a_copied_value(doc):
    described, measured = _known()
    for n, line in enumerate(_read(doc).splitlines(), 1):
        keys = FIGURE.findall(line)
        if not keys:
            continue
        for key in keys:
            assert key in described or key in measured, "%s:%d names no figure the bench makes: %s" % (doc, n, key)
        allowed = set()
        for key in keys:
            allowed |= set(NUMBER.findall(described.get(key, "")))
        bare = FIGURE.sub("", line)
        stray = [x for x in NUMBER.findall(bare) if x not in allowed]
        assert stray == [], "%s:%d quotes %s beside %s: name the figure, docs/benchmarks.md has it" % (
            doc, n, stray, keys)


def test_the_firmware_readme_quotes_no_pico_figure_of_its_own():
    text = _read("firmware/README.md")
    assert "estimate" not in text  # the Pico's heap is measured on picosim, not estimated
    assert "measured" not in text.split("| figure (`bench/results.json`)")[1].split("\n")[0]  # no column of values
    # after saying it quotes none, no measured time or size of its own (it quoted the power-on's, by hand)
    after = text.split("never their values")[1].split("\n## ")[0]
    assert re.findall(r"\d+(?:\.\d+)? ?(?:ms|µs|us|s|KB|bytes)\b", after) == [], after


def test_benchmarks_md_shows_the_values_of_bench_results():
    results = load()
    shown = {}
    for line in _read("docs/benchmarks.md").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`") and cells[0].endswith("`"):
            key = cells[0].strip("`")
            shown[key] = cells[2] if len(cells) == 5 else cells[1]
    assert shown
    for key, value in shown.items():
        if key in results:
            assert value == str(results[key]), "docs/benchmarks.md: %s is %s, bench/results.json %s (make bench "\
                "writes both; `python -m bench.report` writes the page again)" % (key, value, results[key])


def test_benchmarks_md_is_the_page_bench_report_writes_from_bench_results():
    # The whole page, not only its values: only the day it was written and the machine it ran on are the run's own.
    def body(text):
        return [line for line in text.splitlines() if not line.startswith(("Written by ", "Machine: "))]

    page = _read("docs/benchmarks.md")
    assert body(page) == body(report.render(load())), "python -m bench.report writes the page again"
    machine = next(line for line in page.splitlines() if line.startswith("Machine: "))
    # MicroPython's release (sys.implementation.version), not sys.version's language level ("3.4.0")
    assert re.search(r"MicroPython v\d+\.\d+\.\d+", machine) and "3.4.0" not in machine, machine
