"""The binary v2 wire contract as the client reads it: stackcast.wire.format is what Scripts/wire-gen
writes from docs/wire/binary-v2.json, and every golden vector of docs/wire/vectors/ (frames the
server's encoder wrote) decodes to its JSON frame and leaves the tree the vector gives."""

import importlib.machinery
import importlib.util
import json
from pathlib import Path

import pytest

from stackcast.wire import TreeDisplay
from stackcast.wire.format import WIRE
from stackcast.wire.tree import patches_of

ROOT = Path(__file__).resolve().parents[3]
VECTORS = sorted((ROOT / "docs" / "wire" / "vectors").glob("*.json"))


def wire_gen():
    """Scripts/wire-gen as a module (its file has no .py)."""
    loader = importlib.machinery.SourceFileLoader("wire_gen", str(ROOT / "Scripts" / "wire-gen"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("wire_gen", loader))
    loader.exec_module(module)
    return module


def test_format_holds_the_contract():
    """Fails until Scripts/wire-gen is run after a change to docs/wire/binary-v2.json."""
    document = json.loads((ROOT / "docs" / "wire" / "binary-v2.json").read_text(encoding="utf-8"))
    assert WIRE == wire_gen().contract(document)


def test_there_are_vectors():
    assert VECTORS, "no vectors in docs/wire/vectors"


def comparable(frame, held):
    """A frame as comparable: a delta's `set` as one patch per layer by id, JSON's `x`/`y` and the
    decoder's frame both the whole frame, the rest taken from the layer held."""
    if "set" not in frame:
        return frame
    patches = {}
    for patch in patches_of(frame["set"], "set"):
        whole = {key: value for key, value in patch.items() if key not in ("x", "y")}
        parts = patch.get("frame") or [patch.get("x"), patch.get("y"), None, None]
        if any(part is not None for part in parts):
            whole["frame"] = [held[patch["id"]]["frame"][i] if part is None else part for i, part in enumerate(parts)]
        patches[patch["id"]] = whole
    return {**frame, "set": patches}


@pytest.mark.parametrize("path", VECTORS, ids=[path.stem for path in VECTORS])
def test_golden_vector(path):
    vector = json.loads(path.read_text(encoding="utf-8"))
    display = TreeDisplay(binary=True, templates=vector["templates"])
    held = {}
    for number, frame in enumerate(vector["frames"], 1):
        where = f"frame {number} ({frame['description']})"
        decoded = display.receive_binary(bytes.fromhex(frame["hex"]))
        assert comparable(decoded, held) == comparable(frame["json"], held), f"{where}: the decoded frame"
        assert display.tree.canonical() == frame["tree"], f"{where}: the tree"
        held = {layer["id"]: layer for layer in frame["tree"]}
