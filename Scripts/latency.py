#!/usr/bin/env python3
"""Move -> frame latency against the ping floor from an outside Python client (the `websockets`
package), as the latency target measures it: on one connection, during a drag, N pairs of a ping
and a pointer move, each waiting for its answer. Taken in turns, so that both medians see the same
machine: a busy moment slows a ping and the move after it alike. Prints one JSON object.

    Scripts/latency.py ws://127.0.0.1:PORT/ws [--samples 300] [--deflate] [--wire binary|json|v1]

By default the client offers no compression and asks for binary frames; --deflate offers
permessage-deflate as `websockets` does unless told not to, and --wire picks the frames.
"""

import argparse
import json
import statistics
import time

from websockets.sync.client import connect


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round((len(ordered) - 1) * p))]


HELLOS = {
    "binary": {"protocol": 2, "encoding": "binary"},
    "json": {"protocol": 2, "encoding": "json"},
    "v1": {},
}


def is_frame(message):
    """A frame: a binary message, or a text one of type frame."""
    return isinstance(message, bytes) or message.startswith('{"type":"frame"')


def next_frame(ws):
    """Reads until a frame arrives."""
    while True:
        message = ws.recv(timeout=5)
        if is_frame(message):
            return message


class Pace:
    """Keeps to the server's 200 messages a second per connection (bursts of 400): one message
    every 7 ms at most, so that none is dropped and every move makes its frame."""

    def __init__(self, interval=0.007):
        self.interval = interval
        self.last = 0.0

    def wait(self):
        delay = self.last + self.interval - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        self.last = time.perf_counter()


def drain(ws, quiet=0.2):
    """Reads whatever arrives until nothing has for `quiet` seconds (frames still settling)."""
    while True:
        try:
            ws.recv(timeout=quiet)
        except TimeoutError:
            return


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--deflate", action="store_true", help="offer permessage-deflate, as websockets does by default")
    parser.add_argument("--wire", choices=sorted(HELLOS), default="binary")
    args = parser.parse_args()
    compression = "deflate" if args.deflate else None
    with connect(args.url, subprotocols=["stackcast.v1"], compression=compression, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "app": "stack", **HELLOS[args.wire]}))
        next_frame(ws)
        pace = Pace()
        ws.send(json.dumps({"type": "command", "id": "p", "op": "push", "screen": {"name": "Drag"}}))
        while True:
            message = ws.recv(timeout=5)
            if isinstance(message, str) and '"id":"p"' in message:
                break
        drain(ws)
        # Past the pan's 10 pt slop the drag starts; from then on every move moves the page.
        ws.send(json.dumps({"type": "pointer", "phase": "down", "id": 1, "x": 20, "y": 400, "t": 1000}))
        x, t = 40, 1016
        ws.send(json.dumps({"type": "pointer", "phase": "move", "id": 1, "x": x, "y": 400, "t": t}))
        drain(ws)
        pings, moves = [], []
        for index in range(args.samples):
            pace.wait()
            start = time.perf_counter()
            ws.send(json.dumps({"type": "ping", "id": index, "t": 0}))
            while True:
                message = ws.recv(timeout=5)
                if isinstance(message, str) and '"pong"' in message:
                    break
            pings.append((time.perf_counter() - start) * 1e6)
            x = 40 if x >= 300 else x + 2
            t += 16
            pace.wait()
            start = time.perf_counter()
            ws.send(json.dumps({"type": "pointer", "phase": "move", "id": 1, "x": x, "y": 400, "t": t}))
            next_frame(ws)
            moves.append((time.perf_counter() - start) * 1e6)
        ws.send(json.dumps({"type": "pointer", "phase": "cancel", "id": 1, "x": x, "y": 400, "t": t}))
    ping, move = statistics.median(pings), statistics.median(moves)
    print(json.dumps({
        "client": "python-websockets", "deflate": args.deflate, "wire": args.wire,
        "ping_rtt_median_us": round(ping, 1), "ping_rtt_p99_us": round(percentile(pings, 0.99), 1),
        "pointer_to_frame_median_us": round(move, 1), "pointer_to_frame_p99_us": round(percentile(moves, 0.99), 1),
        "pointer_to_frame_vs_ping_median": round(move / ping, 2),
    }))


if __name__ == "__main__":
    main()
