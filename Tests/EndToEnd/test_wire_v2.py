"""Protocol v2 on the wire (docs/protocol.md §3.5 layer tree, §3.6 binary encoding), checked with
an independent client-side model (wire_v2.py, written from the spec):

- `hello` picks the wire (`protocol`, `encoding`) and `welcome` reports it; bad choices are
  `bad_message` with the server's exact texts;
- one scripted session of the `phone` app seen three ways at once (watchers on v1, v2 JSON and
  v2 binary, plus a binary controller): at rest after every step, and at every frame all three
  received with the same seq, the flattened v2 trees draw the v1 picture;
- binary frames are binary WebSocket messages and JSON ones text; a binary full frame of the phone
  app's home screen is under 2 KB; viewers at one base get byte-identical frames;
- resuming on v2 with `lastSeq` gives a delta from that base, on binary without it a full frame
  with the string table from 0;
- the `move` feature of earlier builds is gone.

The first tests need no server: they pin the decoder and the tree model to the spec's own example
bytes and rules, so that a disagreement with the server later points at the server.

No assertion depends on timing: waits are bounded but generous, and "at rest" means no frame for
half a second after the step's command or gesture has ended."""

import json

import pytest

from stackcast_client import open_client, run, session
from wire_v2 import (LayerTree, TreeDisplay, WireError, compare_pictures, decode_frame, patches_of, varint_encode,
                     zigzag_encode)

PHONE = {"width": 390, "height": 844, "scale": 3, "safeArea": {"top": 47, "bottom": 34}}
W, H = 390, 844
TAB_Y = 844 - 34 - 49 + 20  # inside the tab bar's items (the bar's top is at 761)
EVENTS = ["lifecycle", "transition", "gesture", "page"]

V1, V2_JSON, V2_BINARY = {}, {"protocol": 2}, {"protocol": 2, "encoding": "binary"}

# The spec's example (§3.6): a scene with a page and its title, then the page slides 21.74 pt.
DOC_FULL = bytes.fromhex(
    "01 01 00 00 04 05 73 63 65 6e 65 04 70 61 67 65 04 48 6f 6d 65 03 76 63 31 03"
    "02 00 d8 80 08 b0 e1 04 e0 a6 0a 01 00"
    "02 04 98 81 1c b0 e1 04 e0 a6 0a ff ff ff ff 01 02 03"
    "02 04 9f f0 01 01 c0 bb 01 b8 49 b0 ea 01 e0 44 02 c8 1a d8 04 00 00 00 ff 01")
DOC_DELTA = bytes.fromhex("02 02 a6 01 01 04 00 00 00 01 02 02 fb 21 00")
DOC_HELD = (1, 0)   # DOC_FULL's seq and time, which DOC_DELTA's header counts back from
DOC_FULL_JSON = {"type": "frame", "seq": 1, "time": 0, "full": True, "nodes": [
    {"id": 1, "kind": "rect", "frame": [0, 0, 390, 844], "clips": True, "name": "scene"},
    {"id": 2, "parent": 1, "kind": "rect", "frame": [0, 0, 390, 844], "fill": "#FFFFFF", "role": "page",
     "name": "Home", "vc": "vc1"},
    {"id": 3, "parent": 2, "kind": "text", "frame": [120, 47, 150, 44], "text": "Home",
     "font": {"size": 17, "weight": 600}, "color": "#000000", "align": "center"}]}
DOC_DELTA_JSON = {"type": "frame", "seq": 2, "time": 16.6, "base": 1, "set": [{"id": 2, "x": -21.74}]}


# MARK: - the model against the spec (no server)


def test_decoder_reads_the_spec_example_as_its_json():
    frame, table, info = decode_frame(DOC_FULL, [])
    assert frame == DOC_FULL_JSON
    assert table == ["scene", "page", "Home", "vc1"]
    assert info == {"first": 0, "count": 4, "size": 83}
    delta, table2, info2 = decode_frame(DOC_DELTA, table, DOC_HELD)
    assert info2 == {"first": 4, "count": 0, "size": 15}
    assert table2 == table
    # The patch carries x alone; the rest of the frame comes from the layer the client holds.
    assert delta["set"] == [{"id": 2, "frame": [-21.74, None, None, None]}]
    display = TreeDisplay(binary=True)
    assert display.receive_binary(DOC_FULL) == DOC_FULL_JSON
    assert display.receive_binary(DOC_DELTA) == DOC_DELTA_JSON
    assert display.flatten() == [
        {"id": 2, "kind": "rect", "frame": [-21.74, 0, 390, 844], "alpha": 1, "fill": "#FFFFFF", "role": "page",
         "name": "Home", "vc": "vc1"},
        {"id": 3, "kind": "text", "frame": [98.26, 47, 150, 44], "alpha": 1, "text": "Home",
         "font": {"size": 17, "weight": 600}, "color": "#000000", "align": "center"}]
    # The same two frames as JSON give the same tree.
    tree = LayerTree()
    tree.apply(DOC_FULL_JSON)
    tree.apply(DOC_DELTA_JSON)
    assert tree.canonical() == display.tree.canonical()


