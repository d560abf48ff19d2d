"""What every delta must be before its parts are applied, on either protocol (docs/protocol.md §3.4)."""

from __future__ import annotations

from typing import Any

from ..errors import WireError


def check_base(frame: dict[str, Any], seq: int, held: int | None) -> None:
    """Raises `WireError` unless delta `seq` carries no `nodes` and names as its `base` the frame
    the client holds (`held`; None before any full frame): anything else means the client must
    ask for a full frame."""
    if "nodes" in frame:
        raise WireError(f"delta {seq} carries nodes")
    base = frame.get("base")
    if held is None:
        raise WireError(f"delta {seq} (base {base}) before any full frame")
    if base != held:
        raise WireError(f"delta {seq} has base {base}, but the last frame applied is {held}: wrong base")
