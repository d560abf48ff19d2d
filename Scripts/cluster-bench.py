#!/usr/bin/env python3
"""The cost of running behind HAProxy, measured on loopback (Scripts/bench runs it;
docs/performance.md describes it):

1. `stackcast load` (drag mode, binary wire) against one node directly and through HAProxy in
   front of it (`Scripts/cluster 1`): move -> frame p50 and bytes per frame, both ways.
2. Failover: `Scripts/cluster 3`, SESSIONS sessions through HAProxy with pages pushed, SIGKILL of
   the node holding most of them; each affected session then resumes through HAProxy (token in
   the URL) until it is served again (welcome and a full frame). Time from the kill to that, per
   session: p50 and p99.
3. Failover in Redis: `Scripts/cluster 3 --redis`, REDIS_SESSIONS sessions through HAProxy, a third
   of them dragging (`stackcast load --mode drag`), the rest at rest with pages pushed. SIGKILL of
   the node holding most of the resting ones, each of which then resumes until it is served again
   (time from the kill to its welcome, p50 and p99; and whether its state reply is then the one it
   had); meanwhile the dragging sessions' frame
   intervals (p99, the dead node's lost sessions included until they died); Redis's script calls
   and bytes received per input the load sent; and a session's stored bytes (Redis's MEMORY
   USAGE of its keys) at the start, before the kill, at the end, and after 3 s at rest (its
   checkpoint; the dead node's sessions left out).

Prints a table, then one JSON line. usage: Scripts/cluster-bench.py BINARY [--sessions N]
[--redis-sessions N]"""

