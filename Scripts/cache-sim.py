#!/usr/bin/env python3
"""The capacity benchmark's frames in a simulated cache: how many cache lines each frame reads from
memory, the same on any machine. Prints one JSON object.

    Scripts/cache-sim.py BINARY

Runs `BINARY bench --only capacity` under Valgrind's callgrind with a 32 KiB L1 and a 4 MiB last
level (what a loaded VM's share of a shared L3 holds; a bigger simulated cache would keep lines a
real one loses), counting only the measured rounds (`measuredRound`), one profile per round. The
figures are medians over rounds of the per-frame counts: 200 rounds of 1 session, then 20 rounds of
1,000 sessions taking turns, where the median round is a plain slide frame (about six in twenty start
a push or bring rows on screen). Timing the same frames moves by tens of percent from one run to the
next on a shared machine; these counts move only when the code does.

Needs `valgrind` (Debian's package) and `strip` (binutils): Valgrind cannot read the DWARF 5 debug
information Swift writes, so it profiles a copy with the debug information stripped. About 90 s.
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROUNDS = 200
SESSIONS = (1, 1000)


def rounds_per_count(count):
    """How many measured rounds `stackcast bench --only capacity` runs for `count` sessions."""
    return max(ROUNDS // max(count // 10, 1), 20)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    if not os.access(binary, os.X_OK):
        sys.exit(f"cache-sim: {binary} is not an executable file")
    for tool in ("valgrind", "strip", "nm"):
        if shutil.which(tool) is None:
            sys.exit(f"cache-sim: {tool} is not installed")
    with tempfile.TemporaryDirectory() as work:
        stripped = os.path.join(work, "stackcast")
        shutil.copy(binary, stripped)
        subprocess.run(["strip", "--strip-debug", stripped], check=True)
        symbols = subprocess.run(["nm", stripped], capture_output=True, text=True, check=True).stdout
        names = [line.split()[-1] for line in symbols.splitlines() if "measuredRound" in line]
        if len(names) != 1:
            sys.exit(f"cache-sim: expected one measuredRound symbol, found {len(names)}")
        out = os.path.join(work, "cg")
        done = subprocess.run([
            "valgrind", "--tool=callgrind", "--cache-sim=yes",
            "--I1=32768,8,64", "--D1=32768,8,64", "--LL=4194304,16,64",
            "--collect-atstart=no", f"--toggle-collect={names[0]}", f"--dump-after={names[0]}",
            f"--callgrind-out-file={out}", stripped, "bench", "--only", "capacity", "--rounds", str(ROUNDS),
        ], capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"cache-sim: valgrind failed:\n{done.stderr[-2000:]}")
        # One file per measured round, numbered in order: cg.1, cg.2, ...
        parts = sorted((int(name.rsplit(".", 1)[1]), name) for name in os.listdir(work) if re.fullmatch(r"cg\.\d+", name))
        rounds = []
        for _, name in parts:
            with open(os.path.join(work, name)) as handle:
                text = handle.read()
            events = re.search(r"^events: (.*)$", text, re.M).group(1).split()
            summary = [int(value) for value in re.search(r"^summary: (.*)$", text, re.M).group(1).split()]
            # Callgrind leaves trailing zero counts out.
            rounds.append(dict(zip(events, summary + [0] * (len(events) - len(summary)))))
    expected = sum(rounds_per_count(count) for count in SESSIONS)
    if len(rounds) != expected:
        sys.exit(f"cache-sim: {len(rounds)} measured rounds, expected {expected}")
    report = {}
    start = 0
    for count in SESSIONS:
        measured = rounds[start:start + rounds_per_count(count)]
        start += rounds_per_count(count)
        for event, key in (("DLmr", "memory_reads"), ("D1mr", "l1_read_misses"), ("Ir", "instructions")):
            report[f"cache_sim.{key}_per_frame_{count}_sessions"] = round(statistics.median(r[event] for r in measured) / count, 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
