#!/usr/bin/env python3
"""Prints where the performance targets stand, from the JSON lines one Scripts/bench run wrote.

Usage: bench-targets.py BENCH_JSON LATENCY_JSON SWEEP_JSONL IDLE_JSON

BENCH_JSON is `stackcast bench`'s last line, LATENCY_JSON Scripts/latency.py's line, SWEEP_JSONL
one `stackcast load --json` object per line (the session sweep), IDLE_JSON Scripts/idle-memory.py's
line. Every figure comes from that one run on this machine; a target that could not be measured
says so instead of passing.
"""
import json
import sys


def load_last_json(path):
    with open(path) as handle:
        lines = [line for line in handle if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    bench = load_last_json(sys.argv[1])
    latency = load_last_json(sys.argv[2])
    idle = load_last_json(sys.argv[4])
    with open(sys.argv[3]) as handle:
        sweep = [json.loads(line) for line in handle if line.startswith("{")]

    rows = []

    def target(name, value, limit, unit, at_most=True):
        if value is None:
            rows.append((name, "not measured", f"{'≤' if at_most else '≥'} {limit:g} {unit}", "?"))
            return
        met = value <= limit if at_most else value >= limit
        rows.append((name, f"{value:g} {unit}", f"{'≤' if at_most else '≥'} {limit:g} {unit}", "met" if met else "NOT MET"))

    target("slide transition, binary v2 ÷ Broadway's 17.7 KB", bench.get("server.v2Binary.slide_vs_broadway"), 0.1, "×")
    target("slide delta, binary v2, median", bench.get("server.v2Binary.delta_bytes_median"), 48, "B")
    target("slide delta, binary v2, p99", bench.get("server.v2Binary.delta_bytes_p99"), 128, "B")
    target("drag delta, binary v2, median", bench.get("server.drag_delta_v2_binary_bytes_median"), 48, "B")
    target("drag delta, binary v2, p99", bench.get("server.drag_delta_v2_binary_bytes_p99"), 128, "B")
    target("slide delta, JSON v2, median", bench.get("server.v2JSON.delta_bytes_median"), 160, "B")
    target("drag delta, JSON v2, median", bench.get("server.drag_delta_v2_json_bytes_median"), 160, "B")
    target("slide delta, JSON v2 with permessage-deflate, median", bench.get("deflate.v2JSON_delta_compressed_bytes_median"), 160, "B")
    target("full frame, phone, binary v2", bench.get("server.v2Binary.full_frame_bytes"), 2048, "B")
    target("move -> frame ÷ ping, NavClient", bench.get("server.pointer_to_frame_vs_ping_median"), 1.5, "×")
    target("move -> frame ÷ ping, Python websockets", latency.get("pointer_to_frame_vs_ping_median"), 1.5, "×")
    target("server work per move, p99", bench.get("server.pointer_move_work_v2_binary_p99_us"), 1000, "µs")
    # The issue asks for a connected idle session (1,000 idle connections): that is the target;
    # a session kept for a resume with no viewer is shown beside it. Its 48 KB read strictly:
    # 48,000 bytes, 46.875 KiB.
    idle_limit = 48000 / 1024
    target("idle session, connected (1,000 connections)", idle.get("connected_session_kib"), idle_limit, "KiB")
    target("idle session kept for a resume (no viewer)", bench.get("server.idle_session_kib"), idle_limit, "KiB")
    target("stalled reader's queued bytes (window 16)", bench.get("server.stalled_reader_window_16_queued_bytes"), 65536, "B")
    target("stalled reader's catch-up frames", bench.get("server.stalled_reader_catch_up_frames"), 1, "frames")
    # A size run more than once (1,000 sessions) counts by its median run, by fps while animating (p5).
    runs = {}
    for run in sweep:
        runs.setdefault(run["sessions"], []).append(run)
    median = {size: sorted(group, key=lambda run: run.get("fps_animating_p5", 0))[(len(group) - 1) // 2]
              for size, group in runs.items()}
    if sweep:
        # While animating: a push/pop loop's own pauses between transitions are not frames the
        # server failed to draw (stackcast load's AnimatingFrameRate).
        most = max((size for size, run in median.items() if run.get("fps_animating_p5", 0) >= 58), default=0)
        target("most sessions animating at ≥ 58 fps each (p5, while animating)", most, 1000, "sessions", at_most=False)
    else:
        target("most sessions animating at ≥ 58 fps each (p5)", None, 1000, "sessions", at_most=False)

    width = [max(len(row[column]) for row in rows) for column in range(3)]
    print("== targets (this run)")
    for row in rows:
        print(f"  {row[0]:<{width[0]}}  {row[1]:>{width[1]}}  target {row[2]:<{width[2]}}  {row[3]}")
    if sweep:
        print("  load sweep (stackcast load, pushpop, generator in its own process; fps while animating, then")
        print("  over the whole window, which counts each session's own pauses between transitions):")
        for size, run in sorted(median.items()):
            others = ""
            if len(runs[size]) > 1:
                all_p5 = ", ".join(f"{other['fps_animating_p5']:.1f}" for other in runs[size])
                others = f"; median of {len(runs[size])} runs by p5 ({all_p5})"
            print(f"    {size:>5} sessions ({run['app']}): fps while animating p50 {run['fps_animating_p50']:.1f} "
                  f"(p5 {run['fps_animating_p5']:.1f}), over the window {run['fps_p50']:.1f} (p5 {run['fps_p5']:.1f}), "
                  f"input -> frame p50 {run['latency_ms_p50']:.1f} ms, p99 {run['latency_ms_p99']:.1f} ms, "
                  f"{run['frames_per_second']:.0f} frames/s, generator {run['generator_cpu_percent']:.0f} % of a core{others}")


if __name__ == "__main__":
    main()
