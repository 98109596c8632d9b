# The dashboard's link to the table over Wi-Fi (a Pico W): the same protocol, journal, acks and resends as the USB
# serial link (shared_rules.link.dashboard), carried by a WebSocket to the tablet's server, as a phone's page carries
# it. Only a board with a `network` module loads this; a plain Pico never imports it (nor `network`, nor socket).
#
# The WebSocket client is our own and small (RFC 6455, the client's half only: one text frame per write, masked;
# text, binary, ping and close frames read; no extensions, no fragmented messages from the server): micropython-lib's
# aiohttp brings an HTTP client, its own asyncio streams and ssl on top (bench/picow_heap_bench.py measures what this
# module costs). Its bytes are the serial line's: message boundaries mean nothing, the protocol finds its frames.
#
# Relink: a closed socket, a failed dial or a dropped network is a pulled cable. The link joins again, dials again
# (backing off to at most _DIAL_MAX_MS between tries) and says hello; the protocol's resends and the tablet's dup
# answers make the rest whole, exactly as after a replug on USB.
import binascii
import json
import os
import select
import socket
from time import ticks_add, ticks_diff, ticks_ms

from micropython import const
from shared_rules.link.dashboard import DashboardProtocol

_FIRMWARE = const("0.2.0")
_DIAL_FIRST_MS = const(100)  # first wait before dialling again after a failure, doubled up to _DIAL_MAX_MS
_DIAL_MAX_MS = const(2000)
_DIAL_TIMEOUT_MS = const(3000)  # the TCP connect and the upgrade's answer, each
_EINPROGRESS = const(115)  # a non-blocking connect under way (MicroPython's MP_EINPROGRESS: the unix port, lwIP)
_EAGAIN = const(11)  # a non-blocking read with nothing there yet
_READ_MAX = const(512)  # bytes read per poll: then let the game loop run
_TABLE_SILENT_MS = const(4000)  # linked, and nothing from the table this long (it beats every second): the path is a
# black hole (an access point gone without a word, a stalled route): dropped and dialled again, as a pulled cable
_OP_TEXT = const(1)
_OP_BINARY = const(2)
_OP_CLOSE = const(8)
_OP_PING = const(9)
_OP_PONG = const(10)

# What the dashboard can say of its link, in words (the screen shows them)
JOINING = "joining"
WRONG_PASSWORD = "wrong password"
NO_NETWORK = "no network found"
DIALLING = "no table found"
LINKED = "linked"
REFUSED = "refused by the table"


_SCREEN = {JOINING: "JOINING WI-FI", WRONG_PASSWORD: "WRONG PASSWORD", NO_NETWORK: "NO WI-FI NETWORK",
           DIALLING: "NO TABLE FOUND", REFUSED: "TABLE SAYS NO"}


