"""Protocol v2's binary encoding (docs/protocol.md §3.6): one frame of bytes -> the dict the same
frame parses to as JSON v2. Everything that knows the byte layout lives in this module.

`decode_frame(data, strings, held)` returns `(frame, table, info)`; `held` is the (seq, time) of the
frame the client holds, which a delta's header counts back from. A binary PATCH names the frame's x,
y, w and h separately, so it may change x alone, while a JSON patch carries `x` and/or `y` when only
those changed and otherwise the whole `frame`: `decode_frame` writes the components a patch does
not carry as None (`[-21.74, None, None, None]`), and `resolve_patches(frame, layers)` turns them
into the JSON form, filling in from the layers the client holds, which gives exactly the JSON frame.

With the feature `templates` (§3.6 "Templates") the caller also passes its template table and the
layers it holds (`templates=`, `layers=`): the frame then carries a TEMPLATES part, and an insert
written like an entry comes out as the whole layer at once (entries are whole layers already, so
unlike an insert written like a held layer nothing is left for `resolve_likes`);
`info["templates"]` is the table after the frame.

With the feature `timelines` a frame's type may add 16 (§3.8): `input:v` follows the header and
BINDINGS the body. The frame then carries them as JSON does: `input` (left out of a delta when it
is the base's, which `held`'s third item gives, as JSON sends it only when it changed) and `bind`
(`"same"` for the base's, else `{"axis", "origin", "travel", "layers": [{"id", "field", "values"}]}`); the
client reads them and does nothing more with them.

With the feature `timelines` (§3.7) a message may be a TIMELINE: the byte 8, a count, then the
frames back to back, each after the first without `seq` and `back` (the frame before's seq plus
one, and 1). `open_message(data)` gives a reader at its first frame and the count, and
`read_frame(reader, …)` decodes one frame after another (the next ones with `continues=True`,
against `held`, the frame before), so that the caller applies each before it reads the next (an
insert may be written like a layer the frame before inserted). A frame whose base is an older
frame than the one held (a cut) is read against that frame, which the caller passes as
`earlier`: its time, its layers, and the string and template tables cut back to the sizes the
frame says it continues, as the server wrote them at that frame (the strings after it are sent
again).
"""

from __future__ import annotations

import copy

from typing import Any, Callable, Mapping, Sequence

from ..errors import WireError
from .format import WIRE

# The format's constants come from docs/wire/binary-v2.json (through format.py); this module knows
# the layout (§3.6) and what the client makes of it.
KINDS = tuple(WIRE["enums"]["kind"])
ALIGNS = tuple(WIRE["enums"]["align"])
FRAME_TYPES = {WIRE["frameTypes"]["full"]: "full", WIRE["frameTypes"]["delta"]: "delta"}
# The first byte of a TIMELINE (feature `timelines`, §3.7): a count, a frame, then the next ones.
TIMELINE = WIRE["frameTypes"]["timeline"]
# Added to the type when a TEMPLATES part follows STRINGS (feature `templates` only, §3.6).
TEMPLATES_FOLLOW = WIRE["frameTypes"]["templatesFollow"]
# Added to the type when `input` follows the header and BINDINGS the body (feature `timelines`, §3.8).
INPUT_FOLLOWS = WIRE["frameTypes"]["inputFollows"]
BINDING_AXES = {value: name for name, value in WIRE["bindings"]["axes"].items()}
BINDING_FIELDS = {value: name for name, value in WIRE["bindings"]["fields"].items()}
# What follows an INSERT's index: the low bits of its `at` (§3.6). Kind template exists only with
# the feature `templates`.
INSERT_KINDS = 1 << WIRE["insert"]["kindBits"]
INSERT_NEW, INSERT_LIKE, INSERT_MOVE, INSERT_TEMPLATE = (
    WIRE["insert"]["kinds"][kind] for kind in ("new", "like", "move", "template"))
