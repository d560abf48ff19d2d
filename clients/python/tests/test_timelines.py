"""The feature `timelines` (docs/protocol.md §3.7) against a real server, on both v2 wires: a push
comes as one timeline whose pictures are due a tick apart, each message is acknowledged, and a fling
caught by a finger cuts its timeline, which the client applies so that it ends on the picture a
session without timelines shows after the same input. Then the same rules without a server: a JSON
timeline and a cut applied by hand, and a binary one whose cut continues the string table from its
base's."""

import time

import pytest

import stackcast
from stackcast import gestures
from stackcast.wire import TreeDisplay, WireError, varint_encode

ENCODINGS = ["json", "binary"]
TICK_MS = 1000 / 60
ROWS = {"name": "List", "rows": [{"title": f"Row {i}"} for i in range(40)]}


def drawn(session):
    """The newest picture as the v1 display list it draws."""
    return session.core.picture.flatten()


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_push_comes_as_one_timeline_acknowledged_and_ends_on_the_per_tick_picture(url, encoding):
    with stackcast.connect(url, app="stack", encoding=encoding, timelines=True, strict=True) as ahead, \
            stackcast.connect(url, app="stack", encoding=encoding, strict=True) as plain:
        assert "timelines" in ahead.welcome.fields["features"] and ahead.welcome.fields["window"] == 16
        messages, acks = [], []
        ahead.core.observers.append(lambda message, raw, now: messages.append(message))
        take_outbox = ahead.core.take_outbox

        def spy():
            out = take_outbox()
            acks.extend(text for text in out if text.startswith('{"type":"ack"'))
            return out
        ahead.core.take_outbox = spy
        ahead.push({"name": "Detail"})
        plain.push({"name": "Detail"})
        ahead.settle()
        plain.settle()

        frames = [m for m in messages if m["type"] in ("frame", "timeline")]
        timeline = frames[0]
        assert timeline["type"] == "timeline" and len(timeline["frames"]) > 10, frames
        # After the slide, at most the frame that puts the pushed page to rest.
        assert [m["type"] for m in frames[1:]] in ([], ["frame"]), frames
        times = [frame["time"] for frame in timeline["frames"]]
        gaps = [b - a for a, b in zip(times, times[1:])]
        assert all(abs(gap - TICK_MS) <= 0.1 for gap in gaps[:-1]) and 0 < gaps[-1] <= TICK_MS + 0.1, times
        # One ack a message, spelled as the server scans for it, naming its newest frame.
        seqs = [(m["frames"][-1] if m["type"] == "timeline" else m)["seq"] for m in frames]
        assert acks == [f'{{"type":"ack","seq":{seq}}}' for seq in seqs]

        assert ahead.core.v2.timelines == 1 and ahead.core.v2.cuts == 0 and ahead.core.resyncs == 0
        assert drawn(ahead) == drawn(plain)
        # The timeline's last picture has the pushed page where the per-tick frames leave it.
        last = next(p for p in ahead.core.v2.pictures if p.seq == timeline["frames"][-1]["seq"])
        page = [n for n in last.tree.flatten() if n.get("name") == "Detail" and n.get("role") == "page"]
        assert [n["frame"] for n in page] == [plain.node(role="page").fields["frame"]]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_pictures_are_due_at_their_times_and_settle_waits_for_the_last(url, encoding):
    with stackcast.connect(url, app="stack", encoding=encoding, timelines=True, strict=True) as s:
        seen = []

        def on_arrival(message, raw, now):
            if message["type"] == "timeline" and not seen:
                # As it arrives, its first picture is due and the rest are to come.
                page = s.core.nodes_due(now, role="page", name="Detail")[0]
                seen.append((s.core.nodes(role="page", name="Detail")[0].frame[0], page.frame[0],
                             s.core.still(now), s.core.due_in(now)))
        s.core.observers.append(on_arrival)
        s.push({"name": "Detail"})
        s.settle()
        newest_x, due_x, still, due_in = seen[0]
        assert newest_x == 0 and due_x > 300 and not still and 0.3 < due_in < 0.4, seen
        assert s.core.still(time.monotonic()) and s.core.due_in(time.monotonic()) == 0
        assert s.nodes_due(role="page", name="Detail")[0].frame[0] == 0


