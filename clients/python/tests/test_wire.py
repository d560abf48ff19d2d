"""The protocol logic without a server: frame models, the core's resync, gestures, rest."""

import json

import pytest

from stackcast import Event, ProtocolError, WireError
from stackcast.core import Core, motion, starts_full
from stackcast.gestures import stroke, tap
from stackcast.transport import hello_fields
from stackcast.wire import DisplayList, TreeDisplay, decode_frame, varint_encode, zigzag_encode
from stackcast.wire.tree import patches_of

# docs/protocol.md §3.6's example: a scene, a page and its title; then the page slides 21.74 pt.
DOC_FULL = bytes.fromhex(
    "01 01 00 00 04 05 73 63 65 6e 65 04 70 61 67 65 04 48 6f 6d 65 03 76 63 31 03"
    "02 00 d8 80 08 b0 e1 04 e0 a6 0a 01 00"
    "02 04 98 81 1c b0 e1 04 e0 a6 0a ff ff ff ff 01 02 03"
    "02 04 9f f0 01 01 c0 bb 01 b8 49 b0 ea 01 e0 44 02 c8 1a d8 04 00 00 00 ff 01")
DOC_DELTA = bytes.fromhex("02 02 a6 01 01 04 00 00 00 01 02 02 fb 21 00")
WELCOME = {"type": "welcome", "protocol": 1, "encoding": "json", "session": "t" * 32, "role": "control"}


def node(node_id, x, **fields):
    return {"id": node_id, "kind": "rect", "frame": [x, 0, 10, 10], **fields}


def test_binary_frames_draw_the_spec_example():
    display = TreeDisplay(binary=True)
    display.receive_binary(DOC_FULL)
    display.receive_binary(DOC_DELTA)
    assert [(n["id"], n.get("role"), n.get("text"), n["frame"]) for n in display.flatten()] == [
        (2, "page", None, [-21.74, 0, 390, 844]), (3, None, "Home", [98.26, 47, 150, 44])]
    assert decode_frame(DOC_DELTA, display.strings, (1, 0))[0]["set"] == [{"id": 2, "frame": [-21.74, None, None, None]}]


def test_a_delta_header_counts_back_from_the_frame_held():
    # Full frame 299 at 5833.4 ms: seq ab 02, time 58334 tenths de c7 03, no strings, one layer.
    full, table, _ = decode_frame(bytes.fromhex("01 ab 02 de c7 03 00 00 01 02 00 00"))
    assert (full["seq"], full["time"]) == (299, 5833.4)
    # Delta 300 (ac 02), 16.7 ms after its base (167 tenths: a7 01), based on 300 - 1; nothing changed.
    delta = bytes.fromhex("02 ac 02 a7 01 01 00 00 00 00 00 00")
    assert decode_frame(delta, table, (299, 5833.4))[0] == {"type": "frame", "seq": 300, "time": 5850.1, "base": 299}
    for held in ((300, 5850.1), None):
        with pytest.raises(WireError, match="wrong base"):
            decode_frame(delta, table, held)


