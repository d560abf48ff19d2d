#!/usr/bin/env python3
"""The cost of running behind HAProxy, measured on loopback (Scripts/bench runs it;
docs/performance.md describes it):

1. `stackcast load` (drag mode, binary wire) against one node directly and through HAProxy in
   front of it (`Scripts/cluster 1`): move -> frame p50 and bytes per frame, both ways.
2. Failover: `Scripts/cluster 3`, SESSIONS sessions through HAProxy with pages pushed, SIGKILL of
   the node holding most of them; each affected session then resumes through HAProxy (token in
   the URL) until it is served again (welcome and a full frame). Time from the kill to that, per
   session: p50 and p99.

Prints a table, then one JSON line. usage: Scripts/cluster-bench.py BINARY [--sessions N]"""

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import stackcast.aio

ROOT = Path(__file__).resolve().parents[1]
NODE_LINE = re.compile(r"cluster: node (s\d+) pid (\d+) port (\d+)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """`Scripts/cluster N` until `stop()`: its port and nodes (name -> (pid, port))."""

    def __init__(self, binary, nodes, folder):
        self.port = free_port()
        self.nodes = {}
        env = {**os.environ, "STACKCAST_BIN": str(binary), "PATH": os.environ.get("PATH", "") + ":/usr/sbin"}
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "Scripts/cluster"), str(nodes), "--port", str(self.port), "--dir", str(folder),
             "--app", "stack", "--no-restart", "--lift-peer-limits", "--shed-below-fps", "0"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        for line in self.process.stdout:
            match = NODE_LINE.search(line)
            if match:
                self.nodes[match.group(1)] = (int(match.group(2)), int(match.group(3)))
            if line.startswith("Open "):
                break
        else:
            raise SystemExit("cluster-bench: Scripts/cluster did not start")
        time.sleep(1.5)  # HAProxy's first health checks (rise 2, every 500 ms)

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        self.process.wait(30)


def load(binary, url, sessions, seconds):
    result = subprocess.run([str(binary), "load", "--url", url, "--sessions", str(sessions), "--seconds", str(seconds),
                             "--mode", "drag", "--json"], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def failover(cluster, sessions):
    url = f"ws://127.0.0.1:{cluster.port}/ws"
    clients = []
    for i in range(sessions):
        client = await stackcast.aio.connect(url, app="stack", protocol=1)
        for _ in range(1 + i % 3):
            await client.push(screen={"name": f"Page{i}"})
        clients.append(client)
    for client in clients:
        await client.settle()
    tokens = [client.token for client in clients]
    await asyncio.sleep(0.2)  # past the state folder's 50 ms flush
    counts = {name: sum(t.startswith(name + ".") for t in tokens) for name in cluster.nodes}
    victim = max(counts, key=counts.get)
    affected = [t for t in tokens if t.startswith(victim + ".")]
    killed_at = time.monotonic()
    os.kill(cluster.nodes[victim][0], signal.SIGKILL)

    async def served_again(token):
        while True:
            try:
                client = await stackcast.aio.connect(f"{url}?session={token}", app=None, protocol=1, timeout=10)
            except stackcast.StackcastError:
                await asyncio.sleep(0.02)
                continue
            served = time.monotonic() - killed_at
            await client.close()
            return served

    times = await asyncio.gather(*(served_again(t) for t in affected))
    for client in clients:
        await client.close()
    return victim, len(affected), times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--sessions", type=int, default=60)
    parser.add_argument("--load-sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    binary = Path(args.binary).resolve()
    with tempfile.TemporaryDirectory(prefix="stackcast-cluster-bench-") as folder:
        one = Cluster(binary, 1, Path(folder) / "one")
        try:
            direct = load(binary, f"ws://127.0.0.1:{one.nodes['s1'][1]}/ws", args.load_sessions, args.seconds)
            balanced = load(binary, f"ws://127.0.0.1:{one.port}/ws", args.load_sessions, args.seconds)
        finally:
            one.stop()
        three = Cluster(binary, 3, Path(folder) / "three")
        try:
            victim, affected, times = asyncio.run(failover(three, args.sessions))
        finally:
            three.stop()
    print(f"== behind HAProxy ({args.load_sessions} sessions dragging, binary wire, {args.seconds:g} s each)")
    print(f"  direct      move -> frame p50 {direct['latency_ms_p50']:.2f} ms, p99 {direct['latency_ms_p99']:.2f} ms; "
          f"bytes per frame median {direct['bytes_per_frame_median']}")
    print(f"  via HAProxy move -> frame p50 {balanced['latency_ms_p50']:.2f} ms, p99 {balanced['latency_ms_p99']:.2f} ms; "
          f"bytes per frame median {balanced['bytes_per_frame_median']}")
    print(f"== failover: SIGKILL of {victim}, {affected} of {args.sessions} sessions affected")
    print(f"  death -> served again p50 {percentile(times, 0.5) * 1000:.0f} ms, p99 {percentile(times, 0.99) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms")
    print(json.dumps({
        "direct_latency_ms_p50": direct["latency_ms_p50"], "haproxy_latency_ms_p50": balanced["latency_ms_p50"],
        "direct_bytes_per_frame": direct["bytes_per_frame_median"], "haproxy_bytes_per_frame": balanced["bytes_per_frame_median"],
        "failover_sessions": affected, "failover_ms_p50": round(percentile(times, 0.5) * 1000, 1),
        "failover_ms_p99": round(percentile(times, 0.99) * 1000, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
