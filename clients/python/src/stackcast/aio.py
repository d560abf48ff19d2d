"""The asyncio client: `await stackcast.aio.connect(...)` gives a `Session` whose network methods
are coroutines (`await s.push(...)`, `await s.settle()`, `async for e in s.events()`); the ones
that only read the picture already held (`nodes()`, `node()`, `png()`) are plain methods."""

from __future__ import annotations

import asyncio
import json
import time
from types import TracebackType
from typing import Any, AsyncIterator, Awaitable, Callable, Mapping, Sequence, TypeVar

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from .api import Api
from .core import Core, Message, motion
from .errors import ConnectionClosedError, HelloError, StackcastError, Timeout
from .model import Event
from .transport import (BUSY_RETRY_SECONDS, CONNECT_FAILURES, DEFAULT_URL, RECONNECT_SECONDS, RESTART_CODE, connect_error,
                        hello_fields, resume_target, websocket_options, with_session)
from .wire import TreeDisplay

T = TypeVar("T")


async def open_connection(url: str = DEFAULT_URL, *, timeout: float = 30, open_timeout: float = 10,
                          strict: bool = False, keep_snapshots: bool = False, v2: TreeDisplay | None = None,
                          **websocket: Any) -> Session:
    """Opens the WebSocket without saying `hello` (for programs that speak the protocol
    themselves through `send()` and `observe()`; `connect()` is the usual way in). `v2` is a
    tree held from an earlier connection, to resume with `lastSeq`. After a close with 1012 (the
    server restarting) it reconnects to `url` with the session's token, as `connect()`'s does."""
    try:
        ws = await ws_connect(url, open_timeout=open_timeout, **websocket_options(websocket))
    except CONNECT_FAILURES as error:
        raise connect_error(url, error, open_timeout) from None

    async def reconnect(token: str) -> ClientConnection:
        return await ws_connect(with_session(url, token), open_timeout=open_timeout, **websocket_options(websocket))

    return Session(ws, Core(strict=strict, keep_snapshots=keep_snapshots, v2=v2), timeout=timeout, reconnect=reconnect)


async def connect(url: str = DEFAULT_URL, app: str | None = "phone", width: float = 390, height: float = 844,
                  session: str | None = None, role: str = "control", protocol: int = 2, encoding: str = "binary", *,
                  scale: float | None = None, safe_area: Mapping[str, float] | None = None,
                  last_seq: int | None = None, timeout: float = 30, open_timeout: float = 10, strict: bool = False,
                  timelines: bool = False, window: int | None = None,
                  **websocket: Any) -> Session:
    """`stackcast.connect` for asyncio: the same arguments, the same errors, the same reconnection
    after a 1012."""
    url, session = resume_target(url, session)
    fields = hello_fields(app=app, width=width, height=height, scale=scale, safe_area=safe_area, session=session,
                          role=role, protocol=protocol, encoding=encoding, last_seq=last_seq,
                          timelines=timelines, window=window)
    client = await open_connection(url, timeout=timeout, open_timeout=open_timeout, strict=strict, **websocket)
    try:
        await client._hello(fields, wait_frame=last_seq is None)
    except BaseException:
        await client.close()
        raise
    return client


