"""The end-to-end tests' client, on the `stackcast` package (clients/python).

`Client` wraps a `stackcast.aio.Session` opened without hello: the package reads the connection,
applies frames to its picture models exactly as docs/protocol.md says (v1's display list,
`stackcast.wire.DisplayList`; v2's layer tree, JSON or binary, `stackcast.wire.TreeDisplay`) and,
being strict here, records any departure from those rules as a protocol violation, which fails
the test at its next wait. On top of that this module keeps what tests need: a log of every
message by position (`mark()`, `since=`), waits on it, and the raw v2 frames.

`RawWebSocket` is a hand-made client on a plain socket for what `websockets` will not do: stop
reading, send broken frames.

Every wait here is bounded.
"""

import asyncio
import base64
import json
import os
import socket
import ssl as ssl_module
import struct
import time

import stackcast.aio
from stackcast.core import Core
from stackcast.wire import DisplayList as DisplayState  # noqa: F401  (the v1 model, for tests that apply frames themselves)

SUBPROTOCOL = "stackcast.v1"
VIEWPORT = {"width": 390, "height": 844, "scale": 3}
W, H = 390, 844
EVENT_GROUPS = ["lifecycle", "transition", "gesture"]
LIFECYCLE = {"viewDidLoad", "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear", "released"}


class ProtocolViolation(AssertionError):
    pass


def run(coroutine, timeout=60):
    """Runs an async test body with an overall time limit."""
    async def bounded():
        return await asyncio.wait_for(coroutine, timeout)
    return asyncio.run(bounded())


async def open_client(url, *, origin=None, ssl=None, keep_snapshots=False, v2=None, **options):
    """Opens a WebSocket to `url` with the stackcast.v1 subprotocol (no hello yet). `v2`: the
    `TreeDisplay` to apply v2 frames to (one held from an earlier connection, to resume with
    `lastSeq`); without it a v2 welcome makes a new one. Raises `stackcast.ConnectError` when the
    server refuses the handshake."""
    connection = await stackcast.aio.open_connection(
        url, strict=True, keep_snapshots=keep_snapshots, v2=v2, origin=origin, ssl=ssl, compression=None,
        ping_interval=None, open_timeout=10, close_timeout=5, **options)
    return Client(connection)


async def session(url, *, subscribe=False, viewport=VIEWPORT, keep_snapshots=False, v2=None, **hello_fields):
    """Opens a client, says hello and waits for the first frame. `subscribe=True` subscribes to
    every event group."""
    client = await open_client(url, keep_snapshots=keep_snapshots, v2=v2)
    start = client.mark()
    welcome = await client.hello(viewport=viewport, **hello_fields)
    assert welcome["type"] == "welcome", welcome
    await client.wait_frame(since=start)
    if subscribe:
        reply = await client.command("subscribe", events=EVENT_GROUPS)
        assert reply["type"] == "result", reply
    return client