# A full frame's LAYER's parent: twice the parent's zig-zag, plus this when a model's id follows.
LIKE_FLAG = WIRE["layerParent"]["likeFlag"]
FROM_DEFAULTS = WIRE["templates"]["fromDefaults"]
MASK_BITS = WIRE["fields"]["maskBits"]
# The mask bit that announces `cleared`; a cleared mask names only bits below it.
CLEARED_FOLLOWS = WIRE["fields"]["clearedFollows"]
# §3.6 "Fields", in bit order: the order their values follow the mask.
FIELDS: tuple[dict[str, Any], ...] = tuple(sorted(WIRE["fields"]["list"], key=lambda field: field["bit"]))
FRAME_MASK = sum(1 << field["bit"] for field in FIELDS if "frame" in field)
TIME_SCALE = WIRE["fixedPoint"]["tenths"]["scale"]
VARINT_BASE = 1 << WIRE["varint"]["payloadBits"]


class ByteReader:
    """Reads the §3.6 primitives from `data`; any read past the end raises WireError."""

    def __init__(self, data: bytes) -> None:
        self.data = bytes(data)
        self.pos = 0

    def _need(self, count: int, what: str) -> None:
        if self.pos + count > len(self.data):
            raise WireError(f"frame ends early: {what} needs {count} byte(s) at offset {self.pos}, "
                            f"the frame has {len(self.data)}")

    def u8(self, what: str) -> int:
        self._need(1, what)
        value = self.data[self.pos]
        self.pos += 1
        return value

    def raw(self, count: int, what: str) -> bytes:
        self._need(count, what)
        value = self.data[self.pos:self.pos + count]
        self.pos += count
        return value

    def varint(self, what: str) -> int:
        """Unsigned LEB128: 7 bits per byte, low bits first, high bit on every byte but the last."""
        value, scale, start = 0, 1, self.pos
        for length in range(1, WIRE["varint"]["maxBytes"] + 1):
            if self.pos >= len(self.data):
                raise WireError(f"frame ends early: varint {what} at offset {start} is cut off")
            byte = self.data[self.pos]
            self.pos += 1
            value += byte % VARINT_BASE * scale
            scale *= VARINT_BASE
            if byte < VARINT_BASE:
                break
            if length == WIRE["varint"]["maxBytes"]:
                raise WireError(f"varint {what} at offset {start} is longer than {length} bytes")
        if value >= 1 << 64:
            raise WireError(f"varint {what} at offset {start} does not fit 64 bits")
        return value

    def zigzag(self, what: str) -> int:
        return zigzag_decode(self.varint(what))

    def hundredths(self, what: str) -> float:
        return self.zigzag(what) / WIRE["fixedPoint"]["hundredths"]["scale"]

    def colour(self, what: str) -> str:
        r, g, b, a = self.raw(4, what)
        text = f"#{r:02X}{g:02X}{b:02X}"
        return text if a == WIRE["colour"]["opaque"] else text + f"{a:02X}"

    def at_end(self) -> bool:
        return self.pos == len(self.data)


def zigzag_encode(n: int) -> int:
    """The zig-zag form of a signed 64-bit integer (0, -1, 1, -2 … become 0, 1, 2, 3 …)."""
    return (n << 1) ^ (n >> 63)


def zigzag_decode(n: int) -> int:
    """The signed integer whose zig-zag form is `n`."""
    return (n >> 1) ^ -(n & 1)


def varint_encode(n: int) -> bytes:
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


def decode_frame(data: bytes, strings: Sequence[str] = (),
                 held: tuple[int, float] | tuple[int, float, int | None] | None = None, *,
                 templates: Sequence[Mapping[str, Any]] | None = None,
                 layers: Mapping[int, Mapping[str, Any]] | None = None) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """Decodes one binary v2 frame for a client whose string table is `strings` and which holds the
    frame whose seq and time (ms, as JSON) are `held` (None before any frame). A delta's header is
    seq − base and the time since the base's, so a delta whose base is not `held` is a wrong base.
    A third item of `held`, the input that frame shows (§3.8), lets a delta leave out an `input` that
    did not change, as JSON does; without it a delta keeps every `input` it carries.

    `templates` is None without the feature `templates`; with it, the client's template table (the
    entries are layers without id, parent and index), and `layers` the layers it holds at the base
    (a delta's entries may be written like one of them).

    Returns (frame, table, info): `frame` is the JSON v2 dict (patch frames may hold None for the
    components the patch does not carry; see the module doc), `table` the string table after this
    frame (a new list; `strings` is never changed), and `info` a dict with `first`, `count` (the
    frame's new strings) and `size` (bytes); with the feature also `template_first`,
    `template_count` (the frame's new entries) and `templates`, the template table after this frame
    (a new list; `templates` is never changed)."""
    return read_frame(ByteReader(data), strings, held, templates=templates, layers=layers, last=True)