def test_decoder_refuses_what_the_spec_rules_out():
    table = ["scene", "page", "Home", "vc1"]
    # Every cut of a frame ends early.
    for frame in (DOC_FULL, DOC_DELTA):
        for cut in range(len(frame)):
            with pytest.raises(WireError, match="ends early"):
                decode_frame(frame[:cut], table, DOC_HELD)
    with pytest.raises(WireError, match="after the end"):
        decode_frame(DOC_DELTA + b"\x00", table, DOC_HELD)
    for kind in (0, 3, 255):
        with pytest.raises(WireError, match="unknown frame type"):
            decode_frame(bytes([kind]) + DOC_DELTA[1:], table, DOC_HELD)
    # A delta whose `first` is not the size of the client's table: out of step.
    with pytest.raises(WireError, match="out of step"):
        decode_frame(DOC_DELTA, table[:3], DOC_HELD)
    with pytest.raises(WireError, match="out of step"):
        decode_frame(DOC_DELTA, table + ["extra"], DOC_HELD)
    # A full frame's strings start at 0.
    with pytest.raises(WireError, match="start at 0"):
        decode_frame(b"\x01\x01\x00\x01\x00\x00", [])

    def delta(patch):
        """Delta seq 2 from 1, no new strings, one patch."""
        return b"\x02\x02\x00\x01" + varint_encode(len(table)) + b"\x00\x00\x00\x01" + patch + b"\x00"

    with pytest.raises(WireError, match="above 22"):
        decode_frame(delta(b"\x02" + varint_encode(1 << 23)), table, DOC_HELD)
    # Bit 22 is `selected`: 1 the selected tab, 0 no longer selected (JSON's null).
    assert decode_frame(delta(b"\x02" + varint_encode(1 << 22) + b"\x01"), table, DOC_HELD)[0]["set"] == [{"id": 2, "selected": True}]
    assert decode_frame(delta(b"\x02" + varint_encode(1 << 22) + b"\x00"), table, DOC_HELD)[0]["set"] == [{"id": 2, "selected": None}]
    with pytest.raises(WireError, match="selected 2"):
        decode_frame(delta(b"\x02" + varint_encode(1 << 22) + b"\x02"), table, DOC_HELD)
    # Bit 20 is `standby`: a byte 0 or 1.
    assert decode_frame(delta(b"\x02" + varint_encode(1 << 20) + b"\x01"), table, DOC_HELD)[0]["set"] == [{"id": 2, "standby": True}]
    with pytest.raises(WireError, match="standby 2"):
        decode_frame(delta(b"\x02" + varint_encode(1 << 20) + b"\x02"), table, DOC_HELD)
    # Bit 21 is the scale, in hundred-thousandths, after every other field.
    assert decode_frame(delta(b"\x02" + varint_encode(1 << 21) + varint_encode(91795)), table, DOC_HELD)[0]["set"] == [{"id": 2, "scale": 0.91795}]
    with pytest.raises(WireError, match="names string 4, the table has 4"):
        decode_frame(delta(b"\x02" + varint_encode(1 << 17) + b"\x04"), table, DOC_HELD)
    assert decode_frame(delta(b"\x02" + varint_encode(1 << 17) + b"\x03"), table, DOC_HELD)[0]["set"] == [{"id": 2, "name": "vc1"}]
    with pytest.raises(WireError, match="kind 3"):
        decode_frame(delta(b"\x02\x01\x03"), table, DOC_HELD)
    with pytest.raises(WireError, match="align 3"):
        decode_frame(delta(b"\x02" + varint_encode(1 << 14) + b"\x03"), table, DOC_HELD)
    with pytest.raises(WireError, match="alpha 1001"):
        decode_frame(delta(b"\x02" + varint_encode(1 << 5) + varint_encode(1001)), table, DOC_HELD)
    # The cleared mask: fields that went away are JSON's null.
    cleared = (1 << 7) | (1 << 9) | (1 << 11)
    frame = decode_frame(delta(b"\x02" + varint_encode((1 << 19) | (1 << 5)) + varint_encode(cleared) + varint_encode(250)), table, DOC_HELD)[0]
    assert frame["set"] == [{"id": 2, "alpha": 0.25, "fill": None, "shadow": None, "text": None}]
    with pytest.raises(WireError, match="cleared mask"):
        decode_frame(delta(b"\x02" + varint_encode(1 << 19) + varint_encode(1 << 19)), table, DOC_HELD)
    with pytest.raises(WireError, match="ends early"):
        decode_frame(delta(b"\x02" + varint_encode(1 << 19))[:-1], table, DOC_HELD)
    # Negative hundredths (zig-zag), colours with alpha, shadow, border, font, radius.
    fields = ((1 << 1) | (1 << 8) | (1 << 9) | (1 << 10) | (1 << 12) | (1 << 13))
    body = (varint_encode(zigzag_encode(-1)) + varint_encode(zigzag_encode(450))
            + bytes([0, 0, 0, 0x33]) + varint_encode(zigzag_encode(800)) + varint_encode(zigzag_encode(-200)) + varint_encode(0)
            + bytes([0x12, 0xAB, 0xEF, 0xFF]) + varint_encode(zigzag_encode(50))
            + varint_encode(zigzag_encode(1050)) + varint_encode(500)
            + bytes([0xFF, 0x3B, 0x30, 0xF0]))
    frame = decode_frame(delta(b"\x02" + varint_encode(fields) + body), table, DOC_HELD)[0]
    assert frame["set"] == [{"id": 2, "frame": [-0.01, None, None, None], "radius": 4.5,
                             "shadow": {"color": "#00000033", "blur": 8, "x": -2, "y": 0},
                             "border": {"color": "#12ABEF", "width": 0.5},
                             "font": {"size": 10.5, "weight": 500}, "color": "#FF3B30F0"}]
    # New strings are appended to the table and can be named by the same frame.
    grown = b"\x02\x02\x00\x01\x04\x01\x03abc\x00\x00\x01\x02" + varint_encode(1 << 11) + b"\x04\x00"
    frame, table2, info = decode_frame(grown, table, DOC_HELD)
    assert frame["set"] == [{"id": 2, "text": "abc"}] and table2 == table + ["abc"] and info["count"] == 1
    assert table == ["scene", "page", "Home", "vc1"]   # the caller's table is untouched


