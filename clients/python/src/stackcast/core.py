"""The protocol logic of one connection, without any I/O ("sans-IO"): what to send, and what the
messages that arrive mean. `stackcast.Session` (threads) and `stackcast.aio.Session` (asyncio)
are thin transports around one `Core`: they send what it builds, feed it what arrives, and wait
for the state it keeps to change.

A `Core` is not thread-safe: the sync transport calls it under its own lock, the asyncio one from
its event loop only.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any, Callable, Mapping

from .errors import CommandError, ConnectionClosedError, HelloError, ProtocolError, WireError
from .model import Event, Node, Welcome
from .wire import DisplayList, TreeDisplay
from .wire.binary import INPUT_FOLLOWS, TEMPLATES_FOLLOW, TIMELINE

SUBPROTOCOL = "stackcast.v1"
EVENT_GROUPS = ("lifecycle", "transition", "gesture", "page", "action")

Message = dict[str, Any]
Observer = Callable[[Message, "str | bytes", float], None]


class Core:
    """State of one connection: the hello and its welcome, the answers to commands by id, the
    events not yet read, and the picture (v1 display list or v2 tree) built from the frames.

    `strict`: a frame that does not fit the picture is a protocol violation that every later
    wait raises. Otherwise the client does what the spec asks (§3.4): it says `hello` again on
    the same socket with the session's token and ignores deltas until the full frame comes.

    A hello with `window` asks for flow control (§2 `ack`): the core then acknowledges every frame
    message it applied, a timeline (§3.7) once, with the seq of the newest frame. Timelines go to
    the v2 picture frame by frame, each with its due time (`TreeDisplay`); `nodes()` shows the
    newest picture, `nodes_due(now)` the one due then.
    """

    def __init__(self, *, strict: bool = False, keep_snapshots: bool = False, v2: TreeDisplay | None = None) -> None:
        self.strict = strict
        self.display = DisplayList(keep_snapshots)
        """The v1 picture (frames go here while the last welcome said protocol 1)."""
        self.v2 = v2
        """The v2 picture (frames go here while the last welcome said protocol 2)."""
        self.v2_active = False
        self.welcome: Welcome | None = None
        self.hello_fields: Message = {}
        self.hello_answer: Welcome | HelloError | None = None
        self.answers: dict[str, Message] = {}
        self.pending: dict[str, str] = {}       # id -> op, commands sent and not answered
        self.events: deque[Event] = deque()
        self.notices: list[Message] = []        # errors without an id (rate_limited, too_large)
        self.observers: list[Observer] = []
        self.violation: str | None = None
        self.resyncs = 0                         # full frames asked for after a frame did not fit
        self.resyncing = False
        self.outbox: list[Message] = []          # messages the core wants sent (a resync hello)
        self.frames = 0                          # frames applied (each of a timeline)
        self.last_frame_at: float | None = None  # arrival time of the last frame (transport clock)
        self.closed = False
        self.reconnects = 0                      # times the connection was opened again after a 1012
        self.closes: list[tuple[int | None, str]] = []  # every close (code, reason), those reconnected after too
        self.resume_failed: HelloError | None = None  # the answer to a reconnect's hello, when it failed
        self.resume_busy: HelloError | None = None    # a reconnect's hello answered `busy`: try again
        self.close_code: int | None = None
        self.close_reason = ""
        self.subscribed: tuple[str, ...] = ()
        self.pointer_time = 1000.0               # the viewer clock (ms) for the next gesture
        self._next_id = 0

    # MARK: - sending

    def hello(self, **fields: Any) -> Message:
        """A `hello` message (fields as in docs/protocol.md §2; None values left out). Its answer
        shows in `hello_answer`."""
        message = {"type": "hello", **{k: v for k, v in fields.items() if v is not None}}
        self.hello_fields = message
        self.hello_answer = None
        return message

    def socket_closed(self, code: int | None, reason: str) -> None:
        """A connection of this session ended (the transport may then reconnect after a 1012)."""
        self.closes.append((code, reason))

    def resume_hello(self) -> Message:
        """The hello that resumes the session on a new connection after the server closed the
        old one with 1012 (restarting): the same fields, the session's token, a full frame. Call
        `reopened()` once it went out on the new connection."""
        assert self.welcome is not None
        fields = {k: v for k, v in self.hello_fields.items() if k not in ("type", "lastSeq", "app", "session")}
        self.resume_busy = None
        return self.hello(**fields, session=self.welcome.session)

    def reopened(self) -> None:
        """The resume hello went out on a new connection. The commands still waiting for an answer
        get an error, as theirs was lost with the old connection (send them again if still
        wanted), and frames are ignored until the full frame that answers the resume."""
        for command_id in list(self.pending):
            if command_id not in self.answers:
                self.answers[command_id] = {
                    "type": "error", "id": command_id, "code": "connection_lost",
                    "message": "the server restarted before answering; the session was resumed, send it again if still wanted"}
        self.reconnects += 1
        self.resyncing = True

    def command(self, op: str, fields: Mapping[str, Any]) -> tuple[str, Message]:
        """A `command` message with a fresh id; its answer shows in `answer(id)`."""
        self._next_id += 1
        command_id = f"c{self._next_id}"
        self.pending[command_id] = op
        return command_id, {"type": "command", "id": command_id, "op": op, **fields}

    def answer(self, command_id: str) -> tuple[bool, Any]:
        """`(True, value)` once the command was answered with a result; raises CommandError for
        an error; `(False, None)` while it waits."""
        message = self.answers.pop(command_id, None)
        if message is None:
            return False, None
        op = self.pending.pop(command_id, "command")
        if message["type"] == "error":
            raise CommandError(op, message.get("code", "?"), message.get("message", ""))
        if op == "subscribe":
            self.subscribed = tuple((message.get("value") or {}).get("events", ()))
        return True, message.get("value")

    def take_outbox(self) -> list[str]:
        """The messages the core asked to send, as text; the transport sends them in order. Compact,
        so that an ack is spelled as the server scans for it (§2 `ack`)."""
        out, self.outbox = self.outbox, []
        return [json.dumps(m, separators=(",", ":")) for m in out]

    # MARK: - receiving

    def receive(self, raw: str | bytes, now: float) -> Message | None:
        """Takes one WebSocket message; returns it parsed (a binary frame as its JSON-equivalent
        dict), or None when it could not be read (then `violation` says why)."""
        applied = self.frames
        if isinstance(raw, bytes):
            message = self._binary_frame(raw, now)
        else:
            message = self._text(raw, now)
        if message is None:
            return None
        if message["type"] in ("frame", "timeline"):
            self.last_frame_at = now
        if self.frames > applied and self.hello_fields.get("window"):
            self.outbox.append({"type": "ack", "seq": self.picture.seq})
        for observer in self.observers:
            observer(message, raw, now)
        return message

    def _binary_frame(self, raw: bytes, now: float) -> Message | None:
        if not (self.v2_active and self.v2 is not None and self.v2.binary):
            self._violate(f"binary frame from the server ({len(raw)} bytes) on a connection that did not ask for them")
            return None
        if self.resyncing and not starts_full(raw):
            return None                          # deltas to a picture we no longer trust
        before = self.v2.frames_applied
        try:
            message = self.v2.receive_binary(raw, arrival=now * 1000)
        except WireError as error:
            self.frames += self.v2.frames_applied - before
            self._frame_failed(f"binary v2 frame: {error}; bytes {raw.hex()[:600]}")
            return None
        self.frames += self.v2.frames_applied - before
        self.resyncing = False
        return message

    def _text(self, raw: str, now: float) -> Message | None:
        try:
            message = json.loads(raw)
        except ValueError as error:
            self._violate(f"server sent invalid JSON ({error}): {raw[:200]!r}")
            return None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            self._violate(f"server message without type: {raw[:200]!r}")
            return None
        kind = message["type"]
        if kind == "frame":
            self._frame(message, raw, now)
        elif kind == "timeline":
            self._timeline(message, raw, now)
        elif kind == "welcome":
            self._welcomed(message)
        elif kind == "event" and isinstance(message.get("name"), str):
            self.events.append(Event.from_dict(message))
        elif kind in ("result", "error") and "id" in message:
            self.answers[str(message["id"])] = message
        elif kind == "error":
            if self.hello_answer is None and self.hello_fields:
                self.hello_answer = HelloError(message.get("code", "?"), message.get("message", ""))
                if self.reconnects and self.welcome is not None:
                    # `busy` passes (another server taking the session over, its store out of
                    # reach, a server at its limit): the transport tries again, as after a 1012.
                    if self.hello_answer.code == "busy":
                        self.resume_busy = self.hello_answer
                    else:
                        self.resume_failed = self.hello_answer
            self.notices.append(message)
        return message

    def _welcomed(self, message: Message) -> None:
        # A new hello may start another session, whose seqs start afresh with a full frame.
        self.display.assumed = True
        self.v2_active = message.get("protocol", 1) == 2
        if self.v2_active:
            binary = message.get("encoding") == "binary"
            if self.v2 is None or self.v2.binary != binary:
                self.v2 = TreeDisplay(binary=binary, keep_snapshots=self.display.keep_snapshots)
            # Features belong to the connection and are in force only when the welcome lists them
            # (§2): a server that does not know `templates`, or a JSON wire, sends frames without.
            features = message.get("features")
            self.v2.templates_enabled = binary and isinstance(features, list) and "templates" in features
        try:
            self.welcome = Welcome.from_dict(message)
        except KeyError:
            self._violate(f"welcome without a session token: {str(message)[:200]}")
            return
        if self.hello_answer is None:
            self.hello_answer = self.welcome

    def _frame(self, message: Message, raw: str, now: float) -> None:
        if self.resyncing and not message.get("full"):
            return
        try:
            if self.v2_active and self.v2 is not None:
                if self.v2.binary:
                    self._violate(f"JSON frame on a binary v2 connection: {raw[:200]!r}")
                self.v2.apply(message, arrival=now * 1000)
            else:
                self.display.apply(message)
        except WireError as error:
            self._frame_failed(f"v{2 if self.v2_active else 1} frame: {error}")
            return
        self.frames += 1
        self.resyncing = False

    def _timeline(self, message: Message, raw: str, now: float) -> None:
        """A JSON timeline (§3.7): its frames in order, each due at its time."""
        if not (self.v2_active and self.v2 is not None) or self.v2.binary:
            self._violate(f"a JSON timeline on a connection that gets {'binary' if self.v2_active else 'v1'} frames: {raw[:200]!r}")
            return
        frames = message.get("frames")
        if self.resyncing and not (isinstance(frames, list) and frames and isinstance(frames[0], dict) and frames[0].get("full")):
            return
        before = self.v2.frames_applied
        try:
            self.v2.apply_timeline(message, arrival=now * 1000)
        except WireError as error:
            self.frames += self.v2.frames_applied - before
            self._frame_failed(f"v2 timeline: {error}")
            return
        self.frames += self.v2.frames_applied - before
        self.resyncing = False

    def _frame_failed(self, text: str) -> None:
        """A frame did not fit: strict clients fail; others ask for a full frame (§3.4)."""
        if self.strict or self.welcome is None:
            self._violate(text)
            return
        self.resyncs += 1
        self.resyncing = True
        resync = {k: v for k, v in self.hello_fields.items() if k not in ("lastSeq", "app")}
        self.outbox.append({**resync, "session": self.welcome.session})

    def _violate(self, text: str) -> None:
        if self.violation is None:
            self.violation = text

    def connection_closed(self, code: int | None, reason: str) -> None:
        """The transport saw the connection end (`code` None: without a close frame)."""
        self.closed = True
        self.close_code = code
        self.close_reason = reason

    # MARK: - checks the transports make while they wait

    def check(self, waiting_for: str) -> None:
        """Raises ProtocolError after a violation, ConnectionClosedError once closed."""
        if self.violation:
            raise ProtocolError(self.violation)
        if self.closed:
            raise ConnectionClosedError(self.close_code, self.close_reason, waiting_for)

    # MARK: - the picture

    @property
    def picture(self) -> DisplayList | TreeDisplay:
        """The model frames go to now: the v1 display list or the v2 tree."""
        if self.v2_active and self.v2 is not None:
            return self.v2
        return self.display

    def nodes(self, role: str | None = None, name: str | None = None) -> list[Node]:
        """The drawn nodes of the newest picture, back to front, with that role and/or name."""
        return [Node.from_dict(n) for n in self.picture.find(role, name)]

    def nodes_due(self, now: float, role: str | None = None, name: str | None = None) -> list[Node]:
        """The same of the picture due at `now` (the transport's clock, seconds): with timelines a
        motion's pictures come ahead of their time; without them, the newest picture."""
        picture = self.picture
        if isinstance(picture, TreeDisplay):
            return [Node.from_dict(n) for n in picture.find(role, name, tree=picture.picture_at(now * 1000))]
        return self.nodes(role, name)

    def still(self, now: float) -> bool:
        """Whether every picture received is due at `now` (the transport's clock, seconds)."""
        picture = self.picture
        return not isinstance(picture, TreeDisplay) or picture.still_at(now * 1000)

    def due_in(self, now: float) -> float:
        """Seconds from `now` until the newest picture received is due (0 when it is)."""
        picture = self.picture
        if not isinstance(picture, TreeDisplay) or not picture.pictures:
            return 0.0
        due = picture.due(picture.pictures[-1])
        return 0.0 if due is None else max(0.0, due / 1000 - now)

    def gesture_sent(self, messages: list[Message]) -> None:
        """Moves the viewer clock past a gesture, so that the next one starts later (200 ms on)."""
        self.pointer_time = float(messages[-1]["t"]) + 200


def starts_full(raw: bytes) -> bool:
    """Whether binary message `raw` is a full frame (type 1, plus 4 with templates, plus 16 with
    an input number), or a timeline whose first frame is one (after the byte 8 and its count)."""
    at = 0
    if raw[:1] == bytes([TIMELINE]):
        at = 1
        while at < len(raw) and raw[at] & 0x80:
            at += 1
        at += 1
    return at < len(raw) and raw[at] & ~(TEMPLATES_FOLLOW | INPUT_FOLLOWS) == 1


def motion(state: Mapping[str, Any]) -> str | None:
    """What still moves in a STATE (docs/protocol.md §8): a transition, a scrolling split or a
    page stack's carousel, as a short text; None at rest."""
    stacks = [state, *state.get("tabs", [])]
    for stack in stacks:
        name = stack.get("id", "the app")
        if stack.get("transition"):
            return f"a {stack['transition'].get('op', '')} transition in {name}"
        if stack.get("scrolling"):
            return f"the stacked split {name} scrolling"
        for page in stack.get("stack", []):
            if page.get("pagesAnimating"):
                return f"the page stack of {page.get('screen')}"
    return None
