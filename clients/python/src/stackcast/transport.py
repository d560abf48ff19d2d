"""What the sync and asyncio transports share: the options they open a WebSocket with, the hello
they say, and how a failed connection attempt reads as a `ConnectError` or `Timeout`."""

from __future__ import annotations

import re
import ssl
from typing import Any, Mapping
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from .core import SUBPROTOCOL
from .errors import ConnectError, StackcastError, Timeout

DEFAULT_URL = "ws://127.0.0.1:8080/ws"
RESTART_CODE = 1012
"""The close code of a server restarting (draining): the client reconnects at once with its token."""
RECONNECT_SECONDS = 30.0
"""How long a client keeps trying to reconnect after a 1012 before it reports the connection closed."""
BUSY_RETRY_SECONDS = 0.5
"""How long a client waits before it resumes again when a resume was answered `busy`."""


def session_in_url(url: str) -> str | None:
    """The `session` argument of `url` (`ws://host/ws?session=TOKEN`), if it has one."""
    return dict(parse_qsl(urlsplit(url).query)).get("session")


def with_session(url: str, token: str) -> str:
    """`url` with `session=token` in its query (replacing one there): how a resume shows its token
    to a load balancer, which never sees the hello."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "session"] + [("session", token)]
    return urlunsplit(parts._replace(query=urlencode(query)))


def resume_target(url: str, session: str | None) -> tuple[str, str | None]:
    """The URL to open and the token to resume for `connect(url, session=…)`: a token may come in
    either, and both must then agree; a resume carries its token in the URL too."""
    in_url = session_in_url(url)
    if in_url is not None and session is not None and in_url != session:
        raise ValueError("the session token in the URL differs from session=; give the same token, or one of them")
    token = session if session is not None else in_url
    return (with_session(url, token) if token else url), token


def websocket_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The `websockets` connect options: our subprotocol, no size limit on what the server sends
    (it bounds its own replies), no proxy; the caller's options win."""
    return {"subprotocols": [SUBPROTOCOL], "max_size": None, "proxy": None, **options}


TIMELINES_WINDOW = 16
"""The flow-control window a session that asks for timelines asks for unless told otherwise: the
browser viewer's."""


def hello_fields(*, app: str | None, width: float, height: float, scale: float | None,
                 safe_area: Mapping[str, float] | None, session: str | None, role: str, protocol: int,
                 encoding: str, last_seq: int | None, timelines: bool = False,
                 window: int | None = None) -> dict[str, Any]:
    """The fields of `hello` (docs/protocol.md §2); `encoding` is v2's only. A binary v2 hello asks
    for the feature `templates` (§3.6: a page pushed again is written like the one popped, in
    about half the bytes); the client decodes frames with or without it, as the welcome says, so
    a server that does not grant it costs nothing. `timelines` asks for the feature `timelines`
    (§3.7, protocol 2 only) and then flow control as the browser viewer does (`window` 16, unless
    `window` says otherwise); `window` asks for flow control (§2 `ack`; 0 or None: none)."""
    if protocol not in (1, 2):
        raise ValueError(f"protocol must be 1 or 2, got {protocol!r}")
    if encoding not in ("json", "binary"):
        raise ValueError(f"encoding must be 'json' or 'binary', got {encoding!r}")
    if timelines and protocol != 2:
        raise ValueError("timelines need protocol 2 (JSON or binary)")
    if window is not None and not (isinstance(window, int) and 0 <= window <= 1024):
        raise ValueError(f"window must be from 1 to 1024 frames (0 or None: no flow control), got {window!r}")
    if window is None and timelines:
        window = TIMELINES_WINDOW
    viewport: dict[str, Any] = {"width": width, "height": height}
    if scale is not None:
        viewport["scale"] = scale
    if safe_area is not None:
        viewport["safeArea"] = dict(safe_area)
    binary = protocol == 2 and encoding == "binary"
    features = (["templates"] if binary else []) + (["timelines"] if timelines else [])
    return {"app": app, "viewport": viewport, "session": session, "role": role, "protocol": protocol,
            "encoding": encoding if protocol == 2 else None, "lastSeq": last_seq,
            "features": features or None, "window": window or None}


def connect_error(url: str, error: BaseException, open_timeout: float | None) -> StackcastError:
    """A readable error for a WebSocket that could not be opened."""
    if isinstance(error, InvalidURI):
        return ConnectError(url, "not a WebSocket URL (expected ws://HOST:PORT/ws or wss://…)")
    if isinstance(error, InvalidStatus):
        response = error.response
        body = (response.body or b"").decode("utf-8", "replace").strip()
        return ConnectError(url, f"the server refused the WebSocket handshake: HTTP {response.status_code}"
                                 + (f" ({body})" if body else ""))
    if isinstance(error, (TimeoutError, ssl.SSLError)) and not isinstance(error, ConnectionError):
        if isinstance(error, ssl.SSLError):
            return ConnectError(url, f"TLS failed: {error}")
        return Timeout(f"cannot connect to {url}: no WebSocket handshake within {open_timeout} s")
    if isinstance(error, ConnectionRefusedError):
        return ConnectError(url, "nothing is listening there (connection refused); is `stackcast serve` running?")
    if isinstance(error, InvalidHandshake):
        # libwebsockets refuses upgrades with an HTTP/1.0 status line, which `websockets` does not
        # parse; the status is in the parse error it keeps as the cause.
        status = re.search(r"HTTP/1\.\d (\d{3})([^\r\n]*)", str(error.__cause__ or ""))
        if status:
            return ConnectError(url, f"the server refused the WebSocket handshake: HTTP {status.group(1)}{status.group(2)}")
        return ConnectError(url, f"the WebSocket handshake failed: {error}")
    if isinstance(error, ConnectionClosed):
        return ConnectError(url, "the connection closed during the WebSocket handshake (is the server restarting?)")
    if isinstance(error, OSError):
        return ConnectError(url, error.strerror or str(error))
    return ConnectError(url, str(error))


CONNECT_FAILURES = (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed)
"""What opening a WebSocket may raise when it fails; `ConnectionClosed` is a connection reset
while the handshake is sent, as a server that is restarting does."""
