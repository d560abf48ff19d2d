"""Pointer gestures as `pointer` messages (docs/protocol.md §4). The server measures speed from
each message's `t` (the viewer's clock, ms), never from when messages arrive, so a gesture is a
list of messages sent back to back: one `move` per 16 ms of finger travel, as a 60 Hz viewer
sends them."""

from __future__ import annotations

from typing import Any

STEP_MS = 16.0
HOLD_MS = (60.0, 120.0)   # a finger at rest past the server's 100 ms velocity window
TAP_MS = 80.0

Message = dict[str, Any]


def _pointer(phase: str, x: float, y: float, t: float, pointer_id: int) -> Message:
    message: Message = {"type": "pointer", "phase": phase, "id": pointer_id, "x": x, "y": y, "t": t}
    if phase == "move":
        message["samples"] = [[x, y, t]]
    return message


def stroke(x0: float, y0: float, dx: float, dy: float, duration: float, t0: float, *,
           hold: bool, pointer_id: int = 1) -> list[Message]:
    """Down at (x0, y0), moves at an even speed to (x0 + dx, y0 + dy) over `duration` seconds,
    then up. With `hold` the finger rests there before lifting (release speed 0: a drag, decided by
    where it ends); without, it lifts moving (a fling, decided by its speed)."""
    if duration <= 0:
        raise ValueError(f"duration must be above 0 seconds, got {duration}")
    steps = max(2, round(duration * 1000 / STEP_MS))
    messages = [_pointer("down", x0, y0, t0, pointer_id)]
    t = t0
    for i in range(1, steps + 1):
        t = t0 + duration * 1000 * i / steps
        messages.append(_pointer("move", x0 + dx * i / steps, y0 + dy * i / steps, t, pointer_id))
    end_t = t
    if hold:
        for pause in HOLD_MS:
            t = end_t + pause
            messages.append(_pointer("move", x0 + dx, y0 + dy, t, pointer_id))
    messages.append(_pointer("up", x0 + dx, y0 + dy, t, pointer_id))
    return messages


def tap(x: float, y: float, t0: float, pointer_id: int = 1) -> list[Message]:
    """Down and up at (x, y), 80 ms apart: a tap (under 10 pt of travel, under 0.5 s)."""
    return [_pointer("down", x, y, t0, pointer_id), _pointer("up", x, y, t0 + TAP_MS, pointer_id)]


def span_ms(messages: list[Message]) -> float:
    """How long a gesture takes on the viewer clock."""
    return float(messages[-1]["t"] - messages[0]["t"])
