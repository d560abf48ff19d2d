"""Protocol v2 on the client side, written from docs/protocol.md §3.5 (the layer tree, JSON) and
§3.6 (its binary encoding), for the end-to-end tests. Independent of the server's Swift code and
of the web viewer's JavaScript: it knows only what the spec says.

- `decode_frame(data, strings)`: one binary frame -> the dict the same frame parses to as JSON v2
  (see "Patches and frames" below), plus the string table after it. Raises `WireError` on a
  frame that ends early, an unknown `type`, a mask bit above 21, a string index outside the
  table, a `first` that does not match the table the client holds, and a few more things the
  spec rules out (bytes after the end, a `u8` field out of range, a cleared mask on a new layer).
- `LayerTree`: the client's copy of the tree: `apply(frame)` for full frames and deltas (base
  check, remove subtree, insert at index, set with null deletion, order), `flatten()` for the
  v1 display list the tree draws (§3.5 "Drawing the tree").
- `TreeDisplay`: a `LayerTree` plus, for binary, the string table: what a v2 viewer holds.

Patches and frames: a binary PATCH names the frame's x, y, w and h separately, so it may change x
alone; JSON patches always carry the whole `frame`. `decode_frame` writes the components a patch
does not carry as None (`[-21.74, None, None, None]`); `resolve_patches(frame, tree)` (and
`TreeDisplay.receive_binary`, which calls it) fills them in from the layer the client holds,
which gives exactly the JSON frame.

Rules read from the spec where it leaves something open:
- A full frame lists layers in pre-order: the first is the root (no `parent`), every other layer's
  parent is on the path from the root to the layer listed just before it.
- `order` must list exactly the parent's children (a rearrangement), after the inserts.
- A `remove` of an id the client does not hold, or of the root, is an error (the server names
  the roots of gone subtrees, which the client holds).
- Flattening rounds absolute frames to hundredths and effective alpha to thousandths, as v1
  writes them (sums of two-decimal numbers in binary floating point pick up noise such as
  154.50000000000003, which could turn touching edges into an overlap). A clipping layer whose
  frame leaves no area of the clip shows none of its descendants.
"""

import copy

KINDS = ("rect", "text", "icon")
ALIGNS = ("left", "center", "right")
FRAME_TYPES = {1: "full", 2: "delta"}

# Bit -> field, §3.6 "Fields". Bits 1-4 are the frame's x, y, w, h; bit 19 announces `cleared`;
# bits 20 (`standby`) and 21 (`scale`) came later and are written last.
BIT_KIND, BIT_X, BIT_Y, BIT_W, BIT_H = 0, 1, 2, 3, 4
BIT_ALPHA, BIT_CLIPS, BIT_FILL, BIT_RADIUS, BIT_SHADOW, BIT_BORDER = 5, 6, 7, 8, 9, 10
BIT_TEXT, BIT_FONT, BIT_COLOR, BIT_ALIGN, BIT_ICON, BIT_ROLE, BIT_NAME, BIT_VC = 11, 12, 13, 14, 15, 16, 17, 18
BIT_CLEARED = 19
BIT_STANDBY = 20
BIT_SCALE = 21
FIELD_NAMES = {
    BIT_KIND: "kind", BIT_ALPHA: "alpha", BIT_CLIPS: "clips", BIT_FILL: "fill", BIT_RADIUS: "radius",
    BIT_SHADOW: "shadow", BIT_BORDER: "border", BIT_TEXT: "text", BIT_FONT: "font", BIT_COLOR: "color",
    BIT_ALIGN: "align", BIT_ICON: "icon", BIT_ROLE: "role", BIT_NAME: "name", BIT_VC: "vc",
}
FRAME_BITS = (BIT_X, BIT_Y, BIT_W, BIT_H)
STRING_BITS = (BIT_TEXT, BIT_ICON, BIT_ROLE, BIT_NAME, BIT_VC)

# Layer keys that describe the tree rather than the drawing.
STRUCTURAL = {"id", "parent", "index", "clips", "standby"}
# What makes a layer draw something of its own (§3.5: with `role`, what gets it drawn).
DRAWING_FIELDS = ("fill", "border", "shadow", "text", "icon")