def catch_and_fling(session, hold):
    """Catches the list with a finger and flings it to its end. With `hold` the finger rests a
    moment after it caught the list, so that the server's ticks draw the list held before the
    release; without, the whole gesture comes at once."""
    messages = gestures.stroke(200, 700, 0, -200, 0.032, session.core.pointer_time, hold=False)
    session.core.gesture_sent(messages)
    for message in messages[:2]:              # down, and a move past the slop: the list is caught
        session.send(message)
    if hold:
        time.sleep(0.1)
    for message in messages[2:]:
        session.send(message)


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("hold", [True, False], ids=["held", "at-once"])
def test_a_fling_caught_by_a_drag_is_cut_and_ends_as_without_timelines(url, encoding, hold):
    """A list flung, caught while it decelerates and flung to its end: the catch cuts the fling's
    timeline (a frame based on an older picture than the newest), and the client, applying it to
    that picture, ends on exactly the picture a session without timelines shows. Caught and flung
    at once, the server may go on with a full frame instead (the cut's base is then no longer
    among the frames it keeps, the next timeline's having taken their place): the client ends on
    the same picture."""
    sessions = [stackcast.connect(url, app="stack", encoding=encoding, timelines=flag, strict=True)
                for flag in (True, False)]
    try:
        for s in sessions:
            s.push(ROWS)
            s.settle()
        pushed = sessions[0].core.v2.timelines
        for s in sessions:
            s.fling(200, 600, 0, -45, duration=0.048)        # about 940 pt/s: a second or two of deceleration
        deadline = time.monotonic() + 5
        while sessions[0].core.v2.timelines == pushed and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sessions[0].core.v2.timelines > pushed, "the fling's deceleration came as a timeline"
        time.sleep(0.15)
        assert not sessions[0].core.still(time.monotonic()), "caught while still decelerating"
        fulls = []
        sessions[0].core.observers.append(lambda message, raw, now: fulls.extend(
            f for f in message.get("frames", [message]) if f.get("full")))
        for s in sessions:
            catch_and_fling(s, hold)
        for s in sessions:
            s.settle(timeout=10)
        ahead, plain = sessions
        if hold and encoding == "json":
            assert ahead.core.v2.cuts >= 1 and ahead.core.v2.voided >= 1
        elif hold:
            # Binary may go on from a full frame rather than from the picture due at the catch.
            assert ahead.core.v2.cuts >= 1 or fulls, "the catch went on from neither a cut nor a full frame"
        assert ahead.core.resyncs == 0 and ahead.core.violation is None
        assert drawn(ahead) == drawn(plain)
        assert [n.name for n in ahead.nodes(role="row")][-1] == "Row 39", "the list came to rest at its end"
    finally:
        for s in sessions:
            s.close()


def test_timelines_need_protocol_2_and_window_a_sane_size(url):
    with pytest.raises(ValueError, match="protocol 2"):
        stackcast.connect(url, protocol=1, timelines=True)
    with pytest.raises(ValueError, match="window"):
        stackcast.connect(url, window=2000)


def test_flow_control_without_timelines_acks_every_frame(url):
    with stackcast.connect(url, app="stack", protocol=1, window=4) as s:
        assert s.welcome.fields["window"] == 4
        for _ in range(3):
            s.push("Detail")
            s.pop()
        s.settle()
        # Acks the server did not expect would have come back as errors.
        assert s.core.notices == [] and s.core.violation is None


# Without a server: the rules of §3.7 on frames made by hand.

def layer(layer_id, x, parent=1):
    return {"id": layer_id, "kind": "rect", "frame": [x, 0, 10, 10], "parent": parent}


