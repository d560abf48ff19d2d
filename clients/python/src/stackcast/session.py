"""The blocking client: `connect()` and `Session`, on `websockets`' sync client and one reader
thread."""

from __future__ import annotations

import inspect
import json
import threading
import time
from types import TracebackType
from typing import Any, Callable, Iterator, Mapping, Sequence, TypeVar

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from .api import Api
from .core import Core, Message, motion
from .errors import ConnectionClosedError, HelloError, StackcastError, Timeout
from .model import Event
from .transport import (BUSY_RETRY_SECONDS, CONNECT_FAILURES, DEFAULT_URL, RECONNECT_SECONDS, RESTART_CODE, connect_error,
                        hello_fields, resume_target, websocket_options, with_session)

T = TypeVar("T")


def connect(url: str = DEFAULT_URL, app: str | None = "phone", width: float = 390, height: float = 844,
            session: str | None = None, role: str = "control", protocol: int = 2, encoding: str = "binary", *,
            scale: float | None = None, safe_area: Mapping[str, float] | None = None, last_seq: int | None = None,
            timeout: float = 30, open_timeout: float = 10, strict: bool = False, timelines: bool = False,
            window: int | None = None, **websocket: Any) -> Session:
    """Opens a WebSocket to a Stackcast server, says `hello` and waits for the first frame.

    `app` picks the built-in app of a new session (`phone`, `tablet`, `stack`); `session` resumes
    (a control token) or watches (a watch token, or `role="view"`) an existing one instead.
    `protocol`/`encoding` choose the frame format (v1, v2 JSON, v2 binary); the picture is the
    same. `timeout` bounds every wait for an answer; `strict` makes a frame that does not fit the
    picture an error instead of a resync. `timelines=True` (protocol 2) asks for the feature
    `timelines` (docs/protocol.md §3.7): a motion's pictures come at once, each due at its time;
    `nodes()` then shows the newest picture received, `nodes_due()` the one due now, and
    `settle()` also waits until the newest is due. It asks for flow control too, as the browser
    viewer does (`window` 16); `window=N` asks for flow control with any protocol. With flow
    control every frame message is acknowledged, a timeline once. Other keyword arguments go to
    `websockets`' `connect`
    (`ssl=`, `origin=`, …). The token may also come in the URL (`ws://host/ws?session=TOKEN`);
    a resume always carries it there too, for a load balancer to route by.

    When the server closes the connection with 1012 (it is restarting), the session reconnects
    at once to the same URL with its token and goes on; commands that were waiting for an
    answer then fail with `CommandError` code `connection_lost`.

    Raises `ConnectError` (unreachable, handshake refused), `HelloError` (refused hello, with
    `.code`), `Timeout`."""
    url, session = resume_target(url, session)
    fields = hello_fields(app=app, width=width, height=height, scale=scale, safe_area=safe_area, session=session,
                          role=role, protocol=protocol, encoding=encoding, last_seq=last_seq,
                          timelines=timelines, window=window)
    try:
        ws = open_websocket(url, open_timeout, websocket)
    except CONNECT_FAILURES as error:
        raise connect_error(url, error, open_timeout) from None
    client = Session(ws, Core(strict=strict), timeout=timeout,
                     reconnect=lambda token: open_websocket(with_session(url, token), open_timeout, websocket))
    try:
        client._hello(fields, wait_frame=last_seq is None)
    except BaseException:
        client.close()
        raise
    return client


def open_websocket(url: str, open_timeout: float, options: Mapping[str, Any]) -> ClientConnection:
    """`websockets`' sync `connect` with our options (`options`, the caller's, win), as a
    connection kept open rather than a context manager. Raises what `CONNECT_FAILURES` lists."""
    options = dict(options)
    if "legacy" in inspect.signature(ws_connect).parameters:
        options.setdefault("legacy", True)
    return ws_connect(url, open_timeout=open_timeout, **websocket_options(options))


