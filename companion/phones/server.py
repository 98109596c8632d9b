"""The phones' web server: one page and one WebSocket per seat served to a phone, nothing else.

aiohttp runs in a thread of its own with its own asyncio loop, not on Kivy's: the app's Clock loop is not an
asyncio loop (Kivy's async mode would change how the whole app runs), and a thread keeps the UI thread free of
network work while the virtual dashboards, whose frames the pages show, already report on threads of their
own. The app talks to the server through serve() (which seats, by token) and the dashboards through frame().

    GET /<token>        the seat's page (companion/phones/page.html)
    GET /<token>/ws     its WebSocket: binary frames tablet -> page (4-byte frame number, then the 1024-byte
                        SSD1306 buffer, pages of MONO_VLSB as the firmware draws them), JSON notes tablet ->
                        page ({"t": "seat" | "wait" | "taken" | "gone" | "k"}), and from the page exactly one
                        of the five button names per message; anything else closes the socket (1008).

    GET /<token>/       the seat page that runs the dashboard's firmware in the phone's browser, and
    GET /static/<name>  its files (companion/phones/assets.py; both served when the server was given LinkPorts)
    GET /<token>/link   the seat's game link (served when the server was given LinkPorts): a phone running the
                        firmware in its browser speaks docs/protocol.md over it as a Pico does over USB. Text
                        messages carry the protocol's bytes each way (the firmware's serial output, the tablet's
                        writes to it); their boundaries mean nothing, as on a serial line. Each socket is a port of
                        the transport (companion/transport/websocket_backend.py): a reconnect is a replug.

A wrong or old token, any other path or method: the same 404 as a page that does not exist, so it tells
nothing. A second page opening a seat takes it over: the first is told ("taken") and closed; so is a second
link socket on a seat (closed with TAKEN, "taken").
"""

import asyncio
import hmac
import json
import os
import socket
import struct
import threading

from aiohttp import WSMsgType, web

BUTTONS = ("UP", "DOWN", "OK", "CARD", "BACK")
KEEPALIVE_S = 4  # a note this often: a page that hears nothing for 3 of them reconnects (its Wi-Fi went away)
PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page.html")
TAKEN, GONE = 4001, 4002  # close codes: another phone took the seat; the seat is no longer served here
LINK_MSG_MAX = 64 * 1024  # one link message from a page (a frame is 256 bytes; a page may send many at once)
LINK_QUEUE_MAX = 64 * 1024  # bytes for a page not sent yet; past this the tablet's writes are dropped (a line
# that loses frames: the protocol resends) rather than held for a page that has stopped reading