def test_a_json_timeline_then_a_cut_by_hand():
    display = TreeDisplay()
    display.apply({"type": "frame", "seq": 1, "time": 0, "full": True,
                   "nodes": [{"id": 1, "kind": "rect", "frame": [0, 0, 100, 100]}, layer(2, 0)]}, arrival=1000)
    # The frames after the first leave out type, seq and base: the next seq, a delta from the one before.
    timeline = {"type": "timeline", "frames": [{"type": "frame", "seq": 2, "time": 100, "base": 1, "set": {"x": [2, 20]}}] + [
        {"time": 100 + (seq - 2) * 16.7, "set": {"x": [2, seq * 10]}} for seq in range(3, 7)]}
    display.apply_timeline(timeline, arrival=1100)
    assert display.seq == 6 and display.timelines == 1
    assert [(f["type"], f["seq"], f["base"]) for f in timeline["frames"]] == [("frame", seq, seq - 1) for seq in range(2, 7)]
    # Its first frame is due as it arrives; the others at their distances after it.
    assert [display.due(p) for p in display.pictures] == pytest.approx([1000, 1100, 1116.7, 1133.4, 1150.1, 1166.8])
    assert display.picture_at(1120).seq == 3 and not display.still_at(1160) and display.still_at(1170)
    # A cut: based on frame 3, due when the motion changed; 4 to 6 are void.
    display.apply({"type": "frame", "seq": 7, "time": 140, "base": 3, "set": {"x": [2, 99]},
                   "insert": [layer(8, 5) | {"index": 1}]}, arrival=1140)
    assert (display.cuts, display.voided) == (1, 3)
    assert [p.seq for p in display.pictures] == [1, 2, 3, 7]
    assert display.tree.layers[2]["frame"][0] == 99 and 8 in display.tree.layers
    # The voided pictures are gone: a frame based on one of them is a wrong base.
    with pytest.raises(WireError, match="wrong base"):
        display.apply({"type": "frame", "seq": 8, "time": 150, "base": 5, "set": {"x": [2, 1]}}, arrival=1150)
    with pytest.raises(WireError, match="without frames"):
        display.apply_timeline({"type": "timeline", "frames": []})
    # A full frame after a timeline's first has no base.
    fresh = {"type": "timeline", "frames": [{"type": "frame", "seq": 8, "time": 150, "base": 7, "set": {"x": [2, 1]}},
                                            {"time": 166.7, "full": True, "nodes": [{"id": 1, "kind": "rect", "frame": [0, 0, 100, 100]}]}]}
    display.apply_timeline(fresh, arrival=1150)
    assert fresh["frames"][1]["seq"] == 9 and "base" not in fresh["frames"][1]
    assert display.seq == 9 and list(display.tree.layers) == [1]


# The spec's example (§3.6): a scene (1) holding a page (2) whose title (3) reads "Home".
DOC_FULL = bytes.fromhex(
    "01 01 00 00 04 05 73 63 65 6e 65 04 70 61 67 65 04 48 6f 6d 65 03 76 63 31 03"
    "02 00 d8 80 08 b0 e1 04 e0 a6 0a 01 00"
    "02 04 98 81 1c b0 e1 04 e0 a6 0a ff ff ff ff 01 02 03"
    "02 04 9f f0 01 01 c0 bb 01 b8 49 b0 ea 01 e0 44 02 c8 1a d8 04 00 00 00 ff 01")
TEXT_BIT = 1 << 11


def retitle(seq, back, tenths, first, text, continues=False):
    """A binary delta (§3.6) that adds the string `text` to a table of `first` and makes it the
    title's text; `continues`: as a timeline's frame after its first, without seq and back (§3.7)."""
    word = text.encode()
    header = varint_encode(tenths) if continues else varint_encode(seq) + varint_encode(tenths) + varint_encode(back)
    return (bytes([2]) + header
            + varint_encode(first) + varint_encode(1) + varint_encode(len(word)) + word
            + bytes([0, 0]) + varint_encode(1) + varint_encode(3) + varint_encode(TEXT_BIT) + varint_encode(first)
            + bytes([0]))


def test_a_binary_timeline_then_a_cut_that_sends_its_strings_again():
    display = TreeDisplay(binary=True)
    display.receive_binary(DOC_FULL, arrival=1000)
    timeline = bytes([8, 2]) + retitle(2, 1, 167, 4, "Two") + retitle(3, 1, 167, 5, "Three", continues=True)
    message = display.receive_binary(timeline, arrival=1100)
    assert [(f["seq"], f["base"]) for f in message["frames"]] == [(2, 1), (3, 2)] and message["type"] == "timeline"
    assert display.strings[4:] == ["Two", "Three"] and display.tree.layers[3]["text"] == "Three"
    # One offset maps session time to ours: the timeline's first frame is due as it arrived.
    assert [display.due(p) for p in display.pictures] == pytest.approx([1083.3, 1100, 1116.7])
    # Cut back to 2: its strings continue the table as it was there (4 + "Two"), not ours.
    cut = display.receive_binary(retitle(4, 2, 100, 5, "Four"), arrival=1110)
    assert cut["base"] == 2 and cut["time"] == pytest.approx(26.7)
    assert (display.cuts, display.voided) == (1, 1)
    assert display.strings[4:] == ["Two", "Four"] and display.tree.layers[3]["text"] == "Four"
    assert [p.seq for p in display.pictures] == [1, 2, 4]
    # A cut whose strings continue more than we hold is out of step, and changes nothing.
    with pytest.raises(WireError, match="out of step"):
        display.receive_binary(retitle(5, 3, 10, 9, "Five"), arrival=1120)
    assert display.seq == 4 and display.tree.layers[3]["text"] == "Four"
    with pytest.raises(WireError, match="no frames"):
        display.receive_binary(bytes([8, 0]))
