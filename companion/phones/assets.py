"""The seat page that runs the dashboard's own firmware in the phone's browser, and the files it loads.

    companion/phones/static/
        seat.html       the page (a template: the hashed names of the files below go in at start)
        seat.js         the page's side of the phone board (firmware/board_web.py, firmware/webport.py): canvas,
                        buttons, light, tone and buzz, the browser storage of /data, the seat's WebSocket
        runtime/        MicroPython's WebAssembly port, vendored as published on npm (micropython.mjs and .wasm,
                        PIN.json: its version and hashes, LICENSE: MIT); tools/web_runtime.py refreshes it
    theme.css           made at start from companion/theme.py (page_css): the tablet's colours and faces, the
                        faces' files served beside it (companion/fonts)
    the firmware        made at start: one JSON of the modules the Pico runs (firmware/manifest.py's list) and the
                        phone's two (its WEB_ONLY), compiled to .mpy as for a Pico (firmware_bundle)

    prepare()                   the files read and compiled in a thread of their own: a Future of them
    add_routes(app, is_seat[, assets])    on an aiohttp app (assets: an Assets or prepare()'s Future):
        GET /<token>/           the seat's page, if is_seat(token); else the same 404 as any unknown path
        GET /static/<name>      the files above under content-hashed names (seat.3f2a...e1.js): cached for good
                                (immutable), ETag, gzip where the browser takes it. No secret is in any of them:
                                a seat's data travels only on its token's paths (the page, its link socket)

The seat's link socket (GET /<token>/link, the tablet's, companion/transport) is not served here: a page without
it plays on its own, as a Pico with no tablet does.
"""

import asyncio
import base64
import gzip
import hashlib
import json
import os
import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from aiohttp import web

from companion import storage, theme
from companion.flashing import sources
from companion.flashing.manifest import run_manifest
from companion.flashing.mpy_build import compile_module, mpy_cross

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = os.path.join(HERE, "static")
IMMUTABLE = "public, max-age=31536000, immutable"
_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
          ".json": "application/json", ".txt": "text/plain", ".css": "text/css", ".otf": "font/otf"}


def firmware_modules():
    """(path on the phone, source file) of every module the page loads: the Pico's list, then the phone's own."""
    manifest = sources.firmware_manifest()
    m = run_manifest(manifest)
    web_only = m.namespaces[manifest]["WEB_ONLY"]
    skipped = {"firmware/" + name for name in m.namespaces[manifest]["NOT_ON_PHONES"]}
    frozen = [(target.replace(os.sep, "/"), src) for target, src in m.frozen]
    return [(target, src) for target, src in frozen if target not in skipped] + [
        ("firmware/" + name, os.path.join(os.path.dirname(manifest), name)) for name in web_only]


def firmware_bundle():
    """One JSON of every module the page loads, {"files": {path on the phone: base64 of its bytes}}: compiled to .mpy
    as `formula1 flash` compiles them for a Pico (the phone then runs the very files a flashed Pico runs, and does not
    compile 40 modules at every start: a quarter of its first frame on a slow phone); as .py sources where mpy-cross
    is not installed (the runtime compiles them itself). Compiled once per version of the sources and of mpy-cross,
    kept in the per-user cache: mpy-cross over 40 modules is 2 s of CPU at every start otherwise."""
    modules = firmware_modules()
    compiler = mpy_cross()
    cached = _cache_path(modules, compiler)
    try:
        with open(cached, "rb") as f:
            return f.read()
    except OSError:
        pass  # first start of this version: compile
    files = {}
    with tempfile.TemporaryDirectory() as out:
        for target, src in modules:
            path = compile_module(src, target, out) if compiler else src
            with open(path, "rb") as f:
                files[target[:-3] + os.path.splitext(path)[1]] = base64.b64encode(f.read()).decode()
    bundle = json.dumps({"files": files}, sort_keys=True).encode()
    _keep(cached, bundle)
    return bundle


def _cache_path(modules, compiler):
    """The cache file of this bundle: named by a hash of every source's path on the board and bytes, and of the
    compiler (its path and size: another mpy-cross makes other .mpy files)."""
    h = hashlib.sha256()
    if compiler:
        h.update(("%s %d" % (compiler, os.path.getsize(compiler))).encode())
    for target, src in modules:
        with open(src, "rb") as f:
            h.update(target.encode() + b"\0" + hashlib.sha256(f.read()).digest())
    return os.path.join(storage.cache_dir(), "seat-firmware-%s.json" % h.hexdigest()[:24])