def test_a_frame_with_an_input_number_carries_it_and_its_bindings_as_json_does():
    """Type + 16 (feature timelines, §3.8): input:v after the header, BINDINGS after the body."""
    def z(value):
        return varint_encode(zigzag_encode(value))

    # §3.6's example as a full frame showing input 5, without bindings (count 0).
    full = bytes([0x11]) + DOC_FULL[1:3] + varint_encode(5) + DOC_FULL[3:] + b"\x00"
    display = TreeDisplay(binary=True)
    frame = display.receive_binary(full)
    assert frame["input"] == 5 and "bind" not in frame
    assert display.tree.input == 5
    # The slide, still input 5 (left out, as JSON leaves out what did not change), with bindings:
    # along x from (20, 400), travel -100, 0, 50; the page's x 1:1 from 0 and the title's alpha.
    bindings = (varint_encode(3) + b"\x00" + z(2000) + z(40000) + varint_encode(3) + z(-10000) + z(0) + z(5000)
                + varint_encode(2) + b"\x00" + z(0) + z(0) + z(5000)
                + varint_encode(3) + b"\x02" + z(100) + z(100) + z(50))
    delta = bytes([0x12]) + DOC_DELTA[1:5] + varint_encode(5) + DOC_DELTA[5:] + bindings
    frame = display.receive_binary(delta)
    assert "input" not in frame
    assert frame["bind"] == {"axis": "x", "origin": [20, 400], "travel": [-100, 0, 50], "layers": [
        {"id": 2, "field": "x", "values": [0, 0, 50]}, {"id": 3, "field": "alpha", "values": [0.1, 0.1, 0.05]}]}
    assert display.flatten()[0]["frame"] == [-21.74, 0, 390, 844]
    # Without the input held, or when it changed, the delta keeps it; "same" is count 1.
    same = bytes([0x12]) + DOC_DELTA[1:5] + varint_encode(6) + DOC_DELTA[5:] + b"\x01"
    frame, _, _ = decode_frame(same, display.strings, (1, 0, 5))
    assert (frame["input"], frame["bind"]) == (6, "same")
    assert decode_frame(delta, display.strings, (1, 0))[0]["input"] == 5
    # An axis or field byte out of range, or bindings cut short, are refused.
    for bad in (delta[:-1], delta.replace(bindings, varint_encode(2) + b"\x02" + bindings[2:])):
        with pytest.raises(WireError):
            decode_frame(bad, display.strings, (1, 0, 5))


def rows_frame(second_row_like="04"):
    """A full frame of two rows and their labels, the second row and label written like the first
    (§3.6): LAYER = id, parent (zig-zag doubled, plus 1 when like), [like], FIELDS. The second
    row's `like` byte is given: 04 is layer 2 (4 - 2 = 2, zig-zag 04)."""
    return bytes.fromhex(
        "01 01 00 00 03 03 72 6f 77 01 41 01 42 05"  # full, seq 1, time 0; strings "row", "A", "B"; 5 layers
        "02 00 18 b0 e1 04 e0 a6 0a"  # id 1, the root: w 390, h 844
        "02 04 9c 81 0c a0 1f b0 e1 04 e0 44 ff ff ff ff 00 01"  # id 2 under 1: y 20, w 390, h 44, white, row "A"
        "02 04 9b 10 01 80 19 90 90 04 e0 44 01"  # id 3 under 2: text, x 16, w 338, h 44, text "A"
        f"02 0d {second_row_like} 84 80 08 80 64 02"  # id 4 under 1 (zig-zag 06, doubled, + 1), like: y 64, name "B"
        "02 05 04 80 10 02")  # id 5 under 4, like 3 (zig-zag 04): text "B"


def test_a_full_frame_writes_later_layers_like_earlier_ones():
    nodes = decode_frame(rows_frame())[0]["nodes"]
    row = {"kind": "rect", "frame": [0, 20, 390, 44], "fill": "#FFFFFF", "role": "row"}
    label = {"kind": "text", "frame": [16, 0, 338, 44], "text": "A", "font": {"size": 17, "weight": 400}, "align": "left"}
    assert nodes == [
        {"id": 1, "kind": "rect", "frame": [0, 0, 390, 844]},
        {"id": 2, "parent": 1, **row, "name": "A"}, {"id": 3, "parent": 2, **label},
        {"id": 4, "parent": 1, **row, "frame": [0, 64, 390, 44], "name": "B"}, {"id": 5, "parent": 4, **label, "text": "B"}]
    for model, like in ((4, "00"), (5, "01")):  # the layer itself, or one that comes later
        with pytest.raises(WireError, match=f"layer 4 is written like layer {model}, which the frame has not sent before it"):
            decode_frame(rows_frame(second_row_like=like))
    with pytest.raises(WireError, match="layer 2 is its own parent"):
        decode_frame(bytes.fromhex("01 01 00 00 00 02  02 00 00  02 01 02 00"))


