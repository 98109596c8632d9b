"""The freezing manifest (firmware/manifest.py) freezes every dashboard module once; it is also the list of
modules tools/flash.py copies. It is run as MicroPython's build runs it by tools/pico_manifest.py."""

import collections
import os
import shutil

import pytest

from tests import mpy
from tools.pico_manifest import run_manifest

pytestmark = [pytest.mark.slow]

ROOT = mpy.ROOT
FIRMWARE_MANIFEST = os.path.join(ROOT, "firmware", "manifest.py")


def host_only(root, m):
    """firmware/manifest.py's HOST_ONLY: the one list of firmware modules that are deliberately not frozen."""
    names = m.namespaces[os.path.join(root, "firmware", "manifest.py")]["HOST_ONLY"]
    return {"firmware/" + n for n in names}


def web_only(root, m):
    """firmware/manifest.py's WEB_ONLY: the phone page's board and port module, never frozen either."""
    names = m.namespaces[os.path.join(root, "firmware", "manifest.py")]["WEB_ONLY"]
    return {"firmware/" + n for n in names}


def modules_on_disk(root):
    """Every .py module in firmware/ and shared_rules/ (repository paths), manifests left out."""
    found = set()
    for pkg in ("firmware", "shared_rules"):
        for folder, dirs, names in os.walk(os.path.join(root, pkg)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in names:
                if name.endswith(".py") and name != "manifest.py":
                    found.add(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return found


def coverage_problems(root):
    """What is wrong with the manifests under `root`: modules left out, frozen twice, or frozen when host-only."""
    m = run_manifest(os.path.join(root, "firmware", "manifest.py"))
    frozen = collections.Counter(m.targets())
    hosts = host_only(root, m) | web_only(root, m)
    problems = []
    for name in sorted(modules_on_disk(root) - set(frozen) - hosts):
        problems.append("not frozen (add it to a manifest, or to HOST_ONLY): " + name)
    for name, n in sorted(frozen.items()):
        if n > 1:
            problems.append("frozen %d times: %s" % (n, name))
    for name in sorted(hosts & set(frozen)):
        problems.append("host-only but frozen: " + name)
    for name in sorted(hosts - modules_on_disk(root)):
        problems.append("HOST_ONLY names a missing file: " + name)
    return problems


def test_every_dashboard_module_is_frozen_exactly_once():
    assert coverage_problems(ROOT) == []


def test_every_frozen_path_exists_in_the_repository():
    m = run_manifest(FIRMWARE_MANIFEST)
    assert m.frozen
    for target, src in m.frozen:
        assert os.path.isfile(src), src
        assert src == os.path.join(ROOT, target), "frozen under another name: %s as %s" % (src, target)


def test_host_only_modules_stay_out():
    m = run_manifest(FIRMWARE_MANIFEST)
    # firmware/host/ is what never reaches a Pico: all of it, and only it, besides the phone's WEB_ONLY
    host = {"firmware/host/" + n for n in os.listdir(os.path.join(ROOT, "firmware", "host")) if n.endswith(".py")}
    assert host_only(ROOT, m) == host >= {"firmware/host/board_host.py", "firmware/host/link_main.py"}
    assert not [t for t in m.targets() if t.startswith("firmware/host/")]
    assert not [t for t in m.targets() if t.endswith("manifest.py")]


def test_web_only_modules_stay_out():
    m = run_manifest(FIRMWARE_MANIFEST)
    assert web_only(ROOT, m) == {"firmware/board_web.py", "firmware/webport.py", "firmware/mpy_internals_web.py"}
    assert not web_only(ROOT, m) & set(m.targets())


def test_boot_file_is_frozen_inside_the_package_not_as_main():
    # A frozen top-level main.py would run ahead of the board's /main.py (see firmware/manifest.py).
    targets = run_manifest(FIRMWARE_MANIFEST).targets()
    assert "firmware/main.py" in targets
    assert "main.py" not in targets and "boot.py" not in targets


def test_the_port_modules_come_from_micropython_and_no_driver_is_required():
    m = run_manifest(FIRMWARE_MANIFEST)
    assert m.required == []  # the dashboard drives the OLED itself: no micropython-lib driver frozen
    # A FROZEN_MANIFEST replaces the board's: the port's own (asyncio, _boot.py) must be included again.
    assert m.external == ["$(PORT_DIR)/boards/manifest.py"]
    assert all(md.get("version") for md in m.metadata_seen) and len(m.metadata_seen) == 1


def test_the_manifest_freezes_all_of_shared_rules():
    m = run_manifest(FIRMWARE_MANIFEST)
    shared = {n for n in modules_on_disk(ROOT) if n.startswith("shared_rules/")}
    assert sorted(t for t in m.targets() if t.startswith("shared_rules/")) == sorted(shared)
    assert "shared_rules/link/codec.py" in shared and "shared_rules/__init__.py" in shared


@pytest.fixture
def tree(tmp_path):
    """A copy of firmware/ (with its manifest) and shared_rules/ to break on purpose."""
    for pkg in ("firmware", "shared_rules"):
        shutil.copytree(os.path.join(ROOT, pkg), tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_the_check_catches_a_new_firmware_module_left_out(tree):
    assert coverage_problems(str(tree)) == []
    (tree / "firmware" / "radio.py").write_text("X = 1\n")
    assert coverage_problems(str(tree)) == ["not frozen (add it to a manifest, or to HOST_ONLY): firmware/radio.py"]


def test_the_check_catches_a_double_and_a_frozen_host_module(tree):
    manifest = tree / "firmware" / "manifest.py"
    text = manifest.read_text()
    manifest.write_text(text.replace('"app.py",', '"app.py", "app.py", "host/board_host.py",', 1))
    assert coverage_problems(str(tree)) == ["frozen 2 times: firmware/app.py",
                                            "host-only but frozen: firmware/host/board_host.py"]


def test_a_new_shared_rules_module_is_frozen_without_editing_a_manifest(tree):
    (tree / "shared_rules" / "f1" / "weather.py").write_text("RAIN = 1\n")
    assert "shared_rules/f1/weather.py" in run_manifest(str(tree / "firmware" / "manifest.py")).targets()
    assert coverage_problems(str(tree)) == []


def test_make_flash_leaves_the_manifests_off_the_board(tmp_path):
    # tools/flash.py copies what compile_package makes: a manifest is a build file, not a module to copy.
    from tools.mpy_build import compile_package

    for pkg in ("firmware", "shared_rules"):
        compile_package(os.path.join(ROOT, pkg), str(tmp_path))
    made = {os.path.join(os.path.relpath(d, tmp_path), f) for d, _dirs, fs in os.walk(tmp_path) for f in fs}
    assert os.path.join("firmware", "app.mpy") in made
    assert not [f for f in made if "manifest" in f]


def test_mpy_files_name_their_source_by_the_dotted_module_name():
    # What tracebacks from a .mpy file show (tools/mpy_build.py).
    from tools.mpy_build import source_name

    assert source_name("firmware", ".", "app.py") == "firmware.app"
    assert source_name("shared_rules", "f1", "car.py") == "shared_rules.f1.car"
    assert source_name("shared_rules", "f1", "__init__.py") == "shared_rules.f1"
