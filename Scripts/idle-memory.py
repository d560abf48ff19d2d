#!/usr/bin/env python3
"""Resident memory per idle session, as the memory target counts it: a fresh `stackcast serve`,
then N connections (default 1,000), each saying hello for a new session of APP on the binary v2 wire
and taking its welcome and first frame, all kept open; the server's RSS before and after,
divided by N. Prints one JSON object. (`stackcast bench` measures sessions kept for a resume with
no viewer, `server.idle_session_kib`; freed memory stays resident, so that figure cannot come
from closing these connections.)

    Scripts/idle-memory.py BINARY [--sessions 1000] [--app phone] [--deflate] [--wire binary|json|v1] [--ack]

With --deflate the connections offer permessage-deflate as the `websockets` library does by default
(and as browsers do); without it they offer none. With --ack each connection acks its first frame,
as the viewer does once it has drawn one (an ack is a message the server inflates).

The server gets a log file of its own (a full stdout pipe would stop its service threads), the
peer limits it needs for N connections from one address, and a warm-up session before the
first reading, so that what every server allocates once is not counted per session.
"""

import argparse
import asyncio
import json
import re
import subprocess
import tempfile
import time

import websockets


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def start_server(binary, sessions, log):
    limit = str(max(64, sessions + 10))
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--web", "Web", "--max-connections-per-peer", limit,
         "--max-sessions-per-peer", limit, "--peer-messages-per-second", "1000000", "--peer-cpu-percent", "0", "--shed-below-fps", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with open(log.name) as text:
            found = re.search(r"127\.0\.0\.1:(\d+)", text.read())
        if found:
            return server, f"ws://127.0.0.1:{found.group(1)}/ws"
        time.sleep(0.05)
    server.kill()
    raise RuntimeError("the server did not start")


HELLOS = {
    "binary": {"protocol": 2, "encoding": "binary"},
    "json": {"protocol": 2, "encoding": "json"},
    "v1": {},
}


def frame_seq(frame):
    """The seq of a frame: a JSON one's `seq`, or the varint after a binary one's type byte."""
    if not isinstance(frame, bytes):
        return json.loads(frame)["seq"]
    seq, shift = 0, 0
    for byte in frame[1:]:
        seq |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return seq
    raise RuntimeError("a binary frame that ends inside its seq")


async def open_session(url, app, deflate, wire, ack=False):
    connection = await websockets.connect(
        url, subprotocols=["stackcast.v1"], compression="deflate" if deflate else None, ping_interval=None)
    await connection.send(json.dumps({"type": "hello", "app": app, **HELLOS[wire]}))
    welcome = json.loads(await connection.recv())
    if welcome.get("type") != "welcome":
        raise RuntimeError(f"expected welcome, got {welcome}")
    frame = await connection.recv()
    if isinstance(frame, bytes) != (wire == "binary"):
        raise RuntimeError(f"expected a {wire} frame after welcome")
    if ack:
        await connection.send(json.dumps({"type": "ack", "seq": frame_seq(frame)}))
    return connection


async def measure(binary, sessions, app, deflate, wire, ack):
    with tempfile.NamedTemporaryFile("w", suffix=".log") as log:
        server, url = start_server(binary, sessions, log)
        try:
            warm = await open_session(url, app, deflate, wire)
            await warm.close()
            await asyncio.sleep(0.5)
            before = resident_kib(server.pid)
            connections = []
            for _ in range(sessions):
                connections.append(await open_session(url, app, deflate, wire, ack))
            await asyncio.sleep(1.0)
            connected = resident_kib(server.pid)
            for connection in connections:
                await connection.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    return {
        "app": app, "sessions": sessions, "deflate": deflate, "wire": wire, "ack": ack, "rss_before_kib": before, "rss_connected_kib": connected,
        "connected_session_kib": round((connected - before) / sessions, 1),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--app", default="phone")
    parser.add_argument("--deflate", action="store_true", help="offer permessage-deflate, as websockets does by default")
    parser.add_argument("--wire", choices=sorted(HELLOS), default="binary", help="the frames the sessions ask for")
    parser.add_argument("--ack", action="store_true", help="ack the first frame, as a viewer does")
    arguments = parser.parse_args()
    if arguments.sessions < 1:
        parser.error("--sessions must be at least 1")
    print(json.dumps(asyncio.run(measure(arguments.binary, arguments.sessions, arguments.app, arguments.deflate, arguments.wire, arguments.ack))))


if __name__ == "__main__":
    main()