def lan_address():
    """The address the tablet has on its LAN (the one a route to the outside would use); no packet is sent."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere; connect() on UDP only picks a source
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def _foreign(request):
    """A socket opened by a page of another site (its Origin is not this server): refused as a wrong token is."""
    origin = request.headers.get("Origin")
    return origin is not None and origin.split("://", 1)[-1] != request.host


class Seat:
    """One seat as served: the dashboard behind it (None while it is not running yet) and its page's title.
    A seat with no name is one the tablet, just restarted, serves before it knows it again: its page is let in
    and told nothing until then (no blank title, no dark screen in between)."""

    def __init__(self, token, dev=None, name=None, colour="", rgb=""):
        self.token = token
        self.dev = dev
        self.name = name
        self.colour = colour
        self.rgb = rgb  # "#rrggbb", the car's colour for the page's header

    def same(self, other):
        return other is not None and (self.token, self.dev, self.name, self.colour, self.rgb) == (
            other.token, other.dev, other.name, other.colour, other.rgb)


class _Page:
    """One open WebSocket: the frames it still has to send (only the newest matters) and a wake-up."""

    def __init__(self, ws):
        self.ws = ws
        self.frame = None
        self.notes = []
        self.wake = asyncio.Event()

    def put_frame(self, data):
        self.frame = data
        self.wake.set()

    def put_note(self, note):
        self.notes.append(json.dumps(note))
        self.wake.set()


class _Link:
    """One open link socket: the bytes it still has to send, and the close it is to make (code, reason)."""

    def __init__(self, ws):
        self.ws = ws
        self.out = []
        self.queued = 0
        self.dropped = 0
        self.closing = None
        self.wake = asyncio.Event()

    def put(self, data):
        if self.queued + len(data) > LINK_QUEUE_MAX:
            self.dropped += len(data)
            return
        self.out.append(data)
        self.queued += len(data)
        self.wake.set()

    def close(self, code, reason):
        if self.closing is None:
            self.closing = (code, reason)
        self.wake.set()


class PhoneServer:
    def __init__(self, dashboard, colours=None, links=None):
        """dashboard(dev) -> the running VirtualDashboard (its .image, .frame, .lock, .tap) or None.
        colours: {"BG": "#rrggbb", ...} put into the page's __BG__ and the like (companion/theme.py's).
        links: a LinkPorts (companion/transport/websocket_backend.py) to serve the seats' link sockets into;
        None: no /<token>/link."""
        self.dashboard = dashboard
        self.links = links
        self.assets = None  # the seat page's files (companion/phones/assets.py), with the link sockets: made in a
        if links is not None:  # thread of their own (mpy-cross), a page asked for meanwhile waits for them
            from companion.phones import assets

            self.assets = assets.prepare()
        self.link_sockets = {}  # token -> _Link (only touched on the server's loop)
        self.seats = {}  # token -> Seat (only touched on the server's loop)
        self.pages = {}  # token -> _Page (only touched on the server's loop)
        self.open_tokens = frozenset()  # the same tokens, for other threads to read (replaced, never changed)
        self.linked_tokens = frozenset()  # the tokens with a link socket open, likewise
        self.loop = None
        self.thread = None
        self.runner = None
        self.host = None
        self.port = None
        self.taps = 0  # button names passed to a dashboard (for tests and the bench)
        self.keepalive_s = KEEPALIVE_S  # told to each page, which reconnects after 3 of them unheard
        with open(PAGE, encoding="utf-8") as f:
            page = f.read()
        for name, value in (colours or {}).items():
            page = page.replace("__%s__" % name, value)
        self.page = page.encode()

    # ---- the app's side (any thread) ---------------------------------------------------------------------
    def start(self, host, port):
        """Listen on host:port (port 0: any free one). Returns the port. OSError if it cannot be bound."""
        if self.loop is None:
            self.loop = asyncio.new_event_loop()
            self.thread = threading.Thread(target=self.loop.run_forever, name="phones", daemon=True)
            self.thread.start()
        if self.runner is not None and (host, port) in ((self.host, self.port), (self.host, 0)):
            return self.port
        return self._call(self._start(host, port))

    def stop(self):
        if self.loop is None:
            return
        self._call(self._stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()
        self.loop = None

    def serve(self, seats):
        """The seats served from now on ({token: Seat}); pages of any other token are told and closed. Returns
        at once (the UI thread never waits on the network); the loop applies the calls in their order."""
        if self.loop is not None:
            asyncio.run_coroutine_threadsafe(self._serve(dict(seats)), self.loop)

    def frame(self, dev, image, n):
        """A dashboard drew frame n (from its viewer thread): on to the page showing it, if there is one."""
        loop = self.loop
        if loop is not None:
            data = struct.pack(">I", n & 0xFFFFFFFF) + bytes(image)
            try:
                loop.call_soon_threadsafe(self._frame, dev, data)
            except RuntimeError:
                pass  # the loop is closing

    def connected(self):
        """Tokens with a page open now, a mirrored page's socket or a link socket (from any thread)."""
        return self.open_tokens | self.linked_tokens

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    # ---- on the server's loop ----------------------------------------------------------------------------
    async def _start(self, host, port):
        await self._stop_site()
        app = web.Application(client_max_size=1024)
        app.router.add_get("/{token}", self._page)
        app.router.add_get("/{token}/ws", self._socket)
        app.router.add_get("/{token}/link", self._link)
        if self.assets is not None:
            from companion.phones import assets

            assets.add_routes(app, lambda token: self._find(token) is not None, self.assets)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1)
        await runner.setup()
        # reuse_address: a restarted tablet binds its saved port again at once (no wait for TIME_WAIT to end)
        site = web.TCPSite(runner, host, port, reuse_address=True)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self.runner = runner
        self.host = host
        self.port = runner.addresses[0][1]
        self.keepalive = asyncio.ensure_future(self._keepalive())
        return self.port

    async def _stop_site(self):
        if self.runner is not None:
            self.keepalive.cancel()
            for page in list(self.pages.values()):
                await page.ws.close(code=1001, message=b"the tablet stopped")  # going away: pages dial again
            self.pages = {}
            self.open_tokens = frozenset()
            for link in list(self.link_sockets.values()):
                link.close(1001, "the tablet stopped")
                await link.ws.close(code=1001, message=b"the tablet stopped")
            self.link_sockets = {}
            self.linked_tokens = frozenset()
            await self.runner.cleanup()
            self.runner = None

    async def _stop(self):
        await self._stop_site()

    async def _serve(self, seats):
        old = self.seats
        self.seats = seats
        for token, page in list(self.pages.items()):
            seat = seats.get(token)
            if seat is None:
                page.put_note({"t": "gone"})
            elif not seat.same(old.get(token)):
                self._greet(page, seat)
        for token, link in list(self.link_sockets.items()):
            if token not in seats:
                link.close(GONE, "gone")

    def _find(self, token):
        token = token.lower()
        for known, seat in self.seats.items():
            if hmac.compare_digest(known, token):
                return seat
        return None

    async def _page(self, request):
        seat = self._find(request.match_info["token"])
        if seat is None:
            raise web.HTTPNotFound()
        return web.Response(body=self.page, content_type="text/html", charset="utf-8", headers={
            "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"})

    async def _socket(self, request):
        seat = self._find(request.match_info["token"])
        if seat is None or _foreign(request):
            raise web.HTTPNotFound()  # a page of another site opening this socket gets what a wrong token gets
        token = seat.token
        # heartbeat: a phone gone without a goodbye (out of range, battery flat) is dropped after 20 s unanswered
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=64, autoping=True)
        await ws.prepare(request)
        page = _Page(ws)
        old = self.pages.get(token)
        self.pages[token] = page
        self.open_tokens = frozenset(self.pages)
        if old is not None:
            old.put_note({"t": "taken"})  # the newest phone has the seat; the older one is told why it lost it
        self._greet(page, seat)
        writer = asyncio.ensure_future(self._write(page))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT or msg.data not in BUTTONS:
                    await ws.close(code=1008, message=b"only the five button names")
                    break
                if self.pages.get(token) is not page:
                    break  # taken over meanwhile: this page's buttons count no more
                self._tap(token, msg.data)
        finally:
            writer.cancel()
            if self.pages.get(token) is page:
                del self.pages[token]
                self.open_tokens = frozenset(self.pages)
        return ws

    async def _link(self, request):
        seat = self._find(request.match_info["token"])
        if self.links is None or seat is None or _foreign(request):
            raise web.HTTPNotFound()  # as for the page's socket: another site's page gets what a wrong token gets
        token = seat.token
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=LINK_MSG_MAX, autoping=True)
        await ws.prepare(request)
        link = _Link(ws)
        old = self.link_sockets.get(token)
        self.link_sockets[token] = link
        self.linked_tokens = frozenset(self.link_sockets)
        if old is not None:
            old.close(TAKEN, "taken")  # the newest phone has the seat; the older one is told why it lost it
        loop = asyncio.get_running_loop()

        def send(data):  # from the transport's reader thread
            try:
                loop.call_soon_threadsafe(link.put, data)
            except RuntimeError:
                pass  # the loop is closing: the port is about to end

        def close():
            try:
                loop.call_soon_threadsafe(link.close, 1000, "the tablet closed the link")
            except RuntimeError:
                pass

        port = self.links.connect("phone link: %s" % (seat.name or "a seat"), send, close, token)
        writer = asyncio.ensure_future(self._write_link(link))
        try:
            async for msg in ws:
                if self.link_sockets.get(token) is not link:
                    break  # taken over meanwhile: what this page says counts no more
                if msg.type == WSMsgType.TEXT:
                    port.received(msg.data.encode("utf-8", "replace"))
                elif msg.type == WSMsgType.BINARY:
                    port.received(msg.data)
                else:
                    break
        finally:
            port.ended()
            if self.link_sockets.get(token) is link:
                del self.link_sockets[token]
                self.linked_tokens = frozenset(self.link_sockets)
            link.close(1000, "closed")  # (unless a reason is given already) the writer closes the socket, returns
            await writer
        return ws

    async def _write_link(self, link):
        ws = link.ws
        try:
            while not ws.closed:
                await link.wake.wait()
                link.wake.clear()
                data, link.out, link.queued = b"".join(link.out), [], 0
                if data:
                    await ws.send_str(data.decode("ascii", "replace"))  # the tablet writes ASCII frames only
                if link.closing is not None:
                    code, reason = link.closing
                    await ws.close(code=code, message=reason.encode())
                    return
        except (ConnectionError, RuntimeError):
            pass  # the phone went away: its reader ends the port

    def _tap(self, token, name):
        seat = self.seats.get(token)
        d = self.dashboard(seat.dev) if seat is not None and seat.dev else None
        if d is not None and d.tap(name):
            self.taps += 1

    def _greet(self, page, seat):
        if seat.name is None:
            return
        page.put_note({"t": "seat", "name": seat.name, "colour": seat.colour, "rgb": seat.rgb,
                       "k": self.keepalive_s})
        d = self.dashboard(seat.dev) if seat.dev else None
        if d is None:
            page.frame = None
            page.put_note({"t": "wait"})  # the race has not started: its dashboard is not running yet
            return
        with d.lock:
            n, image = d.frame, bytes(d.image)
        page.put_frame(struct.pack(">I", n & 0xFFFFFFFF) + image)

    def _frame(self, dev, data):
        for token, page in self.pages.items():
            seat = self.seats.get(token)
            if seat is not None and seat.dev == dev:
                page.put_frame(data)

    async def _write(self, page):
        ws = page.ws
        try:
            while not ws.closed:
                await page.wake.wait()
                page.wake.clear()
                notes, page.notes = page.notes, []
                for note in notes:
                    await ws.send_str(note)
                    kind = json.loads(note)["t"]
                    if kind in ("taken", "gone"):
                        await ws.close(code=TAKEN if kind == "taken" else GONE, message=kind.encode())
                        return
                data, page.frame = page.frame, None
                if data is not None:
                    await ws.send_bytes(data)
        except (ConnectionError, RuntimeError):
            pass  # the phone went away: its reader ends the page

    async def _keepalive(self):
        while True:
            await asyncio.sleep(self.keepalive_s)
            for page in list(self.pages.values()):
                page.put_note({"t": "k"})
