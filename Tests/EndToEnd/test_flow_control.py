"""Flow control (docs/protocol.md §2, `window` and `ack`) against a real server: a watcher that
stops reading holds at most its window of frames, and catches up with one delta when it acks."""

import asyncio
import json

from websockets.asyncio.client import connect

from stackcast_client import SUBPROTOCOL, run

WINDOW = 4


async def _open(url, hello):
    ws = await connect(url, subprotocols=[SUBPROTOCOL], compression=None, ping_interval=None, max_size=None)
    await ws.send(json.dumps({"type": "hello", "app": "stack", "protocol": 2, **hello}))
    welcome = json.loads(await ws.recv())
    assert welcome["type"] == "welcome", welcome
    return ws, welcome


async def _drain(ws, quiet=0.3):
    """Every message that arrives until none has for `quiet` seconds, parsed."""
    out = []
    while True:
        try:
            out.append(json.loads(await asyncio.wait_for(ws.recv(), quiet)))
        except asyncio.TimeoutError:
            return out


def test_a_stalled_watcher_holds_its_window_then_catches_up_with_one_delta(server):
    async def body():
        controller, welcome = await _open(server.ws_url, {})
        watcher, watched = await _open(server.ws_url, {"session": welcome["watchToken"], "window": WINDOW})
        assert watched["window"] == WINDOW
        # The watcher reads nothing while the controller slides pages in and out.
        newest = 0
        for index in range(6):
            op = {"op": "push", "screen": {"name": f"P{index}"}} if index % 2 == 0 else {"op": "pop"}
            await controller.send(json.dumps({"type": "command", "id": f"c{index}", **op}))
            while True:
                message = json.loads(await controller.recv())
                if message["type"] == "frame":
                    newest = max(newest, message["seq"])
                if message.get("id") == f"c{index}":
                    break
        newest = max([newest] + [m["seq"] for m in await _drain(controller) if m["type"] == "frame"])
        assert newest > 60, "six slides make far more frames than the window"
        held = [m for m in await _drain(watcher) if m["type"] == "frame"]
        # The welcome's full frame and the next three: the window, and nothing more.
        assert len(held) == WINDOW
        assert held[0].get("full") is True
        assert all(later["base"] == earlier["seq"] for earlier, later in zip(held, held[1:]))
        # The ack opens the window: one delta from the frame held to the newest picture.
        await watcher.send(json.dumps({"type": "ack", "seq": held[-1]["seq"]}, separators=(",", ":")))
        caught_up = [m for m in await _drain(watcher) if m["type"] == "frame"]
        assert [(m["base"], m["seq"]) for m in caught_up] == [(held[-1]["seq"], newest)]
        await controller.close()
        await watcher.close()
    run(body())
