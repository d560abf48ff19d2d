"""The exceptions the client raises. Every one is a `StackcastError`, so one `except` catches all."""

from __future__ import annotations

import builtins


class StackcastError(Exception):
    """Base class of everything this package raises."""


class ConnectError(StackcastError):
    """The server could not be reached, or refused the WebSocket handshake (bad URL, nothing
    listening, a refused origin or host, the server at its connection limit)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"cannot connect to {url}: {reason}")
        self.url = url
        self.reason = reason


class ServerError(StackcastError):
    """The server answered with an `error` message (docs/protocol.md §6)."""

    def __init__(self, code: str, message: str, text: str) -> None:
        super().__init__(text)
        self.code = code
        """The error code: `bad_message`, `not_found`, `invalid_state`, `busy`, …"""
        self.message = message
        """The server's own explanation."""


class HelloError(ServerError):
    """The server refused `hello`: an unknown app (`not_found`), an expired session token
    (`not_found`), a server at its session limit (`busy`), a bad viewport (`bad_message`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, f"hello refused ({code}): {message}")


class CommandError(ServerError):
    """A command was answered with an error. `code` and `message` are the server's; `op` is the
    command that failed."""

    def __init__(self, op: str, code: str, message: str) -> None:
        super().__init__(code, message, f"{op} failed ({code}): {message}")
        self.op = op


class ConnectionClosedError(StackcastError):
    """The connection ended while the client was waiting for something (or was used after it
    ended). `code` and `reason` are the close frame's (`None` when the connection dropped
    without one)."""

    def __init__(self, code: int | None, reason: str, waiting_for: str) -> None:
        said = f"code {code}: {reason}" if code is not None else "no close frame"
        super().__init__(f"the connection closed ({said}) while waiting for {waiting_for}")
        self.code = code
        self.reason = reason


class Timeout(StackcastError, builtins.TimeoutError):
    """Something did not happen within its time limit (an answer, the first frame, rest)."""


class ProtocolError(StackcastError):
    """The server sent something this client cannot read: not JSON, a message without a type,
    a frame that does not fit the picture the client holds."""


class WireError(ProtocolError, ValueError):
    """A frame this client cannot apply (docs/protocol.md §3.4, §3.6): the client must stop
    applying frames and ask for a full one. Nothing is changed by the frame that raised it."""


class MissingExtraError(StackcastError, ImportError):
    """A feature needs an optional dependency that is not installed; the message says which extra
    to install."""
