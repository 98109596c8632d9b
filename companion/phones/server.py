"""The phones' web server: each seat's page, the files it loads, and its link socket, nothing else.

aiohttp runs in a thread of its own with its own asyncio loop, not on Kivy's: the app's Clock loop is not an
asyncio loop (Kivy's async mode would change how the whole app runs), and a thread keeps the UI thread free of
network work. The app tells the server which seats it serves (serve(), by token); the link sockets are ports of
the transport (companion/transport/websocket_backend.py), which the app reads as it reads a Pico's USB port.

    GET /<token>/       the seat page: the dashboard's own firmware, run by the phone's browser (MicroPython's
    GET /static/<name>  WebAssembly port), and its files (companion/phones/assets.py)
    GET /<token>        on to /<token>/ (an address typed without its last slash)
    GET /dashboard/<key>/link   a Pico W dashboard's game link (companion/dashboards_wifi.py), the same bytes; a
                        wrong key is closed with WRONG_KEY and a reason, and changes nothing
    GET /<token>/link   the seat's game link: the page speaks docs/protocol.md over it as a Pico does over USB.
                        Text messages carry the protocol's bytes each way (the firmware's serial output, the
                        tablet's writes to it); their boundaries mean nothing, as on a serial line. Each socket is
                        a port of the transport: a reconnect is a replug.

A wrong or old token, any other path or method: the same 404 as a page that does not exist, so it tells nothing.
A seat has a holder: the phone (its dashboard id, and the page) whose socket the seat took last. A page opened by
its player asks for the seat (?ask=1 on its first dials) and takes it over: the holder's socket is closed with TAKEN
and its page says so. A page dialling again by itself (awake again, back in Wi-Fi range, the tablet restarted)
asks nothing (?ask=0): it links only if it holds the seat, else it is closed with TAKEN at once, so a phone that
slept through a takeover never takes the seat back unasked. A seat no longer served on a phone closes its socket
with GONE; a game the table left, with LEFT.
"""

import asyncio
import hmac
import socket
import threading

from aiohttp import WSMsgType, web

from companion.dashboards_wifi import TOKEN_PREFIX
from companion.phones import assets

# Close codes: another phone took the seat; the seat is no longer served on a phone (a Pico or the tablet's screen
# has it); the table left the game (its phones link again when it is continued)
TAKEN, GONE, LEFT = 4001, 4002, 4003
WRONG_KEY = 4004  # close code: no dashboard with that key is paired to this table
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
    """One seat as served: its token and its player's name (None: the tablet, just restarted, serves the seat before
    it knows it again; its phone links meanwhile and is paired once the game is open), and the dashboard id of the
    phone that held it when the game was saved (None: none yet)."""

    def __init__(self, token, name=None, holder=None):
        self.token = token
        self.name = name
        self.holder = holder