class WireError(ValueError):
    """A frame this client cannot apply: it must stop and ask for a full frame (§3.4, §3.6)."""


# MARK: - binary reading


class ByteReader:
    """Reads the §3.6 primitives from `data`; any read past the end raises WireError."""

    def __init__(self, data):
        self.data = bytes(data)
        self.pos = 0

    def _need(self, count, what):
        if self.pos + count > len(self.data):
            raise WireError(f"frame ends early: {what} needs {count} byte(s) at offset {self.pos}, "
                            f"the frame has {len(self.data)}")

    def u8(self, what):
        self._need(1, what)
        value = self.data[self.pos]
        self.pos += 1
        return value

    def raw(self, count, what):
        self._need(count, what)
        value = self.data[self.pos:self.pos + count]
        self.pos += count
        return value

    def varint(self, what):
        """Unsigned LEB128: 7 bits per byte, low bits first, high bit on every byte but the last."""
        value, shift, start = 0, 0, self.pos
        while True:
            if self.pos >= len(self.data):
                raise WireError(f"frame ends early: varint {what} at offset {start} is cut off")
            byte = self.data[self.pos]
            self.pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
            if shift >= 70:
                raise WireError(f"varint {what} at offset {start} is longer than 10 bytes")
        if value >= 1 << 64:
            raise WireError(f"varint {what} at offset {start} does not fit 64 bits")
        return value

    def zigzag(self, what):
        n = self.varint(what)
        return (n >> 1) ^ -(n & 1)

    def hundredths(self, what):
        return self.zigzag(what) / 100

    def colour(self, what):
        r, g, b, a = self.raw(4, what)
        text = f"#{r:02X}{g:02X}{b:02X}"
        return text if a == 255 else text + f"{a:02X}"

    def at_end(self):
        return self.pos == len(self.data)


def zigzag_encode(n):
    return (n << 1) ^ (n >> 63)


def varint_encode(n):
    """LEB128 of a non-negative integer (for tests that build frames by hand)."""
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def decode_frame(data, strings=()):
    """Decodes one binary v2 frame for a client whose string table is `strings`.

    Returns (frame, table, info): `frame` is the JSON v2 dict (patch frames may hold None for the
    components the patch does not carry; see the module doc), `table` the string table after this
    frame (a new list; `strings` is never changed), and `info` a dict with `first`, `count` (the
    frame's new strings) and `size` (bytes)."""
    reader = ByteReader(data)
    kind_byte = reader.u8("type")
    if kind_byte not in FRAME_TYPES:
        raise WireError(f"unknown frame type {kind_byte}; expected 1 (full) or 2 (delta)")
    full = kind_byte == 1
    seq = reader.varint("seq")
    time_tenths = reader.varint("time")
    base = None if full else reader.varint("base")
    first = reader.varint("strings.first")
    count = reader.varint("strings.count")
    if full and first != 0:
        raise WireError(f"full frame {seq}: strings start at {first}, a full frame's start at 0")
    if not full and first != len(strings):
        raise WireError(f"delta {seq}: its strings start at {first} but the client holds {len(strings)}: out of step")
    new_strings = []
    for index in range(count):
        length = reader.varint(f"length of string {first + index}")
        raw = reader.raw(length, f"string {first + index}")
        try:
            new_strings.append(raw.decode("utf-8"))
        except UnicodeDecodeError as error:
            raise WireError(f"string {first + index} is not UTF-8: {error}") from None
    table = new_strings if full else list(strings) + new_strings

    frame = {"type": "frame", "seq": seq, "time": time_tenths / 10}
    if full:
        frame["full"] = True
        nodes = []
        previous = 0
        for position in range(reader.varint("layer count")):
            layer_id, parent = _read_ids(reader, previous, f"layer #{position}")
            previous = layer_id
            layer = _read_fields(reader, table, layer_id, new=True)
            if parent:
                layer["parent"] = parent
            nodes.append(layer)
        frame["nodes"] = nodes
    else:
        frame["base"] = base
        removed = [reader.varint(f"remove #{i}") for i in range(reader.varint("remove count"))]
        inserted = []
        previous = 0
        for position in range(reader.varint("insert count")):
            layer_id, parent = _read_ids(reader, previous, f"insert #{position}")
            previous = layer_id
            if not parent:
                raise WireError(f"insert {layer_id} has no parent")
            # The index, doubled, plus 1 when the insert is written like a held layer (§3.6).
            at = reader.varint(f"index of insert {layer_id}")
            if at % 2:
                like = layer_id - reader.zigzag(f"model of insert {layer_id}")
                layer = _read_fields(reader, table, layer_id, new=False)
                layer["like"] = like            # resolved against the tree: resolve_likes
            else:
                layer = _read_fields(reader, table, layer_id, new=True)
            layer["parent"] = parent
            layer["index"] = at // 2
            inserted.append(layer)
        patches = []
        for position in range(reader.varint("patch count")):
            layer_id = reader.varint(f"id of patch #{position}")
            patches.append(_read_fields(reader, table, layer_id, new=False))
        orders = []
        for position in range(reader.varint("order count")):
            parent = reader.varint(f"parent of order #{position}")
            children = [reader.varint(f"child #{i} of order {parent}") for i in range(reader.varint(f"size of order {parent}"))]
            orders.append({"id": parent, "children": children})
        # JSON's key order: set, insert, remove, order; each left out when empty.
        for key, part in (("set", patches), ("insert", inserted), ("remove", removed), ("order", orders)):
            if part:
                frame[key] = part
    if not reader.at_end():
        raise WireError(f"frame {seq}: {len(reader.data) - reader.pos} byte(s) after the end of the frame")
    return frame, table, {"first": first, "count": count, "size": len(reader.data)}