class Client:
    def __init__(self, connection, keep_snapshots=False, v2=None):
        """`connection`: a `stackcast.aio.Session` (from `open_client`), or an open `websockets`
        connection, which the package's strict session then reads."""
        if not isinstance(connection, stackcast.aio.Session):
            connection = stackcast.aio.Session(connection, Core(strict=True, keep_snapshots=keep_snapshots, v2=v2))
        self.session = connection
        self.core = connection.core
        self.wire_frames = []  # v2 frames as they came: (seq, base or None, "text"/"binary", raw)
        self.log = []          # (monotonic time, message) in arrival order
        self._next_id = 0
        connection.observe(self._record)

    def _record(self, message, raw, now):
        if message["type"] == "frame" and self.core.v2_active:
            self.wire_frames.append((message["seq"], message.get("base"), "binary" if isinstance(raw, bytes) else "text", raw))
        self.log.append((now, message))

    @property
    def ws(self):
        """The `websockets` connection in use (a new one after the session reconnected on a 1012)."""
        return self.session.websocket

    @property
    def display(self):
        """The v1 picture (`stackcast.wire.DisplayList`)."""
        return self.core.display

    @property
    def v2(self):
        """The v2 picture (`stackcast.wire.TreeDisplay`) once a welcome said protocol 2."""
        return self.core.v2

    @property
    def violation(self):
        return self.core.violation

    @property
    def closed(self):
        return self.core.closed

    @property
    def close_code(self):
        """The code of the close frame the server sent (None: none received)."""
        return self.core.close_code

    def check(self):
        if self.violation:
            raise ProtocolViolation(self.violation)

    # MARK: frames (the applied display list)

    @property
    def nodes(self):
        return self.display.nodes

    @property
    def order(self):
        return self.display.order

    @property
    def seq(self):
        return self.display.seq

    @property
    def snapshots(self):
        return self.display.snapshots

    def display_list(self):
        return self.display.display_list()

    def find(self, role=None, name=None):
        return self.display.find(role, name)

    def pages(self):
        return self.display.pages()

    # MARK: sending

    async def send(self, message):
        self.check()
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def mark(self):
        """A position in the log, for `since=`."""
        return len(self.log)

    async def hello(self, app="stack", viewport=VIEWPORT, timeout=10, **fields):
        """Sends hello; returns the welcome (or the error that came instead)."""
        start = self.mark()
        message = {"type": "hello", **({"app": app} if app else {}), **({"viewport": viewport} if viewport else {}), **fields}
        await self.send(message)
        return await self.wait_message(lambda m: m["type"] == "welcome" or (m["type"] == "error" and "id" not in m),
                                       since=start, timeout=timeout, what="welcome")

    async def send_command(self, op, **fields):
        """Sends a command; returns its id."""
        self._next_id += 1
        command_id = f"c{self._next_id}"
        await self.send({"type": "command", "id": command_id, "op": op, **fields})
        return command_id

    async def reply(self, command_id, timeout=10):
        """The result or error answering `command_id`."""
        return await self.wait_message(
            lambda m: m["type"] in ("result", "error") and m.get("id") == command_id,
            timeout=timeout, what=f"the answer to command {command_id}")

    async def command(self, op, timeout=10, **fields):
        return await self.reply(await self.send_command(op, **fields), timeout=timeout)

    async def ok(self, op, timeout=10, **fields):
        """A command that must succeed: returns its value."""
        reply = await self.command(op, timeout=timeout, **fields)
        assert reply["type"] == "result" and reply.get("ok") is True, f"{op} {fields} answered {reply}"
        return reply.get("value")

    async def state(self):
        return await self.ok("query", what="state")

    async def pointer(self, phase, x, y, t, pointer_id=1, samples=None):
        message = {"type": "pointer", "phase": phase, "id": pointer_id, "x": x, "y": y, "t": t}
        if samples is not None:
            message["samples"] = samples
        await self.send(message)

    # MARK: waiting

    async def wait_message(self, predicate, since=0, timeout=10, what="a message"):
        """The first message at or after log position `since` matching `predicate`."""
        deadline = time.monotonic() + timeout
        position = since
        while True:
            self.check()
            while position < len(self.log):
                message = self.log[position][1]
                position += 1
                if predicate(message):
                    return message
            if self.closed:
                raise AssertionError(f"connection closed (code {self.close_code}) while waiting for {what}; "
                                     f"last messages: {self.tail()}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; last messages: {self.tail()}")
            await self.session.wait_change(lambda: position == len(self.log), remaining)

    async def wait_frame(self, since, timeout=10):
        """The first frame at or after log position `since` (take `mark()` before acting)."""
        return await self.wait_message(lambda m: m["type"] == "frame", since=since, timeout=timeout, what="a frame")

    async def wait_event(self, name, since=0, timeout=10, **fields):
        return await self.wait_message(
            lambda m: m["type"] == "event" and m["name"] == name and all(m.get(k) == v for k, v in fields.items()),
            since=since, timeout=timeout, what=f"event {name} {fields}")

    async def wait_until(self, condition, timeout=10, what="a condition"):
        """Re-checks `condition()` (usually on the applied display list) after every message until
        it returns something truthy, which is returned; fails after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            self.check()
            value = condition()
            if value:
                return value
            if self.closed:
                raise AssertionError(f"connection closed (code {self.close_code}) while waiting for {what}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; last messages: {self.tail()}")
            seen = len(self.log)
            await self.session.wait_change(lambda: len(self.log) == seen, remaining)

    def frames_since(self, since):
        """The display lists after each frame that arrived at or after log position `since`
        (needs `display.keep_snapshots` on before those frames came)."""
        return [self.display.snapshots[m["seq"]] for m in self.messages(since, "frame")
                if m["seq"] in self.display.snapshots]

    async def wait_closed(self, timeout=10):
        deadline = time.monotonic() + timeout
        while not self.closed:
            if time.monotonic() > deadline:
                raise AssertionError(f"connection still open after {timeout} s; last messages: {self.tail()}")
            await self.session.wait_change(lambda: True, max(0.01, deadline - time.monotonic()))
        return self.close_code

    def last_frame_time(self):
        for arrived, message in reversed(self.log):
            if message["type"] == "frame":
                return arrived
        return None

    async def settle(self, quiet=0.5, timeout=10):
        """Waits until no frame has come for `quiet` seconds (fails if frames keep coming).

        A ping goes first and the quiet time counts from its pong: the server handles a session's
        messages in order, so by then it has taken every input sent before, however slow it runs
        (a sanitizer build, a loaded machine)."""
        start = time.monotonic()
        deadline = start + timeout
        self._next_id += 1
        ping_id = f"settle{self._next_id}"
        await self.send({"type": "ping", "id": ping_id, "t": 0})
        await self.wait_message(lambda m: m["type"] == "pong" and m.get("id") == ping_id,
                                timeout=timeout, what="the pong that settling waits for")
        start = time.monotonic()
        while True:
            self.check()
            now = time.monotonic()
            if now - max(start, self.last_frame_time() or start) >= quiet:
                return
            if now > deadline:
                raise AssertionError(f"frames still coming after {timeout} s (expected silence once settled)")
            await asyncio.sleep(0.02)

    async def quiet_for(self, seconds):
        """Waits `seconds`; returns the messages that came meanwhile."""
        start = self.mark()
        await asyncio.sleep(seconds)
        self.check()
        return [m for _, m in self.log[start:]]

    def messages(self, since=0, type=None):
        return [m for _, m in self.log[since:] if type is None or m["type"] == type]

    def events(self, since=0):
        return self.messages(since, "event")

    def tail(self, count=8):
        shown = []
        for _, message in self.log[-count:]:
            text = json.dumps(message)
            shown.append(text if len(text) < 300 else text[:300] + "…")
        return "\n  " + "\n  ".join(shown) if shown else "(none)"

    async def close(self):
        try:
            await self.session.close()
        except Exception:  # noqa: BLE001 - closing a connection that already failed
            pass

    def abort(self):
        """Drops the TCP connection without a close handshake (RST)."""
        sock = self.ws.transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            except OSError:
                pass
        self.ws.transport.abort()


def centre(node):
    x, y, w, h = node["frame"]
    return x + w / 2, y + h / 2


def lifecycle(events, with_screens=True):
    """(name, screen) of the lifecycle events, in order."""
    return [(e["name"], e.get("screen")) if with_screens else e["name"] for e in events if e["name"] in LIFECYCLE]


def names(events):
    return [e["name"] for e in events]


# MARK: a raw client


class RawWebSocket:
    """A WebSocket client on a plain blocking socket: handshake, masked frames of any kind, and
    a reader for the server's frames. `rcvbuf` shrinks the receive buffer (set before connect),
    for a client that stops reading."""

    def __init__(self, port, rcvbuf=None, protocol=SUBPROTOCOL, origin=None, timeout=10):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
        if protocol:
            request += f"Sec-WebSocket-Protocol: {protocol}\r\n"
        if origin:
            request += f"Origin: {origin}\r\n"
        self.sock.sendall((request + "\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(1)
            if not chunk:
                raise AssertionError(f"handshake: connection closed; got {self.buffer!r}")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status_line = head.split(b"\r\n")[0].decode()
        if " 101 " not in self.status_line + " ":
            raise AssertionError(f"handshake refused: {head.decode(errors='replace')}")

    def send_frame(self, opcode, payload, fin=True):
        header = bytes([(0x80 if fin else 0) | opcode])
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send_text(self, text):
        self.send_frame(0x1, text.encode() if isinstance(text, str) else text)

    def send_json(self, message):
        self.send_text(json.dumps(message))

    def _read_exactly(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("connection closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def recv_frame(self):
        """(opcode, payload) of the next server frame (unfragmented frames only)."""
        first, second = self._read_exactly(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._read_exactly(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._read_exactly(8))[0]
        return first & 0x0F, self._read_exactly(length)

    def recv_until_close(self, limit=10000):
        """Reads frames until the server's close frame; returns its code (None if the TCP
        connection ended without one)."""
        for _ in range(limit):
            try:
                opcode, payload = self.recv_frame()
            except (EOFError, ConnectionResetError):
                return None
            if opcode == 0x8:
                return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
        raise AssertionError(f"no close frame in {limit} frames")

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def client_tls_context(cert_path):
    context = ssl_module.create_default_context(cafile=str(cert_path))
    return context