def test_a_json_v2_patch_of_a_layer_that_only_moved_carries_x_or_y():
    display = TreeDisplay()
    display.apply({"type": "frame", "seq": 1, "time": 0, "full": True, "nodes": [
        {"id": 1, "kind": "rect", "frame": [0, 0, 100, 100]}, {"id": 2, "parent": 1, "kind": "rect", "frame": [5, 6, 10, 10], "fill": "#FFFFFF"}]})
    display.apply({"type": "frame", "seq": 2, "time": 16.6, "base": 1, "set": {"x": [2, -3.5]}})
    assert [n["frame"] for n in display.flatten()] == [[-3.5, 6, 10, 10]]
    display.apply({"type": "frame", "seq": 3, "time": 33.3, "base": 2, "set": {"y": [2, 40]}})
    assert [n["frame"] for n in display.flatten()] == [[-3.5, 40, 10, 10]]
    with pytest.raises(WireError, match="has x = '1'"):
        display.tree.apply({"type": "frame", "seq": 4, "time": 50, "base": 3, "set": {"x": [2, "1"]}})


def test_a_json_v2_set_lists_id_and_value_pairs_by_field():
    assert patches_of({"x": [4, -5.72, 69, 159.89], "alpha": [88, 0.004, 69, 0.956], "text": [5, None]}, "delta 9") == [
        {"id": 4, "x": -5.72}, {"id": 69, "x": 159.89, "alpha": 0.956}, {"id": 88, "alpha": 0.004}, {"id": 5, "text": None}]
    patches = [{"id": 3, "alpha": 0.5}]
    assert patches_of(patches, "delta 9") is patches, "a list of patches (a decoded binary frame) is taken as it is"
    assert patches_of(None, "delta 9") == []
    for bad, message in [({"x": [3]}, "not a list of id and value pairs"), ({"alpha": {"3": 0.5}}, "not a list"),
                         ({"id": [3, 4]}, "'id' is not"), ({"alpha": ["3", 0.5]}, "names '3', not a layer id"),
                         ({"alpha": [True, 0.5]}, "not a layer id"), ("x", "neither")]:
        with pytest.raises(WireError, match=message):
            patches_of(bad, "delta 9")


def test_a_move_keeps_the_layer_and_its_subtree_even_out_of_a_parent_removed_with_it():
    display = TreeDisplay(binary=True)
    display.receive_binary(DOC_FULL)
    # Remove the page (2); move its title (3) to the scene (1) at index 0: INSERT id 3 (zig-zag
    # 06), parent 3 - 1 (04), at = 0 x 4 + 2 (a move: nothing follows).
    moved = display.receive_binary(bytes.fromhex("02 02 00 01 04 00  01 02  01 06 04 02  00 00"))
    assert moved["insert"] == [{"id": 3, "parent": 1, "index": 0, "move": True}] and moved["remove"] == [2]
    assert [(n["id"], n.get("text"), n["frame"]) for n in display.flatten()] == [(3, "Home", [120, 47, 150, 44])]
    assert display.tree.layers[3]["parent"] == 1 and 2 not in display.tree.layers
    with pytest.raises(WireError, match="is of kind 3"):
        decode_frame(bytes.fromhex("02 03 00 01 04 00  00  01 06 04 03  00 00"), display.strings, (display.seq, display.tree.time))


def test_a_move_that_does_not_fit_changes_nothing():
    display = TreeDisplay()
    display.apply({"type": "frame", "seq": 1, "time": 0, "full": True, "nodes": [
        node(1, 0), node(2, 0, parent=1), node(3, 0, parent=2), node(4, 0, parent=1)]})

    def move(**fields):
        return {"type": "frame", "seq": 2, "time": 1, "base": 1, "insert": [{"move": True, "index": 0, **fields}]}

    for frame, error in (
            (move(id=9, parent=1), "moves 9, which the client does not hold"),
            (move(id=2, parent=3), "moves 2 under its own subtree"),
            (move(id=1, parent=4), "moves 1, which the client does not hold .or the root."),
            (move(id=3, parent=4, fill="#FFFFFF"), "carries more than its place"),
            ({**move(id=3, parent=4), "remove": [3]}, "removes 3, which it also moves"),
            ({**move(id=3, parent=4), "remove": [2]} | {"insert": [{"id": 3, "parent": 4, "index": 1, "move": True}]},
             "moves 3 to index 1 of 4")):
        with pytest.raises(WireError, match=error):
            display.apply(frame)
    assert display.tree.children == {1: [2, 4], 2: [3], 3: [], 4: []} and display.seq == 1
    display.apply({**move(id=3, parent=4), "remove": [2]})
    assert display.tree.children == {1: [4], 3: [], 4: [3]}