def test_tree_model_applies_deltas_as_the_spec_says():
    tree = LayerTree()
    tree.apply({"type": "frame", "seq": 5, "time": 10, "full": True, "nodes": [
        {"id": 1, "kind": "rect", "frame": [0, 0, 390, 844], "clips": True},
        {"id": 2, "parent": 1, "kind": "rect", "frame": [10, 0, 390, 844], "fill": "#FFFFFF", "role": "page"},
        {"id": 3, "parent": 2, "kind": "rect", "frame": [0, 100, 390, 200], "alpha": 0.5, "clips": True},
        {"id": 4, "parent": 3, "kind": "text", "frame": [-20, 10, 100, 20], "text": "a", "color": "#000000"},
        {"id": 5, "parent": 3, "kind": "rect", "frame": [0, 190, 50, 50], "fill": "#FF0000", "alpha": 0.5},
        {"id": 6, "parent": 1, "kind": "rect", "frame": [0, 800, 390, 44], "fill": "#F9F9F9", "role": "tabbar"},
        {"id": 7, "parent": 1, "kind": "rect", "frame": [390, 0, 10, 10], "name": "stripped"}]})
    assert tree.flatten() == [
        {"id": 2, "kind": "rect", "frame": [10, 0, 390, 844], "alpha": 1, "fill": "#FFFFFF", "role": "page"},
        # Clipped by 3 (absolute [10,100,390,200], narrowed to the viewport's right edge).
        {"id": 4, "kind": "text", "frame": [-10, 110, 100, 20], "alpha": 0.5, "text": "a", "color": "#000000",
         "clip": [10, 100, 380, 200]},
        {"id": 5, "kind": "rect", "frame": [10, 290, 50, 50], "alpha": 0.25, "fill": "#FF0000", "clip": [10, 100, 380, 200]},
        {"id": 6, "kind": "rect", "frame": [0, 800, 390, 44], "alpha": 1, "fill": "#F9F9F9", "role": "tabbar"}]
    # 3 and 7 draw nothing and have no role (7 as the server sends a layer it keeps off screen).
    with pytest.raises(WireError, match="wrong base"):
        tree.apply({"type": "frame", "seq": 7, "time": 11, "base": 4})
    tree.apply({"type": "frame", "seq": 6, "time": 11, "base": 5,
                "remove": [3, 7],
                "insert": [{"id": 8, "parent": 1, "index": 1, "kind": "rect", "frame": [0, 0, 10, 10], "fill": "#00FF00"},
                           {"id": 9, "parent": 8, "index": 0, "kind": "icon", "frame": [1, 1, 5, 5], "icon": "back"}],
                "set": [{"id": 2, "frame": [0, 0, 390, 844], "fill": None, "alpha": 0.5}],
                "order": [{"id": 1, "children": [6, 2, 8]}]})
    assert tree.children == {1: [6, 2, 8], 2: [], 6: [], 8: [9], 9: []}
    assert set(tree.layers) == {1, 2, 6, 8, 9}
    assert tree.layers[2] == {"id": 2, "parent": 1, "kind": "rect", "frame": [0, 0, 390, 844], "role": "page", "alpha": 0.5}
    assert [n["id"] for n in tree.flatten()] == [6, 2, 8, 9]
    assert tree.unchanged == 0
    bad = [
        ({"remove": [3]}, "does not hold"),
        ({"insert": [{"id": 10, "parent": 8, "index": 2, "kind": "rect", "frame": [0, 0, 1, 1]}]}, "index 2"),
        ({"insert": [{"id": 10, "parent": 3, "index": 0, "kind": "rect", "frame": [0, 0, 1, 1]}]}, "does not hold"),
        ({"insert": [{"id": 9, "parent": 8, "index": 0, "kind": "rect", "frame": [0, 0, 1, 1]}]}, "already holds"),
        ({"set": [{"id": 3, "alpha": 1}]}, "does not hold"),
        ({"set": [{"id": 2, "frame": None}]}, "deletes frame"),
        ({"order": [{"id": 1, "children": [6, 2]}]}, "rearrangement"),
    ]
    for parts, message in bad:
        with pytest.raises(WireError, match=message):
            tree.apply({"type": "frame", "seq": 7, "time": 12, "base": 6, **parts})
    assert tree.seq == 6 and set(tree.layers) == {1, 2, 6, 8, 9}   # refused frames change nothing


# MARK: - hello and welcome


def test_welcome_reports_the_wire_and_bad_choices_are_refused(server):
    async def body():
        for fields, wire in [({}, (1, "json")), ({"protocol": 1}, (1, "json")), ({"protocol": 1, "encoding": "json"}, (1, "json")),
                             (V2_JSON, (2, "json")), ({"protocol": 2, "encoding": "json"}, (2, "json")),
                             (V2_BINARY, (2, "binary"))]:
            client = await open_client(server.ws_url)
            welcome = await client.hello(app="phone", viewport=PHONE, **fields)
            assert welcome["type"] == "welcome", (fields, welcome)
            assert (welcome["protocol"], welcome["encoding"]) == wire, (fields, welcome)
            frame = await client.wait_frame(since=0)
            assert frame["full"] is True and frame["seq"] == 1
            kinds = {kind for _, _, kind, _ in client.wire_frames}
            assert kinds == (set() if wire[0] == 1 else {"binary" if wire[1] == "binary" else "text"}), (fields, kinds)
            await client.close()
        # Layer templates are a part of binary frames: granted there only (§3.6 "Templates").
        for fields, granted in [(V2_BINARY, ["templates"]), (V2_JSON, []), (V1, [])]:
            client = await open_client(server.ws_url)
            welcome = await client.hello(app="phone", viewport=PHONE, features=["templates"], **fields)
            assert welcome["features"] == granted, (fields, welcome)
            await client.close()
        refused = [
            ({"protocol": 3}, "protocol: this server speaks 1 or 2, got 3"),
            ({"protocol": 0}, "protocol: this server speaks 1 or 2, got 0"),
            ({"protocol": "2"}, 'protocol: expected an integer, got "2"'),
            ({"protocol": 2.5}, "protocol: expected an integer, got 2.5"),
            ({"protocol": 1, "encoding": "binary"}, 'encoding: binary frames need protocol 2 (send "protocol":2)'),
            ({"encoding": "binary"}, 'encoding: binary frames need protocol 2 (send "protocol":2)'),
            ({"protocol": 2, "encoding": "xml"}, 'encoding: expected one of json, binary, got "xml"'),
            ({"encoding": "xml"}, 'encoding: expected one of json, binary, got "xml"'),
        ]
        client = await open_client(server.ws_url)
        for fields, message in refused:
            reply = await client.hello(app="phone", viewport=PHONE, **fields)
            assert reply == {"type": "error", "code": "bad_message", "message": message}, (fields, reply)
        # The connection is still usable, and joined nothing: a good hello now starts a session.
        welcome = await client.hello(app="phone", viewport=PHONE, **V2_BINARY)
        assert (welcome["type"], welcome["protocol"], welcome["encoding"]) == ("welcome", 2, "binary")
        await client.wait_frame(since=0)
        assert not client.messages(type="frame")[:-1], "frames before the good hello"
        # A watcher's wire is its own: v2 binary watching a session whose controller speaks v1.
        v1 = await session(server.ws_url, app="phone", viewport=PHONE)
        token = v1.log[0][1]["session"]
        watcher = await open_client(server.ws_url)
        welcome = await watcher.hello(app=None, viewport=None, session=token, role="view", **V2_BINARY)
        assert (welcome["protocol"], welcome["encoding"], welcome["role"]) == (2, "binary", "view")
        reply = await watcher.hello(app=None, viewport=None, session=token, role="view", protocol=7)
        assert reply == {"type": "error", "code": "bad_message", "message": "protocol: this server speaks 1 or 2, got 7"}
        for c in (client, v1, watcher):
            c.check()
            await c.close()
    run(body())