def _read_ids(reader, previous, what):
    """A LAYER's or INSERT's id (zig-zag difference from the previous one in its list) and parent
    (zig-zag of id - parent; 0 for the root, returned as None)."""
    layer_id = previous + reader.zigzag(f"id of {what}")
    if layer_id < 1:
        raise WireError(f"{what}: layer id {layer_id} (ids start at 1)")
    back = reader.zigzag(f"parent of layer {layer_id}")
    return layer_id, (layer_id - back if back else None)


def _read_fields(reader, table, layer_id, new):
    """FIELDS of one LAYER/INSERT (`new`: starts from the defaults) or PATCH."""
    if layer_id == 0:
        raise WireError("layer id 0 (ids start at 1)")
    what = f"layer {layer_id}"
    mask = reader.varint(f"mask of {what}")
    if mask >> (BIT_SCALE + 1):
        raise WireError(f"{what}: mask {mask:#x} has a bit above 21")
    cleared = 0
    if mask & (1 << BIT_CLEARED):
        cleared = reader.varint(f"cleared mask of {what}")
        if new:
            raise WireError(f"{what}: a new layer has a cleared mask ({cleared:#x})")
        if cleared >> BIT_CLEARED:
            raise WireError(f"{what}: cleared mask {cleared:#x} has a bit above 18")
        if cleared & mask:
            raise WireError(f"{what}: fields both set and cleared ({cleared & mask:#x})")
    layer = {"id": layer_id}
    if new:
        layer["kind"] = "rect"
        layer["frame"] = [0, 0, 0, 0]
    elif mask & sum(1 << bit for bit in FRAME_BITS):
        layer["frame"] = [None, None, None, None]

    def string(bit):
        index = reader.varint(f"{FIELD_NAMES[bit]} of {what}")
        if index >= len(table):
            raise WireError(f"{what}: {FIELD_NAMES[bit]} names string {index}, the table has {len(table)}")
        return table[index]

    for bit in range(BIT_CLEARED):
        if not mask & (1 << bit):
            continue
        if bit == BIT_KIND:
            value = reader.u8(f"kind of {what}")
            if value >= len(KINDS):
                raise WireError(f"{what}: kind {value}; expected 0, 1 or 2")
            layer["kind"] = KINDS[value]
        elif bit in FRAME_BITS:
            layer["frame"][bit - BIT_X] = reader.hundredths(f"frame[{bit - BIT_X}] of {what}")
        elif bit == BIT_ALPHA:
            value = reader.varint(f"alpha of {what}")
            if value > 1000:
                raise WireError(f"{what}: alpha {value} thousandths, above 1000")
            layer["alpha"] = value / 1000
        elif bit == BIT_CLIPS:
            value = reader.u8(f"clips of {what}")
            if value > 1:
                raise WireError(f"{what}: clips {value}; expected 0 or 1")
            layer["clips"] = value == 1
        elif bit in (BIT_FILL, BIT_COLOR):
            layer[FIELD_NAMES[bit]] = reader.colour(f"{FIELD_NAMES[bit]} of {what}")
        elif bit == BIT_RADIUS:
            layer["radius"] = reader.hundredths(f"radius of {what}")
        elif bit == BIT_SHADOW:
            colour = reader.colour(f"shadow colour of {what}")
            blur = reader.hundredths(f"shadow blur of {what}")
            x = reader.hundredths(f"shadow x of {what}")
            y = reader.hundredths(f"shadow y of {what}")
            layer["shadow"] = {"color": colour, "blur": blur, "x": x, "y": y}
        elif bit == BIT_BORDER:
            colour = reader.colour(f"border colour of {what}")
            layer["border"] = {"color": colour, "width": reader.hundredths(f"border width of {what}")}
        elif bit == BIT_FONT:
            size = reader.hundredths(f"font size of {what}")
            layer["font"] = {"size": size, "weight": reader.varint(f"font weight of {what}")}
        elif bit == BIT_ALIGN:
            value = reader.u8(f"align of {what}")
            if value >= len(ALIGNS):
                raise WireError(f"{what}: align {value}; expected 0, 1 or 2")
            layer["align"] = ALIGNS[value]
        elif bit in STRING_BITS:
            layer[FIELD_NAMES[bit]] = string(bit)
    if mask & (1 << BIT_STANDBY):
        value = reader.u8(f"standby of {what}")
        if value > 1:
            raise WireError(f"{what}: standby {value}; expected 0 or 1")
        layer["standby"] = value == 1
    if mask & (1 << BIT_SCALE):
        layer["scale"] = reader.varint(f"scale of {what}") / 100000
    for bit in range(BIT_CLEARED):
        if cleared & (1 << bit):
            if bit in FRAME_BITS:
                raise WireError(f"{what}: clears the frame (bit {bit})")
            layer[FIELD_NAMES[bit]] = None
    if new and layer["kind"] == "text":
        # Text layers start from the body font, left-aligned (§3.6).
        layer.setdefault("font", {"size": 17, "weight": 400})
        layer.setdefault("align", "left")
    return layer