def test_v1_deltas_patch_remove_and_order_and_a_wrong_base_changes_nothing():
    display = DisplayList()
    display.apply({"type": "frame", "seq": 1, "time": 0, "full": True, "nodes": [node(1, 0), node(2, 5, fill="#FF0000")]})
    display.apply({"type": "frame", "seq": 2, "time": 16.7, "base": 1, "set": [{"id": 2, "fill": None, "frame": [6, 0, 10, 10]},
                                                                             node(3, 7)], "remove": [1]})
    assert display.display_list() == [{"id": 2, "kind": "rect", "frame": [6, 0, 10, 10]}, node(3, 7)]
    display.apply({"type": "frame", "seq": 3, "time": 33.3, "base": 2, "set": [node(4, 1)], "order": [4, 3, 2]})
    assert display.order == [4, 3, 2]
    with pytest.raises(WireError, match="base 2, but the last frame applied is 3"):
        display.apply({"type": "frame", "seq": 4, "time": 50, "base": 2, "remove": [4]})
    with pytest.raises(WireError, match="removes id 9"):
        display.apply({"type": "frame", "seq": 4, "time": 50, "base": 3, "set": [{"id": 2, "alpha": 0.5}], "remove": [9]})
    assert display.seq == 3 and display.order == [4, 3, 2] and "alpha" not in display.nodes[2]


# MARK: - templates (§3.6 "Templates")


def uv(*numbers):
    """Varints (v)."""
    return b"".join(varint_encode(n) for n in numbers)


def zz(*numbers):
    """Zig-zag varints (z); hundredths are the caller's."""
    return b"".join(varint_encode(zigzag_encode(n)) for n in numbers)


def bits(*numbers):
    """A FIELDS mask with these bits."""
    return uv(sum(1 << n for n in numbers))


# The spec's full frame with an (empty) TEMPLATES part right after STRINGS (its 25 bytes of
# header and strings), which its type says: 1 + 4.
DOC_FULL_T = bytes([5]) + DOC_FULL[1:25] + uv(0, 0) + DOC_FULL[25:]
PAGE = {"kind": "rect", "frame": [0, 0, 390, 844], "fill": "#FFFFFF", "role": "page", "name": "Home", "vc": "vc1"}
TITLE = {"kind": "text", "frame": [120, 47, 150, 44], "text": "Home", "font": {"size": 17, "weight": 600},
         "color": "#000000", "align": "center"}
BODY_TEXT = {"kind": "text", "frame": [0, 0, 0, 0], "text": "Home", "font": {"size": 17, "weight": 400}, "align": "left"}


def delta(seq, templates, body, strings=4):
    """A delta 16.7 ms after the frame before it (back 1), no new strings, then TEMPLATES (type 6:
    2 + 4) and BODY, or BODY alone (type 2) when `templates` is empty."""
    return uv(6 if templates else 2, seq, 167, 1, strings, 0) + templates + body


NOTHING = uv(0, 0, 0, 0)  # no removes, inserts, patches or orders
# The page (2) is popped: the delta removes it and adds its layers to the table, like the held
# page and title (from 2 x id), and three more: a text from the defaults (from 0), that text with
# x 5 (from 1: the entry just before), and the held title again (from 5: 3 entries back).
POP = delta(2, uv(0, 5) + uv(4) + bits() + uv(6) + bits()
            + uv(0) + bits(0, 11) + b"\x01" + uv(2)
            + uv(1) + bits(1) + zz(500)
            + uv(5) + bits(),
            uv(1, 2) + uv(0, 0, 0))