def open_message(data: bytes) -> tuple[ByteReader, int | None]:
    """A reader at the first frame of binary message `data`, and how many frames it holds when it
    is a TIMELINE (§3.7; None for a frame alone). A timeline of no frames is refused."""
    reader = ByteReader(data)
    if not data or data[0] != TIMELINE:
        return reader, None
    reader.u8("type")
    count = reader.varint("timeline count")
    if count == 0:
        raise WireError("a timeline of no frames")
    return reader, count


def read_frame(reader: ByteReader, strings: Sequence[str] = (), held: tuple[int, float] | None = None, *,
               templates: Sequence[Mapping[str, Any]] | None = None,
               layers: Mapping[int, Mapping[str, Any]] | None = None,
               earlier: Callable[[int], tuple[float, Mapping[int, Mapping[str, Any]]] | None] | None = None,
               last: bool = True, continues: bool = False) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """`decode_frame` of the frame at the reader's position, leaving the reader after it; `last`:
    the message must end with it; `continues`: a timeline's frame after its first (§3.7), the one
    after `held` and, in a delta, based on it, whose header leaves out `seq` and `back`.
    `earlier(seq)` gives the time and layers of a picture held besides `held`, which a cut's delta
    may be based on (§3.7); the frame is then read against it, and its tables continue ours cut
    back to the sizes it names. `info["size"]` is the frame's bytes."""
    start = reader.pos
    kind_byte = reader.u8("type")
    # A frame that carries an input number and bindings says so (type + 16, feature timelines).
    with_input = kind_byte & INPUT_FOLLOWS != 0
    if with_input:
        kind_byte -= INPUT_FOLLOWS
    # Only a frame that adds template entries says so (type + 4): most add none.
    with_entries = templates is not None and kind_byte & TEMPLATES_FOLLOW != 0
    if with_entries:
        kind_byte -= TEMPLATES_FOLLOW
    if kind_byte not in FRAME_TYPES:
        expected = "1 (full) or 2 (delta), plus 4 with template entries" if templates is not None else "1 (full) or 2 (delta)"
        raise WireError(f"unknown frame type {reader.data[start]}; expected {expected}")
    full = kind_byte == 1
    if continues and held is None:
        raise WireError("a timeline's next frame without a frame before it")
    seq = held[0] + 1 if continues else reader.varint("seq")
    time_tenths = reader.varint("time")
    base = None
    base_input = None
    cut = False
    if not full:
        base = held[0] if continues else seq - reader.varint("base")
        if held is None or base != held[0]:
            picture = earlier(base) if earlier is not None else None
            if picture is None:
                raise WireError(f"delta {seq} has base {base}, but the client holds {held and held[0]}: wrong base")
            held, layers, cut = (base, picture[0]), picture[1], True
        time_tenths += round(held[1] * TIME_SCALE)
        base_input = held[2] if len(held) > 2 else None
    input_number = reader.varint("input") if with_input else base_input
    first = reader.varint("strings.first")
    count = reader.varint("strings.count")
    if full and first != WIRE["strings"]["fullFirst"]:
        raise WireError(f"full frame {seq}: strings start at {first}, a full frame's start at 0")
    if cut and first <= len(strings):
        strings = strings[:first]      # a cut goes on from the table as it was at its base
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
    info: dict[str, Any] = {"first": first, "count": count}
    entries: list[Mapping[str, Any]] | None = None
    if with_entries:
        entries, info["template_first"], info["template_count"] = _read_templates(
            reader, table, templates, layers or {}, full, seq, cut)
        info["templates"] = entries
    elif templates is not None:
        # No entries: a full frame empties the table, a delta keeps it.
        entries = [] if full else list(templates)
        info["template_first"], info["template_count"], info["templates"] = len(entries), 0, entries

    frame: dict[str, Any] = {"type": "frame", "seq": seq, "time": time_tenths / TIME_SCALE}
    if full:
        frame["full"] = True
        if with_input:
            frame["input"] = input_number
        nodes = []
        written: dict[int, dict[str, Any]] = {}
        previous = 0
        for position in range(reader.varint("layer count")):
            layer_id = previous = _read_id(reader, previous, f"layer #{position}")
            parent, like = _read_layer_parent(reader, layer_id)
            if like is None:
                layer = _read_fields(reader, table, layer_id, new=True)
                if parent:
                    layer["parent"] = parent
            else:
                model = written.get(like)
                if model is None:
                    raise WireError(f"layer {layer_id} is written like layer {like}, which the frame has not sent before it")
                layer = _like(model, {"id": layer_id, "parent": parent}, _read_fields(reader, table, layer_id, new=False))
            written[layer_id] = layer
            nodes.append(layer)
        frame["nodes"] = nodes
    else:
        frame["base"] = base
        if with_input and input_number != base_input:
            frame["input"] = input_number
        removed = [reader.varint(f"remove #{i}") for i in range(reader.varint("remove count"))]
        inserted = []
        previous = 0
        for position in range(reader.varint("insert count")):
            layer_id, parent = _read_ids(reader, previous, f"insert #{position}")
            previous = layer_id
            if not parent:
                raise WireError(f"insert {layer_id} has no parent")
            # The index shifted past the kind of insert (§3.6): new, new and written like a held
            # layer, a held layer moved here (nothing follows), new and written like a template
            # (feature `templates` only).
            at = reader.varint(f"index of insert {layer_id}")
            kind, index = at % INSERT_KINDS, at // INSERT_KINDS
            if kind == INSERT_MOVE:
                inserted.append({"id": layer_id, "parent": parent, "index": index, "move": True})
                continue
            if kind == INSERT_LIKE:
                like = layer_id - reader.zigzag(f"model of insert {layer_id}")
                layer = _read_fields(reader, table, layer_id, new=False)
                layer["like"] = like  # resolve_likes makes it the whole layer
            elif kind == INSERT_NEW:
                layer = _read_fields(reader, table, layer_id, new=True)
            elif kind == INSERT_TEMPLATE and entries is not None:
                # The table is complete (a frame's entries come before its body), so the insert
                # becomes the whole layer here, as JSON sends it: a later kind-1 insert written
                # like it then finds it whole, as `resolve_likes` expects of earlier inserts.
                entry = reader.varint(f"template of insert {layer_id}")
                if entry >= len(entries):
                    raise WireError(f"insert {layer_id} is written like template {entry}, the table has {len(entries)}")
                if entries[entry] is None:
                    raise WireError(f"insert {layer_id} is written like template {entry}, which came before our full frame's")
                fields = _read_fields(reader, table, layer_id, new=False)
                inserted.append(_like(entries[entry], {"id": layer_id, "parent": parent, "index": index}, fields))
                continue
            else:
                raise WireError(f"insert {layer_id} is of kind {kind}, which is none without the feature "
                                f"templates (§3.6)")
            layer["parent"] = parent
            layer["index"] = index
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
    if with_input:
        bind = _read_bindings(reader)
        if bind is not None:
            frame["bind"] = bind
    if last and not reader.at_end():
        raise WireError(f"frame {seq}: {len(reader.data) - reader.pos} byte(s) after the end of the frame")
    info["size"] = reader.pos - start
    return frame, table, info


