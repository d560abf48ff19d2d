"""The methods `stackcast.Session` and `stackcast.aio.Session` share: one per command of
docs/protocol.md §5.1, the input messages and the gestures. Each builds its message here and
hands it to the transport's `command` or `_send_all`, which return the value (sync) or an
awaitable of it (asyncio): `Api[R, S]` is typed with what they return."""

from __future__ import annotations

import time
from typing import Any, Callable, Generic, Iterable, Mapping, Sequence, TypeVar

from . import gestures
from .core import EVENT_GROUPS, Core, Message
from .errors import MissingExtraError
from .model import Node, Welcome

Target = Mapping[str, Any] | None   # {"tab": N} or {"stack": id} (§5.2)
R = TypeVar("R")   # what a command returns: its value, or an awaitable of it
S = TypeVar("S")   # what sending input returns: None, or an awaitable of None
T = TypeVar("T")


def _fields(**fields: Any) -> dict[str, Any]:
    """The protocol fields that were given (None means: leave out)."""
    return {k: v for k, v in fields.items() if v is not None}


def _tab(tab: int | str | None, index: int | None, name: str | None) -> dict[str, Any]:
    if isinstance(tab, int) and not isinstance(tab, bool):
        index = tab
    elif isinstance(tab, str):
        name = tab
    return _fields(index=index, name=name)