def resolve_likes(frame, tree):
    """Turns each INSERT written like a held layer (`like`: its id) into the whole layer JSON
    sends: the model's fields (the tree's layer before this frame, or one inserted earlier in
    it), then the insert's own, nulls deleted, defaults left out."""
    inserted = {}
    for layer in frame.get("insert", []):
        model_id = layer.pop("like", None)
        if model_id is not None:
            model = inserted.get(model_id) or tree.layers.get(model_id)
            if model is None:
                raise WireError(f"insert {layer['id']} is written like layer {model_id}, which is not held")
            if "frame" in layer and layer["frame"] is None:
                raise WireError(f"insert {layer['id']} clears its frame")
            merged = {"id": layer["id"], "parent": layer["parent"], "index": layer["index"],
                      "kind": model["kind"], "frame": list(model["frame"])}
            for key, value in model.items():
                if key not in merged and key != "index":
                    merged[key] = copy.deepcopy(value)
            for key, value in layer.items():
                if key in ("id", "parent", "index"):
                    continue
                if key == "frame":
                    merged["frame"] = [held if new is None else new for held, new in zip(merged["frame"], value)]
                elif value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
            for key, default in (("alpha", 1), ("scale", 1), ("radius", 0), ("clips", False), ("standby", False)):
                # 1.0 decoded from thousandths is the default 1; True is not (bool is an int).
                if key in merged and merged[key] == default and isinstance(merged[key], bool) == isinstance(default, bool):
                    del merged[key]
            layer.clear()
            layer.update(merged)
        inserted[layer["id"]] = layer