class Session(Api[Awaitable[Any], Awaitable[None]]):
    """`stackcast.Session` for asyncio. Use it as an async context manager, or `await close()`.

    Threads: the session belongs to the event loop that opened it; a reader task applies what
    arrives."""

    def __init__(self, ws: ClientConnection, core: Core, *, timeout: float = 30,
                 reconnect: Callable[[str], Awaitable[ClientConnection]] | None = None) -> None:
        self._ws = ws
        self._core = core
        self._reconnect = reconnect             # opens a new connection for a token, after a 1012
        self._closing = False
        self.timeout = timeout
        """How long a command waits for its answer, in seconds (each call may pass its own)."""
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    @property
    def websocket(self) -> ClientConnection:
        """The underlying `websockets` connection."""
        return self._ws

    def observe(self, observer: Callable[[Message, str | bytes, float], None]) -> None:
        """Calls `observer(message, raw, arrival time)` for every message read, after the core
        applied it (a binary frame comes as its JSON-equivalent dict)."""
        self._core.observers.append(observer)

    # MARK: - reading

    async def _read(self) -> None:
        busy_until = None
        while True:
            close = await self._pump()
            self._core.socket_closed(close.code if close else None, close.reason if close else "")
            await self._notify()
            busy = self._core.resume_busy
            if busy:
                # A resume answered `busy`: again in a moment, for as long as after a 1012.
                busy_until = busy_until or time.monotonic() + RECONNECT_SECONDS
                if time.monotonic() < busy_until and not self._closing:
                    await asyncio.sleep(BUSY_RETRY_SECONDS)
                    if await self._reopen():
                        continue
                self._core.resume_failed = busy
                break
            busy_until = None
            if not (close and close.code == RESTART_CODE and await self._reopen()):
                break
        if self._core.resume_failed:
            failed = self._core.resume_failed
            self._core.connection_closed(RESTART_CODE, f"the server restarted and the session could not be resumed: {failed}")
        else:
            self._core.connection_closed(close.code if close else None, close.reason if close else "")
        await self._notify()

    async def _pump(self) -> Any:
        """Reads until the connection ends; returns the close frame received, if any."""
        try:
            async for raw in self._ws:
                self._core.receive(raw, time.monotonic())
                if self._core.resume_failed or self._core.resume_busy:
                    await self._ws.close()
                    return None
                for text in self._core.take_outbox():
                    await self._ws.send(text)
                await self._notify()
        except ConnectionClosed:
            pass
        except Exception as error:  # noqa: BLE001 - reported to whoever waits next
            self._core._violate(f"the reader failed: {error!r}")
        return self._ws.protocol.close_rcvd

    async def _reopen(self) -> bool:
        """After a 1012: opens a new connection with the session's token and resumes on it,
        trying for up to RECONNECT_SECONDS; False when it could not (or the session was closed)."""
        token = self._core.welcome.session if self._core.welcome else None
        if self._reconnect is None or token is None:
            return False
        deadline = time.monotonic() + RECONNECT_SECONDS
        while not self._closing and time.monotonic() < deadline:
            try:
                ws = await self._reconnect(token)
                await ws.send(json.dumps(self._core.resume_hello()))
            except CONNECT_FAILURES:
                await asyncio.sleep(0.1)
                continue
            self._core.reopened()
            self._ws = ws
            await self._notify()
            return True
        return False

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _wait(self, ready: Callable[[], T | None], timeout: float | None, what: str) -> T:
        """Waits until `ready()` returns something, which is returned; raises `Timeout` after
        `timeout` seconds (None: no limit), `ConnectionClosedError` if the connection ends first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        async with self._changed:
            while True:
                value = ready()
                if value is not None:
                    return value
                self._core.check(what)
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise Timeout(f"{what} did not come within {timeout} s")
                try:
                    await asyncio.wait_for(self._changed.wait(), remaining)
                except asyncio.TimeoutError:
                    pass

    async def wait_change(self, unchanged: Callable[[], bool], timeout: float | None) -> None:
        """While `unchanged()` holds and the connection is open, waits for the next message to be
        read, at most `timeout` seconds (for programs that wait on their own conditions)."""
        async with self._changed:
            if unchanged() and not self._core.closed:
                try:
                    await asyncio.wait_for(self._changed.wait(), timeout)
                except asyncio.TimeoutError:
                    pass

    # MARK: - sending

    async def send(self, message: Mapping[str, Any] | str | bytes) -> None:
        """Sends one protocol message: a dict (as JSON), or text or bytes as they are."""
        await self._send_all([message if isinstance(message, (str, bytes)) else dict(message)])

    async def _send_all(self, messages: Sequence[Message | str | bytes]) -> None:
        self._core.check("sending")
        ws = self._ws
        try:
            for message in messages:
                await ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
        except ConnectionClosed as closed:
            if closed.rcvd and closed.rcvd.code == RESTART_CODE and self._reconnect is not None:
                # The reader is reconnecting: these go on the new connection once it is open.
                deadline = time.monotonic() + RECONNECT_SECONDS
                while self._ws is ws and not self._core.closed and time.monotonic() < deadline:
                    await self.wait_change(lambda: self._ws is ws, deadline - time.monotonic())
                if self._ws is not ws and not self._core.closed:
                    return await self._send_all(messages)
            raise ConnectionClosedError(closed.rcvd.code if closed.rcvd else None,
                                        closed.rcvd.reason if closed.rcvd else "", "sending") from None

    async def command(self, op: str, *, timeout: float | None = None, **fields: Any) -> Any:
        """Sends command `op` with `fields` and returns the result's value; raises
        `CommandError` (`.code`, `.message`) for an error answer."""
        command_id, message = self._core.command(op, fields)
        await self._send_all([message])

        def answered() -> tuple[Any] | None:
            done, value = self._core.answer(command_id)
            return (value,) if done else None

        return (await self._wait(answered, self.timeout if timeout is None else timeout, f"the answer to {op}"))[0]

    async def _hello(self, fields: Mapping[str, Any], wait_frame: bool) -> None:
        message = self._core.hello(**fields)
        frames = self._core.frames
        await self._send_all([message])
        answer = await self._wait(lambda: self._core.hello_answer, self.timeout, "the answer to hello")
        if isinstance(answer, HelloError):
            raise answer
        if wait_frame:
            await self._wait(lambda: True if self._core.frames > frames else None, self.timeout, "the first frame")

    # MARK: - waiting

    async def settle(self, timeout: float = 5, quiet: float = 0.2) -> None:
        """Waits until the session is at rest (as `stackcast.Session.settle`)."""
        deadline = time.monotonic() + timeout
        while True:
            await self._wait_quiet(quiet, deadline, timeout)
            moving = motion(await self.command("query", what="state", timeout=max(0.5, deadline - time.monotonic())))
            if moving is None:
                return
            if time.monotonic() >= deadline:
                raise Timeout(f"not at rest after {timeout} s: {moving} is still running")
            await asyncio.sleep(quiet / 2)

    async def _wait_quiet(self, quiet: float, deadline: float, timeout: float) -> None:
        start = time.monotonic()
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
            await asyncio.sleep(min(wait, deadline - now))

    async def events(self, timeout: float | None = None) -> AsyncIterator[Event]:
        """The events of the subscribed groups, as `stackcast.Session.events` (use `async for`)."""
        if not self._core.subscribed:
            raise StackcastError("events() needs a subscription: call subscribe() first (it picks the event groups)")
        events = self._core.events
        while True:
            try:
                yield await self._wait(lambda: events.popleft() if events else None, timeout, "an event")
            except (Timeout, ConnectionClosedError):
                return

    # MARK: - closing

    async def close(self) -> None:
        """Closes the connection (the session stays resumable on the server for its time to live)."""
        self._closing = True
        await self._ws.close()
        try:
            await asyncio.wait_for(self._reader, 10)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            pass

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: TracebackType | None) -> None:
        await self.close()