# Pushed again: the page as id 10 at x 100 (kind 3, entry 0), its title (entry 1, nothing
# differs), then a layer written like the new page (kind 1) with another name.
PUSH = delta(3, uv(5, 0),
             uv(0) + uv(3)
             + zz(10, 9) + uv(0 * 4 + 3) + uv(0) + bits(1) + zz(10000)
             + zz(1, 1) + uv(0 * 4 + 3) + uv(1) + bits()
             + zz(1, 11) + uv(1 * 4 + 1) + zz(2) + bits(17) + uv(1)
             + uv(0, 0))


def templated():
    display = TreeDisplay(binary=True, templates=True)
    display.receive_binary(DOC_FULL_T)
    display.receive_binary(POP)
    return display


def test_a_delta_adds_templates_from_held_layers_the_defaults_and_earlier_entries():
    display = TreeDisplay(binary=True, templates=True)
    display.receive_binary(DOC_FULL_T)
    assert display.templates == [] and display.string_info[1] == {
        "first": 0, "count": 4, "size": 85, "template_first": 0, "template_count": 0}
    assert display.receive_binary(POP) == {"type": "frame", "seq": 2, "time": 16.7, "base": 1, "remove": [2]}
    assert display.templates == [PAGE, TITLE, BODY_TEXT, {**BODY_TEXT, "frame": [5, 0, 0, 0]}, TITLE]
    assert display.string_info[2]["template_first"] == 0 and display.string_info[2]["template_count"] == 5
    assert 2 not in display.tree.layers     # the entries were read from the base, before the remove


def test_an_insert_like_a_template_is_the_whole_layer_json_v2_sends():
    display = templated()
    inserted = display.receive_binary(PUSH)["insert"]
    assert inserted == [{"id": 10, "parent": 1, "index": 0, **PAGE, "frame": [100, 0, 390, 844]},
                        {"id": 11, "parent": 10, "index": 0, **TITLE},
                        {"id": 12, "parent": 1, "index": 1, **PAGE, "frame": [100, 0, 390, 844], "name": "page"}]
    # The same frames as JSON v2 give the same tree and picture.
    json_display = TreeDisplay()
    json_display.apply(decode_frame(DOC_FULL)[0])
    json_display.apply({"type": "frame", "seq": 2, "time": 16.7, "base": 1, "remove": [2]})
    json_display.apply({"type": "frame", "seq": 3, "time": 33.4, "base": 2, "insert": inserted})
    assert display.tree.canonical() == json_display.tree.canonical()
    assert display.flatten() == json_display.flatten() and [n["id"] for n in display.flatten()] == [10, 11, 12]
    assert len(display.templates) == 5     # kind-3 inserts add nothing to the table


def test_a_full_frame_replaces_the_template_table_and_deltas_continue_it():
    display = templated()
    # Full frame 4 (time 100 ms): strings "scene"; one entry from the defaults named "scene"; one layer.
    display.receive_binary(uv(5, 4, 1000) + uv(0, 1, 5) + b"scene" + uv(0, 1) + uv(0) + bits(17) + uv(0)
                           + uv(1) + zz(1) + uv(0) + bits(3, 4) + zz(39000, 84400))
    assert display.templates == [{"kind": "rect", "frame": [0, 0, 0, 0], "name": "scene"}] and display.strings == ["scene"]
    # The next delta's entries come after that one: from 1 is the entry just before, 2 the root.
    display.receive_binary(delta(5, uv(1, 2) + uv(1) + bits(3) + zz(100) + uv(2) + bits(17) + uv(0), NOTHING, strings=1))
    assert display.templates == [{"kind": "rect", "frame": [0, 0, 0, 0], "name": "scene"},
                                 {"kind": "rect", "frame": [0, 0, 1, 0], "name": "scene"},
                                 {"kind": "rect", "frame": [0, 0, 390, 844], "name": "scene"}]
    # A delta without a TEMPLATES part keeps it; a full frame without one empties it.
    display.receive_binary(delta(6, b"", NOTHING, strings=1))
    assert len(display.templates) == 3
    display.receive_binary(DOC_FULL)
    assert display.templates == []


