"""Stackcast's Python client: drive and watch sessions of a Stackcast server over WebSockets.

    import stackcast
    with stackcast.connect("ws://127.0.0.1:8080/ws", app="stack") as s:
        s.push({"name": "Detail"})
        s.settle()
        print([n.name for n in s.nodes(role="page")])

`stackcast.connect` gives a blocking `Session`; `stackcast.aio.connect` the same as coroutines.
`stackcast.App` is an app whose logic is the program: a person drives it from the viewer.
Every error is a `StackcastError`: `ConnectError`, `HelloError`, `CommandError` (with `.code` and
`.message`), `ConnectionClosedError`, `Timeout`, `ProtocolError` (and its `WireError`).
"""

from . import aio, wire
from .app import App, viewer_link
from .core import EVENT_GROUPS
from .errors import (CommandError, ConnectError, ConnectionClosedError, HelloError, MissingExtraError, ProtocolError,
                     ServerError, StackcastError, Timeout, WireError)
from .model import Event, Node, Welcome
from .session import Session, connect

__version__ = "0.1.0"

__all__ = ["App", "EVENT_GROUPS", "CommandError", "ConnectError", "ConnectionClosedError", "Event", "HelloError",
           "MissingExtraError", "Node", "ProtocolError", "ServerError", "Session", "StackcastError", "Timeout", "Welcome", "WireError", "aio",
           "connect", "viewer_link", "wire"]
