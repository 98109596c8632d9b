"""A phone page's game link without a browser: aiohttp's WebSocket client copying bytes between a real dashboard
(the firmware on the `micropython` unix port, on a pty) and its seat's link socket (GET /<token>/link of the
tablet's phones server), as the seat page does with the firmware it runs.

Like the page, it dials again by itself when its socket closes (the tablet restarted, the Wi-Fi came back),
after a short random pause. What the dashboard writes while no socket is open is lost, as on a pulled cable.

    pages = PageLoop()                           # one asyncio loop (a thread) for every page of a test
    page = PageLink(pages, url, seed=1)          # url: http://127.0.0.1:PORT/<token>/link
    page.attach(master_fd)                       # the dashboard's end: its pty's master (None while it is dead)
    page.plug()                                  # dial, and keep dialling after each close
    page.drop()                                  # the connection breaks (both ends see it); the page dials again
    page.vanish()                                # the phone drops off the Wi-Fi without a word; it dials again on
                                                 # a new connection, which takes the seat over from the old one
    page.unplug()                                # closed for good (a page closed), until plug()
"""

import asyncio
import os
import random
import socket
import threading

import aiohttp

REDIAL_S = (0.05, 0.4)  # a page dials again after a pause in this range


class PageLoop:
    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="pages", daemon=True)
        self.thread.start()
        self.session = self.call(self._session())

    async def _session(self):
        return aiohttp.ClientSession()

    def call(self, coro, timeout=10):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def soon(self, fn, *args):
        self.loop.call_soon_threadsafe(fn, *args)

    def close(self):
        self.call(self.session.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


class PageLink:
    def __init__(self, pages, url, seed=0):
        self.pages = pages
        self.url = url
        self.rng = random.Random(seed)
        self.fd = None
        self.ws = None
        self.wanted = False  # dialling (plugged)
        self.task = None
        self.abandoned = []  # sockets left open by vanish(): closed at unplug
        self.connects = 0  # connections made (each one a port on the tablet)
        self.closes = []  # (code, reason) of each connection the tablet closed

    # ---- the test's side (any thread) ------------------------------------------------------------------
    def attach(self, fd):
        self.pages.call(self._attach(fd))

    def plug(self):
        self.pages.call(self._plug())

    def unplug(self):
        self.pages.call(self._unplug())

    def drop(self):
        self.pages.call(self._drop())

    def vanish(self):
        self.pages.call(self._vanish())

    def connected(self):
        return self.ws is not None and not self.ws.closed

    # ---- on the loop -----------------------------------------------------------------------------------
    async def _attach(self, fd):
        if self.fd is not None:
            self.pages.loop.remove_reader(self.fd)
        self.fd = fd
        if fd is not None:
            os.set_blocking(fd, False)
            self.pages.loop.add_reader(fd, self._from_dashboard, fd)

    def _from_dashboard(self, fd):
        try:
            data = os.read(fd, 4096)
        except OSError:  # the dashboard died (its pty's other end closed): nothing more comes from it
            data = b""
        if not data:
            self.pages.loop.remove_reader(fd)
            return
        ws = self.ws
        if ws is not None and not ws.closed:
            # What the page's firmware prints, as the page's JS would pass it on: text.
            asyncio.ensure_future(self._send(ws, data.decode("utf-8", "replace")))

    async def _send(self, ws, text):
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):
            pass  # the socket went meanwhile: lost, as on a pulled cable

    def _to_dashboard(self, data):
        fd = self.fd
        if fd is None:
            return
        try:
            os.write(fd, data)
        except OSError:
            pass  # dead, or its input full: lost like a frame on a bad line (the protocol resends)

    async def _plug(self):
        self.wanted = True
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._dial())

    async def _dial(self):
        while self.wanted:
            try:
                ws = await self.pages.session.ws_connect(self.url, autoping=True, heartbeat=None)
            except (aiohttp.ClientError, OSError):
                await asyncio.sleep(self.rng.uniform(*REDIAL_S))
                continue
            self.ws = ws
            self.connects += 1
            try:
                while True:
                    msg = await ws.receive()
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        self._to_dashboard(msg.data.encode("utf-8"))
                    elif msg.type == aiohttp.WSMsgType.BINARY:
                        self._to_dashboard(msg.data)
                    else:
                        if msg.type == aiohttp.WSMsgType.CLOSE:
                            self.closes.append((msg.data, msg.extra))  # the tablet's close code and reason
                        break
            except (ConnectionError, RuntimeError):
                pass
            if self.ws is ws:
                self.ws = None
            await asyncio.sleep(self.rng.uniform(*REDIAL_S))

    async def _drop(self):
        if self.ws is not None:
            _break(self.ws)

    async def _vanish(self):
        ws = self.ws
        if ws is None or self.task is None:
            return
        self.abandoned.append(ws)
        self.ws = None
        self.task.cancel()  # stops reading the old socket without a word to the tablet
        try:
            await self.task
        except BaseException:
            pass
        self.task = asyncio.ensure_future(self._dial())

    async def _unplug(self):
        self.wanted = False
        ws, self.ws = self.ws, None
        if ws is not None:
            await ws.close()
        for old in self.abandoned:
            _break(old)
        self.abandoned = []
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except BaseException:
                pass
            self.task = None


def _break(ws):
    """The connection under ws breaks, no close handshake (both ends see it at once)."""
    sock = ws.get_extra_info("socket")
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def main(argv):
    """python -m tests.link.ws_page URL DIR DEV: a phone of its own (another process, as a phone is another
    device): the link firmware (firmware/host/link_main.py, its save in DIR) behind a page dialling URL, until killed."""
    import signal

    from tests.link.harness import Dashboard

    url, folder, dev = argv
    pages = PageLoop()
    dash = Dashboard(folder, dev)
    page = PageLink(pages, url)
    page.attach(dash.start())
    page.plug()
    try:
        signal.sigwait({signal.SIGTERM, signal.SIGINT})
    finally:
        page.unplug()
        dash.kill()
        pages.close()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