def test_a_full_frame_may_start_the_table_past_0_and_names_nothing_below():
    # The server's full frame for a viewer that joins a session with 2 entries: the table starts
    # there (type 5, first 2, none), with nothing known below.
    display = TreeDisplay(binary=True, templates=True)
    display.receive_binary(bytes([5]) + DOC_FULL[1:25] + uv(2, 0) + DOC_FULL[25:])
    assert display.templates == [None, None]
    for data, error in [
        (delta(2, b"", uv(0, 1) + zz(10, 9) + uv(3) + uv(1) + bits() + uv(0, 0)), "template 1, which came before our full frame's"),
        (delta(2, uv(2, 1) + uv(1) + bits(), NOTHING), "the entry 1 before it; the table has 2, and that one came before"),
    ]:
        with pytest.raises(WireError, match=error):
            display.receive_binary(data)
        assert display.templates == [None, None] and display.seq == 1
    # Entries after it are the client's: an entry from the defaults, and an insert like it.
    display.receive_binary(delta(2, uv(2, 1) + uv(0) + bits(3) + zz(500), uv(0, 1) + zz(10, 9) + uv(3) + uv(2) + bits() + uv(0, 0)))
    assert display.templates[2] == {"kind": "rect", "frame": [0, 0, 5, 0]} and display.tree.layers[10]["frame"] == [0, 0, 5, 0]


def test_templates_that_do_not_fit_change_nothing():
    display = templated()
    before = (display.seq, list(display.templates), list(display.strings))
    cases = [
        (delta(3, uv(4, 0), NOTHING), "its templates start at 4 but the client holds 5: out of step"),
        (delta(3, uv(6, 0), NOTHING), "its templates start at 6 but the client holds 5: out of step"),
        (delta(3, uv(5, 1) + uv(11) + bits(), NOTHING), "template 5 is written like the entry 6 before it; the table has 5"),
        (delta(3, uv(5, 1) + uv(4) + bits(), NOTHING), "template 5 is written like layer 2, which the client does not hold"),
        (delta(3, uv(5, 0), uv(0, 1) + zz(10, 9) + uv(3) + uv(5) + bits() + uv(0, 0)),
         "insert 10 is written like template 5, the table has 5"),
        # A template entry with FIELDS that end early.
        (delta(3, uv(5, 1) + uv(0) + bits(17), NOTHING), "frame ends early"),
        # Full frames: the table starts at 0, and there is no held layer to be like.
        (uv(5, 3, 0) + uv(0, 0) + uv(0, 1) + uv(2) + bits() + uv(0), "template 0 is written like layer 1; a full frame has no held layers"),
        (uv(5, 3, 0) + uv(0, 0) + uv(0, 1) + uv(1) + bits() + uv(0), "template 0 is written like the entry 1 before it; the table has 0"),
    ]
    for data, error in cases:
        with pytest.raises(WireError, match=error):
            display.receive_binary(data)
        assert (display.seq, display.templates, display.strings) == before


def test_kind_3_and_the_templates_part_need_the_feature():
    display = TreeDisplay(binary=True)
    display.receive_binary(DOC_FULL)
    insert = uv(2, 2, 167, 1, 4, 0) + uv(0, 1) + zz(10, 9) + uv(3) + uv(0) + bits() + uv(0, 0)
    with pytest.raises(WireError, match="insert 10 is of kind 3, which is none without the feature templates"):
        display.receive_binary(insert)
    # Without the feature a type that says TEMPLATES follow is none; with it, a frame may have none.
    with pytest.raises(WireError, match="unknown frame type 5; expected 1 \\(full\\) or 2 \\(delta\\)$"):
        TreeDisplay(binary=True).receive_binary(DOC_FULL_T)
    with_feature = TreeDisplay(binary=True, templates=True)
    with_feature.receive_binary(DOC_FULL)
    assert with_feature.templates == [] and [n["id"] for n in with_feature.flatten()] == [2, 3]


