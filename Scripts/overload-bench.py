#!/usr/bin/env python3
"""Past capacity, measured (Scripts/bench runs it; docs/performance.md describes it).

A server with one service thread, so that `stackcast load` has the machine's other core: first
the drag sessions it holds at full rate (the largest count whose frames per second p50 stays
within 5 % of 10 sessions', found by doubling, then halving the gap twice), then twice that many,
every session dragging. Load shedding is off (`--shed-below-fps 0`): the run shows what the
sessions a server holds get when they all move at once, not who would be turned away. Each run
is 5 s against a fresh server.

Prints one line per run, then one JSON line: the capacity found and, for the run at twice it,
input -> frame p50/p99, frames per second p5/p50/min, their ratio p5/p50, and the sessions lost.
usage: Scripts/overload-bench.py BINARY [--seconds S]"""

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVING = re.compile(r"Stackcast serving https?://127\.0\.0\.1:(\d+)/")
SERVER_ARGS = ["--threads", "1", "--grace", "0", "--max-sessions", "20000", "--max-connections", "20000",
               "--max-connections-per-peer", "20000", "--max-sessions-per-peer", "20000",
               "--peer-messages-per-second", "100000000", "--peer-cpu-percent", "0", "--shed-below-fps", "0"]
# Within this share of the unloaded rate, a run counts as held at full rate.
FULL_RATE = 0.95


def run(binary, sessions, seconds):
    """`stackcast load --mode drag` with `sessions` against a fresh one-thread server: its JSON."""
    server = subprocess.Popen([str(binary), "serve", "--port", "0", "--web", str(ROOT / "Web"), *SERVER_ARGS],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = None
        deadline = time.monotonic() + 20
        while port is None and time.monotonic() < deadline:
            line = server.stdout.readline()
            if not line:
                break
            match = SERVING.search(line)
            port = match and match.group(1)
        if port is None:
            raise SystemExit("overload-bench: the server did not start")
        load = subprocess.run([str(binary), "load", "--url", f"ws://127.0.0.1:{port}/ws", "--sessions", str(sessions),
                               "--seconds", str(seconds), "--mode", "drag", "--json"],
                              capture_output=True, text=True, timeout=seconds + 120)
        lines = [line for line in load.stdout.splitlines() if line.startswith("{")]
        if not lines:
            raise SystemExit(f"overload-bench: stackcast load printed no JSON (exit {load.returncode}):\n{load.stderr[-2000:]}")
        report = json.loads(lines[-1])
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"{sessions:>6} sessions: fps p50 {report.get('fps_p50')} p5 {report.get('fps_p5')}, "
          f"input -> frame p50 {report.get('latency_ms_p50')} ms p99 {report.get('latency_ms_p99')} ms, "
          f"lost {report.get('sessions_lost')}", flush=True)
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()

    ceiling = run(args.binary, 10, args.seconds)["fps_p50"]

    def holds(sessions):
        return run(args.binary, sessions, args.seconds)["fps_p50"] >= FULL_RATE * ceiling

    held, failed = 0, None
    sessions = 100
    while failed is None and sessions <= 6400:
        if holds(sessions):
            held, sessions = sessions, sessions * 2
        else:
            failed = sessions
    if failed is None:
        raise SystemExit(f"overload-bench: {held} sessions still held full rate; nothing to overload")
    for _ in range(2):
        middle = (held + failed) // 2
        if holds(middle):
            held = middle
        else:
            failed = middle
    if held == 0:
        raise SystemExit("overload-bench: not even 100 sessions held full rate on one thread")
    over = run(args.binary, 2 * held, args.seconds)
    p5, p50 = over.get("fps_p5"), over.get("fps_p50")
    print(json.dumps({
        "overload_ceiling_fps": ceiling,
        "overload_capacity_sessions": held,
        "overload_sessions": 2 * held,
        "overload_fps_p50": p50,
        "overload_fps_p5": p5,
        "overload_fps_min": over.get("fps_min"),
        "overload_fps_p5_over_p50": round(p5 / p50, 3) if p5 and p50 else None,
        "overload_latency_ms_p50": over.get("latency_ms_p50"),
        "overload_latency_ms_p99": over.get("latency_ms_p99"),
        "overload_sessions_lost": over.get("sessions_lost"),
    }, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