# MARK: - one session, three wires


class Trio:
    """A binary controller of a new `phone` session and watchers on v1, v2 JSON and v2 binary, all
    keeping the picture after every frame."""

    def __init__(self):
        self.t = 10_000.0      # pointer clock (ms)
        self.rest_checks = 0
        self.steps = []

    async def start(self, url, app="phone", viewport=PHONE):
        self.control = await session(url, app=app, viewport=viewport, keep_snapshots=True, **V2_BINARY)
        self.token = self.control.log[0][1]["session"]
        await self.control.ok("subscribe", events=EVENTS)
        self.v1 = await session(url, app=None, viewport=None, keep_snapshots=True, session=self.token, role="view")
        self.json = await session(url, app=None, viewport=None, keep_snapshots=True, session=self.token, role="view", **V2_JSON)
        self.binary = await session(url, app=None, viewport=None, keep_snapshots=True, session=self.token, role="view", **V2_BINARY)
        for client, wire in [(self.v1, (1, "json")), (self.json, (2, "json")), (self.binary, (2, "binary"))]:
            welcome = client.messages(type="welcome")[0]
            assert (welcome["protocol"], welcome["encoding"], welcome["role"]) == (*wire, "view"), welcome
        await self.rest("attached")

    @property
    def clients(self):
        return [self.control, self.v1, self.json, self.binary]

    async def rest(self, step):
        """Waits until no frame has come for 0.5 s on any connection, then compares the pictures."""
        for client in self.clients:
            await client.settle(quiet=0.5, timeout=20)
        for client in self.clients:
            client.check()
        # (Seqs at rest may differ: a frame goes only to viewers whose form of the picture changed,
        # and a viewer attaching with a new form makes a new seq that the others do not get.)
        picture = self.v1.display_list()
        problems = []
        for name, client in [("v2 json", self.json), ("v2 binary", self.binary), ("controller (binary)", self.control)]:
            problems += [f"{name}: {p}" for p in compare_pictures(picture, client.v2.flatten())]
        # The v2 viewers hold exactly the same tree.
        tree = self.json.v2.tree.canonical()
        for name, client in [("binary watcher", self.binary), ("controller", self.control)]:
            if client.v2.tree.canonical() != tree:
                problems.append(f"the JSON watcher and the {name} hold different trees")
        assert not problems, f"{step} (v1 seq {self.v1.seq}, v2 seq {self.json.v2.seq}):\n  " + "\n  ".join(problems[:20])
        self.rest_checks += 1
        self.steps.append((step, self.json.v2.seq, len(picture)))
        return picture

    def find(self, role=None, name=None):
        return [n for n in self.v1.display_list()
                if (role is None or n.get("role") == role) and (name is None or n.get("name") == name)]

    async def tap(self, x, y):
        self.t += 1000
        await self.control.pointer("down", x, y, self.t)
        await self.control.pointer("up", x, y, self.t + 80)

    async def drag(self, xs, ys, step=16.0, up=True, hold=False):
        """Down at (xs[0], ys[0]), one move per further point, `step` ms apart; with `hold` the
        finger then stays 150 ms (no fling)."""
        self.t += 1000
        await self.control.pointer("down", xs[0], ys[0], self.t)
        for x, y in zip(xs[1:], ys[1:]):
            self.t += step
            await self.control.pointer("move", x, y, self.t, samples=[[x, y, self.t]])
        if hold:
            x, y = xs[-1], ys[-1]
            samples = [[x, y, self.t + 50], [x, y, self.t + 100], [x, y, self.t + 150]]
            self.t += 150
            await self.control.pointer("move", x, y, self.t, samples=samples)
        if up:
            await self.control.pointer("up", xs[-1], ys[-1], self.t)

    async def tap_row(self, name, transition=True):
        rows = self.find(role="row", name=name)
        assert rows, f"no row {name}: {[n['name'] for n in self.find(role='row')]}"
        x, y, w, h = rows[0]["frame"]
        start = self.control.mark()
        await self.tap(x + w / 3, y + h / 2)
        if transition:
            await self.control.wait_event("transitionEnd", since=start, timeout=15)

    def intermediate(self):
        """Compares the pictures at every seq the v1, JSON and binary watchers all received;
        returns (seqs compared, problems)."""
        problems = []
        self.forgiven = 0                 # nodes on one side only, touching the clip's edge
        self.largest = [0.0, 0.0]         # largest frame and alpha difference seen
        common = sorted(set(self.v1.snapshots) & set(self.json.v2.snapshots) & set(self.binary.v2.snapshots))
        for seq in common:
            v1 = self.v1.snapshots[seq]
            viewport = self.binary.v2.trees[seq][0]["frame"][2:]
            for name, v2 in [("json", self.json.v2.snapshots[seq]), ("binary", self.binary.v2.snapshots[seq])]:
                problems += [f"seq {seq} {name}: {p}" for p in compare_pictures(v1, v2, edge_tol=0.02, viewport=viewport)]
                self.forgiven += sum(1 for p in compare_pictures(v1, v2) if p.startswith("only in"))
                by_id = {n["id"]: n for n in v2}
                for node in v1:
                    other = by_id.get(node["id"])
                    if other:
                        self.largest[0] = max([self.largest[0]] + [abs(a - b) for a, b in zip(node["frame"], other["frame"])])
                        self.largest[1] = max(self.largest[1], abs(node["alpha"] - other["alpha"]))
        return common, problems


