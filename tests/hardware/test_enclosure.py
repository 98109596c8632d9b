"""The OpenSCAD enclosure renders to a watertight STL with Debian's openscad, through `make stl`."""

import os
import re
import shutil
import subprocess
from collections import Counter

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCAD = os.path.join(ROOT, "hardware", "enclosure.scad")

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    shutil.which("openscad") is None, reason="openscad is not installed (CI installs it from .ci/apt-deps)"
)]


def parameter(name):
    with open(SCAD, encoding="utf-8") as f:
        return float(re.search(r"^%s = ([\d.]+);" % name, f.read(), re.M).group(1))


def read_stl(path):
    """Triangles of an ASCII STL as tuples of three (x, y, z) vertices."""
    with open(path, encoding="ascii") as f:
        text = f.read()
    assert text.startswith("solid"), "not an ASCII STL"
    vertices = [tuple(float(v) for v in m) for m in re.findall(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", text)]
    assert vertices and len(vertices) % 3 == 0
    return [tuple(vertices[i : i + 3]) for i in range(0, len(vertices), 3)]


def size(triangles):
    points = [p for t in triangles for p in t]
    return tuple(round(max(p[i] for p in points) - min(p[i] for p in points), 2) for i in range(3))


def render(tmp_path, *defines):
    out = tmp_path / "part.stl"
    cmd = ["openscad", "--hardwarnings", "-o", str(out)]
    for d in defines:
        cmd += ["-D", d]
    proc = subprocess.run(cmd + [SCAD], capture_output=True, text=True, timeout=300)
    return proc, out


@pytest.fixture(scope="module")
def make_stl(tmp_path_factory):
    out = tmp_path_factory.mktemp("stl") / "enclosure.stl"
    proc = subprocess.run(["make", "-C", ROOT, "stl", "STL=%s" % out], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_make_stl_renders_base_and_lid_side_by_side(make_stl):
    triangles = read_stl(make_stl)
    outer_w = parameter("inner_w") + 2 * parameter("wall")
    outer_d = parameter("inner_d") + 2 * parameter("wall")
    base_h = parameter("floor_t") + parameter("inner_h")
    assert size(triangles) == (2 * outer_w + 10, outer_d, base_h)


def test_stl_is_watertight(make_stl):
    # Every edge shared by exactly two triangles: a slicer can print it without repair.
    edges = Counter()
    for t in read_stl(make_stl):
        for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
            edges[frozenset((a, b))] += 1
    assert set(edges.values()) == {2}


def test_enclosure_is_parametric(tmp_path):
    proc, out = render(tmp_path, 'part="lid"', "inner_w=100")
    assert proc.returncode == 0, proc.stderr
    lid = size(read_stl(out))
    assert lid[0] == 100 + 2 * parameter("wall")
    # The lid carries the OLED and button-board posts: taller than the panel alone.
    assert lid[2] == parameter("lid_t") + parameter("board_gap")


def test_a_box_too_small_for_the_parts_is_refused(tmp_path):
    proc, out = render(tmp_path, "inner_d=50")
    assert proc.returncode != 0
    assert "the Pico does not fit" in proc.stderr
    assert not out.exists()
    proc, out = render(tmp_path, "oled_cy=5")
    assert proc.returncode != 0
    assert "button UP overlaps the OLED" in proc.stderr