class Api(Generic[R, S]):
    """Commands, input and gestures of a session. Every command raises `CommandError` (with the
    server's `code` and `message`) when the server refuses it; navigation commands return when
    the navigation has finished, transition included."""

    _core: Core

    # The transports define these three.
    def command(self, op: str, *, timeout: float | None = None, **fields: Any) -> R:
        raise NotImplementedError

    def send(self, message: Mapping[str, Any]) -> S:
        raise NotImplementedError

    def _send_all(self, messages: Sequence[Message]) -> S:
        raise NotImplementedError

    def _reading(self, read: Callable[[Core], T]) -> T:
        """`read(core)`, at a moment no frame is being applied (the sync reader thread applies
        frames under a lock; the asyncio reader in the same event loop)."""
        return read(self._core)

    @property
    def core(self) -> Core:
        """The protocol state: the picture models, the welcome, `violation`, `close_code`."""
        return self._core

    # MARK: - the picture (held locally: no I/O)

    @property
    def welcome(self) -> Welcome:
        """The server's `welcome` to this session's hello."""
        assert self._core.welcome is not None, "connect() returns sessions that have been welcomed"
        return self._core.welcome

    @property
    def closed(self) -> bool:
        """True once the connection has closed for good (the server closed it, or `close()`)."""
        return self._core.closed

    @property
    def token(self) -> str:
        """The session token (the control token for a controller): give it to `connect(session=)` to resume."""
        return self.welcome.session

    @property
    def watch_token(self) -> str | None:
        """The read-only token: `connect(session=watch_token)` watches."""
        return self.welcome.watch_token

    @property
    def seq(self) -> int | None:
        """The seq of the last frame applied."""
        return self._reading(lambda core: core.picture.seq)

    def nodes(self, role: str | None = None, name: str | None = None) -> list[Node]:
        """The picture's drawn nodes, back to front, filtered by `role` and/or `name`: the latest
        frame that has arrived (`settle()` first to see the result of what you did; with
        timelines, a picture that may be due later: `nodes_due()` gives the one due now)."""
        return self._reading(lambda core: core.nodes(role, name))

    def nodes_due(self, role: str | None = None, name: str | None = None) -> list[Node]:
        """The same of the picture due now. With `timelines=True` a motion's pictures arrive ahead
        of their time and `nodes()` shows the newest; this shows the one a viewer draws now, by
        the due times (docs/protocol.md §3.7). Without timelines, the same as `nodes()`."""
        return self._reading(lambda core: core.nodes_due(time.monotonic(), role, name))

    def node(self, role: str | None = None, name: str | None = None) -> Node:
        """The one node with that role and/or name; raises LookupError for none or several."""
        found = self.nodes(role, name)
        if len(found) != 1:
            what = " ".join(f"{k} {v!r}" for k, v in (("role", role), ("name", name)) if v is not None)
            raise LookupError(f"{len(found)} nodes with {what or 'any role and name'} in frame {self.seq}, "
                              "expected one")
        return found[0]

    def png(self, path: str, *, scale: float = 2) -> None:
        """Draws the picture (fills, borders, rounded corners, shadows, texts, icons, clips) into
        a PNG file at `path`, `scale` pixels per point: enough for a bug report. Needs Pillow
        (`pip install 'stackcast[png]'`)."""
        try:
            from .picture import draw   # Pillow is optional: imported only here
        except ModuleNotFoundError as missing:
            if missing.name != "PIL":
                raise
            raise MissingExtraError(
                "png() draws with Pillow, which is not installed: pip install 'stackcast[png]' "
                "(from a checkout: pip install './clients/python[png]')") from None
        viewport = self.welcome.viewport
        nodes = self._reading(lambda core: core.picture.flatten())
        draw(nodes, viewport.get("width", 390), viewport.get("height", 844), scale).save(path)

    # MARK: - commands (docs/protocol.md §5.1; `timeout` overrides the session's for one call)

    def set_root(self, root: Mapping[str, Any], *, timeout: float | None = None) -> R:
        """Replaces the whole app with ROOT (`{"kind":"stack"|"tabs"|"sideTabs"|"split", …}`)."""
        return self.command("setRoot", timeout=timeout, root=root)

    def push(self, screen: Mapping[str, Any] | str, *, transition: Any = None, target: Target = None,
             select: bool | None = None, timeout: float | None = None) -> R:
        """Pushes SCREEN (a dict, or just a name); the value is `{"vc": new id}`."""
        if isinstance(screen, str):
            screen = {"name": screen}
        return self.command("push", timeout=timeout,
                            **_fields(screen=screen, transition=transition, target=target, select=select))

    def pop(self, *, transition: Any = None, target: Target = None, select: bool | None = None,
            timeout: float | None = None) -> R:
        """Pops the top page (`invalid_state` at the root)."""
        return self.command("pop", timeout=timeout, **_fields(transition=transition, target=target, select=select))

    def pop_to_root(self, *, transition: Any = None, target: Target = None, select: bool | None = None,
                    timeout: float | None = None) -> R:
        """Pops every page above the root."""
        return self.command("popToRoot", timeout=timeout,
                            **_fields(transition=transition, target=target, select=select))

    def pop_to(self, name: str | None = None, *, vc: str | None = None, transition: Any = None,
               then: Mapping[str, Any] | None = None, target: Target = None, select: bool | None = None,
               timeout: float | None = None) -> R:
        """Pops to the first page named `name` (or with id `vc`); `then` pushes `{"screen":…}` after."""
        return self.command("popTo", timeout=timeout, **_fields(name=name, vc=vc, transition=transition, then=then,
                                                                target=target, select=select))

    def replace_top(self, screen: Mapping[str, Any], *, direction: str | None = None, transition: Any = None,
                    target: Target = None, select: bool | None = None, timeout: float | None = None) -> R:
        """Swaps the top page for SCREEN, moving like a push (`direction="push"`) or a pop."""
        return self.command("replaceTop", timeout=timeout, **_fields(
            screen=screen, direction=direction, transition=transition, target=target, select=select))

    def set_stack(self, screens: Sequence[Mapping[str, Any]], *, transition: Any = None, target: Target = None,
                  select: bool | None = None, timeout: float | None = None) -> R:
        """Makes the stack exactly `screens`, keeping the leading pages whose names match."""
        return self.command("setStack", timeout=timeout, **_fields(
            screens=list(screens), transition=transition, target=target, select=select))

    def select_tab(self, tab: int | str | None = None, *, index: int | None = None, name: str | None = None,
                   timeout: float | None = None) -> R:
        """Selects a tab by index (an int) or by id or title (a string)."""
        return self.command("selectTab", timeout=timeout, **_tab(tab, index, name))

    def set_badge(self, tab: int | str | None = None, badge: str | None = None, *, index: int | None = None,
                  name: str | None = None, badge_color: str | None = None, timeout: float | None = None) -> R:
        """Sets a tab's badge text (None removes it) and pill colour."""
        return self.command("setBadge", timeout=timeout, **_tab(tab, index, name),
                            **_fields(badge=badge, badgeColor=badge_color))

    def page(self, action: str, *, page: Mapping[str, Any] | None = None, name: str | None = None,
             direction: str | None = None, animated: bool | None = None, vc: str | None = None,
             timeout: float | None = None) -> R:
        """Changes a page stack (§5.5): `action` is push, pop, popTo, popToRoot, switch or newRoot."""
        return self.command("page", timeout=timeout, **_fields(
            action=action, page=page, name=name, direction=direction, animated=animated, vc=vc))

    def scroll_to(self, index: int | None = None, *, offset: float | None = None, animated: bool | None = None,
                  target: Target = None, timeout: float | None = None) -> R:
        """Scrolls a stacked split to page `index` or to `offset` points."""
        return self.command("scrollTo", timeout=timeout,
                            **_fields(index=index, offset=offset, animated=animated, target=target))

    def present(self, content: Mapping[str, Any] | str, *, style: str | None = None, animated: bool | None = None,
                detents: list[Any] | None = None, detent: Any = None, dismiss_on_mask_tap: bool | None = None,
                timeout: float | None = None) -> R:
        """Presents a container over the app (§5.8): a SCREEN (a dict, or just a name) in a stack of
        its own, or a ROOT such as `{"kind":"stack",…}`; `style` is sheet (default), fullScreen or
        panel, whose `detents` (`"medium"`, `"large"`, points, `{"fraction": 0.3}`), starting
        `detent` and `dismiss_on_mask_tap` say how it rests."""
        if isinstance(content, str):
            content = {"name": content}
        return self.command("present", timeout=timeout, **_fields(
            content=content, style=style, animated=animated, detents=detents, detent=detent, dismissOnMaskTap=dismiss_on_mask_tap))

    def dismiss(self, *, animated: bool | None = None, timeout: float | None = None) -> R:
        """Dismisses the topmost presentation."""
        return self.command("dismiss", timeout=timeout, **_fields(animated=animated))

    def update(self, *, vc: str | None = None, title: str | None = None, rows: list[Mapping[str, Any]] | None = None,
               sections: list[Mapping[str, Any]] | None = None, animated: bool | None = None,
               timeout: float | None = None) -> R:
        """Changes a page in place (§5.9): its `title`, its `rows` with edits such as
        `{"insert": {"title": "Tea"}, "at": 0}`, `{"delete": 2, "section": 1}`,
        `{"reload": ROW, "at": 1}`, `{"move": 3, "to": 0}`, and its `sections`' texts
        (`{"section": 0, "footer": "Total: 3"}`); the page `vc`, or the one on top."""
        return self.command("update", timeout=timeout, **_fields(vc=vc, title=title, rows=rows, sections=sections, animated=animated))

    def configure(self, *, busy_policy: str | None = None, slow_motion: float | None = None,
                  pop_gesture: Mapping[str, Any] | None = None, transition: Any = None,
                  timeout: float | None = None) -> R:
        """Changes session settings; the value shows all four."""
        return self.command("configure", timeout=timeout, **_fields(
            busyPolicy=busy_policy, slowMotion=slow_motion, popGesture=pop_gesture, transition=transition))

    def subscribe(self, events: Iterable[str] = EVENT_GROUPS, *, timeout: float | None = None) -> R:
        """Subscribes to event groups (all four by default; `[]` stops events); read them with `events()`."""
        return self.command("subscribe", timeout=timeout, events=list(events))

    def query_state(self, *, timeout: float | None = None) -> R:
        """The container tree: stacks, pages, their appearance and frames (§8)."""
        return self.command("query", timeout=timeout, what="state")

    # MARK: - input (docs/protocol.md §4)

    def resize(self, width: float, height: float, *, scale: float | None = None,
               safe_area: Mapping[str, float] | None = None) -> S:
        """Lays the session out for a new viewport."""
        return self.send(_fields(type="resize", width=width, height=height, scale=scale, safeArea=safe_area))

    def key(self, key: str) -> S:
        """Sends a key (`Escape` pops the visible stack)."""
        return self.send({"type": "key", "key": key})

    def scroll(self, x: float, y: float, *, dx: float = 0, dy: float = 0) -> S:
        """A mouse wheel or trackpad scroll at (x, y): `dy` > 0 moves a list's content up."""
        return self.send({"type": "scroll", "x": x, "y": y, "dx": dx, "dy": dy, "t": self._core.pointer_time})

    def drag(self, x0: float, y0: float, dx: float, dy: float, duration: float = 0.3) -> S:
        """Drags a finger from (x0, y0) by (dx, dy) over `duration` seconds, rests, and lifts: the
        outcome depends on where it ends (a pop completes past half the width). `settle()` waits
        for what follows."""
        return self._gesture(gestures.stroke(x0, y0, dx, dy, duration, self._core.pointer_time, hold=True))

    def fling(self, x0: float, y0: float, dx: float, dy: float, duration: float = 0.1) -> S:
        """Like `drag`, but the finger lifts while moving, at (dx, dy) / `duration` points per
        second: a fast fling completes a pop, a flick throws a list."""
        return self._gesture(gestures.stroke(x0, y0, dx, dy, duration, self._core.pointer_time, hold=False))

    def tap(self, x: float, y: float) -> S:
        """Taps at (x, y): a row runs its action, a back button pops, a tab is selected."""
        return self._gesture(gestures.tap(x, y, self._core.pointer_time))

    def edge_swipe_back(self, y: float | None = None, duration: float = 0.3) -> S:
        """Drags from the left edge across 60 % of the width and lifts: the interactive pop."""
        viewport = self.welcome.viewport
        width, height = viewport.get("width", 390), viewport.get("height", 844)
        return self.drag(2, height / 2 if y is None else y, width * 0.6, 0, duration)

    def _gesture(self, messages: list[Message]) -> S:
        self._core.gesture_sent(messages)
        return self._send_all(messages)