def test_the_hello_asks_for_templates_on_binary_and_the_welcome_decides():
    def fields(protocol, encoding):
        return hello_fields(app="phone", width=390, height=844, scale=None, safe_area=None, session=None,
                            role="control", protocol=protocol, encoding=encoding, last_seq=None)
    assert fields(2, "binary")["features"] == ["templates"]
    assert fields(2, "json")["features"] is None and fields(1, "json")["features"] is None
    core = Core()
    hello = core.hello(**fields(2, "json"))
    assert "features" not in hello
    hello = core.hello(**fields(2, "binary"))
    assert hello["features"] == ["templates"] and hello["encoding"] == "binary"
    welcome = {**WELCOME, "protocol": 2, "encoding": "binary"}
    core.receive(json.dumps({**welcome, "features": ["templates"]}), 0.0)
    assert core.v2.templates_enabled
    core.receive(DOC_FULL_T, 0.1)
    core.receive(POP, 0.2)
    assert core.violation is None and core.resyncs == 0 and len(core.v2.templates) == 5
    # A server that does not grant it sends frames without templates; the same picture goes on.
    core.receive(json.dumps({**welcome, "features": []}), 0.3)
    assert not core.v2.templates_enabled
    core.receive(DOC_FULL, 0.4)
    assert core.violation is None and core.resyncs == 0 and core.v2.templates == []
    assert [n.name for n in core.nodes(role="page")] == ["Home"]
    # The hello a resync says again asks for it too.
    core.receive(DOC_DELTA[:1] + b"\x09" + DOC_DELTA[2:], 0.5)   # delta 9 based on 8: a wrong base
    assert core.resyncs == 1 and [json.loads(m)["features"] for m in core.take_outbox()] == [["templates"]]


def test_a_frame_that_does_not_fit_asks_for_a_full_frame_and_deltas_wait_for_it():
    core = Core()
    core.hello(app="stack", viewport={"width": 390, "height": 844}, protocol=1)
    core.receive(json.dumps(WELCOME), 0.0)
    core.receive(json.dumps({"type": "frame", "seq": 1, "time": 0, "full": True, "nodes": [node(1, 0, role="page", name="A")]}), 0.1)
    core.receive(json.dumps({"type": "frame", "seq": 5, "time": 80, "base": 4, "set": [{"id": 1, "alpha": 0.5}]}), 0.2)
    assert [json.loads(m) for m in core.take_outbox()] == [
        {"type": "hello", "viewport": {"width": 390, "height": 844}, "protocol": 1, "session": "t" * 32}]
    assert core.resyncs == 1 and core.violation is None
    core.receive(json.dumps({"type": "frame", "seq": 6, "time": 90, "base": 5, "set": [{"id": 1, "alpha": 0.2}]}), 0.3)
    assert core.take_outbox() == [] and core.display.seq == 1       # ignored: not a full frame
    core.receive(json.dumps(WELCOME), 0.4)
    core.receive(json.dumps({"type": "frame", "seq": 6, "time": 90, "full": True, "nodes": [node(1, 3, role="page", name="B")]}), 0.5)
    assert [(n.name, n.frame) for n in core.nodes(role="page")] == [("B", (3, 0, 10, 10))]
    # A strict core fails instead, at the next check.
    strict = Core(strict=True)
    strict.receive(json.dumps(WELCOME), 0.0)
    strict.receive(json.dumps({"type": "frame", "seq": 2, "time": 0, "base": 1}), 0.1)
    with pytest.raises(ProtocolError, match="delta 2 .base 1. before any full frame"):
        strict.check("a frame")
    assert strict.take_outbox() == []


