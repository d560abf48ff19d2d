"""A small protocol v1 client for the end-to-end tests.

`Client` wraps a `websockets` connection with a reader task that keeps a log of every message,
applies frames to a display list exactly as PROTOCOL.md says (full frames replace it; a delta
must name the previous frame as `base`; `set` merges fields, `null` deletes one, a new node
carries its fields; `remove`; `order` when the paint order changed, else new ids go last in
`set` order) and records any departure
from those rules as a protocol violation, which fails the test at its next wait.

`RawWebSocket` is a hand-made client on a plain socket for what `websockets` will not do: stop
reading, send broken frames.

Protocol v2 (docs/protocol.md §3.5, §3.6): once a `welcome` says `"protocol":2`, frames (JSON
text, or binary messages with `"encoding":"binary"`) go to `Client.v2`, a `wire_v2.TreeDisplay`,
instead of the v1 display list; a binary message on any other connection is still a violation.

Every wait here is bounded.
"""

import asyncio
import base64
import copy
import json
import os
import socket
import ssl as ssl_module
import struct
import time

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from wire_v2 import TreeDisplay, WireError

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
    `wire_v2.TreeDisplay` to apply v2 frames to (one held from an earlier connection, to resume
    with `lastSeq`); without it a v2 welcome makes a new one."""
    ws = await connect(url, subprotocols=[SUBPROTOCOL], origin=origin, ssl=ssl, proxy=None,
                       compression=None, max_size=None, ping_interval=None, open_timeout=10,
                       close_timeout=5, **options)
    return Client(ws, keep_snapshots=keep_snapshots, v2=v2)


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


class DisplayState:
    """A display list built from frames exactly as PROTOCOL.md says; `apply` raises
    ProtocolViolation for a frame that does not fit."""

    def __init__(self, keep_snapshots=False):
        self.nodes = {}        # id -> node
        self.order = []        # paint order
        self.seq = None        # seq of the last frame applied
        self.time = None       # its time (ms)
        self.keep_snapshots = keep_snapshots
        self.snapshots = {}    # seq -> [node, ...] in paint order
        self.assumed = False   # seq came from `assume` or a welcome: a full frame may restart seqs
        # Fields a delta sent although they did not change (PROTOCOL.md: only changed fields):
        # counted, not fatal, so that test_frames.py can check it on its own.
        self.unchanged_fields = 0
        self.unchanged_example = None

    def apply(self, frame):
        seq = frame.get("seq")
        if not isinstance(seq, int):
            raise ProtocolViolation(f"frame without an integer seq: {str(frame)[:200]}")
        time_ms = frame.get("time")
        if not isinstance(time_ms, (int, float)):
            raise ProtocolViolation(f"frame {seq} without a numeric time")
        if self.time is not None and time_ms < self.time and not frame.get("full"):
            raise ProtocolViolation(f"frame {seq} has time {time_ms}, before the previous frame's {self.time}")
        self.time = time_ms
        if self.seq is not None and seq <= self.seq and not (self.assumed and frame.get("full")):
            raise ProtocolViolation(f"frame seq {seq} after seq {self.seq}")
        if frame.get("full"):
            nodes = frame.get("nodes")
            if not isinstance(nodes, list):
                raise ProtocolViolation("full frame without nodes")
            self.nodes, self.order = {}, []
            for node in nodes:
                check_node(node, new=True)
                if node["id"] in self.nodes:
                    raise ProtocolViolation(f"full frame {seq}: id {node['id']} twice")
                self.nodes[node["id"]] = dict(node)
                self.order.append(node["id"])
        else:
            if "nodes" in frame:
                raise ProtocolViolation(f"delta {seq} carries nodes")
            base = frame.get("base")
            if self.seq is None:
                raise ProtocolViolation(f"delta {seq} (base {base}) before any full frame")
            if base != self.seq:
                raise ProtocolViolation(f"delta {seq} has base {base}, but the last frame applied is {self.seq}")
            added = set()
            for patch in frame.get("set", []):
                node_id = patch.get("id")
                if node_id in self.nodes:
                    node = self.nodes[node_id]
                    if len(patch) < 2:
                        self._unchanged(f"delta {seq}: a patch for node {node_id} with no field")
                    for key, value in patch.items():
                        if key == "id":
                            continue
                        if value is None:
                            if key not in node:
                                self._unchanged(f"delta {seq}: node {node_id} deletes {key}, which it does not have")
                            node.pop(key, None)
                        else:
                            if node.get(key) == value:
                                self._unchanged(f"delta {seq}: node {node_id} sends {key} = {value!r} unchanged")
                            node[key] = value
                else:
                    check_node(patch, new=True)
                    self.nodes[node_id] = dict(patch)
                    added.add(node_id)
            for node_id in frame.get("remove", []):
                if node_id not in self.nodes:
                    raise ProtocolViolation(f"delta {seq} removes id {node_id}, which is not in the list")
                del self.nodes[node_id]
            if "order" in frame:
                order = frame["order"]
                if len(order) != len(set(order)) or set(order) != set(self.nodes):
                    raise ProtocolViolation(f"delta {seq}: order {order} does not match the nodes {sorted(self.nodes)}")
                if order == self.order:
                    raise ProtocolViolation(f"delta {seq} sends order although it did not change")
                self.order = list(order)
            else:
                # No `order`: the old order minus removed ids, then the new ids in `set` order
                # (the convention the server and the project's viewer, Web/src/delta.js, share;
                # PROTOCOL.md only says `order` is present when the order changed).
                self.order = [i for i in self.order if i in self.nodes and i not in added]
                self.order += [p["id"] for p in frame.get("set", []) if p.get("id") in added]
        self.seq = seq
        self.assumed = False
        if self.keep_snapshots:
            self.snapshots[seq] = self.display_list()

    def _unchanged(self, text):
        self.unchanged_fields += 1
        if self.unchanged_example is None:
            self.unchanged_example = text

    def assume(self, nodes, seq):
        """Starts from `nodes` as frame `seq` (what a client resuming with `lastSeq` holds)."""
        self.nodes = {n["id"]: copy.deepcopy(n) for n in nodes}
        self.order = [n["id"] for n in nodes]
        self.seq = seq
        self.assumed = True

    def display_list(self):
        """The display list, back to front (copies)."""
        return [copy.deepcopy(self.nodes[i]) for i in self.order]

    def find(self, role=None, name=None):
        return [n for n in (self.nodes[i] for i in self.order)
                if (role is None or n.get("role") == role) and (name is None or n.get("name") == name)]

    def pages(self):
        return self.find(role="page")


class Client:
    def __init__(self, ws, keep_snapshots=False, v2=None):
        self.ws = ws
        # Protocol v2: the tree model frames go to while the last welcome said protocol 2.
        self.v2 = v2
        self.v2_active = False
        self.wire_frames = []  # v2 frames as they came: (seq, base or None, "text"/"binary", raw)
        self.log = []          # (monotonic time, message) in arrival order
        self.display = DisplayState(keep_snapshots)
        self.violation = None
        self.closed = False
        self.close_code = None  # the code of the close frame the server sent (None: none received)
        self._next_id = 0
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    # MARK: reading

    async def _read(self):
        try:
            async for raw in self.ws:
                now = time.monotonic()
                if isinstance(raw, bytes):
                    if not (self.v2_active and self.v2.binary):
                        self._violate(f"binary frame from the server ({len(raw)} bytes)")
                        continue
                    try:
                        message = self.v2.receive_binary(raw)
                    except WireError as error:
                        self._violate(f"binary v2 frame: {error}; bytes {raw.hex()[:600]}")
                        continue
                    self.wire_frames.append((message["seq"], message.get("base"), "binary", raw))
                    self.log.append((now, message))
                    await self._notify()
                    continue
                try:
                    message = json.loads(raw)
                except ValueError as error:
                    self._violate(f"server sent invalid JSON ({error}): {raw[:200]!r}")
                    continue
                if not isinstance(message, dict) or "type" not in message:
                    self._violate(f"server message without type: {raw[:200]!r}")
                    continue
                if message["type"] == "welcome":
                    # A new hello may start another session, whose seqs start afresh with a full frame.
                    self.display.assumed = True
                    self._welcome_wire(message)
                if message["type"] == "frame" and self.v2_active:
                    if self.v2.binary:
                        self._violate(f"JSON frame on a binary v2 connection: {raw[:200]!r}")
                    try:
                        self.v2.apply(message)
                    except WireError as error:
                        self._violate(f"v2 frame: {error}")
                    self.wire_frames.append((message["seq"], message.get("base"), "text", raw))
                elif message["type"] == "frame":
                    try:
                        self.display.apply(message)
                    except ProtocolViolation as violation:
                        self._violate(str(violation))
                self.log.append((now, message))
                await self._notify()
        except ConnectionClosed:
            pass
        except Exception as error:  # noqa: BLE001 - anything else is a finding too
            self._violate(f"reader failed: {error!r}")
        finally:
            self.closed = True
            rcvd = self.ws.protocol.close_rcvd
            self.close_code = rcvd.code if rcvd is not None else None
            await self._notify()

    def _welcome_wire(self, welcome):
        """Frames after this welcome are v2 (to `self.v2`) when it says protocol 2, else v1."""
        self.v2_active = welcome.get("protocol", 1) == 2
        if self.v2_active:
            binary = welcome.get("encoding") == "binary"
            if self.v2 is None or self.v2.binary != binary:
                self.v2 = TreeDisplay(binary=binary, keep_snapshots=self.display.keep_snapshots)

    async def _notify(self):
        async with self._changed:
            self._changed.notify_all()

    def _violate(self, text):
        if self.violation is None:
            self.violation = text

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
            async with self._changed:
                if position == len(self.log) and not self.closed:
                    try:
                        await asyncio.wait_for(self._changed.wait(), remaining)
                    except asyncio.TimeoutError:
                        pass

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
            async with self._changed:
                if len(self.log) == seen and not self.closed:
                    try:
                        await asyncio.wait_for(self._changed.wait(), remaining)
                    except asyncio.TimeoutError:
                        pass

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
            async with self._changed:
                if not self.closed:
                    try:
                        await asyncio.wait_for(self._changed.wait(), max(0.01, deadline - time.monotonic()))
                    except asyncio.TimeoutError:
                        pass
        return self.close_code

    def last_frame_time(self):
        for arrived, message in reversed(self.log):
            if message["type"] == "frame":
                return arrived
        return None

    async def settle(self, quiet=0.5, timeout=10):
        """Waits until no frame has come for `quiet` seconds (fails if frames keep coming)."""
        start = time.monotonic()
        deadline = start + timeout
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
        await self.ws.close()
        try:
            await asyncio.wait_for(self._reader, 5)
        except (asyncio.TimeoutError, Exception):  # noqa: BLE001
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


def check_node(node, new):
    if not isinstance(node, dict) or not isinstance(node.get("id"), int):
        raise ProtocolViolation(f"node without an integer id: {str(node)[:200]}")
    if new:
        if node.get("kind") not in ("rect", "text", "icon"):
            raise ProtocolViolation(f"new node {node['id']} has kind {node.get('kind')!r}")
        frame = node.get("frame")
        if not (isinstance(frame, list) and len(frame) == 4 and all(isinstance(v, (int, float)) for v in frame)):
            raise ProtocolViolation(f"new node {node['id']} has frame {frame!r}")
        if any(value is None for value in node.values()):
            raise ProtocolViolation(f"new node {node['id']} has null fields: {node}")


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
