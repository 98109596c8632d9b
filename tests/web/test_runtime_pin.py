"""The vendored MicroPython WebAssembly runtime is the pinned npm release: its files are the ones tools/web_runtime.py
checked against the registry's integrity hash, and its MIT licence travels with them."""

import hashlib
import os

from tools import web_runtime

RUNTIME = web_runtime.RUNTIME


def test_the_pin_names_the_package_release_and_the_registrys_hash():
    pin = web_runtime.read_pin()
    assert pin["package"] == "@micropython/micropython-webassembly-pyscript"
    assert pin["version"] == "1.27.0"
    assert pin["integrity"].startswith("sha512-") and len(pin["integrity"]) == len("sha512-") + 88
    assert pin["license"] == "MIT"
    assert sorted(pin["sha256"]) == sorted(web_runtime.FILES)


def test_every_vendored_file_matches_the_pin():
    pin = web_runtime.read_pin()
    for name, digest in pin["sha256"].items():
        with open(os.path.join(RUNTIME, name), "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == digest, "%s differs from the pin: run tools/web_runtime.py" % name


def test_nothing_unpinned_is_served_from_the_runtime_folder():
    assert sorted(os.listdir(RUNTIME)) == sorted(web_runtime.FILES + ("LICENSE", "PIN.json"))


def test_the_mit_licence_is_vendored_beside_the_runtime():
    with open(os.path.join(RUNTIME, "LICENSE")) as f:
        text = f.read()
    assert "The MIT License (MIT)" in text and "Damien P. George" in text
    assert "Permission is hereby granted, free of charge" in text
    assert "v" + web_runtime.read_pin()["version"] in text  # the release whose licence it is