def test_answers_events_and_unreadable_messages():
    core = Core()
    first, message = core.command("push", {"screen": {"name": "A"}})
    second, _ = core.command("popTo", {"name": "Z"})
    assert message == {"type": "command", "id": first, "op": "push", "screen": {"name": "A"}} and first != second
    assert core.answer(first) == (False, None)
    core.receive(json.dumps({"type": "error", "id": second, "code": "not_found", "message": "no controller named Z"}), 0)
    core.receive(json.dumps({"type": "event", "name": "viewDidLoad", "vc": "vc2", "screen": "A", "time": 3.5}), 0)
    core.receive(json.dumps({"type": "result", "id": first, "ok": True, "value": {"vc": "vc2"}}), 0)
    assert core.answer(first) == (True, {"vc": "vc2"})
    with pytest.raises(Exception) as refused:
        core.answer(second)
    assert (type(refused.value).__name__, refused.value.code, refused.value.op, str(refused.value)) == (
        "CommandError", "not_found", "popTo", "popTo failed (not_found): no controller named Z")
    assert [(e.name, e.screen, e.vc, e.time) for e in core.events] == [("viewDidLoad", "A", "vc2", 3.5)]
    core.receive("not json", 0)
    with pytest.raises(ProtocolError, match="invalid JSON"):
        core.check("anything")


def test_gestures_carry_their_own_timestamps():
    assert tap(10, 20, 1000) == [
        {"type": "pointer", "phase": "down", "id": 1, "x": 10, "y": 20, "t": 1000},
        {"type": "pointer", "phase": "up", "id": 1, "x": 10, "y": 20, "t": 1080}]
    drag = stroke(0, 100, 96, 0, 0.096, 0, hold=True)
    assert [m["phase"] for m in drag] == ["down"] + ["move"] * 8 + ["up"]
    assert [(m["x"], m["t"]) for m in drag[1:7]] == [(16, 16), (32, 32), (48, 48), (64, 64), (80, 80), (96, 96)]
    # Held: the finger rests past the 100 ms velocity window before it lifts.
    assert [(m["x"], m["t"]) for m in drag[7:]] == [(96, 156), (96, 216), (96, 216)]
    fling = stroke(0, 100, 96, 0, 0.096, 0, hold=False)
    assert [(m["phase"], m["x"], m["t"]) for m in fling[-2:]] == [("move", 96, 96), ("up", 96, 96)]
    with pytest.raises(ValueError, match="above 0"):
        stroke(0, 0, 1, 1, 0, 0, hold=True)


def test_motion_names_what_still_moves():
    page = {"screen": "A", "vc": "vc1"}
    assert motion({"kind": "stack", "id": "main", "stack": [page]}) is None
    assert motion({"kind": "stack", "id": "main", "stack": [page], "transition": {"op": "push"}}) == "a push transition in main"
    assert motion({"kind": "sideTabs", "tabs": [{"id": "lib", "stack": [page], "scrolling": True}]}) == "the stacked split lib scrolling"
    assert motion({"kind": "tabs", "tabs": [{"id": "a", "stack": [{**page, "pagesAnimating": True}]}]}) == "the page stack of A"


def test_a_full_frame_that_carries_an_input_number_ends_a_resync():
    # Type 1, plus 4 with template entries, plus 16 with an input number (feature timelines).
    assert all(starts_full(bytes([kind, 1])) for kind in (1, 5, 17, 21))
    assert not any(starts_full(bytes([kind, 1])) for kind in (2, 6, 18, 22))
    # A timeline of three frames whose first is full.
    assert starts_full(bytes([8, 3, 17, 1])) and not starts_full(bytes([8, 3, 18, 1]))


def test_an_action_event_says_its_group_and_value():
    event = Event.from_dict({"type": "event", "group": "action", "name": "buy", "value": {"sku": "tea"},
                             "vc": "vc3", "screen": "Shop", "time": 4102.5})
    assert (event.group, event.name, event.value, event.screen) == ("action", "buy", {"sku": "tea"}, "Shop")
    lifecycle = Event.from_dict({"type": "event", "name": "viewDidAppear", "vc": "vc2", "screen": "Detail", "time": 1})
    assert lifecycle.group is None and lifecycle.value is None