def frames_by_key(client):
    """The frames a client applied, keyed by (seq, base): the JSON dicts (decoded for binary), each
    delta's `set` as one patch per layer in id order, so that JSON's lists by field and the
    binary decoder's patches compare."""
    def canonical(frame):
        if "set" not in frame:
            return frame
        return {**frame, "set": sorted(patches_of(frame["set"], f"frame {frame['seq']}"), key=lambda patch: patch["id"])}
    return {(m["seq"], m.get("base")): canonical(m) for m in client.messages(type="frame")}


def test_one_session_three_wires_draw_the_same_picture(server):
    async def body():
        trio = Trio()
        await trio.start(server.ws_url)
        ctl = trio.control

        # Pushes and pops by command.
        await ctl.ok("push", screen={"name": "Detail", "rows": [{"title": "One"}, {"title": "Two", "detail": "2"}]})
        await trio.rest("push Detail (slide)")
        await ctl.ok("push", screen={"name": "Faded", "background": "#FFE4E6"}, transition="fade")
        await trio.rest("push Faded (fade)")
        await ctl.ok("pop")
        await trio.rest("pop Faded (fade)")
        await ctl.ok("pop")
        await trio.rest("pop Detail")

        # A row tap pushes the long Playlists list; it is scrolled by a fling and by the wheel.
        await trio.tap_row("Playlists")
        await trio.rest("tap Playlists")
        await trio.drag([200] * 11, list(range(650, 320, -30)))          # 30 pt per 16 ms: a fling
        await trio.rest("fling the Playlists list")
        state = await ctl.state()
        scrolled = state["tabs"][0]["stack"][-1].get("scrollOffset", 0)
        assert scrolled > 300, f"the fling did not scroll the list: {state['tabs'][0]['stack'][-1]}"
        mark = ctl.mark()
        await ctl.send({"type": "scroll", "x": 200, "y": 500, "dx": 0, "dy": -120, "t": trio.t})
        await ctl.wait_frame(since=mark)
        await trio.rest("wheel on the Playlists list")
        ys = list(range(300, 521, 11))                                   # a slow drag, no fling
        await trio.drag([200] * len(ys), ys, hold=True)
        await trio.rest("drag the Playlists list")

        # A back-swipe: held half way (a picture mid-gesture, with the covered page, the dim and
        # the shadow), then released past half: the pop completes.
        start = ctl.mark()
        xs = list(range(20, 200, 6)) + [200]
        await trio.drag(xs, [400] * len(xs), up=False, hold=True)
        held = await trio.rest("back-swipe held at x = 200")
        assert {n["name"] for n in held if n.get("role") == "page"} == {"Library", "Playlists"}, held
        assert [n for n in held if n.get("role") == "dim"], "no dim mid-drag"
        xs = list(range(200, 300, 6)) + [300]
        trio.t += 16
        for x in xs:
            trio.t += 16
            await ctl.pointer("move", x, 400, trio.t, samples=[[x, 400, trio.t]])
        await ctl.pointer("up", 300, 400, trio.t)
        await ctl.wait_event("gestureEnded", since=start, timeout=15)
        await ctl.wait_event("transitionEnd", since=start, timeout=15)
        await trio.rest("back-swipe released: pop")
        assert [p["screen"] for p in (await ctl.state())["tabs"][0]["stack"]] == ["Library"]

        # A back-swipe that is cancelled (released slowly before half way).
        await trio.tap_row("Artist")
        await trio.rest("tap Artist (clear bar)")
        start = ctl.mark()
        xs = list(range(20, 120, 4)) + [120]
        await trio.drag(xs, [400] * len(xs), hold=True)
        await ctl.wait_event("gestureEnded", since=start, timeout=15, cancelled=True)
        await trio.rest("back-swipe cancelled")
        await ctl.ok("pop")
        await trio.rest("pop Artist")

        # The tab bar leaves with the covered page (a hidesBottomBar push moves its layers), and
        # comes back with it.
        await trio.tap_row("Full Screen")
        picture = await trio.rest("push Full Screen (hides the tab bar)")
        assert not [n for n in picture if n.get("role") == "tabbar"]
        await ctl.ok("pop")
        picture = await trio.rest("pop Full Screen")
        assert [n for n in picture if n.get("role") == "tabbar"]

        # A page stack clips its pages: v1 nodes with `clip`; a carousel moves them.
        await trio.tap_row("Nearby")
        picture = await trio.rest("push Nearby (page stack)")
        assert [n for n in picture if "clip" in n], "no clipped node under the page stack"
        await ctl.ok("page", action="push", page={"name": "Museum", "fill": "#E0F2FE", "title": "Museum"})
        await trio.rest("page push Museum (carousel)")
        await ctl.ok("page", action="pop")
        await trio.rest("page pop (carousel)")
        await ctl.ok("pop")
        await trio.rest("pop Nearby")

        # A modal push and its pop.
        await trio.tap_row("Now Playing")
        await trio.rest("push Now Playing (modal)")
        await ctl.ok("pop")
        await trio.rest("pop Now Playing (modal)")

        # Tab switches: a tap on the Search tab, then Settings by command; a badge changes.
        tabs = trio.find(role="tab", name="Search")
        assert tabs, trio.find(role="tab")
        await trio.tap(tabs[0]["frame"][0] + 20, TAB_Y)
        await ctl.wait_until(lambda: [n for n in ctl.v2.flatten() if n.get("role") == "page" and n.get("name") == "Search"],
                             timeout=10, what="the Search tab on screen")
        await trio.rest("tap the Search tab")
        await ctl.ok("selectTab", name="settings")
        await trio.rest("selectTab settings")
        await ctl.ok("setBadge", name="search", badge="12", badgeColor="#34C759")
        await trio.rest("setBadge 12")
        await ctl.ok("selectTab", name="library")
        await trio.rest("selectTab library")

        # A rotation: the layout (and the root's size) changes.
        mark = ctl.mark()
        await ctl.send({"type": "resize", "width": 844, "height": 390, "scale": 3,
                        "safeArea": {"left": 47, "right": 47, "bottom": 21}})
        await ctl.wait_frame(since=mark)
        picture = await trio.rest("resize to landscape")
        assert [n for n in picture if n.get("role") == "tabbar"][0]["frame"][2] == 844
        mark = ctl.mark()
        await ctl.send({"type": "resize", **PHONE})
        await ctl.wait_frame(since=mark)
        await trio.rest("resize back")

        # Frames all three watchers received with the same seq, beyond the pictures at rest (on a
        # loopback socket nearly every frame reaches every watcher; one shared is required).
        common, problems = trio.intermediate()
        rests = {seq for _, seq, _ in trio.steps}
        moving = [seq for seq in common if seq not in rests]
        print(f"\nrest checks {trio.rest_checks}; seqs received by all three watchers {len(common)}, "
              f"{len(moving)} of them mid-motion; last seq {trio.json.v2.seq}; largest v1/v2 difference: "
              f"frame {trio.largest[0]:.4f} pt, alpha {trio.largest[1]:.4f}; edge cases forgiven: {trio.forgiven}")
        assert not problems, "\n  ".join(problems[:30])
        assert len(moving) >= 1, f"no mid-motion frame seen by all three; common {common}, rests {sorted(rests)}"

        # Both v2 encodings at every frame: the binary watcher's decoded frames are the JSON
        # watcher's frames wherever both got the same (seq, base); the trees match at every seq.
        json_frames, binary_frames = frames_by_key(trio.json), frames_by_key(trio.binary)
        shared = sorted(set(json_frames) & set(binary_frames), key=lambda k: k[0])
        differ = [k for k in shared if json_frames[k] != binary_frames[k]]
        assert not differ, (f"binary and JSON frames differ at (seq, base) {differ[:5]}:\n"
                            f"json   {json.dumps(json_frames[differ[0]])[:1500]}\n"
                            f"binary {json.dumps(binary_frames[differ[0]])[:1500]}")
        assert shared, "no frame both watchers got from the same base"
        trees_differ = [s for s in set(trio.json.v2.trees) & set(trio.binary.v2.trees)
                        if trio.json.v2.trees[s] != trio.binary.v2.trees[s]]
        assert not trees_differ, f"JSON and binary trees differ at seqs {sorted(trees_differ)[:10]}"
        # Binary frames came as binary messages, JSON ones as text, throughout.
        assert {kind for _, _, kind, _ in trio.binary.wire_frames + trio.control.wire_frames} == {"binary"}
        assert {kind for _, _, kind, _ in trio.json.wire_frames} == {"text"}
        # Every viewer gets the same time for the same seq.
        times = {}
        for client in trio.clients:
            for frame in client.messages(type="frame"):
                times.setdefault(frame["seq"], set()).add(frame["time"])
        assert all(len(t) == 1 for t in times.values()), {s: t for s, t in times.items() if len(t) > 1}
        # Deltas send only what changed; new layers leave defaults out; nothing is null that the
        # spec sends as a value.
        for client in (trio.json, trio.binary, trio.control):
            assert client.v2.tree.unchanged == 0, client.v2.tree.unchanged_example
            assert not client.v2.tree.deviations, client.v2.tree.deviations[:5]
        assert trio.v1.display.unchanged_fields == 0, trio.v1.display.unchanged_example
        for client in trio.clients:
            await client.close()
    run(body(), timeout=240)