class WifiLink(DashboardProtocol):
    """The protocol over a WebSocket, through the board's `network` station.

    link = WifiLink(get_snapshot, apply_command, ssid, password, host, port, path, dev=..., on_journal=..., done=...)
      the protocol's arguments are DashboardLink's (firmware/ondemand/link.py); host, port, path: the table's
      link socket (path carries the dashboard's key)
    link.poll(timeout_ms)   every loop pass: joins, dials, reads what arrived, answers, heartbeats
    link.state              one of the words above; link.reason: the table's reason when it closed the link
    link.words()            what the dashboard's screen says of it: the signal once linked, else why not
    link.close()            USB took the seat: the socket closed, the radio off
    host None: not known yet; the table's beacon gives it (table_id needed)
    """

    usb = 0  # the USB link's is 1 (firmware/ondemand/link.py): a seat has one link at a time (firmware/app.py)

    def __init__(self, get_snapshot, apply_command, ssid, password, host, port, path, dev, on_applied=None,
                 done=(), on_journal=None, wlan=None, table_id=None, beacon_port=8766, beacon_bind="0.0.0.0",
                 on_wifi=None):
        if wlan is None:
            import network  # type: ignore[import-not-found]  # a Pico W's (the stubs are a plain Pico's)

            wlan = network.WLAN(network.STA_IF)
        self.wlan = wlan
        self.ssid = ssid
        self._password = password  # kept for a join again; never written anywhere, never sent but to the radio
        self.host = host
        self.port = port
        self.path = path
        self.sock = None  # the linked socket
        self.dialing = None  # the socket of a dial under way (_dial, _dialling), not linked yet
        self.head = None  # the dial's upgrade answer so far
        self.dial_until = 0
        self.poller = None
        self.rx = bytearray()  # bytes of a WebSocket frame not whole yet
        self.out = bytearray()  # the protocol's bytes written this loop pass, sent at its end (_flush)
        self.state = JOINING
        self.reason = None
        self.joined = False
        self.next_dial = ticks_ms()
        self.dial_wait = _DIAL_FIRST_MS
        self.links = 0  # how many times the link came up (tests, figures)
        self.linked_at = 0  # ticks_ms when the link came up
        self.table_id = table_id  # the table this dashboard was paired with: only its beacon moves the address
        self.beacon_port = beacon_port
        self.beacon_bind = beacon_bind
        self.beacon = None  # the UDP socket that hears tables' beacons, open only while the table cannot be dialled
        DashboardProtocol.__init__(self, dev, _FIRMWARE, get_snapshot, apply_command, self._write, on_applied,
                                   done, on_journal=on_journal, on_wifi=on_wifi)
        self._join()

    def close(self):
        self._drop()
        self._stop_hearing()
        self.wlan.disconnect()
        self.wlan.active(False)

    def words(self):
        """At most 16 characters: the signal (dBm) while linked, else the state in the player's words."""
        if self.state == LINKED:
            return "%dDBM" % self.wlan.status("rssi")
        return _SCREEN.get(self.state, "NO TABLE FOUND")

    # -- the radio ----------------------------------------------------------------------------------------
    def _join(self):
        self.wlan.active(True)
        self.wlan.connect(self.ssid, self._password)
        self.joined = False

    def _network_up(self):
        """True while the station has an address; else the state says why, and the socket is dropped."""
        import network  # type: ignore[import-not-found]

        st = self.wlan.status()
        if st == network.STAT_GOT_IP:
            self.joined = True
            return True
        if self.sock is not None or self.dialing is not None:
            self._drop()
        if st == network.STAT_WRONG_PASSWORD:
            self.state = WRONG_PASSWORD
        elif st == network.STAT_NO_AP_FOUND:
            self.state = NO_NETWORK
        else:
            self.state = JOINING
        return False

    # -- the socket ---------------------------------------------------------------------------------------
    def _dial(self, now):
        """Starts a dial and returns at once: the connect without blocking (EINPROGRESS, on the unix port as from lwIP
        on a Pico W), then _dialling takes it a step further each loop pass. A table out of reach (a black hole)
        answers nothing for seconds: the player's presses never wait for it."""
        try:
            ai = socket.getaddrinfo(self.host, self.port, 0, socket.SOCK_STREAM)[0]  # type: ignore[attr-defined]
            s = socket.socket(ai[0], socket.SOCK_STREAM)  # type: ignore[attr-defined]
            self.dialing = s
            s.setblocking(False)
            try:
                s.connect(ai[-1])
            except OSError as e:
                if e.args[0] != _EINPROGRESS:
                    raise
        except OSError:
            self._dial_failed(now)
            return
        self.poller = select.poll()
        self.poller.register(s, select.POLLOUT)
        self.head = None  # the upgrade's request not sent yet; then the answer's head as it comes
        self.dial_until = ticks_add(now, _DIAL_TIMEOUT_MS)

    def _dialling(self, now):
        """One step of the dial under way: once connected, the upgrade's request sent; then the answer's head read as
        it comes (what follows it is the table's first frames). Each within _DIAL_TIMEOUT_MS."""
        s = self.dialing
        try:
            ready = self.poller.poll(0)  # type: ignore[union-attr]
            ev = ready[0][1] if ready else 0
            if self.head is None:
                if ev & (select.POLLERR | select.POLLHUP):
                    raise OSError("the table's address refused the connection")
                if ev & select.POLLOUT:
                    key = binascii.b2a_base64(os.urandom(16)).strip()
                    self._send_all(s, b"GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                                   b"Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13"
                                   b"\r\n\r\n" % (self.path.encode(), self.host.encode(), self.port, key))
                    self.head = b""
                    self.poller.modify(s, select.POLLIN)  # type: ignore[union-attr]
                    self.dial_until = ticks_add(now, _DIAL_TIMEOUT_MS)
            elif ev:  # the answer, or the end of the connection (read says which)
                try:
                    data = s.read(_READ_MAX)  # type: ignore[union-attr]
                except OSError as e:
                    if e.args[0] != _EAGAIN:
                        raise
                    data = None
                if data is not None:
                    if not data:
                        raise OSError("the table sent no answer")
                    self.head += data
                    end = self.head.find(b"\r\n\r\n")
                    if end >= 0:
                        if self.head[9:12] != b"101":
                            self.state = REFUSED if self.head[9:10] == b"4" else DIALLING
                            raise OSError("not upgraded")
                        self._linked(s, self.head[end + 4:], now)
                        return
                    if len(self.head) > 1024:
                        raise OSError("the table's answer has no end")
            if ticks_diff(now, self.dial_until) >= 0:
                raise OSError("the table did not answer in time")
        except OSError:
            self._dial_failed(now)

    def _dial_failed(self, now):
        self._drop()
        self.next_dial = ticks_add(now, self.dial_wait)
        self.dial_wait = min(self.dial_wait * 2, _DIAL_MAX_MS)
        if self.state != REFUSED:
            self.state = DIALLING

    def _linked(self, s, rest, now):
        """The table upgraded the dial: the link is up; `rest` (what came after the answer's head) its first bytes."""
        self.dialing = None
        self.head = None
        self.sock = s
        self.rx = bytearray(rest)
        self.dial_wait = _DIAL_FIRST_MS
        self.state = LINKED
        self.reason = None
        self.links += 1
        self.linked_at = now
        self.out = bytearray()
        self.hello(now)  # as after a replug: the tablet learns who this is and what it holds
        self._flush()
        if self.rx and self.sock is not None:
            self._frames(now)

    def _hear_beacons(self, now):
        """While unlinked: tables say where they are (companion/dashboards_wifi.py); ours moves the address."""
        if self.beacon is None:
            try:
                u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # type: ignore[attr-defined]
                u.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # type: ignore[attr-defined]
                u.bind(socket.getaddrinfo(self.beacon_bind, self.beacon_port)[0][-1])
                u.setblocking(False)
                self.beacon = u
            except OSError:
                return
        for _ in range(8):  # a few a pass: tables say it every second
            try:
                data, addr = self.beacon.recvfrom(128)  # type: ignore[attr-defined]
            except OSError:
                return
            try:
                msg = json.loads(data)
                if msg.get("t") != "f1table" or msg.get("id") != self.table_id:
                    continue  # another table's: never dialled
                port = int(msg["port"])
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
            if not isinstance(addr, tuple):  # the unix port gives a raw sockaddr
                addr = socket.sockaddr(addr)[1:]  # type: ignore[attr-defined]
                addr = ("%d.%d.%d.%d" % tuple(addr[0]), addr[1])
            if (addr[0], port) != (self.host, self.port):
                self._drop()  # a dial under way to the old address is given up
                self.host, self.port = addr[0], port
                self.next_dial = now
                self.dial_wait = _DIAL_FIRST_MS

    def _stop_hearing(self):
        if self.beacon is not None:
            self.beacon.close()
            self.beacon = None

    def _drop(self):
        for s in (self.sock, self.dialing):
            if s is not None:
                try:
                    s.close()
                except OSError:
                    pass
        self.sock = None
        self.dialing = None
        self.poller = None

    def _write(self, data):
        """The protocol's frames, gathered and sent as one masked text frame per loop pass (_flush): a message's
        fragments written one by one waited for TCP's delayed ack (Nagle), 40 ms each on Linux. Dropped while
        unlinked (the protocol resends)."""
        if self.sock is not None:
            self.out.extend(data)

    def _flush(self):
        if self.sock is not None and self.out:
            try:
                self._frame(_OP_TEXT, self.out)
            except OSError:
                self._drop()
                self.state = DIALLING
        self.out = bytearray()

    def _frame(self, op, data):
        n = len(data)
        mask = os.urandom(4)
        if n < 126:
            head = bytes((0x80 | op, 0x80 | n))
        else:
            head = bytes((0x80 | op, 0x80 | 126, n >> 8, n & 255))
        body = bytearray(data)
        for i in range(n):
            body[i] ^= mask[i & 3]
        self._send_all(self.sock, head + mask + body)

    def _send_all(self, s, buf):
        # A non-blocking socket may take part of it: wait for room, briefly (a frame is at most 256 bytes).
        mv = memoryview(buf)
        start = ticks_ms()
        while mv:
            try:
                k = s.write(mv)
            except OSError as e:
                if e.args[0] != 11 or ticks_diff(ticks_ms(), start) > 1000:  # EAGAIN
                    raise
                k = 0
            if k:  # None: no room yet
                mv = mv[k:]

    def _read(self, now):
        """Whatever arrived, a bounded amount: frames handled as they complete."""
        try:
            data = self.sock.read(_READ_MAX)  # type: ignore[union-attr]
        except OSError as e:
            if e.args[0] == 11:  # EAGAIN: nothing after all
                return
            data = b""
        if data is None:  # a non-blocking stream with nothing to read
            return
        if not data:  # the table closed the connection
            self._drop()
            self.state = DIALLING
            return
        self.rx.extend(data)
        self._frames(now)

    def _frames(self, now):
        rx = self.rx
        at = 0  # where the next frame starts (MicroPython's bytearray has no del of a slice: cut once, at the end)
        while len(rx) - at >= 2:
            op = rx[at] & 15
            n = rx[at + 1] & 127
            head = 2
            if n == 126:
                if len(rx) - at < 4:
                    break
                n = (rx[at + 2] << 8) | rx[at + 3]
                head = 4
            elif n == 127:  # 64 KiB or more: the tablet never sends such a message; the link is dropped
                self._drop()
                self.state = DIALLING
                return
            if len(rx) - at < head + n:
                break
            payload = bytes(rx[at + head:at + head + n])
            at += head + n
            if op == _OP_TEXT or op == _OP_BINARY or op == 0:
                self.feed(payload, now)
            elif op == _OP_PING:
                self._frame(_OP_PONG, payload)
            elif op == _OP_CLOSE:
                self.reason = payload[2:].decode() if len(payload) > 2 else None
                self.state = REFUSED if self.reason else DIALLING
                self._drop()
                self.next_dial = ticks_add(now, self.dial_wait)
                return
            if self.sock is None:
                return
        if at:
            self.rx = rx[at:]

    # -- the loop's call ----------------------------------------------------------------------------------
    def poll(self, timeout_ms=0):
        now = ticks_ms()
        if not self._network_up():
            self.tick(now)  # heartbeats go nowhere, but the protocol's clocks go on
            return 0
        if self.sock is None:
            if self.table_id is not None:
                self._hear_beacons(now)
            if self.dialing is not None:
                self._dialling(now)
            elif self.host is None:
                self.state = DIALLING  # no table heard of yet
            elif ticks_diff(now, self.next_dial) >= 0:
                self._dial(now)
            if self.sock is not None:
                self._stop_hearing()
            self.tick(now)
            return 0
        if self.poller.poll(timeout_ms):  # type: ignore[union-attr]
            self._read(ticks_ms())
        now = ticks_ms()
        heard = self.last_rx if self.last_rx is not None and ticks_diff(self.last_rx, self.linked_at) > 0 \
            else self.linked_at
        if self.sock is not None and ticks_diff(now, heard) >= _TABLE_SILENT_MS:
            self._drop()
            self.state = DIALLING
            self.next_dial = now
        self.tick(now)
        self._flush()
        return 1
