"""Refresh the vendored MicroPython WebAssembly runtime the phones' seat page runs the firmware on.

    python tools/web_runtime.py                 the pinned version again (checks the files still match the pin)
    python tools/web_runtime.py --version 1.28.0   another release of the same npm package

It asks npm (the ordinary client) for the package's tarball (`npm pack`) and for the registry's integrity hash
(`npm view ... dist.integrity`), checks the tarball against that hash, and writes into
companion/phones/static/runtime/: micropython.mjs and micropython.wasm as published, and PIN.json (package,
version, the registry's integrity hash of its tarball, and the sha256 of each file written), which
tests/web/test_runtime_pin.py holds the files to. The npm package ships no licence file (its package.json says
MIT): LICENSE beside them is MicroPython's MIT licence; a new release keeps it unless its terms change.
"""

import argparse
import base64
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile

PACKAGE = "@micropython/micropython-webassembly-pyscript"
HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = os.path.join(os.path.dirname(HERE), "companion", "phones", "static", "runtime")
PIN = os.path.join(RUNTIME, "PIN.json")
FILES = ("micropython.mjs", "micropython.wasm")  # what the page loads; README.md and package.json stay out


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_pin():
    with open(PIN) as f:
        return json.load(f)


def _npm(*args, cwd=None):
    return subprocess.run(("npm",) + args, cwd=cwd, check=True, capture_output=True, text=True).stdout


def refresh(version):
    dist = json.loads(_npm("view", "%s@%s" % (PACKAGE, version), "dist", "--json"))
    integrity = dist["integrity"]
    algo, _, want = integrity.partition("-")
    with tempfile.TemporaryDirectory() as tmp:
        name = _npm("pack", "%s@%s" % (PACKAGE, version), "--silent", cwd=tmp).strip().splitlines()[-1]
        tarball = os.path.join(tmp, name)
        with open(tarball, "rb") as f:
            got = base64.b64encode(hashlib.new(algo, f.read()).digest()).decode()
        if got != want:
            sys.exit("the tarball npm gave does not match the registry's integrity %s (got %s-%s): nothing written"
                     % (integrity, algo, got))
        with tarfile.open(tarball) as tar:
            meta = json.load(tar.extractfile("package/package.json"))  # type: ignore[arg-type]
            if meta["version"] != version or meta.get("license") != "MIT":
                sys.exit("unexpected package.json: version %s, licence %s" % (meta["version"], meta.get("license")))
            os.makedirs(RUNTIME, exist_ok=True)
            for fname in FILES:
                data = tar.extractfile("package/" + fname).read()  # type: ignore[union-attr]
                with open(os.path.join(RUNTIME, fname), "wb") as out:
                    out.write(data)
    pin = {
        "package": PACKAGE,
        "version": version,
        "integrity": integrity,
        "license": "MIT",
        "sha256": {fname: sha256(os.path.join(RUNTIME, fname)) for fname in FILES},
    }
    with open(PIN, "w") as f:
        json.dump(pin, f, indent=2)
        f.write("\n")
    return pin


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", help="the npm release (default: the pinned one)")
    args = parser.parse_args()
    version = args.version or read_pin()["version"]
    pin = refresh(version)
    print("%s %s vendored in %s (%s)" % (PACKAGE, pin["version"], RUNTIME, pin["integrity"]))


if __name__ == "__main__":
    main()
