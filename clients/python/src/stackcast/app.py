"""Apps whose logic is a Python program (docs/protocol.md §2, role `app`): a person drives the
session from the viewer, the program hears what they do and changes the app in place.

    app = stackcast.App({"kind": "stack", "root": {"name": "Shop", "rows": [
        {"title": "Tea", "action": {"emit": "buy", "value": {"sku": "tea"}}}]}})

    @app.on("buy")
    def buy(event, session):
        session.update(title=f"Shop ({event.value['sku']})")

    app.serve("ws://127.0.0.1:8080/ws")   # prints the link a person opens
"""

from __future__ import annotations

from typing import Any, Callable, Mapping
from urllib.parse import urlsplit, urlunsplit

from .model import Event
from .session import Session, connect
from .transport import DEFAULT_URL

Handler = Callable[[Event, Session], None]


class App:
    """An app given as a ROOT (docs/protocol.md §5.2) whose rows and buttons emit actions, and the
    handlers that answer them. `serve` starts a session of it on a server, joins that session as
    its program, prints the link a person opens to use it, and runs a handler for each `action`
    event until the session ends (its last viewer gone for the session's time to live)."""

    def __init__(self, root: Mapping[str, Any], *, width: float = 390, height: float = 844):
        self.root = root
        self.width = width
        self.height = height
        self._handlers: dict[str, Handler] = {}

    def on(self, name: str) -> Callable[[Handler], Handler]:
        """Registers the decorated function for `action` events named `name`; it gets the event
        (its `value` is what the row gave) and the session, to send commands with."""
        def register(handler: Handler) -> Handler:
            self._handlers[name] = handler
            return handler
        return register

    def start(self, url: str = DEFAULT_URL) -> tuple[Session, str]:
        """Starts a session of the app and joins it as its program; returns that connection and
        the control token, which the person's viewer takes (`viewer_link`)."""
        with connect(url, app="stack", width=self.width, height=self.height) as starter:
            starter.set_root(self.root)
            token = starter.token
            program = connect(url, session=token, role="app")
        # The starter left; the session waits its time to live for the person.
        program.subscribe(["action"])
        return program, token

    def serve(self, url: str = DEFAULT_URL, *, ready: Callable[[str], None] = print) -> None:
        """Starts the app (`start`), tells `ready` the viewer link, and answers actions until the
        session ends. An action nobody registered is left alone."""
        program, token = self.start(url)
        ready(viewer_link(url, token))
        with program:
            self.answer(program)

    def answer(self, program: Session, *, timeout: float | None = None) -> None:
        """Runs the handlers for the `action` events `program` receives, until none comes for
        `timeout` seconds (None: until the connection closes)."""
        for event in program.events(timeout=timeout):
            handler = self._handlers.get(event.name) if event.group == "action" else None
            if handler:
                handler(event, program)


def viewer_link(url: str, token: str) -> str:
    """The viewer's address on the server of WebSocket `url`, driving the session of `token`."""
    parts = urlsplit(url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return urlunsplit((scheme, parts.netloc, "/", f"session={token}", ""))