def resolve_patches(frame, tree):
    """Fills the frame components a binary patch does not carry from the layers `tree` holds, so
    `frame` becomes exactly the JSON v2 frame (in place; returns it). Needs the tree at `base`."""
    for patch in frame.get("set", []):
        value = patch.get("frame")
        if isinstance(value, list) and None in value:
            held = tree.layers.get(patch["id"])
            if held is None:
                raise WireError(f"delta {frame['seq']}: a patch for layer {patch['id']}, which the client does not hold")
            patch["frame"] = [held["frame"][i] if v is None else v for i, v in enumerate(value)]
    return frame


# MARK: - the layer tree


def _check_new_layer(layer, where):
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


def _default_fields(layer, where):
    """A full LAYER leaves out alpha 1, clips false and radius 0 (§3.5, §3.1)."""
    found = [key for key in ("alpha", "radius")
             if key in layer and not isinstance(layer[key], bool) and layer[key] == (1 if key == "alpha" else 0)]
    found += [key for key in ("clips", "standby") if layer.get(key) is False]
    return [f"{where}: layer {layer.get('id')} writes the default {key} = {layer[key]!r}" for key in found]


def _intersection(a, b):
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return [x0, y0, max(0, x1 - x0), max(0, y1 - y0)]


def _r(value, digits):
    value = round(value, digits)
    return 0.0 if value == 0 else value   # no -0.0


