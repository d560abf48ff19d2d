#!/usr/bin/env python3
"""Applies the frames FrameReplay recorded (one .jsonl file per FrameRoundTrip input) with the
end-to-end tests' independent protocol v2 client (Tests/EndToEnd/wire_v2.py): the v2 JSON frames
and the v2 binary frames, each stream into its own viewer, which must then hold exactly the
tree of a full frame of the last picture. Prints one line per failing input and a summary;
exits 1 on any failure.

Usage: check_frames.py REPLAY_DIR"""

import json
import pathlib
import sys

# This checkout's Python client, which wire_v2 re-exports (not whichever copy pip installed last).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "clients" / "python" / "src"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Tests" / "EndToEnd"))
from wire_v2 import LayerTree, TreeDisplay, WireError  # noqa: E402


def check(path):
    """What is wrong with one recorded input, or None."""
    source, json_viewer, binary_viewer, expected = None, TreeDisplay(), TreeDisplay(binary=True), None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        record = json.loads(line)
        try:
            if "input" in record:
                source = record["input"]
                binary_viewer = TreeDisplay(binary=True, templates=record.get("templates", False))
            elif record.get("format") == "v2json":
                json_viewer.apply(record["frame"])
            elif record.get("format") == "v2binary":
                binary_viewer.receive_binary(bytes.fromhex(record["hex"]))
            elif record.get("expect") == "v2":
                expected = LayerTree()
                expected.apply(record["frame"])
        except WireError as error:
            return source, f"line {number}: {error}"
    if expected is None:
        return source, "no expected picture (the Swift check failed first)"
    for name, viewer in (("v2 JSON", json_viewer), ("v2 binary", binary_viewer)):
        got, want = viewer.tree.canonical(), expected.canonical()
        if got != want:
            diff = next((f"layer {i}: {g} != {w}" for i, (g, w) in enumerate(zip(got, want)) if g != w),
                        f"{len(got)} layers, a full frame has {len(want)}")
            return source, f"{name} frames give another tree than a full frame: {diff}"
    return None


def main():
    files = sorted(pathlib.Path(sys.argv[1]).glob("*.jsonl"))
    failures = [f for f in map(check, files) if f]
    for source, reason in failures[:20]:
        print(f"check_frames.py: {source}: {reason}")
    print(f"check_frames.py: {len(files) - len(failures)} of {len(files)} inputs reconstructed exactly (v2 JSON, v2 binary)")
    sys.exit(1 if failures or not files else 0)


if __name__ == "__main__":
    main()
