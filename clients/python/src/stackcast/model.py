"""Typed views of what the server sends: a drawn `Node`, an `Event`, the `Welcome`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Node:
    """One drawn item of the picture, with its absolute frame (docs/protocol.md §3.1). Optional
    fields are None when the node does not have them; `fields` holds every field as sent."""

    id: int
    kind: str
    """`rect`, `text` or `icon`."""
    frame: tuple[float, float, float, float]
    """`(x, y, width, height)` in points, from the viewport's top-left corner."""
    alpha: float
    role: str | None
    name: str | None
    text: str | None
    vc: str | None
    fill: str | None
    color: str | None
    icon: str | None
    clip: tuple[float, float, float, float] | None
    fields: Mapping[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_dict(node: Mapping[str, Any]) -> Node:
        """A Node from one v1 NODE (or one node of a flattened v2 tree)."""
        clip = node.get("clip")
        return Node(id=node["id"], kind=node["kind"], frame=tuple(node["frame"]),
                    alpha=node.get("alpha", 1), role=node.get("role"), name=node.get("name"),
                    text=node.get("text"), vc=node.get("vc"), fill=node.get("fill"), color=node.get("color"),
                    icon=node.get("icon"), clip=tuple(clip) if clip else None,
                    fields=dict(node))

    @property
    def center(self) -> tuple[float, float]:
        """The middle of the frame: where a tap on this node lands."""
        x, y, w, h = self.frame
        return x + w / 2, y + h / 2


@dataclass(frozen=True)
class Event:
    """One event after `subscribe` (docs/protocol.md §7): `viewWillAppear`, `transitionEnd`, …"""

    name: str
    time: float
    """The session clock, in ms."""
    screen: str | None
    vc: str | None
    fields: Mapping[str, Any] = field(repr=False, compare=False)
    """Every field as sent (`animated`, `op`, `interactive`, `cancelled`, `gesture`, …)."""

    @property
    def group(self) -> str | None:
        """`action` for a tap on a row that emits (its `name` is what the row emits); else None."""
        return self.fields.get("group")

    @property
    def value(self) -> Any:
        """An action's value, as the row's `emit` gave it (None when it gave none)."""
        return self.fields.get("value")

    @staticmethod
    def from_dict(message: Mapping[str, Any]) -> Event:
        return Event(name=message["name"], time=message.get("time", 0), screen=message.get("screen"),
                     vc=message.get("vc"), fields=dict(message))


@dataclass(frozen=True)
class Welcome:
    """The server's answer to `hello` (docs/protocol.md §2)."""

    session: str
    """The token this connection joined with: the control token for a controller."""
    watch_token: str | None
    """The session's read-only token: give it to others to watch."""
    role: str
    app: str
    protocol: int
    encoding: str
    viewport: Mapping[str, Any]
    fps: int
    resumed: bool
    migrated: bool
    """True when a resume was rebuilt on another server, its own having gone (protocol §2)."""
    fields: Mapping[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_dict(message: Mapping[str, Any]) -> Welcome:
        return Welcome(session=message["session"], watch_token=message.get("watchToken"),
                       role=message.get("role", "control"), app=message.get("app", ""),
                       protocol=message.get("protocol", 1), encoding=message.get("encoding", "json"),
                       viewport=message.get("viewport", {}), fps=message.get("fps", 60),
                       resumed=message.get("resumed", False),
                       migrated=message.get("migrated", False), fields=dict(message))