import argparse
import asyncio
import hashlib
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
REDIS_LINE = re.compile(r"cluster: redis pid (\d+) port (\d+)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """`Scripts/cluster N` until `stop()`: its port, nodes (name -> (pid, port)) and Redis's port."""

    def __init__(self, binary, nodes, folder, *extra):
        env = {**os.environ, "STACKCAST_BIN": str(binary), "PATH": os.environ.get("PATH", "") + ":/usr/sbin"}
        # A port found free can be taken before HAProxy binds it (free ports and the ports of
        # outgoing connections come from one range); then HAProxy cannot start, Scripts/cluster
        # says so and exits, and the cluster is started again on another port.
        for attempt in range(3):
            self.port = free_port()
            self.nodes = {}
            self.redis_port = None
            self.process = subprocess.Popen(
                [sys.executable, str(ROOT / "Scripts/cluster"), str(nodes), "--port", str(self.port), "--dir", str(folder),
                 "--app", "stack", "--no-restart", "--lift-peer-limits", "--shed-below-fps", "0", *extra],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
            for line in self.process.stdout:
                match = NODE_LINE.search(line)
                if match:
                    self.nodes[match.group(1)] = (int(match.group(2)), int(match.group(3)))
                match = REDIS_LINE.search(line)
                if match:
                    self.redis_port = int(match.group(2))
                if line.startswith("Open "):
                    break
            else:
                self.process.wait(30)
                if attempt < 2:
                    continue
                raise SystemExit("cluster-bench: Scripts/cluster did not start")
            break
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


async def resting_sessions(url, count):
    """`count` sessions through the balancer, one to three pages pushed in each, at rest."""
    clients = []
    for i in range(count):
        client = await stackcast.aio.connect(url, app="stack", protocol=1)
        for _ in range(1 + i % 3):
            await client.push(screen={"name": f"Page{i}"})
        clients.append(client)
    for client in clients:
        await client.settle()
    return clients


def victim_of(cluster, tokens):
    """The node holding most of `tokens`' sessions."""
    counts = {name: sum(t.startswith(name + ".") for t in tokens) for name in cluster.nodes}
    return max(counts, key=counts.get)


async def served_again(url, token, killed_at, state=None):
    """Resumes `token` through the balancer until a node serves it: the seconds from the kill to
    its welcome, and whether its state reply is then `state` (None when not given)."""
    while True:
        try:
            client = await stackcast.aio.connect(f"{url}?session={token}", app=None, protocol=1, timeout=10)
        except stackcast.StackcastError:
            await asyncio.sleep(0.02)
            continue
        served = time.monotonic() - killed_at
        same = None if state is None else await client.query_state() == state
        await client.close()
        return served, same


async def failover(cluster, sessions):
    url = f"ws://127.0.0.1:{cluster.port}/ws"
    clients = await resting_sessions(url, sessions)
    tokens = [client.token for client in clients]
    await asyncio.sleep(0.2)  # past the state folder's 50 ms flush
    victim = victim_of(cluster, tokens)
    affected = [t for t in tokens if t.startswith(victim + ".")]
    killed_at = time.monotonic()
    os.kill(cluster.nodes[victim][0], signal.SIGKILL)
    outcomes = await asyncio.gather(*(served_again(url, t, killed_at) for t in affected))
    for client in clients:
        await client.close()
    return victim, len(affected), [served for served, _ in outcomes]


def redis(port, *args):
    """One command to Redis on loopback (RESP by hand: the bench needs no Redis package)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        request = f"*{len(args)}\r\n" + "".join(f"${len(str(a).encode())}\r\n{a}\r\n" for a in args)
        connection.sendall(request.encode())
        reader = connection.makefile("rb")

        def read():
            line = reader.readline().rstrip(b"\r\n")
            kind, rest = line[:1], line[1:]
            if kind in (b"+", b"-"):
                return rest.decode()
            if kind == b":":
                return int(rest)
            if kind == b"$":
                return None if int(rest) < 0 else reader.read(int(rest) + 2)[:-2].decode()
            if kind == b"*":
                return [read() for _ in range(int(rest))]
            raise SystemExit(f"cluster-bench: Redis answered {line!r}")
        return read()


def redis_counts(port):
    """Redis's script calls and bytes received so far."""
    stats = redis(port, "INFO", "all")
    calls = sum(int(m.group(1)) for m in re.finditer(r"cmdstat_(?:evalsha|eval):calls=(\d+)", stats))
    received = int(re.search(r"total_net_input_bytes:(\d+)", stats).group(1))
    return calls, received


def stored_bytes(port, keys):
    """Mean of what each session's keys take in Redis (MEMORY USAGE of its hash and input)."""
    sizes = [sum(redis(port, "MEMORY", "USAGE", f"stackcast:{kind}:{key}", "SAMPLES", "0") or 0 for kind in ("session", "input"))
             for key in keys]
    return round(sum(sizes) / max(len(sizes), 1))


def state_key(token):
    return hashlib.sha1(token.encode()).hexdigest()


async def redis_failover(cluster, binary, sessions, seconds):
    url = f"ws://127.0.0.1:{cluster.port}/ws"
    clients = await resting_sessions(url, sessions - sessions // 3)
    states = [await client.query_state() for client in clients]
    tokens = [client.token for client in clients]
    await asyncio.sleep(0.2)  # past the store's 50 ms round
    start_bytes = stored_bytes(cluster.redis_port, [state_key(t) for t in tokens])
    calls_before, received_before = redis_counts(cluster.redis_port)
    load = subprocess.Popen([str(binary), "load", "--url", url, "--sessions", str(sessions // 3), "--seconds", str(seconds),
                             "--mode", "drag", "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    # Into the load's measured window (its sessions connect first), then the kill in its middle.
    await asyncio.sleep(3 + seconds / 2)
    all_keys = [key.split(":")[-1] for key in redis(cluster.redis_port, "KEYS", "stackcast:session:*")]
    dragging_keys = sorted(set(all_keys) - {state_key(t) for t in tokens})
    before_kill = stored_bytes(cluster.redis_port, dragging_keys)
    victim = victim_of(cluster, tokens)
    affected = [(t, s) for t, s in zip(tokens, states) if t.startswith(victim + ".")]
    killed_at = time.monotonic()
    os.kill(cluster.nodes[victim][0], signal.SIGKILL)
    outcomes = await asyncio.gather(*(served_again(url, t, killed_at, s) for t, s in affected))
    out, _ = await asyncio.to_thread(load.communicate, timeout=seconds + 120)
    report = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
    calls_after, received_after = redis_counts(cluster.redis_port)
    end_bytes = stored_bytes(cluster.redis_port, [k for k in dragging_keys if redis(cluster.redis_port, "EXISTS", f"stackcast:session:{k}")])
    # At rest a second, each live node's sessions are checkpointed: what is stored stops growing.
    # The dead node's sessions wait, whole, for a resume nobody sends here.
    await asyncio.sleep(3)
    alive = [k for k in dragging_keys if not (redis(cluster.redis_port, "HGET", f"stackcast:session:{k}", "owner") or victim).startswith(victim + "-")]
    rested_bytes = stored_bytes(cluster.redis_port, alive)
    for client in clients:
        await client.close()
    inputs = max(report["inputs_sent"] + report["commands_sent"], 1)
    return {
        "victim": victim, "sessions": sessions, "affected": len(affected),
        "times": [t for t, _ in outcomes], "identical": sum(same for _, same in outcomes),
        "frame_interval_ms_p99": report["frame_interval_ms_p99"], "frame_interval_ms_max": report["frame_interval_ms_max"],
        "load_sessions_lost": report["sessions_lost"],
        "calls_per_input": round((calls_after - calls_before) / inputs, 3),
        "bytes_per_input": round((received_after - received_before) / inputs),
        "stored_bytes_resting": start_bytes, "stored_bytes_dragging_before_kill": before_kill,
        "stored_bytes_dragging_end": end_bytes, "stored_bytes_rested": rested_bytes, "seconds": seconds,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--sessions", type=int, default=60)
    parser.add_argument("--load-sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--redis-sessions", type=int, default=300)
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
        in_redis = Cluster(binary, 3, Path(folder) / "redis", "--redis")
        try:
            moved = asyncio.run(redis_failover(in_redis, binary, args.redis_sessions, max(args.seconds, 6)))
        finally:
            in_redis.stop()
    print(f"== behind HAProxy ({args.load_sessions} sessions dragging, binary wire, {args.seconds:g} s each)")
    print(f"  direct      move -> frame p50 {direct['latency_ms_p50']:.2f} ms, p99 {direct['latency_ms_p99']:.2f} ms; "
          f"bytes per frame median {direct['bytes_per_frame_median']}")
    print(f"  via HAProxy move -> frame p50 {balanced['latency_ms_p50']:.2f} ms, p99 {balanced['latency_ms_p99']:.2f} ms; "
          f"bytes per frame median {balanced['bytes_per_frame_median']}")
    print(f"== failover: SIGKILL of {victim}, {affected} of {args.sessions} sessions affected")
    print(f"  death -> served again p50 {percentile(times, 0.5) * 1000:.0f} ms, p99 {percentile(times, 0.99) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms")
    redis_times = moved["times"]
    print(f"== failover in Redis: {moved['sessions']} sessions, a third dragging; SIGKILL of {moved['victim']}, "
          f"{moved['affected']} resting sessions affected, {moved['identical']} with the identical state")
    print(f"  death -> served again p50 {percentile(redis_times, 0.5) * 1000:.0f} ms, "
          f"p99 {percentile(redis_times, 0.99) * 1000:.0f} ms, max {max(redis_times) * 1000:.0f} ms")
    print(f"  dragging sessions' frame interval p99 {moved['frame_interval_ms_p99']} ms, max {moved['frame_interval_ms_max']} ms "
          f"({moved['load_sessions_lost']} lost with the node)")
    print(f"  Redis per input: {moved['calls_per_input']} script calls, {moved['bytes_per_input']} bytes received")
    print(f"  stored per session: resting {moved['stored_bytes_resting']} B; dragging {moved['stored_bytes_dragging_before_kill']} B "
          f"after {3 + moved['seconds'] / 2:g} s, {moved['stored_bytes_dragging_end']} B after {3 + moved['seconds']:g} s, "
          f"{moved['stored_bytes_rested']} B after 3 s at rest")
    print(json.dumps({
        "direct_latency_ms_p50": direct["latency_ms_p50"], "haproxy_latency_ms_p50": balanced["latency_ms_p50"],
        "direct_bytes_per_frame": direct["bytes_per_frame_median"], "haproxy_bytes_per_frame": balanced["bytes_per_frame_median"],
        "failover_sessions": affected, "failover_ms_p50": round(percentile(times, 0.5) * 1000, 1),
        "failover_ms_p99": round(percentile(times, 0.99) * 1000, 1),
        "redis_failover_sessions": moved["affected"], "redis_failover_identical": moved["identical"],
        "redis_failover_ms_p50": round(percentile(redis_times, 0.5) * 1000, 1),
        "redis_failover_ms_p99": round(percentile(redis_times, 0.99) * 1000, 1),
        "redis_others_frame_interval_ms_p99": moved["frame_interval_ms_p99"],
        "redis_calls_per_input": moved["calls_per_input"], "redis_bytes_per_input": moved["bytes_per_input"],
        "redis_stored_bytes_resting": moved["stored_bytes_resting"],
        "redis_stored_bytes_dragging": moved["stored_bytes_dragging_end"],
        "redis_stored_bytes_rested": moved["stored_bytes_rested"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