class Holder:
    """Who holds a seat: the dashboard id of its phone (None: a page that did not say) and the page (None: not known
    since this server started; then the phone's id alone decides)."""

    def __init__(self, dev, page=None):
        self.dev = dev.lower() if dev else None
        self.page = page or None

    def is_(self, dev, page):
        """A page dialling (dev, page) is this holder."""
        if self.dev is not None and dev and dev.lower() != self.dev:
            return False
        return self.page is None or page == self.page


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
    def __init__(self, links, files=None):
        """links: a LinkPorts (companion/transport/websocket_backend.py) the seats' link sockets are served into.
        files: the seat page's files (companion/phones/assets.py's Assets), made here when not given: in a thread of
        their own (mpy-cross), a page asked for meanwhile waits for them."""
        self.links = links
        self.assets = files if files is not None else assets.prepare()
        self.link_sockets = {}  # token -> _Link (only touched on the server's loop)
        self.seats = {}  # token -> Seat (only touched on the server's loop)
        self.holders = {}  # token -> Holder: whose the seat is now (only touched on the server's loop)
        self.dashboard_keys = {}  # key -> name of each Wi-Fi dashboard paired to this table (the server's loop)
        self.linked_tokens = frozenset()  # the tokens with a link socket open, for other threads to read (replaced)
        self.loop = None
        self.thread = None
        self.runner = None
        self.host = None
        self.port = None

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
        self._call(self._stop_site())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()
        self.loop = None

    def serve(self, seats, why=GONE):
        """The seats served from now on ({token: Seat}); the link socket of any other token is closed with `why`
        (GONE: its seat went to a Pico or the tablet's screen; LEFT: the table left the game). Returns at once (the
        UI thread never waits on the network); the loop applies the calls in their order."""
        if self.loop is not None:
            asyncio.run_coroutine_threadsafe(self._serve(dict(seats), why), self.loop)

    def serve_dashboards(self, keys):
        """The Wi-Fi dashboards' keys from now on ({key: name}); a socket on any other key is closed (GONE)."""
        if self.loop is not None:
            asyncio.run_coroutine_threadsafe(self._serve_dashboards(dict(keys)), self.loop)

    def connected(self):
        """Tokens with a link socket open now (from any thread)."""
        return self.linked_tokens

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    # ---- on the server's loop ----------------------------------------------------------------------------
    async def _start(self, host, port):
        await self._stop_site()
        app = web.Application(client_max_size=1024)
        app.router.add_get("/{token}", self._bare)
        app.router.add_get("/{token}/link", self._link)
        app.router.add_get("/dashboard/{key}/link", self._dashboard_link)
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
        return self.port

    async def _stop_site(self):
        if self.runner is not None:
            for link in list(self.link_sockets.values()):
                link.close(1001, "the tablet stopped")
                await link.ws.close(code=1001, message=b"the tablet stopped")  # going away: pages dial again
            self.link_sockets = {}
            self.linked_tokens = frozenset()
            await self.runner.cleanup()
            self.runner = None

    async def _serve(self, seats, why=GONE):
        self.seats = seats
        for token, seat in seats.items():
            if token not in self.holders and seat.holder:
                self.holders[token] = Holder(seat.holder)  # as saved with the game: the page is not known yet
        for token, link in list(self.link_sockets.items()):
            if token not in seats:
                link.close(why, "left" if why == LEFT else "gone")

    async def _serve_dashboards(self, keys):
        self.dashboard_keys = keys
        for token, link in list(self.link_sockets.items()):
            if token.startswith(TOKEN_PREFIX) and token[len(TOKEN_PREFIX):] not in keys:
                link.close(GONE, "gone")

    def _find(self, token):
        token = token.lower()
        for known, seat in self.seats.items():
            if hmac.compare_digest(known, token):
                return seat
        return None

    async def _bare(self, request):
        """The seat's address typed without its last slash: on to the page (a served seat's only)."""
        seat = self._find(request.match_info["token"])
        if seat is None:
            raise web.HTTPNotFound()
        raise web.HTTPFound("/%s/" % seat.token, headers={"Cache-Control": "no-store",
                                                          "Referrer-Policy": "no-referrer"})

    async def _link(self, request):
        seat = self._find(request.match_info["token"])
        if seat is None or _foreign(request):
            raise web.HTTPNotFound()  # another site's page gets what a wrong token gets
        return await self._serve_link(request, seat.token, "phone link: %s" % (seat.name or "a seat"))

    async def _dashboard_link(self, request):
        given = request.match_info["key"]
        key = next((k for k in self.dashboard_keys if hmac.compare_digest(k.encode(), given.encode())), None)
        if key is None:
            ws = web.WebSocketResponse()
            await ws.prepare(request)
            await ws.close(code=WRONG_KEY, message=b"this dashboard is not paired to this table")
            return ws
        return await self._serve_link(request, TOKEN_PREFIX + key, "Wi-Fi dashboard: %s" % self.dashboard_keys[key])

    async def _serve_link(self, request, token, label):
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=LINK_MSG_MAX, autoping=True)
        await ws.prepare(request)
        dev, page = request.query.get("dev"), request.query.get("page")
        holder = self.holders.get(token)
        if request.query.get("ask") == "0" and holder is not None and not holder.is_(dev, page):
            # Dialled again by itself, by a page whose seat another took meanwhile (it slept, or was out of range,
            # when the other linked): told so, and nothing else. Only its player moves the seat back.
            await ws.close(code=TAKEN, message=b"taken")
            return ws
        self.holders[token] = Holder(dev, page)
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

        port = self.links.connect(label, send, close, token)
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