def _keep(path, data):
    """Write the bundle to the cache (temp file, then rename) and drop the bundles of other versions unused for an
    hour (another checkout or install may share the cache). A cache that cannot be written costs the next start its
    compile, nothing else."""
    folder = os.path.dirname(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".seat-firmware-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        for name in os.listdir(folder):
            other = os.path.join(folder, name)
            if name.startswith("seat-firmware-") and other != path and time.time() - os.path.getmtime(other) > 3600:
                os.remove(other)
    except OSError:
        pass


class Asset:
    """One served file: its bytes, gzipped once, under a name that changes with its content."""

    def __init__(self, logical, data):
        stem, ext = os.path.splitext(logical)
        digest = hashlib.sha256(data).hexdigest()
        self.name = "%s.%s%s" % (stem, digest[:16], ext)
        self.etag = '"%s"' % digest[:32]
        self.type = _TYPES.get(ext, "application/octet-stream")
        self.data = data
        self.gz = gzip.compress(data, 9, mtime=0)


class Assets:
    """Everything the seat page needs, read and hashed once."""

    def __init__(self):
        def read(*parts):
            with open(os.path.join(STATIC, *parts), "rb") as f:
                return f.read()

        self.files = {}
        for logical, data in (
            ("micropython.mjs", read("runtime", "micropython.mjs")),
            ("micropython.wasm", read("runtime", "micropython.wasm")),
            ("LICENSE-micropython.txt", read("runtime", "LICENSE")),
            ("firmware.json", firmware_bundle()),
            ("seat.js", read("seat.js")),
        ):
            self.files[logical] = Asset(logical, data)
        # The tablet's look (companion/theme.py): its faces, and theme.css made from its palette.
        for name in theme.PAGE_FONTS.values():
            filename = theme.PAGE_FONT_FILES[name]
            with open(os.path.join(theme.FONTS_DIR, filename), "rb") as f:
                self.files[filename] = Asset(filename, f.read())
        css = theme.page_css(lambda filename: "/static/" + self.files[filename].name)
        self.files["theme.css"] = Asset("theme.css", css.encode())
        self.by_name = {a.name: a for a in self.files.values()}
        page = read("seat.html").decode()
        self.page = re.sub(r"\{\{([\w.-]+)\}\}", lambda m: "/static/" + self.files[m.group(1)].name, page).encode()
        self.page_gz = gzip.compress(self.page, 9, mtime=0)


def prepare():
    """Start reading and compiling the files in a thread of their own (a few seconds of mpy-cross on a slow tablet,
    which neither the app's window nor the server's loop should wait for): a Future of the Assets, for add_routes."""
    pool = ThreadPoolExecutor(1, thread_name_prefix="seat-page-assets")
    future = pool.submit(Assets)
    pool.shutdown(wait=False)
    return future


def add_routes(app, is_seat, assets=None):
    """Serve the seat page at /<token>/ (for tokens is_seat accepts) and its files at /static/<name>. assets: an
    Assets, or prepare()'s Future of one (a request that comes before it is ready waits for it)."""
    ready = assets if isinstance(assets, Assets) else None
    future = None if ready is not None else (assets or prepare())

    async def files():
        nonlocal ready
        if ready is None:
            ready = await asyncio.wrap_future(future)  # type: ignore[arg-type]
        return ready

    async def static(request):
        asset = (await files()).by_name.get(request.match_info["name"])
        if asset is None:
            raise web.HTTPNotFound()
        headers = {"Cache-Control": IMMUTABLE, "ETag": asset.etag, "Vary": "Accept-Encoding",
                   "X-Content-Type-Options": "nosniff"}
        if request.headers.get("If-None-Match") == asset.etag:
            return web.Response(status=304, headers=headers)
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return web.Response(body=asset.gz, content_type=asset.type, headers=headers)
        return web.Response(body=asset.data, content_type=asset.type, headers=headers)

    async def page(request):
        if not is_seat(request.match_info["token"]):
            raise web.HTTPNotFound()
        a = await files()
        headers = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
                   "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return web.Response(body=a.page_gz, content_type="text/html", charset="utf-8", headers=headers)
        return web.Response(body=a.page, content_type="text/html", charset="utf-8", headers=headers)

    app.router.add_get("/static/{name}", static)
    app.router.add_get("/{token}/", page)