# MARK: - bytes on the wire


def test_binary_frames_are_binary_messages_and_small(server):
    async def body():
        # The phone app's home screen as a binary full frame, next to its JSON forms.
        sizes = {}
        for name, fields in [("v1", V1), ("v2 json", V2_JSON), ("v2 binary", V2_BINARY)]:
            client = await open_client(server.ws_url)
            await client.hello(app="phone", viewport=None, **fields)
            await client.wait_frame(since=0)
            if fields:
                assert len(client.wire_frames) == 1
                seq, base, kind, raw = client.wire_frames[0]
                assert (seq, base) == (1, None)
                assert kind == ("binary" if fields.get("encoding") == "binary" else "text")
                assert isinstance(raw, bytes if kind == "binary" else str)
                sizes[name] = len(raw) if kind == "binary" else len(raw.encode())
            else:
                frame = client.messages(type="frame")[0]
                sizes[name] = len(json.dumps(frame, separators=(",", ":"), ensure_ascii=False).encode())
            if name == "v2 binary":
                info = client.v2.string_info[1]
                assert info["first"] == 0 and info["count"] == len(client.v2.strings) > 0, info
                binary_client = client
            else:
                await client.close()
        print(f"\nphone home screen, full frame: v1 {sizes['v1']} B (re-serialized), v2 JSON {sizes['v2 json']} B, "
              f"v2 binary {sizes['v2 binary']} B ({len(binary_client.v2.strings)} strings)")
        # 2097 B: 1921 before the iOS look, which added the status bar and home indicator (six
        # layers and their strings), the section and a text box of its own for every row label.
        assert sizes["v2 binary"] < 2200, sizes

        # A slide push as binary deltas: every frame a binary message, every delta a few dozen bytes.
        ctl = binary_client
        token = ctl.log[0][1]["session"]
        json_watcher = await session(server.ws_url, app=None, viewport=None, session=token, role="view", **V2_JSON)
        start = ctl.mark()
        await ctl.ok("push", screen={"name": "Detail"})
        await ctl.settle(quiet=0.5)
        await json_watcher.settle(quiet=0.5)
        deltas = [(seq, base, len(raw)) for seq, base, kind, raw in ctl.wire_frames if base is not None]
        assert deltas and all(kind == "binary" and isinstance(raw, bytes) for _, _, kind, raw in ctl.wire_frames)
        assert all(kind == "text" and isinstance(raw, str) for _, _, kind, raw in json_watcher.wire_frames)
        sizes_b = sorted(size for _, _, size in deltas)
        json_sizes = {seq: len(raw.encode()) for seq, base, _, raw in json_watcher.wire_frames if base is not None}
        json_same = sorted(json_sizes[seq] for seq, _, _ in deltas if seq in json_sizes)
        print(f"slide push: {len(deltas)} binary deltas, {sizes_b[0]}..{sizes_b[-1]} B, median {sizes_b[len(sizes_b) // 2]} B; "
              f"the same frames as v2 JSON: median {json_same[len(json_same) // 2] if json_same else '-'} B")
        assert not [m for m in ctl.messages(start) if m["type"] == "frame" and m.get("full")], "a full frame mid-push"
        # Both bars change parent (into the bar transition's container, then into their pages):
        # they are moved, and no layer is sent in full twice.
        inserts = [entry for _, base, _, raw in json_watcher.wire_frames if base is not None
                   for entry in json.loads(raw).get("insert", [])]
        moved = {entry["id"] for entry in inserts if entry.get("move")}
        sent = [entry["id"] for entry in inserts if not entry.get("move")]
        navbars = {layer_id for layer_id, layer in json_watcher.v2.tree.layers.items() if layer.get("role") == "navbar"}
        assert len(navbars) == 2 and navbars <= moved, (navbars, moved)
        assert len(sent) == len(set(sent)), sent
        ctl.check()
        json_watcher.check()
        await json_watcher.close()
        await ctl.close()
    run(body())


