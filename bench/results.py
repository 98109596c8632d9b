"""bench/results.json: flat keys, numbers only. Each benchmark merges its figures in, atomically."""

import json
import os

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results.json")
NOTES = os.path.join(os.path.dirname(PATH), "notes.json")  # why a bench measured nothing (docs/benchmarks.md shows it)


def load(path=PATH):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def record(figures, path=PATH):
    """Merge `figures` (name -> number) into the results file: write a temp file, then rename."""
    for name, value in figures.items():
        if not isinstance(name, str) or isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError("bench figures are flat: name -> number (%r)" % (name,))
    data = load(path)
    data.update(figures)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return data


def note(bench, text, path=NOTES):
    """Say why `bench` (the figures' prefix, e.g. "pico") measured nothing; "" clears it."""
    notes = load(path)
    if text:
        notes[bench] = text
    else:
        notes.pop(bench, None)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(notes, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