def _read_bindings(reader: ByteReader) -> str | dict[str, Any] | None:
    """BINDINGS (§3.8) as JSON's `bind`: None for none, "same" for the base's, else the axis, the
    origin and travels (hundredths) and each layer's field and values (hundredths, thousandths for
    alpha)."""
    count = reader.varint("bindings count")
    if count == WIRE["bindings"]["none"]:
        return None
    if count == WIRE["bindings"]["same"]:
        return "same"
    axis = reader.u8("bindings axis")
    if axis not in BINDING_AXES:
        raise WireError(f"bindings: axis {axis}; expected 0 (x) or 1 (y)")
    origin = [reader.hundredths("bindings origin x"), reader.hundredths("bindings origin y")]
    travel = [reader.hundredths(f"travel #{i}") for i in range(reader.varint("travel count"))]
    layers = []
    for position in range(count - 1):
        layer_id = reader.varint(f"id of binding #{position}")
        if layer_id < WIRE["ids"]["min"]:
            raise WireError(f"binding #{position}: layer id {layer_id} (ids start at 1)")
        field = reader.u8(f"field of binding #{position}")
        if field not in BINDING_FIELDS:
            raise WireError(f"binding of layer {layer_id}: field {field}; expected 0 (x), 1 (y) or 2 (alpha)")
        name = BINDING_FIELDS[field]
        scale = WIRE["fixedPoint"]["thousandths" if name == "alpha" else "hundredths"]["scale"]
        values = [reader.zigzag(f"value #{i} of binding {layer_id}") / scale for i in range(len(travel))]
        layers.append({"id": layer_id, "field": name, "values": values})
    return {"axis": BINDING_AXES[axis], "origin": origin, "travel": travel, "layers": layers}