class LayerTree:
    """The client's copy of the server's layer tree (§3.5). `apply` checks every rule and raises
    WireError without changing anything when a frame does not fit."""

    def __init__(self):
        self.layers = {}       # id -> layer dict (JSON fields, `parent` included, never `index`)
        self.children = {}     # id -> [child ids], back to front
        self.root = None
        self.seq = None
        self.time = None
        # Fields a delta sent although they did not change, and `order`s that changed nothing:
        # counted, not fatal (the spec says only what changed is sent).
        self.unchanged = 0
        self.unchanged_example = None
        # Other departures from the spec's shapes that a client can live with, kept as texts: a
        # new layer that writes a default (alpha 1, clips false, radius 0), a patch that sends
        # alpha, clips or radius as null instead of their value.
        self.deviations = []

    # MARK: applying

    def apply(self, frame):
        seq, time_ms = frame.get("seq"), frame.get("time")
        if not isinstance(seq, int):
            raise WireError(f"frame without an integer seq: {str(frame)[:200]}")
        if not isinstance(time_ms, (int, float)):
            raise WireError(f"frame {seq} without a numeric time")
        if frame.get("full"):
            if frame.get("full") is not True or not isinstance(frame.get("nodes"), list):
                raise WireError(f"full frame {seq} without a nodes list")
            for key in ("base", "set", "insert", "remove", "order"):
                if key in frame:
                    raise WireError(f"full frame {seq} carries {key}")
            layers, children, root = self._build(frame["nodes"], seq)
            unchanged = []
            deviations = [d for node in frame["nodes"] for d in _default_fields(node, f"full frame {seq}")]
        else:
            if "nodes" in frame:
                raise WireError(f"delta {seq} carries nodes")
            base = frame.get("base")
            if self.seq is None:
                raise WireError(f"delta {seq} (base {base}) before any full frame")
            if base != self.seq:
                raise WireError(f"delta {seq} has base {base}, but the tree is at {self.seq}: wrong base")
            if seq <= self.seq:
                raise WireError(f"delta {seq} after frame {self.seq}")
            if time_ms < self.time:
                raise WireError(f"delta {seq} has time {time_ms}, before the previous frame's {self.time}")
            layers, children, root, unchanged = self._patched(frame, seq)
            deviations = [d for node in frame.get("insert", []) for d in _default_fields(node, f"delta {seq} insert")]
            deviations += [f"delta {seq}: the patch for {patch['id']} sends {key} as null; the spec sends its value"
                           for patch in frame.get("set", []) for key in ("alpha", "scale", "clips", "standby", "radius")
                           if key in patch and patch[key] is None]
        self.deviations += deviations
        self.layers, self.children, self.root = layers, children, root
        self.seq, self.time = seq, time_ms
        for text in unchanged:
            self.unchanged += 1
            if self.unchanged_example is None:
                self.unchanged_example = text

    def _build(self, nodes, seq):
        where = f"full frame {seq}"
        layers, children, path = {}, {}, []
        root = None
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

    def _patched(self, frame, seq):
        where = f"delta {seq}"
        layers = dict(self.layers)                               # layer dicts copied on write
        children = {k: list(v) for k, v in self.children.items()}
        unchanged = []
        for layer_id in frame.get("remove", []):
            if layer_id not in layers:
                raise WireError(f"{where} removes {layer_id}, which the client does not hold")
            if layer_id == self.root:
                raise WireError(f"{where} removes the root {layer_id}")
            children[layers[layer_id]["parent"]].remove(layer_id)
            stack = [layer_id]
            while stack:
                gone = stack.pop()
                stack.extend(children.pop(gone))
                del layers[gone]
        for layer in frame.get("insert", []):
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
        for patch in frame.get("set", []):
            layer_id = patch.get("id") if isinstance(patch, dict) else None
            if layer_id not in layers:
                raise WireError(f"{where} patches {layer_id}, which the client does not hold")
            if "parent" in patch or "index" in patch:
                raise WireError(f"{where}: the patch for {layer_id} moves it (parent/index); moves are remove + insert")
            if len(patch) < 2:
                unchanged.append(f"{where}: a patch for {layer_id} with no field")
            layer = dict(layers[layer_id])
            for key, value in patch.items():
                if key == "id":
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

    # MARK: reading

    def preorder(self):
        """Ids in pre-order (the order of a full frame)."""
        out, stack = [], [self.root] if self.root is not None else []
        while stack:
            layer_id = stack.pop()
            out.append(layer_id)
            stack.extend(reversed(self.children[layer_id]))
        return out

    def canonical(self):
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

    def flatten(self, width=None, height=None):
        """The v1 display list this tree draws (§3.5 "Drawing the tree"): pre-order from the root
        with offset (0, 0), alpha 1, scale 1 and the clip [0, 0, W, H] (the viewport; the root's
        size when `width`/`height` are not given). A layer is a NODE when it draws something or has
        a role (the server has culled what is off screen); `clip` only when a clipping ancestor
        narrowed the viewport, `clipRadius` when that ancestor has rounded corners; `scale` when not 1 (the product of the layers' own)."""
        if self.root is None:
            return []
        root = self.layers[self.root]
        viewport = [0, 0, width if width is not None else root["frame"][2],
                    height if height is not None else root["frame"][3]]
        out = []
        # (id, parent's absolute x, y, parent's effective alpha and scale, clip, its corner radius)
        stack = [(self.root, 0.0, 0.0, 1.0, 1.0, viewport, 0)]
        while stack:
            layer_id, ox, oy, parent_alpha, parent_scale, clip, clip_radius = stack.pop()
            layer = self.layers[layer_id]
            if layer.get("standby"):
                continue                        # on the viewer, not drawn, with its subtree
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


class TreeDisplay:
    """What a v2 viewer holds: the layer tree and, for binary frames, the string table. Frames go
    in as parsed JSON (`apply`) or as bytes (`receive_binary`, which returns the JSON-equivalent
    dict). `keep_snapshots` keeps the flattened picture after every frame, by seq."""

    def __init__(self, binary=False, keep_snapshots=False):
        self.binary = binary
        self.tree = LayerTree()
        self.strings = []
        self.keep_snapshots = keep_snapshots
        self.snapshots = {}        # seq -> flatten()
        self.trees = {}            # seq -> canonical() (with keep_snapshots)
        self.sizes = {}            # seq -> bytes of the binary frame (binary only)
        self.string_info = {}      # seq -> {"first", "count", "size"} (binary only)

    @property
    def seq(self):
        return self.tree.seq

    def apply(self, frame):
        self.tree.apply(frame)
        self._after(frame)

    def receive_binary(self, data):
        """Decodes and applies one binary frame; returns the JSON-equivalent frame."""
        frame, table, info = decode_frame(data, self.strings)
        if not frame.get("full"):
            if self.tree.seq is None or frame["base"] != self.tree.seq:
                raise WireError(f"delta {frame['seq']} has base {frame['base']}, but the tree is at {self.tree.seq}: wrong base")
            resolve_likes(frame, self.tree)
            resolve_patches(frame, self.tree)
        self.tree.apply(frame)
        self.strings = table        # only once the frame is applied
        self.sizes[frame["seq"]] = info["size"]
        self.string_info[frame["seq"]] = info
        self._after(frame)
        return frame

    def _after(self, frame):
        if self.keep_snapshots:
            self.snapshots[frame["seq"]] = self.tree.flatten()
            self.trees[frame["seq"]] = self.tree.canonical()

    def flatten(self):
        return self.tree.flatten()

    def find(self, role=None, name=None):
        return [n for n in self.flatten()
                if (role is None or n.get("role") == role) and (name is None or n.get("name") == name)]

    def clone(self):
        """A copy to resume from (the tree and the string table a client keeps across a reconnect)."""
        other = TreeDisplay(self.binary, self.keep_snapshots)
        other.tree = copy.deepcopy(self.tree)
        other.strings = list(self.strings)
        return other


