"""Protocol v2's layer tree (docs/protocol.md §3.5) on the client side: `LayerTree` applies full
frames and deltas (JSON, or binary ones decoded by `binary.decode_frame`) and draws itself as v1's
flat display list (`flatten`); `TreeDisplay` adds the string table a binary connection keeps, its
template table when the connection has the feature `templates` (§3.6), and the pictures of the
feature `timelines` (§3.7): timeline messages, each picture's due time, and cuts.

Rules read from the spec where it leaves something open:
- A full frame lists layers in pre-order: the first is the root (no `parent`), every other layer's
  parent is on the path from the root to the layer listed just before it.
- `order` must list exactly the parent's children (a rearrangement), after the inserts.
- `set` comes by field (`{"x": [id, value, id, value, ...], ...}`); `patches_of` turns it into
  one patch per layer. A list of patches, which binary frames decode to, is taken as it is.
- A `remove` of an id the client does not hold, or of the root, is an error (the server names
  the roots of gone subtrees, which the client holds).
- Timelines, read as the browser viewer reads them (Web/src/playout.js): session time maps to the
  client's clock by one offset, set by each frame due when made (a frame alone, a timeline's
  first) to its `arrival − time`, unless the frame goes on from a picture not due yet (the next
  pictures of a motion, sent before the viewer ran out). A delta based on a held picture older
  than the newest is a cut: the pictures after its base go, and it applies to a copy of the base.
  The last HELD_PICTURES pictures are held, which covers the latest timeline (at most 24 frames)
  and the frame before it; a base older than those is a wrong base.
- Flattening rounds absolute frames to hundredths and effective alpha to thousandths, as v1
  writes them (sums of two-decimal numbers in binary floating point pick up noise such as
  154.50000000000003, which could turn touching edges into an overlap). A clipping layer whose
  frame leaves no area of the clip shows none of its descendants.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping, NamedTuple

from ..errors import WireError
from .binary import KINDS, ByteReader, open_message, read_frame, resolve_likes, resolve_patches
from .delta import check_base

Layer = dict[str, Any]
Frame = dict[str, Any]

# Layer keys that describe the tree rather than the drawing.
STRUCTURAL = {"id", "parent", "index", "clips", "standby"}
# What makes a layer draw something of its own (§3.5: with `role`, what gets it drawn).
DRAWING_FIELDS = ("fill", "border", "shadow", "text", "icon")
# Pictures held for a cut to go back to: the server names as a base only one of the last 24
# frames it sent, and a timeline holds at most 24 (with the frame before it, 25); a few more.
HELD_PICTURES = 32


def patches_of(changes: Any, where: str) -> list[Layer]:
    """A delta's `set` as one patch per layer (`{"id": N, field: value, ...}`), layers in the order
    they first come: from JSON v2's columns (`{"x": [id, value, ...], ...}`), or a list of patches
    (what `binary.decode_frame` makes) as it is."""
    if changes is None:
        return []
    if isinstance(changes, list):
        return changes
    if not isinstance(changes, dict):
        raise WireError(f"{where}: set is neither fields of id and value pairs nor a list of patches")
    by_id: dict[int, Layer] = {}
    for key, pairs in changes.items():
        if key == "id" or not isinstance(pairs, list) or len(pairs) % 2:
            raise WireError(f"{where}: set field {key!r} is not a list of id and value pairs")
        for at in range(0, len(pairs), 2):
            layer_id = pairs[at]
            if not isinstance(layer_id, int) or isinstance(layer_id, bool):
                raise WireError(f"{where}: set field {key!r} names {layer_id!r}, not a layer id")
            by_id.setdefault(layer_id, {"id": layer_id})[key] = pairs[at + 1]
    return list(by_id.values())


def _check_new_layer(layer: Any, where: str) -> None:
    if not isinstance(layer, dict) or not isinstance(layer.get("id"), int) or isinstance(layer.get("id"), bool):
        raise WireError(f"{where}: a layer without an integer id: {str(layer)[:200]}")
    if layer.get("kind") not in KINDS:
        raise WireError(f"{where}: layer {layer['id']} has kind {layer.get('kind')!r}")
    frame = layer.get("frame")
    if not (isinstance(frame, list) and len(frame) == 4 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in frame)):
        raise WireError(f"{where}: layer {layer['id']} has frame {frame!r}")
    if any(value is None for value in layer.values()):
        raise WireError(f"{where}: layer {layer['id']} has null fields: {layer}")
    if "clip" in layer:
        raise WireError(f"{where}: layer {layer['id']} has a `clip` (v2 clips with `clips`)")


def _default_fields(layer: Layer, where: str) -> list[str]:
    """A full LAYER leaves out alpha 1, clips false and radius 0 (§3.5, §3.1)."""
    found: list[str] = [key for key in ("alpha", "radius")
             if key in layer and not isinstance(layer[key], bool) and layer[key] == (1 if key == "alpha" else 0)]
    found += [key for key in ("clips", "standby") if layer.get(key) is False]
    return [f"{where}: layer {layer.get('id')} writes the default {key} = {layer[key]!r}" for key in found]


def _intersection(a: list[float], b: list[float]) -> list[float]:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return [x0, y0, max(0, x1 - x0), max(0, y1 - y0)]


def _r(value: float, digits: int) -> float:
    value = round(value, digits)
    return 0.0 if value == 0 else value   # no -0.0


class LayerTree:
    """The client's copy of the server's layer tree (§3.5). `apply` checks every rule and raises
    WireError without changing anything when a frame does not fit."""

    def __init__(self) -> None:
        self.layers: dict[int, Layer] = {}       # id -> layer dict (JSON fields, `parent` included, never `index`)
        self.children: dict[int, list[int]] = {}     # id -> [child ids], back to front
        self.root: int | None = None
        self.seq: int | None = None
        self.time: float | None = None
        # The input the picture shows (§3.8): a delta without `input` shows its base's.
        self.input: int | None = None
        # Fields a delta sent although they did not change, and `order`s that changed nothing:
        # counted, not fatal (the spec says only what changed is sent).
        self.unchanged = 0
        self.unchanged_example: str | None = None
        # Other departures from the spec's shapes that a client can live with, kept as texts: a
        # new layer that writes a default (alpha 1, clips false, radius 0), a patch that sends
        # alpha, clips or radius as null instead of their value.
        self.deviations: list[str] = []

    def snapshot(self) -> LayerTree:
        """A copy that later frames leave alone: `apply` replaces the layer and child tables (and the
        layers it changes) instead of changing them, so the copy shares them."""
        other = copy.copy(self)
        other.deviations = list(self.deviations)
        return other

    # MARK: applying

    def apply(self, frame: Frame) -> None:
        """Applies a full frame or a delta; raises WireError, changing nothing, when it does not fit."""
        seq, time_ms = frame.get("seq"), frame.get("time")
        if not isinstance(seq, int):
            raise WireError(f"frame without an integer seq: {str(frame)[:200]}")
        if not isinstance(time_ms, (int, float)):
            raise WireError(f"frame {seq} without a numeric time")
        root: int | None
        if frame.get("full"):
            if frame.get("full") is not True or not isinstance(frame.get("nodes"), list):
                raise WireError(f"full frame {seq} without a nodes list")
            for key in ("base", "set", "insert", "remove", "order"):
                if key in frame:
                    raise WireError(f"full frame {seq} carries {key}")
            layers, children, root = self._build(frame["nodes"], seq)
            unchanged: list[str] = []
            deviations = [d for node in frame["nodes"] for d in _default_fields(node, f"full frame {seq}")]
        else:
            check_base(frame, seq, self.seq)
            base = frame["base"]
            if seq <= base:
                raise WireError(f"delta {seq} after frame {self.seq}")
            if self.time is not None and time_ms < self.time:
                raise WireError(f"delta {seq} has time {time_ms}, before the previous frame's {self.time}")
            patches = patches_of(frame.get("set"), f"delta {seq}")
            layers, children, root, unchanged = self._patched(frame, seq, patches)
            deviations = [d for node in frame.get("insert", []) for d in _default_fields(node, f"delta {seq} insert")]
            deviations += [f"delta {seq}: the patch for {patch['id']} sends {key} as null; the spec sends its value"
                           for patch in patches
                           for key in ("alpha", "scale", "clips", "standby", "radius")
                           if key in patch and patch[key] is None]
        self.deviations += deviations
        self.layers, self.children, self.root = layers, children, root
        self.seq, self.time = seq, time_ms
        self.input = frame.get("input") if frame.get("full") else frame.get("input", self.input)
        for text in unchanged:
            self.unchanged += 1
            if self.unchanged_example is None:
                self.unchanged_example = text

    def _build(self, nodes: list[Layer], seq: int) -> tuple[dict[int, Layer], dict[int, list[int]], int]:
        where = f"full frame {seq}"
        layers: dict[int, Layer] = {}
        children: dict[int, list[int]] = {}
        path: list[int] = []
        root: int | None = None
        for position, node in enumerate(nodes):
            _check_new_layer(node, where)
            layer_id = node["id"]
            if layer_id in layers:
                raise WireError(f"{where}: id {layer_id} twice")
            if "index" in node:
                raise WireError(f"{where}: layer {layer_id} has an index")
            if position == 0:
                if "parent" in node:
                    raise WireError(f"{where}: the first layer ({layer_id}) has a parent")
                root = layer_id
            else:
                parent = node.get("parent")
                if parent is None:
                    raise WireError(f"{where}: layer {layer_id} has no parent but is not the first")
                while path and path[-1] != parent:
                    path.pop()
                if not path:
                    raise WireError(f"{where}: layer {layer_id}'s parent {parent} is not on the path to the "
                                    f"layer before it (not pre-order)")
                children[parent].append(layer_id)
            layers[layer_id] = dict(node)
            children[layer_id] = []
            path.append(layer_id)
        if root is None:
            raise WireError(f"{where} has no layers")
        return layers, children, root

    def _patched(self, frame: Frame, seq: int,
                 patches: list[Layer]) -> tuple[dict[int, Layer], dict[int, list[int]], int | None, list[str]]:
        where = f"delta {seq}"
        layers = dict(self.layers)                               # layer dicts copied on write
        children = {k: list(v) for k, v in self.children.items()}
        unchanged = []
        inserts = frame.get("insert", [])
        # Moved layers leave their parents first, with their subtrees, so that a remove of an old
        # parent does not take them along (§3.5).
        moves = [layer for layer in inserts if isinstance(layer, dict) and layer.get("move") is True]
        for layer in moves:
            layer_id = layer.get("id")
            if layer_id not in layers or layer_id == self.root:
                raise WireError(f"{where} moves {layer_id}, which the client does not hold (or the root)")
            if layer_id not in children[layers[layer_id]["parent"]]:
                raise WireError(f"{where} moves {layer_id} twice")
            children[layers[layer_id]["parent"]].remove(layer_id)
        for layer_id in frame.get("remove", []):
            if layer_id not in layers:
                raise WireError(f"{where} removes {layer_id}, which the client does not hold")
            if layer_id == self.root:
                raise WireError(f"{where} removes the root {layer_id}")
            if layer_id not in children[layers[layer_id]["parent"]]:
                raise WireError(f"{where} removes {layer_id}, which it also moves")
            children[layers[layer_id]["parent"]].remove(layer_id)
            stack = [layer_id]
            while stack:
                gone = stack.pop()
                stack.extend(children.pop(gone))
                del layers[gone]
        for layer in inserts:
            if isinstance(layer, dict) and layer.get("move") is True:
                self._move(layer, layers, children, where)
                continue
            _check_new_layer(layer, where)
            layer_id, parent, index = layer["id"], layer.get("parent"), layer.get("index")
            if layer_id in layers:
                raise WireError(f"{where} inserts {layer_id}, which the client already holds")
            if parent not in layers:
                raise WireError(f"{where} inserts {layer_id} under {parent}, which the client does not hold")
            if not isinstance(index, int) or not 0 <= index <= len(children[parent]):
                raise WireError(f"{where} inserts {layer_id} at index {index} of {parent}, which has "
                                f"{len(children[parent])} children")
            children[parent].insert(index, layer_id)
            children[layer_id] = []
            layers[layer_id] = {k: v for k, v in layer.items() if k != "index"}
        for patch in patches:
            layer_id = patch.get("id") if isinstance(patch, dict) else None
            if layer_id not in layers:
                raise WireError(f"{where} patches {layer_id}, which the client does not hold")
            if "parent" in patch or "index" in patch:
                raise WireError(f"{where}: the patch for {layer_id} moves it (parent/index); a move is an insert with \"move\"")
            if len(patch) < 2:
                unchanged.append(f"{where}: a patch for {layer_id} with no field")
            layer = dict(layers[layer_id])
            for key, value in patch.items():
                if key == "id":
                    continue
                if key in ("x", "y"):
                    # A JSON patch of a layer that only moved: its new x and/or y alone.
                    if not isinstance(value, (int, float)) or isinstance(value, bool):
                        raise WireError(f"{where}: the patch for {layer_id} has {key} = {value!r}")
                    moved = list(layer["frame"])
                    moved[0 if key == "x" else 1] = value
                    layer["frame"] = moved
                    continue
                if value is None:
                    if key in ("kind", "frame"):
                        raise WireError(f"{where}: the patch for {layer_id} deletes {key}")
                    if key not in layer:
                        unchanged.append(f"{where}: layer {layer_id} deletes {key}, which it does not have")
                    layer.pop(key, None)
                else:
                    if layer.get(key) == value:
                        unchanged.append(f"{where}: layer {layer_id} sends {key} = {value!r} unchanged")
                    layer[key] = value
            _check_new_layer(layer, where)
            layers[layer_id] = layer
        for order in frame.get("order", []):
            parent, listed = order.get("id"), order.get("children")
            if parent not in layers:
                raise WireError(f"{where} orders the children of {parent}, which the client does not hold")
            if not isinstance(listed, list) or sorted(listed) != sorted(children[parent]):
                raise WireError(f"{where}: order {listed} of {parent} is not a rearrangement of its children "
                                f"{children[parent]}")
            if listed == children[parent]:
                unchanged.append(f"{where}: order of {parent} changes nothing")
            children[parent] = list(listed)
        return layers, children, self.root, unchanged

    @staticmethod
    def _move(move: Layer, layers: dict[int, Layer], children: dict[int, list[int]], where: str) -> None:
        """Puts a moved layer, already out of its old parent, at its new place: it keeps its fields
        and subtree. It must still be held (not taken by a remove), carry nothing but its place,
        and not go under its own subtree."""
        layer_id, parent, index = move["id"], move.get("parent"), move.get("index")
        if set(move) != {"id", "parent", "index", "move"}:
            raise WireError(f"{where}: the move of {layer_id} carries more than its place: {move}")
        if layer_id not in layers:
            raise WireError(f"{where} moves {layer_id}, which a remove of the same delta took")
        if parent not in layers:
            raise WireError(f"{where} moves {layer_id} under {parent}, which the client does not hold")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= len(children[parent]):
            raise WireError(f"{where} moves {layer_id} to index {index} of {parent}, which has "
                            f"{len(children[parent])} children")
        above = parent
        while above is not None:
            if above == layer_id:
                raise WireError(f"{where} moves {layer_id} under its own subtree")
            above = layers[above].get("parent")
        children[parent].insert(index, layer_id)
        layers[layer_id] = {**layers[layer_id], "parent": parent}

    # MARK: reading

    def preorder(self) -> list[int]:
        """Ids in pre-order (the order of a full frame)."""
        out, stack = [], [self.root] if self.root is not None else []
        while stack:
            layer_id = stack.pop()
            out.append(layer_id)
            stack.extend(reversed(self.children[layer_id]))
        return out

    def canonical(self) -> list[Layer]:
        """The layers as a full frame lists them: pre-order, defaults left out (a patch may have
        set alpha 1, clips false or radius 0 explicitly)."""
        out = []
        for layer_id in self.preorder():
            layer = dict(self.layers[layer_id])
            if layer.get("alpha") == 1:
                del layer["alpha"]
            for key in ("clips", "standby"):
                if layer.get(key) is False:
                    del layer[key]
            if layer.get("radius") == 0:
                del layer["radius"]
            if layer.get("scale") == 1:
                del layer["scale"]
            out.append(layer)
        return out

    def flatten(self, width: float | None = None, height: float | None = None) -> list[Layer]:
        """The v1 display list this tree draws (§3.5 "Drawing the tree"): pre-order from the root
        with offset (0, 0), alpha 1, scale 1 and the clip [0, 0, W, H] (the viewport; the root's
        size when `width`/`height` are not given). A layer is a NODE when it draws something or has
        a role (the server has culled what is off screen); `clip` only when a clipping ancestor
        narrowed the viewport, `clipRadius` when that ancestor has rounded corners; `scale` when
        not 1 (the product of the layers' own)."""
        if self.root is None:
            return []
        root = self.layers[self.root]
        viewport = [0, 0, width if width is not None else root["frame"][2],
                    height if height is not None else root["frame"][3]]
        out = []
        # (id, parent's absolute x, y, parent's effective alpha and scale, clip, its corner radius)
        stack: list[tuple[int, float, float, float, float, list[float], float]] = [(self.root, 0.0, 0.0, 1.0, 1.0, viewport, 0)]
        while stack:
            layer_id, ox, oy, parent_alpha, parent_scale, clip, clip_radius = stack.pop()
            layer = self.layers[layer_id]
            if layer.get("standby"):
                continue  # a page on standby: held, not drawn, with its subtree (§3.5)
            x, y, w, h = layer["frame"]
            scale = parent_scale * layer.get("scale", 1)
            # Children are placed from the exact origin (rounding every level of a scaled subtree
            # would add up past what v1's absolute frames show).
            left, top = ox + x * parent_scale, oy + y * parent_scale
            frame = [_r(left, 2), _r(top, 2), _r(w * scale, 2), _r(h * scale, 2)]
            alpha = parent_alpha * layer.get("alpha", 1)
            # The server culls and strips (§3.5): every layer that draws or has a role is drawn.
            if any(k in layer for k in DRAWING_FIELDS) or "role" in layer:
                node = {"id": layer_id, "kind": layer["kind"], "frame": frame, "alpha": _r(alpha, 3)}
                if scale != 1:
                    node["scale"] = _r(scale, 5)
                for key, value in layer.items():
                    if key not in STRUCTURAL and key not in node and key != "scale":
                        node[key] = copy.deepcopy(value)
                if node.get("radius") == 0:
                    del node["radius"]          # v1 leaves radius 0 out
                if clip != viewport:
                    node["clip"] = [_r(v, 2) for v in clip]
                    if clip_radius:
                        node["clipRadius"] = clip_radius
                out.append(node)
            child_clip, child_radius = clip, clip_radius
            if layer.get("clips"):
                child_clip = _intersection(clip, frame)
                if layer.get("radius", 0) > 0:
                    child_radius = _r(layer["radius"] * scale, 2)
                elif child_clip != clip:
                    child_radius = 0
            for child in reversed(self.children[layer_id]):
                stack.append((child, left, top, alpha, scale, child_clip, child_radius))
        return out


class Picture(NamedTuple):
    """A picture a `TreeDisplay` holds: the frame's seq, its session time (ms, when it is due on the
    session clock) and the tree as that frame left it."""
    seq: int
    time: float
    tree: LayerTree


class TreeDisplay:
    """What a v2 viewer holds: the layer tree and, for binary frames, the string table and (with
    the feature `templates`) the template table. Frames go in as parsed JSON (`apply`, and
    `apply_timeline` for a JSON timeline) or as bytes (`receive_binary`, a frame or a timeline,
    which returns the JSON-equivalent message). `keep_snapshots` keeps the flattened picture after
    every frame, by seq.

    `tree` is always the newest picture received. With the feature `timelines` (§3.7) that may be
    a picture due later: `pictures` holds the recent ones with their session times, `due(picture)`
    maps a time to the client's clock (the `arrival` passed with each frame, in ms), and
    `picture_at(now)` gives the one due then; a frame based on an older held picture than the
    newest is a cut (`cuts`, `voided`). Without the feature every frame is due as it arrives.

    `templates_enabled` says whether binary frames carry a TEMPLATES part: the welcome decides it
    (`welcome.features`), not the hello, so the client that reads the welcome sets it. Turning it
    on or off keeps the table: a delta whose `first` does not match it is out of step anyway, and
    the full frame asked for then starts a new one."""

    def __init__(self, binary: bool = False, keep_snapshots: bool = False, templates: bool = False) -> None:
        self.binary = binary
        self.tree = LayerTree()
        self.strings: list[str] = []
        self.templates_enabled = templates
        # entries: layers without id, parent, index; None for those before a full frame's `first`
        self.templates: list[Mapping[str, Any] | None] = []
        self.keep_snapshots = keep_snapshots
        self.snapshots: dict[int, list[Layer]] = {}        # seq -> flatten()
        self.trees: dict[int, list[Layer]] = {}            # seq -> canonical() (with keep_snapshots)
        self.sizes: dict[int, int] = {}            # seq -> bytes of the binary frame (binary only)
        # seq -> {"first", "count", "size"}, and "template_first", "template_count" with the
        # feature (binary only)
        self.string_info: dict[int, dict[str, int]] = {}
        self.pictures: list[Picture] = []
        """The recent pictures, oldest first; the last is `tree`'s."""
        self.offset: float | None = None
        """The client's clock minus session time, in ms (None before a frame came with its arrival)."""
        self.timelines = 0
        """Timeline messages applied."""
        self.cuts = 0
        """Frames based on an older picture than the newest (§3.7 "Cuts")."""
        self.voided = 0
        """Pictures those cuts voided."""
        self.frames_applied = 0
        """Frames applied, each of a timeline."""

    @property
    def seq(self) -> int | None:
        return self.tree.seq

    def apply(self, frame: Frame, *, arrival: float | None = None, first: bool = True) -> None:
        """Applies a JSON v2 frame that arrived at `arrival` (the client's clock, ms); `first`:
        sent alone or first in its timeline, so due as it arrives."""
        tree, cut = self._base_for(frame)
        tree.apply(frame)
        self._took(tree, frame, cut, arrival, first)

    def apply_timeline(self, message: Frame, *, arrival: float | None = None) -> None:
        """Applies a JSON timeline (`{"type":"timeline","frames":[…]}`, §3.7), frame by frame;
        raises WireError at the first frame that does not fit (those before it stay applied).
        The frames after the first leave out `type`, `seq` and `base`, which are "frame", the seq
        after the frame before's and that seq (a full frame has no base): they are filled in, in
        `message` itself, so that whoever reads it next sees whole frames, as on the binary wire."""
        frames = message.get("frames")
        if not isinstance(frames, list) or not frames or not all(isinstance(f, dict) for f in frames):
            raise WireError(f"a timeline without frames: {str(message)[:200]}")
        if not isinstance(frames[0].get("seq"), int):
            raise WireError(f"a timeline whose first frame has no seq: {str(message)[:200]}")
        for previous, frame in zip(frames, frames[1:]):
            frame.update(type="frame", seq=previous["seq"] + 1)
            if not frame.get("full"):
                frame["base"] = previous["seq"]
        for index, frame in enumerate(frames):
            self.apply(frame, arrival=arrival, first=index == 0)
        self.timelines += 1

    def receive_binary(self, data: bytes, *, arrival: float | None = None) -> Frame:
        """Decodes and applies one binary message: a frame, whose JSON-equivalent frame it
        returns, or a timeline (§3.7), returned as `{"type":"timeline","frames":[…]}`. A timeline's
        frames are decoded one at a time, each against the picture the one before it left; a
        frame that does not fit raises WireError (those before it stay applied)."""
        reader, count = open_message(data)
        frames = [self._receive_frame(reader, arrival, index, count) for index in range(count or 1)]
        if count is None:
            return frames[0]
        self.timelines += 1
        return {"type": "timeline", "frames": frames}

    def _receive_frame(self, reader: ByteReader, arrival: float | None, index: int, count: int | None) -> Frame:
        held = None if self.tree.seq is None else (self.tree.seq, self.tree.time, self.tree.input)
        frame, table, info = read_frame(reader, self.strings, held,
                                        templates=self.templates if self.templates_enabled else None,
                                        layers=self.tree.layers, earlier=self._earlier,
                                        last=index == (count or 1) - 1, continues=index > 0)
        tree, cut = self._base_for(frame)
        if not frame.get("full"):
            resolve_likes(frame, tree.layers)
            resolve_patches(frame, tree.layers)
        tree.apply(frame)
        # Only once the frame is applied. A full frame starts a new template table (empty without
        # the feature or a TEMPLATES part; else unknown entries up to its `first`).
        self.strings = table
        templates = info.pop("templates", None)
        if templates is not None or frame.get("full"):
            self.templates = templates or []
        self.sizes[frame["seq"]] = info["size"]
        self.string_info[frame["seq"]] = info
        self._took(tree, frame, cut, arrival, index == 0)
        return frame

    def _held(self, seq: Any) -> Picture | None:
        return next((picture for picture in reversed(self.pictures) if picture.seq == seq), None)

    def _earlier(self, seq: int) -> tuple[float, Mapping[int, Layer]] | None:
        picture = self._held(seq)
        return None if picture is None else (picture.time, picture.tree.layers)

    def _base_for(self, frame: Frame) -> tuple[LayerTree, bool]:
        """The tree `frame` applies to: the newest, or for a cut (a delta based on an older held
        picture) a copy of that picture's; and whether it is a cut."""
        base = frame.get("base")
        if frame.get("full") or self.tree.seq is None or base == self.tree.seq:
            return self.tree, False
        picture = self._held(base)
        if picture is None:
            return self.tree, False          # LayerTree.apply refuses the wrong base
        return picture.tree.snapshot(), True

    def _took(self, tree: LayerTree, frame: Frame, cut: bool, arrival: float | None, first: bool) -> None:
        """`tree` applied `frame`: it becomes the newest picture, due as §3.7 says."""
        if frame.get("full"):
            self.pictures = []               # its tables start afresh: no cut goes back past it
        if cut:
            kept = [picture for picture in self.pictures if picture.seq <= frame["base"]]
            self.voided += len(self.pictures) - len(kept)
            self.cuts += 1
            self.pictures = kept
        newest = self.pictures[-1] if self.pictures else None
        # Due when made unless it goes on from a picture not due yet (a motion's next pictures).
        continues = (not cut and not frame.get("full") and newest is not None and newest.seq == frame.get("base")
                     and arrival is not None and not self.is_due(newest, arrival))
        if arrival is not None and ((first and not continues) or self.offset is None):
            self.offset = arrival - frame["time"]
        self.tree = tree
        self.frames_applied += 1
        self.pictures.append(Picture(frame["seq"], frame["time"], tree.snapshot()))
        del self.pictures[:-HELD_PICTURES]
        self._after(frame)

    def due(self, picture: Picture) -> float | None:
        """When `picture` is due on the client's clock (ms); None before any frame came with its arrival."""
        return None if self.offset is None else picture.time + self.offset

    def is_due(self, picture: Picture, now: float) -> bool:
        """Whether `picture` is due at `now` (the client's clock, ms)."""
        due = self.due(picture)
        return due is None or due <= now + 0.001

    def picture_at(self, now: float) -> LayerTree:
        """The picture due at `now` (the client's clock, ms): the newest held picture due by then
        (the oldest held when none is; the newest when frames came without arrival times)."""
        due = [picture for picture in self.pictures if self.is_due(picture, now)]
        if due:
            return due[-1].tree
        return self.pictures[0].tree if self.pictures else self.tree

    def still_at(self, now: float) -> bool:
        """Whether the newest picture is due at `now`: nothing received is still to be shown."""
        return not self.pictures or self.is_due(self.pictures[-1], now)

    def _after(self, frame: Frame) -> None:
        if self.keep_snapshots:
            self.snapshots[frame["seq"]] = self.tree.flatten()
            self.trees[frame["seq"]] = self.tree.canonical()

    def flatten(self) -> list[Layer]:
        """The v1 display list the tree draws, back to front."""
        return self.tree.flatten()

    def find(self, role: str | None = None, name: str | None = None, *, tree: LayerTree | None = None) -> list[Layer]:
        """The drawn nodes with that role and/or name, back to front: of the newest picture, or of
        `tree` (a held picture, `picture_at(now)`)."""
        return [n for n in (tree or self.tree).flatten()
                if (role is None or n.get("role") == role) and (name is None or n.get("name") == name)]

    def clone(self) -> TreeDisplay:
        """A copy to resume from (the tree, the string and template tables a client keeps across a
        reconnect)."""
        other = TreeDisplay(self.binary, self.keep_snapshots, self.templates_enabled)
        other.tree = copy.deepcopy(self.tree)
        other.strings = list(self.strings)
        other.templates = list(self.templates)      # entries are never changed once made
        if other.tree.seq is not None:
            other.pictures = [Picture(other.tree.seq, other.tree.time, other.tree.snapshot())]
        return other