def _read_templates(reader: ByteReader, table: Sequence[str], templates: Sequence[Mapping[str, Any] | None],
                    layers: Mapping[int, Mapping[str, Any]], full: bool, seq: int,
                    cut: bool = False) -> tuple[list[Mapping[str, Any] | None], int, int]:
    """The TEMPLATES part (§3.6 "Templates"): returns (the table after it, first, count). It works
    as the string table does: a full frame's entries replace the table, a delta's are appended to
    the `first` entries the client must hold. A full frame's table starts at its `first`: the
    entries below it are unknown (None), and the server never names them to this client. Each
    ENTRY's FIELDS start from what its `from` names:
    0 the defaults (as a new layer), odd 2n − 1 the entry n before it (this frame's count), even
    2 × id the layer `id` as held at the base (deltas only: a full frame has no base). An entry is
    a layer without its place, so `_like` with no place makes it whole, as for an insert."""
    first = reader.varint("templates.first")
    count = reader.varint("templates.count")
    if cut and first <= len(templates):
        templates = templates[:first]  # as the string table: a cut goes on from its base's
    if not full and first != len(templates):
        raise WireError(f"delta {seq}: its templates start at {first} but the client holds {len(templates)}: out of step")
    # Entries are never changed once made, so the new table may share them with the old one.
    entries: list[Mapping[str, Any] | None] = [None] * first if full else list(templates)
    for _ in range(count):
        what = f"template {len(entries)}"
        written = reader.varint(f"from of {what}")
        if written == FROM_DEFAULTS:
            entry = _read_fields(reader, table, None, new=True, what=what)
        else:
            model: Mapping[str, Any] | None
            if written & 1:
                back = (written + 1) // 2
                if back > len(entries) or entries[-back] is None:
                    raise WireError(f"{what} is written like the entry {back} before it; the table has {len(entries)}"
                                    + ("" if back > len(entries) else ", and that one came before our full frame's"))
                model = entries[-back]
            else:
                if full:
                    raise WireError(f"full frame {seq}: {what} is written like layer {written // 2}; "
                                    f"a full frame has no held layers")
                model = layers.get(written // 2)
                if model is None:
                    raise WireError(f"delta {seq}: {what} is written like layer {written // 2}, which the client does not hold")
            entry = _like(model, {}, _read_fields(reader, table, None, new=False, what=what))
        entries.append(entry)
    return entries, first, count


def _read_id(reader: ByteReader, previous: int, what: str) -> int:
    """A LAYER's or INSERT's id: the zig-zag difference from the previous one in its list."""
    layer_id = previous + reader.zigzag(f"id of {what}")
    if layer_id < WIRE["ids"]["min"]:
        raise WireError(f"{what}: layer id {layer_id} (ids start at 1)")
    return layer_id


def _read_ids(reader: ByteReader, previous: int, what: str) -> tuple[int, int | None]:
    """An INSERT's id and parent (zig-zag of id - parent; 0 for the root, returned as None)."""
    layer_id = _read_id(reader, previous, what)
    back = reader.zigzag(f"parent of layer {layer_id}")
    return layer_id, (layer_id - back if back else None)


def _read_layer_parent(reader: ByteReader, layer_id: int) -> tuple[int | None, int | None]:
    """A full frame's LAYER's parent and model: 0 for the root, else the zig-zag of id - parent,
    doubled, plus 1 when the layer is written like an earlier one of the frame, whose id follows
    (zig-zag of id - model). Returns (parent or None, model id or None)."""
    written = reader.varint(f"parent of layer {layer_id}")
    if not written:
        return None, None
    back = zigzag_decode(written >> 1)
    if not back:
        raise WireError(f"layer {layer_id} is its own parent")
    like = layer_id - reader.zigzag(f"model of layer {layer_id}") if written & LIKE_FLAG else None
    return layer_id - back, like


def _read_fields(reader: ByteReader, table: Sequence[str], layer_id: int | None, new: bool,
                 what: str | None = None) -> dict[str, Any]:
    """FIELDS of one LAYER/INSERT (`new`: starts from the defaults) or PATCH, with its `id`; of a
    template ENTRY (`layer_id` None, `what` naming it in errors), without one."""
    if layer_id == 0:
        raise WireError("layer id 0 (ids start at 1)")
    what = what or f"layer {layer_id}"
    mask = reader.varint(f"mask of {what}")
    if mask >> MASK_BITS:
        raise WireError(f"{what}: mask {mask:#x} has a bit above {MASK_BITS - 1}")
    cleared = 0
    if mask & (1 << CLEARED_FOLLOWS):
        cleared = reader.varint(f"cleared mask of {what}")
        if new:
            raise WireError(f"{what}: a new layer has a cleared mask ({cleared:#x})")
        if cleared >> CLEARED_FOLLOWS:
            raise WireError(f"{what}: cleared mask {cleared:#x} has a bit above {CLEARED_FOLLOWS - 1}")
        if cleared & mask:
            raise WireError(f"{what}: fields both set and cleared ({cleared & mask:#x})")
    layer: dict[str, Any] = {} if layer_id is None else {"id": layer_id}
    if new:
        layer["kind"] = WIRE["defaults"]["layer"]["kind"]
        layer["frame"] = list(WIRE["defaults"]["layer"]["frame"])
    elif mask & FRAME_MASK:
        layer["frame"] = [None, None, None, None]
    for field in FIELDS:
        if mask & (1 << field["bit"]):
            value = _read_value(reader, field, table, what)
            if "frame" in field:
                layer["frame"][field["frame"]] = value
            else:
                layer[field["name"]] = value
    for field in FIELDS:
        if field["bit"] < CLEARED_FOLLOWS and cleared & (1 << field["bit"]):
            if "frame" in field:
                raise WireError(f"{what}: clears the frame (bit {field['bit']})")
            layer[field["name"]] = None
    if new and layer["kind"] == "text":
        # Text layers start from the body font, left-aligned (§3.6).
        for key, value in WIRE["defaults"]["text"].items():
            layer.setdefault(key, copy.deepcopy(value))
    return layer


def _read_value(reader: ByteReader, field: Mapping[str, Any], table: Sequence[str], what: str) -> Any:
    """One field's value, or one part of one, as its type says (`types` in format.py)."""
    name, kind = field["name"], field["type"]
    where = f"{name} of {what}"
    fixed = WIRE["fixedPoint"].get(kind)
    if fixed is not None:
        number = reader.zigzag(where) if fixed["signed"] else reader.varint(where)
        if name == "alpha" and number > fixed["scale"]:
            raise WireError(f"{what}: alpha {number} thousandths, above {fixed['scale']}")
        return number / fixed["scale"]
    if kind == "enum":
        names = WIRE["enums"][field["enum"]]
        value = reader.u8(where)
        if value >= len(names):
            raise WireError(f"{what}: {name} {value}; expected 0 to {len(names) - 1}")
        return names[value]
    if kind in ("bool", "selected"):
        value = reader.u8(where)
        if value > 1:
            raise WireError(f"{what}: {name} {value}; expected 0 or 1")
        if kind == "selected":
            return True if value == 1 else None  # 0: no longer selected, JSON's null
        return value == 1
    if kind == "colour":
        return reader.colour(where)
    if kind == "string":
        index = reader.varint(where)
        if index >= len(table):
            raise WireError(f"{what}: {name} names string {index}, the table has {len(table)}")
        return table[index]
    if kind == "varint":
        return reader.varint(where)
    if kind == "object":
        return {part["name"]: _read_value(reader, part, table, f"{name} of {what}") for part in field["parts"]}
    raise WireError(f"format.py: field {name} has the unknown type {kind}")


# What JSON leaves out of a layer when it holds the default (kind and frame it always carries).
_DEFAULTS: tuple[tuple[str, Any], ...] = tuple(
    (key, value) for key, value in WIRE["defaults"]["layer"].items() if key not in ("kind", "frame"))


def resolve_likes(frame: dict[str, Any], layers: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """Turns each INSERT written like a held layer (`like`: the model's id) into the whole layer a
    JSON frame sends: the model's fields (the layer the client holds at `base`, or one inserted
    earlier in this frame), then the insert's own, nulls deleted and defaults left out (in place;
    returns the frame)."""
    inserted: dict[int, dict[str, Any]] = {}
    for layer in frame.get("insert", []):
        if layer.get("move"):
            continue  # a held layer: a later insert written like it takes it from `layers`
        model_id = layer.pop("like", None)
        if model_id is not None:
            model = inserted.get(model_id) or layers.get(model_id)
            if model is None:
                raise WireError(f"insert {layer['id']} is written like layer {model_id}, which the client does not hold")
            place = {key: layer[key] for key in ("id", "parent", "index")}
            merged = _like(model, place, layer)
            layer.clear()
            layer.update(merged)
        inserted[layer["id"]] = layer
    return frame


def _like(model: Mapping[str, Any], place: dict[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """The whole layer a LAYER or INSERT written like `model` stands for: its `place` (id, parent and
    for an insert its index), the model's fields, then its own `fields` (as `_read_fields` reads them
    for a patch), nulls deleted and defaults left out, as JSON sends it."""
    merged: dict[str, Any] = {**place, "kind": model["kind"], "frame": list(model["frame"])}
    for key, value in model.items():
        if key not in merged and key not in ("id", "parent", "index"):
            merged[key] = copy.deepcopy(value)
    for key, value in fields.items():
        if key in ("id", "parent", "index"):
            continue
        if key == "frame":
            merged["frame"] = [held if new is None else new for held, new in zip(merged["frame"], value)]
        elif value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    for key, default in _DEFAULTS:
        # 1.0 decoded from thousandths is the default 1; True is not (bool is an int).
        if key in merged and merged[key] == default and isinstance(merged[key], bool) == isinstance(default, bool):
            del merged[key]
    return merged


def resolve_patches(frame: dict[str, Any], layers: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """Writes a binary patch's frame components as JSON v2 does, so `frame` becomes exactly the JSON
    v2 frame (in place; returns it): `x` and/or `y` alone for a layer that only moved, else the whole
    frame, the components the patch does not carry taken from the layers the client holds (`layers`,
    the tree at `base`)."""
    for patch in frame.get("set", []):
        value = patch.get("frame")
        if isinstance(value, list) and value[2] is None and value[3] is None:
            del patch["frame"]
            for key, edge in (("x", value[0]), ("y", value[1])):
                if edge is not None:
                    patch[key] = edge
        elif isinstance(value, list) and None in value:
            held = layers.get(patch["id"])
            if held is None:
                raise WireError(f"delta {frame['seq']}: a patch for layer {patch['id']}, which the client does not hold")
            patch["frame"] = [held["frame"][i] if v is None else v for i, v in enumerate(value)]
    return frame