def test_viewers_at_one_base_get_byte_identical_frames(server):
    async def body():
        control = await session(server.ws_url, app="phone", viewport=PHONE)
        token = control.log[0][1]["session"]
        watchers = {}
        for name, fields in [("binary a", V2_BINARY), ("binary b", V2_BINARY), ("json a", V2_JSON), ("json b", V2_JSON)]:
            watchers[name] = await session(server.ws_url, app=None, viewport=None, session=token, role="view", **fields)
        for watcher in watchers.values():
            await watcher.settle(quiet=0.3)
        await control.ok("push", screen={"name": "Detail", "rows": [{"title": "Row"}]})
        await control.ok("setBadge", name="search", badge="7")
        await control.ok("pop")
        for client in [control, *watchers.values()]:
            await client.settle(quiet=0.5)
        # One more step from a picture at rest, which every watcher holds: one delta, same base.
        await control.ok("setBadge", name="search", badge="8")
        for client in [control, *watchers.values()]:
            await client.settle(quiet=0.5)
            client.check()
        compared = {}
        for pair in [("binary a", "binary b"), ("json a", "json b")]:
            a, b = ({(s, base): raw for s, base, _, raw in watchers[n].wire_frames} for n in pair)
            common = sorted(set(a) & set(b), key=lambda k: (k[0], k[1] or 0))
            different = [k for k in common if a[k] != b[k]]
            assert not different, (f"{pair} got different bytes for (seq, base) {different[:5]}: "
                                   f"{a[different[0]][:200]!r} vs {b[different[0]][:200]!r}")
            last_a, last_b = watchers[pair[0]].wire_frames[-1], watchers[pair[1]].wire_frames[-1]
            assert last_a[:2] == last_b[:2] and last_a[3] == last_b[3], (last_a[:2], last_b[:2])
            compared[pair] = len(common)
        # Both binary watchers hold the same string table and tree.
        a, b = watchers["binary a"].v2, watchers["binary b"].v2
        assert a.strings == b.strings and a.tree.canonical() == b.tree.canonical()
        assert watchers["json a"].v2.tree.canonical() == a.tree.canonical()
        print(f"\nbyte-identical frames at a shared base: {compared}")
        for client in [control, *watchers.values()]:
            await client.close()
    run(body())


# MARK: - resuming


@pytest.mark.parametrize("transition", ["none", "slide"])
@pytest.mark.parametrize("fields", [V2_JSON, V2_BINARY], ids=["json", "binary"])
def test_resume_with_last_seq_gets_a_delta_from_that_base(server, fields, transition):
    async def body():
        control = await session(server.ws_url, app="phone", viewport=PHONE)
        token = control.log[0][1]["session"]
        watcher = await session(server.ws_url, app=None, viewport=None, session=token, role="view", **fields)
        await control.ok("push", screen={"name": "Detail", "rows": [{"title": "Row"}]})
        await watcher.settle(quiet=0.5)
        watcher.check()
        held = watcher.v2.clone()       # what the client keeps: the tree at its seq, and its strings
        last_seq = held.seq
        await watcher.close()
        # The picture changes while the watcher is away, with new strings for the binary table:
        # one frame (`none`), or a slide's twenty-odd, still within the session's 32-frame history.
        seq_before = control.seq
        await control.ok("push", screen={"name": "Elsewhere", "rows": [{"title": "A new row", "detail": "new text"}]},
                         transition=transition)
        await control.settle(quiet=0.5)
        made = control.seq - seq_before
        assert (made == 1) if transition == "none" else (1 < made < 32), made

        resumed = await open_client(server.ws_url, v2=held)
        start = resumed.mark()
        welcome = await resumed.hello(app=None, viewport=None, session=token, role="view", lastSeq=last_seq, **fields)
        assert (welcome["type"], welcome["resumed"], welcome["protocol"]) == ("welcome", True, 2), welcome
        frame = await resumed.wait_frame(since=start)
        resumed.check()   # the delta applied to the held tree (and, binary, the held string table)
        assert not frame.get("full") and frame["base"] == last_seq, {k: frame.get(k) for k in ("seq", "base", "full")}
        # (Its seq may be one past the controller's: while no v2 viewer is attached the session
        # makes only v1 lists, and attaching one makes a new frame with the tree.)
        assert frame["seq"] >= control.seq > last_seq, (frame["seq"], control.seq, last_seq)
        if fields.get("encoding") == "binary":
            info = resumed.v2.string_info[frame["seq"]]
            assert info["first"] == len(watcher.v2.strings) and info["count"] > 0, info
        # A fresh watcher's full frame gives the same tree, and it draws the controller's picture.
        fresh = await session(server.ws_url, app=None, viewport=None, session=token, role="view", **fields)
        await resumed.settle(quiet=0.5)
        assert fresh.v2.seq == resumed.v2.seq
        assert resumed.v2.tree.canonical() == fresh.v2.tree.canonical()
        assert not compare_pictures(control.display_list(), resumed.v2.flatten())
        assert [n["name"] for n in resumed.v2.find(role="page")] == ["Elsewhere"]
        for client in (control, resumed, fresh):
            client.check()
            await client.close()
    run(body())