class Session(Api[Any, None]):
    """One connection to a session: commands (`push`, `pop`, … each returns the result's value
    or raises `CommandError`), input and gestures, the picture (`nodes()`, `png()`), events
    (`events()` after `subscribe()`) and `settle()`. Use it as a context manager, or `close()` it.

    Threads: a reader thread applies what arrives; the methods may be called from any one
    thread at a time."""

    def __init__(self, ws: ClientConnection, core: Core, *, timeout: float = 30,
                 reconnect: Callable[[str], ClientConnection] | None = None) -> None:
        self._ws = ws
        self._core = core
        self._reconnect = reconnect             # opens a new connection for a token, after a 1012
        self._closing = False
        self.timeout = timeout
        """How long a command waits for its answer, in seconds (each call may pass its own)."""
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, name="stackcast-reader", daemon=True)
        self._reader.start()

    # MARK: - reading

    def _read(self) -> None:
        busy_until = None
        while True:
            close = self._pump()
            with self._changed:
                self._core.socket_closed(close.code if close else None, close.reason if close else "")
                busy = self._core.resume_busy
            if busy:
                # A resume answered `busy`: again in a moment, for as long as after a 1012.
                busy_until = busy_until or time.monotonic() + RECONNECT_SECONDS
                if time.monotonic() < busy_until and not self._closing:
                    time.sleep(BUSY_RETRY_SECONDS)
                    if self._reopen():
                        continue
                with self._changed:
                    self._core.resume_failed = busy
                break
            busy_until = None
            if not (close and close.code == RESTART_CODE and self._reopen()):
                break
        with self._changed:
            if self._core.resume_failed:
                failed = self._core.resume_failed
                self._core.connection_closed(RESTART_CODE, f"the server restarted and the session could not be resumed: {failed}")
            else:
                self._core.connection_closed(close.code if close else None, close.reason if close else "")
            self._changed.notify_all()

    def _pump(self) -> Any:
        """Reads until the connection ends; returns the close frame received, if any."""
        try:
            for raw in self._ws:
                with self._changed:
                    self._core.receive(raw, time.monotonic())
                    out = self._core.take_outbox()
                    failed = self._core.resume_failed or self._core.resume_busy
                    self._changed.notify_all()
                if failed:
                    self._ws.close()
                    return None
                for text in out:
                    self._ws.send(text)
        except ConnectionClosed:
            pass
        except Exception as error:  # noqa: BLE001 - reported to whoever waits next
            with self._changed:
                self._core._violate(f"the reader failed: {error!r}")
        return self._ws.protocol.close_rcvd

    def _reopen(self) -> bool:
        """After a 1012: opens a new connection with the session's token and resumes on it,
        trying for up to RECONNECT_SECONDS; False when it could not (or the session was closed)."""
        with self._changed:
            token = self._core.welcome.session if self._core.welcome else None
        if self._reconnect is None or token is None:
            return False
        deadline = time.monotonic() + RECONNECT_SECONDS
        while not self._closing and time.monotonic() < deadline:
            try:
                ws = self._reconnect(token)
                with self._changed:
                    hello = self._core.resume_hello()
                ws.send(json.dumps(hello))
            except CONNECT_FAILURES:
                time.sleep(0.1)
                continue
            with self._changed:
                self._core.reopened()
                self._ws = ws
                self._changed.notify_all()
            return True
        return False

    def _wait(self, ready: Callable[[], T | None], timeout: float | None, what: str) -> T:
        """Waits until `ready()` returns something, which is returned; raises `Timeout` after
        `timeout` seconds (None: no limit), `ConnectionClosedError` if the connection ends first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while True:
                value = ready()
                if value is not None:
                    return value
                self._core.check(what)
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise Timeout(f"{what} did not come within {timeout} s")
                self._changed.wait(remaining)

    def _reading(self, read: Callable[[Core], T]) -> T:
        with self._changed:
            return read(self._core)

    # MARK: - sending

    def send(self, message: Mapping[str, Any]) -> None:
        """Sends one protocol message as it is (a dict, sent as JSON)."""
        self._send_all([dict(message)])

    def _send_all(self, messages: Sequence[Message]) -> None:
        with self._changed:
            self._core.check("sending")
        ws = self._ws
        try:
            for message in messages:
                ws.send(json.dumps(message))
        except ConnectionClosed as closed:
            if closed.rcvd and closed.rcvd.code == RESTART_CODE and self._reconnect is not None:
                # The reader is reconnecting: these go on the new connection once it is open.
                with self._changed:
                    self._changed.wait_for(lambda: self._ws is not ws or self._core.closed, RECONNECT_SECONDS)
                if self._ws is not ws and not self._core.closed:
                    return self._send_all(messages)
            self._reader.join(5)
            raise ConnectionClosedError(closed.rcvd.code if closed.rcvd else None,
                                        closed.rcvd.reason if closed.rcvd else "", "sending") from None

    def command(self, op: str, *, timeout: float | None = None, **fields: Any) -> Any:
        """Sends command `op` with `fields` (protocol names: `screen`, `target`, …) and returns
        the result's value; raises `CommandError` (`.code`, `.message`) for an error answer."""
        with self._changed:
            command_id, message = self._core.command(op, fields)
        self._send_all([message])

        def answered() -> tuple[Any] | None:
            done, value = self._core.answer(command_id)
            return (value,) if done else None

        return self._wait(answered, self.timeout if timeout is None else timeout, f"the answer to {op}")[0]

    def _hello(self, fields: Mapping[str, Any], wait_frame: bool) -> None:
        with self._changed:
            message = self._core.hello(**fields)
            frames = self._core.frames
        self._send_all([message])
        answer = self._wait(lambda: self._core.hello_answer, self.timeout, "the answer to hello")
        if isinstance(answer, HelloError):
            raise answer
        if wait_frame:
            self._wait(lambda: True if self._core.frames > frames else None, self.timeout, "the first frame")

    # MARK: - waiting

    def settle(self, timeout: float = 5, quiet: float = 0.2) -> None:
        """Waits until the session is at rest: no frame for `quiet` seconds, every picture received
        due (with timelines), and a `query` shows no transition, split scroll or page carousel
        running. Raises `Timeout` if it keeps moving for `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            self._wait_quiet(quiet, deadline, timeout)
            moving = motion(self.command("query", what="state", timeout=max(0.5, deadline - time.monotonic())))
            if moving is None:
                return
            if time.monotonic() >= deadline:
                raise Timeout(f"not at rest after {timeout} s: {moving} is still running")
            time.sleep(quiet / 2)

    def _wait_quiet(self, quiet: float, deadline: float, timeout: float) -> None:
        start = time.monotonic()
        with self._changed:
            while True:
                self._core.check("rest")
                now = time.monotonic()
                last = max(start, self._core.last_frame_at or start)
                # With timelines, frames stop coming before their pictures are due.
                wait = max(quiet - (now - last), self._core.due_in(now))
                if wait <= 0:
                    return
                if now >= deadline:
                    raise Timeout(f"not at rest after {timeout} s: frames keep coming")
                self._changed.wait(min(wait, deadline - now))

    def events(self, timeout: float | None = None) -> Iterator[Event]:
        """The events of the subscribed groups, in order, as they come (those already received
        first). Ends when no event comes for `timeout` seconds (None: waits as long as it takes)
        or when the connection closes. Needs `subscribe()` first."""
        if not self._core.subscribed:
            raise StackcastError("events() needs a subscription: call subscribe() first (it picks the event groups)")
        events = self._core.events
        while True:
            try:
                yield self._wait(lambda: events.popleft() if events else None, timeout, "an event")
            except (Timeout, ConnectionClosedError):
                return

    # MARK: - closing

    def close(self) -> None:
        """Closes the connection (the session stays on the server for its time to live, resumable
        with `connect(session=session.token)`)."""
        self._closing = True
        self._ws.close()
        self._reader.join(10)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
