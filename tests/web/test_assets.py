"""What companion/phones/assets.py serves: the seat page only on a seat's token, its files under content-hashed
names cached for good (a reload fetches none of them again), gzip as served, and no secret in any of them."""

import gzip
import hashlib
import json
import re
import urllib.error
import urllib.request

import pytest

from companion.phones import assets
from tests.web.engines import MISSING, SeatServer, open_engine, visit
from tests.web.test_seat_page import boot


@pytest.fixture(scope="module")
def server():
    with SeatServer() as s:
        yield s


def get(url, **headers):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_the_page_is_served_on_a_seats_token_only(server):
    url = server.new_seat()
    status, headers, body = get(url)
    assert status == 200 and headers["Cache-Control"] == "no-store" and headers["Referrer-Policy"] == "no-referrer"
    assert b"/static/micropython." in body
    root = url.rsplit("/", 2)[0]
    for path in ("/0123456789abcdef/", "/static/seat.js", "/static/nothing.0000.js", "/"):
        assert get(root + path)[0] == 404, path


def test_its_files_have_content_hashed_names_cached_for_good(server):
    url = server.new_seat()
    page = get(url)[2].decode()
    names = re.findall(r"/static/([\w.-]+)", page)
    assert {n.split(".")[0] for n in names} >= {"micropython", "seat", "firmware", "LICENSE-micropython"}
    root = url.rsplit("/", 2)[0]
    for name in set(names):
        status, headers, body = get(root + "/static/" + name, **{"Accept-Encoding": "gzip"})
        assert status == 200 and "immutable" in headers["Cache-Control"] and headers["Content-Encoding"] == "gzip"
        raw = gzip.decompress(body)
        digest = name.rsplit(".", 2)[1]
        assert hashlib.sha256(raw).hexdigest().startswith(digest)
        assert get(root + "/static/" + name, **{"If-None-Match": headers["ETag"]})[0] == 304
    wasm = [n for n in names if n.endswith(".wasm")][0]
    assert get(root + "/static/" + wasm)[1]["Content-Type"] == "application/wasm"


def test_the_firmware_is_manifest_py_s_list_and_holds_no_seat(server):
    a = assets.Assets()
    files = json.loads(a.files["firmware.json"].data)["files"]
    want = {t for t, _ in assets.firmware_modules()}
    assert {p.rsplit(".", 1)[0] + ".py" for p in files} == want
    assert "firmware/app.py" in want and "firmware/board_web.py" in want and "shared_rules/link/codec.py" in want
    for token in server.tokens:
        assert all(token.encode() not in f.data for f in a.files.values())


@pytest.mark.skipif(MISSING["chromium"] is not None, reason=MISSING["chromium"] or "")
@pytest.mark.browser
def test_a_reload_fetches_nothing_but_the_page(server):
    with open_engine("chromium") as browser:
        page = visit(browser, server.new_seat())
        boot(page)
        del server.requests[:]
        browser.driver.refresh()
        boot(page)
        fetched = [path for path, _status, _size in server.requests if not path.endswith("/link")]
        assert len(fetched) == 1 and not fetched[0].startswith("/static/"), fetched  # the page itself, no file