# MARK: - comparing pictures


def compare_pictures(v1_nodes, v2_nodes, frame_tol=0.02, alpha_tol=0.002, edge_tol=None, viewport=None):
    """Differences between two v1-shaped display lists: ids and their order, frames (and clips)
    within `frame_tol`, alpha within `alpha_tol`, corner radii within `frame_tol`, scale within
    0.0001, every other field equal (radius and clipRadius 0 = absent, scale 1 = absent).
    With `edge_tol`, a node present in only one list is forgiven when its frame touches its clip's
    edge (its `clip`, else the `viewport` (W, H)) within `edge_tol`: rounding each level's frame
    (v2) instead of the absolute one (v1) can tip a touching edge either way. Returns a list of
    strings, empty when the pictures agree."""
    problems = []
    a = {n["id"]: n for n in v1_nodes}
    b = {n["id"]: n for n in v2_nodes}
    only_a = [i for i in a if i not in b]
    only_b = [i for i in b if i not in a]
    if edge_tol is not None:
        only_a = [i for i in only_a if not _touches_edge(a[i], edge_tol, viewport)]
        only_b = [i for i in only_b if not _touches_edge(b[i], edge_tol, viewport)]
    if only_a:
        problems.append(f"only in the first: {[(i, a[i].get('role'), a[i].get('name'), a[i]['frame']) for i in only_a]}")
    if only_b:
        problems.append(f"only in the second: {[(i, b[i].get('role'), b[i].get('name'), b[i]['frame']) for i in only_b]}")
    common = set(a) & set(b)
    order_a = [n["id"] for n in v1_nodes if n["id"] in common]
    order_b = [n["id"] for n in v2_nodes if n["id"] in common]
    if order_a != order_b:
        problems.append(f"order differs: {order_a} vs {order_b}")
    for node_id in order_a:
        x, y = a[node_id], b[node_id]
        for key in sorted(set(x) | set(y)):
            p, q = x.get(key), y.get(key)
            if key in ("radius", "clipRadius"):
                p, q = p or 0, q or 0
            if key == "scale":
                p, q = p or 1, q or 1
            if key in ("radius", "clipRadius", "scale") and abs(p - q) <= (frame_tol if key != "scale" else 0.0001):
                continue
            if key in ("frame", "clip") and p is not None and q is not None:
                if len(p) != 4 or len(q) != 4 or any(abs(u - v) > frame_tol for u, v in zip(p, q)):
                    problems.append(f"node {node_id} {key}: {p} vs {q}")
            elif key == "alpha" and p is not None and q is not None:
                if abs(p - q) > alpha_tol:
                    problems.append(f"node {node_id} alpha: {p} vs {q}")
            elif p != q:
                problems.append(f"node {node_id} {key}: {p!r} vs {q!r}")
    return problems


def _touches_edge(node, tol, viewport):
    x, y, w, h = node["frame"]
    cx, cy, cw, ch = node.get("clip") or [0, 0, *viewport]
    gaps = [x + w - cx, cx + cw - x, y + h - cy, cy + ch - y]
    return min(gaps) <= tol