def test_binary_resume_without_last_seq_starts_the_string_table_afresh(server):
    async def body():
        control = await session(server.ws_url, app="phone", viewport=PHONE)
        token = control.log[0][1]["session"]
        await control.ok("push", screen={"name": "Detail", "rows": [{"title": "Row"}]})
        watcher = await session(server.ws_url, app=None, viewport=None, session=token, role="view", **V2_BINARY)
        await control.ok("push", screen={"name": "Deeper", "rows": [{"title": "Other row"}]})
        await watcher.settle(quiet=0.5)
        strings_before = list(watcher.v2.strings)
        # Without lastSeq: a full frame whose strings start at 0 and are the whole table; the
        # client replaces its table (on a new socket, and with hello again on the same one).
        for client in (await open_client(server.ws_url), watcher):
            start = client.mark()
            await client.hello(app=None, viewport=None, session=token, role="view", **V2_BINARY)
            frame = await client.wait_frame(since=start)
            client.check()
            assert frame.get("full") is True, frame
            info = client.v2.string_info[frame["seq"]]
            assert info["first"] == 0 and info["count"] == len(client.v2.strings) > 0, info
            # The session's table only grows: what the watcher held is where the new table starts.
            assert client.v2.strings[:len(strings_before)] == strings_before
            assert not compare_pictures(control.display_list(), client.v2.flatten())
            await client.close()
        await control.close()
    run(body())


# MARK: - the move feature is gone


@pytest.mark.parametrize("fields", [V1, V2_JSON], ids=["v1", "v2"])
def test_move_feature_is_not_accepted(server, fields):
    async def body():
        client = await open_client(server.ws_url)
        welcome = await client.hello(app="phone", viewport=PHONE, features=["move"], **fields)
        assert welcome["type"] == "welcome" and welcome["features"] == [], welcome
        await client.wait_frame(since=0)
        await client.ok("push", screen={"name": "Detail"})
        await client.ok("pop")
        await client.settle(quiet=0.3)
        frames = client.messages(type="frame")
        assert len(frames) > 10, len(frames)
        assert not [f for f in frames if "move" in f], [f for f in frames if "move" in f][:1]
        # v1 deltas: only set/remove/order; v2: set/insert/remove/order.
        allowed = {"type", "seq", "time", "base", "set", "remove", "order"} | ({"insert"} if fields else set())
        assert all(set(f) <= allowed for f in frames if not f.get("full")), [set(f) for f in frames]
        client.check()
        await client.close()
    run(body())


def test_string_table_starts_afresh_with_a_full_frame(server):
    """§3.6: "The server may start a new table at any time by sending a full frame." This server
    does so once its table holds 8192 strings. Every binary viewer then gets a full frame whose
    strings start at 0; a viewer resuming with a `lastSeq` from the old table gets a full frame
    too, and one from the new table a delta."""
    async def body():
        control = await session(server.ws_url, app="stack", viewport=PHONE)
        token = control.log[0][1]["session"]
        watcher = await session(server.ws_url, app=None, viewport=None, session=token, role="view", **V2_BINARY)
        json_watcher = await session(server.ws_url, app=None, viewport=None, session=token, role="view", **V2_JSON)
        held = []            # what the binary watcher held after each step
        largest = 0
        for step in range(1, 600):
            # 14 rows of new titles and details, a new page name and vc: about 30 new strings.
            rows = [{"title": f"T{step}-{i}", "detail": f"D{step}-{i}"} for i in range(14)]
            await control.ok("setRoot", root={"kind": "stack", "root": {"name": f"P{step}", "rows": rows}})
            await watcher.wait_until(lambda: [p for p in watcher.v2.find(role="page") if p["name"] == f"P{step}"],
                                     timeout=10, what=f"page P{step}")
            largest = max(largest, len(watcher.v2.strings))
            held.append(watcher.v2.clone())
            if len(watcher.v2.strings) < largest:
                break
        else:
            raise AssertionError(f"the string table grew to {largest} strings without starting afresh")
        new_table = watcher.v2.strings
        full = [(seq, base, len(raw)) for seq, base, _, raw in watcher.wire_frames if base is None]
        assert [seq for seq, _, _ in full] == [watcher.wire_frames[0][0], held[-1].seq], full
        info = watcher.v2.string_info[held[-1].seq]
        assert info["first"] == 0 and info["count"] == len(new_table), info
        print(f"\nthe table started afresh after {step} setRoots at {largest} strings; "
              f"full frame {full[-1][2]} B with {len(new_table)} strings")
        await json_watcher.wait_until(lambda: json_watcher.v2.seq == watcher.v2.seq, timeout=10, what="the JSON watcher")
        assert json_watcher.v2.tree.canonical() == watcher.v2.tree.canonical()

        async def resume(state):
            client = await open_client(server.ws_url, v2=state.clone())
            start = client.mark()
            await client.hello(app=None, viewport=None, session=token, role="view", lastSeq=state.seq, **V2_BINARY)
            frame = await client.wait_frame(since=start)
            client.check()
            # The controller's frame for the last command may still be on its way (its result
            # comes first): its picture must come to be the resumed viewer's.
            await control.wait_until(lambda: not compare_pictures(control.display_list(), client.v2.flatten()),
                                     what="the controller's picture to be the resumed viewer's")
            await client.close()
            return frame, client.v2.string_info[frame["seq"]]

        # From the old table (its frame is still in the history): a full frame.
        frame, info = await resume(held[-2])
        assert frame.get("full") is True and info["first"] == 0, (frame.get("base"), info)
        # From the new table: a delta whose strings continue it.
        await control.ok("push", screen={"name": "After", "rows": [{"title": "A row after"}]}, transition="none")
        frame, info = await resume(held[-1])
        assert frame.get("base") == held[-1].seq and info["first"] == len(new_table) and info["count"] > 0, info
        for client in (control, watcher, json_watcher):
            client.check()
            await client.close()
    run(body(), timeout=180)
