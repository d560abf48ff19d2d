// Timelines (docs/protocol.md §3.7): decoding them, JSON and binary, frame by frame against the
// tree the frame before left; playing the pictures on a fake clock (the first on arrival, the
// others when due, never ahead, in between on a fast display); the offset; cuts; the pictures
// held; and the connection asking for them and acknowledging a timeline once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BinaryFrameError, FrameDecoder } from '../../Web/src/binary.js';
import { Connection, wholeFrames } from '../../Web/src/connection.js';
import { hudRows } from '../../Web/src/hud.js';
import { Playout } from '../../Web/src/playout.js';
import { ViewerStats } from '../../Web/src/stats.js';
import { LayerTree } from '../../Web/src/tree.js';
import { WIRE } from '../../Web/src/wire-format.js';
import { continuing, timelineBytes } from './support/bytes.mjs';

// Pictures: a scene (1) holding a page (2) that slides; a title (3) on it in some.

const SCENE = { id: 1, kind: 'rect', frame: [0, 0, 390, 844], clips: true, name: 'scene' };
const page = (x) => ({ id: 2, parent: 1, kind: 'rect', frame: [x, 0, 390, 844], fill: '#FFFFFF', role: 'page', name: 'Home', vc: 'vc1' });
const full = (seq, time, x = 0) => ({ type: 'frame', seq, time, full: true, nodes: [SCENE, page(x)] });
/** A delta that puts the page at `x`, with more of `set` if given. */
const slide = (seq, time, x, base = seq - 1, set = {}) => ({ type: 'frame', seq, time, base, set: { x: [2, x], ...set } });

/** A playout on a fake clock and timer, counting its wakes and keeping its timers. */
function playout() {
  const woken = { count: 0, timers: [] };
  const player = new Playout({
    clock: () => 0,
    wake: () => { woken.count += 1; },
    setTimer: (run, ms) => woken.timers.push({ run, ms }),
    clearTimer: () => {},
  });
  return { player, woken };
}

/** Applies `frames` as one timeline arriving at `arrival`; returns the results. */
function timeline(player, frames, arrival) {
  return frames.map((frame, index) => player.apply(frame, { arrival, timeline: { index, count: frames.length } }));
}

/** The page's drawn x at `now`, and the seq drawn. */
function at(player, now) {
  const item = player.nodes(now).find((node) => node.id === 2);
  return { seq: player.seq, x: item?.frame[0] };
}

test('a frame outside a timeline is drawn as it arrives, late or early: latest wins', () => {
  const { player } = playout();
  assert.equal(player.apply(full(1, 100), { arrival: 1000 }).ok, true);
  assert.equal(player.seq, 1, 'drawn on arrival, before any display frame');
  assert.equal(player.offset, 900);
  player.apply(slide(2, 116.7, 10), { arrival: 1050 });
  assert.deepEqual(at(player, 1050), { seq: 2, x: 10 });
  // Earlier than the offset says: due when made, so due now, not at 1066.7.
  player.apply(slide(3, 133.4, 20), { arrival: 1060 });
  assert.deepEqual(at(player, 1060), { seq: 3, x: 20 });
  assert.equal(Math.round(player.offset * 10) / 10, 926.6);
});

test('a timeline plays on the viewer\'s clock: the first picture on arrival, each next one at its due time, never ahead', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 500 });
  timeline(player, [slide(2, 1000, 100), slide(3, 1020, 200), slide(4, 1040, 300)], 1600);
  assert.equal(player.offset, 600, 'set by the first frame, due when made');
  assert.equal(player.seq, 2, 'the first picture of the motion is drawn as it arrives');
  assert.deepEqual(at(player, 1600), { seq: 2, x: 100 });
  // Halfway between two pictures, the midpoint.
  assert.deepEqual(at(player, 1610), { seq: 2, x: 150 });
  const early = at(player, 1619.99);
  assert.equal(early.seq, 2, 'not before its due time');
  assert.ok(early.x < 200);
  assert.deepEqual(at(player, 1620), { seq: 3, x: 200 });
  assert.deepEqual(at(player, 1635), { seq: 3, x: 275 });
  assert.deepEqual(at(player, 1640), { seq: 4, x: 300 });
  assert.deepEqual(at(player, 5000), { seq: 4, x: 300 }, 'and it stays on the last');
  // The display's clock never goes back.
  assert.deepEqual(at(player, 1600), { seq: 4, x: 300 });
  assert.equal(player.received.seq, 4, 'every frame is decoded and applied on arrival');
});

test('a 120 Hz display gets a distinct picture at every display frame', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 0 });
  const frames = [];
  for (let i = 0; i < 10; i++) frames.push(slide(i + 2, 1000 + i * 16.7, 390 - i * 39));
  timeline(player, frames, 2000);
  const stats = new ViewerStats();
  const xs = [];
  for (let now = 2000; now <= 2000 + 9 * 16.7; now += 1000 / 120) {
    const nodes = player.nodes(now);
    stats.drawn(now, nodes);
    xs.push(nodes.find((node) => node.id === 2).frame[0]);
  }
  assert.equal(stats.snapshot(2200).presented, xs.length, 'every display frame a picture of its own');
  assert.ok(xs.every((x, i) => i === 0 || x < xs[i - 1]), `the page moves at every display frame: ${xs}`);
  // Drawing the same picture again is not a new one.
  stats.drawn(2300, player.nodes());
  assert.equal(stats.snapshot(2300).presented, xs.length);
  // The HUD shows frames received beside pictures drawn.
  stats.frameReceived(2000, 25, 0);
  const rows = new Map(hudRows({ ...stats.snapshot(2300), seq: player.seq, nodes: player.order.length }));
  assert.equal(rows.get('frames received'), '1');
  assert.equal(rows.get('pictures drawn'), String(xs.length));
});

test('pictures far apart, layers one of them lacks, and layers that changed parent are not interpolated', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 0 });
  const title = { id: 3, parent: 2, index: 0, kind: 'text', frame: [0, 0, 100, 44], text: 'Home' };
  timeline(player, [
    slide(2, 1000, 100),
    slide(3, 1080, 200), // 80 ms later: the page held still in between
    { ...slide(4, 1096.7, 300), insert: [title] }, // a new title
    { type: 'frame', seq: 5, time: 1113.4, base: 4, set: { x: [3, 50] }, insert: [{ id: 3, parent: 1, index: 1, move: true }] },
  ], 2000);
  assert.deepEqual(at(player, 2040), { seq: 2, x: 100 }, 'held still across a gap');
  assert.deepEqual(at(player, 2080), { seq: 3, x: 200 });
  assert.equal(player.nodes(2088).some((node) => node.id === 3), false, 'a layer appears when its picture is due');
  assert.equal(at(player, 2088.35).x, 250, 'while the page moves');
  // The title moved from the page (x 300) to the scene: in between, it stays where it was drawn.
  const title4 = player.nodes(2096.7).find((node) => node.id === 3).frame[0];
  assert.equal(title4, 300);
  assert.equal(player.nodes(2105).find((node) => node.id === 3).frame[0], 300);
  assert.equal(player.nodes(2113.4).find((node) => node.id === 3).frame[0], 50);
});

test('alpha, corner radius and scale are interpolated too, with the values a layer leaves out', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 0 });
  timeline(player, [
    slide(2, 1000, 0),
    slide(3, 1020, 0, 2, { alpha: [2, 0.5], radius: [2, 10], scale: [2, 0.9] }),
  ], 2000);
  const layer = player.nodes(2010).find((node) => node.id === 2);
  assert.equal(layer.alpha, 0.75);
  assert.equal(layer.radius, 5);
  assert.equal(layer.scale, 0.95);
});

test('the offset moves later when a frame due when made arrives after its due time, so no picture is skipped', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 500 });
  timeline(player, [slide(2, 1000, 10), slide(3, 1016.7, 20)], 1500);
  assert.equal(player.offset, 500);
  // A new motion, 100 ms later than the offset says.
  timeline(player, [slide(4, 2000, 100), slide(5, 2016.7, 110), slide(6, 2033.4, 120)], 2600);
  assert.equal(player.offset, 600);
  assert.deepEqual(at(player, 2600), { seq: 4, x: 100 }, 'its first picture on arrival, not its third');
  assert.equal(at(player, 2616.6).seq, 4);
  assert.equal(at(player, 2616.7).seq, 5);
  // And earlier when one arrives sooner: the smallest arrival − time.
  timeline(player, [slide(7, 3000, 200), slide(8, 3016.7, 210)], 3550);
  assert.equal(player.offset, 550);
  assert.equal(player.seq, 7);
});

test('a timeline sent ahead to follow pictures still to come leaves the offset alone', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 500 });
  timeline(player, [slide(2, 1000, 10), slide(3, 1016.7, 20), slide(4, 1033.4, 30)], 1500);
  // Arrives at 1510, while 3 and 4 are still to come: its first frame is due at 1550, not now.
  timeline(player, [slide(5, 1050.1, 40), slide(6, 1066.8, 50)], 1510);
  assert.equal(player.offset, 500);
  assert.equal(at(player, 1516.7).seq, 3);
  assert.equal(at(player, 1533.4).seq, 4);
  assert.equal(at(player, 1550).seq, 4);
  assert.equal(at(player, 1550.1).seq, 5);
  assert.equal(at(player, 1566.8).seq, 6);
});

test('a cut voids the pictures after its base and draws the base\'s picture with the new frame applied', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 500 });
  timeline(player, [
    slide(2, 1000, 100),
    slide(3, 1020, 200),
    slide(4, 1040, 300),
    slide(5, 1060, 400, 4, { fill: [2, '#FF0000'] }),
    slide(6, 1080, 500),
  ], 1500);
  assert.equal(at(player, 1545).seq, 4);
  // A touch at 1045 on the session clock: the server goes back to 4, the picture then due.
  const result = player.apply({ type: 'frame', seq: 7, time: 1045, base: 4, set: { y: [2, 8] } }, { arrival: 1548 });
  assert.equal(result.ok, true);
  assert.equal(result.voided, 2);
  assert.equal(result.skipped, 0, 'the voided frames arrived: none was skipped');
  assert.deepEqual(at(player, 1548), { seq: 7, x: 300 });
  assert.deepEqual(player.layer(2).frame, [300, 8, 390, 844], 'picture 4, then the cut');
  assert.equal(player.layer(2).fill, '#FFFFFF', 'nothing of the voided picture 5');
  assert.equal(player.picture(5), undefined);
  assert.equal(player.received.seq, 7);
  assert.deepEqual(at(player, 1600), { seq: 7, x: 300 }, 'and the voided pictures never come');
  // The next frame continues the cut.
  player.apply(slide(8, 1062, 320), { arrival: 1565 });
  assert.deepEqual(player.layer(2).frame, [320, 8, 390, 844]);
});

test('a cut to a picture not held is a wrong base, and a cut that does not apply changes nothing', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 0 });
  for (let seq = 2; seq <= 40; seq++) player.apply(slide(seq, seq * 20, seq), { arrival: seq * 20 });
  assert.equal(player.pictures.length, 25);
  const gone = player.apply(slide(41, 900, 1, 3), { arrival: 900 });
  assert.equal(gone.ok, false);
  assert.match(gone.reason, /based on 3, we hold 40/);
  const bad = player.apply({ type: 'frame', seq: 41, time: 900, base: 30, set: { x: [99, 1] } }, { arrival: 900 });
  assert.equal(bad.ok, false);
  assert.equal(player.pictures.length, 25, 'nothing voided');
  assert.equal(player.received.seq, 40);
  assert.equal(player.seq, 40);
});

test('the pictures kept: the latest 25, and all of the latest timeline with the frame before it', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 0 });
  for (let seq = 2; seq <= 5; seq++) player.apply(slide(seq, seq, seq), { arrival: seq });
  const frames = [];
  for (let seq = 6; seq < 36; seq++) frames.push(slide(seq, 1000 + seq * 16, seq));
  timeline(player, frames, 2000);
  assert.deepEqual(player.pictures.map((picture) => picture.seq), [5, ...frames.map((frame) => frame.seq)]);
  // Each picture shares the layers its frame left alone, and later frames do not change it.
  const [before, after] = [player.pictures[1].tree, player.pictures[2].tree];
  assert.equal(before.layer(1), after.layer(1), 'the scene, untouched, is one object');
  assert.notEqual(before.layer(2), after.layer(2));
  assert.equal(before.layer(2).frame[0], 6);
});

test('it wakes the display while pictures are to come, by display frames when they move and by a timer over a long wait', () => {
  const { player, woken } = playout();
  player.apply(full(1, 0), { arrival: 0 });
  const idle = woken.count;
  player.nodes(10);
  assert.equal(woken.count, idle, 'nothing to come: no wake');
  timeline(player, [slide(2, 1000, 10), slide(3, 1016.7, 20)], 2000);
  assert.ok(woken.count > idle, 'a new picture, and one moving toward the next');
  const moving = woken.count;
  player.nodes(2008);
  assert.equal(woken.count, moving + 1, 'every display frame while in between');
  player.nodes(2016.7);
  assert.equal(woken.count, moving + 1, 'the last picture: nothing more to draw');
  // A picture 300 ms ahead, after a still one: a timer, shortly before it is due.
  timeline(player, [slide(4, 2000, 30), slide(5, 2300, 40)], 3000);
  assert.equal(woken.timers.length, 1);
  assert.ok(woken.timers[0].ms > 250 && woken.timers[0].ms < 300, `timer of ${woken.timers[0].ms} ms`);
});

test('a full frame replaces the pictures still to come', () => {
  const { player } = playout();
  player.apply(full(1, 0), { arrival: 500 });
  timeline(player, [slide(2, 1000, 10), slide(3, 1016.7, 20), slide(4, 1033.4, 30)], 1500);
  player.apply(full(9, 1005, 77), { arrival: 1504 });
  assert.deepEqual(at(player, 1504), { seq: 9, x: 77 });
  assert.deepEqual(at(player, 1600), { seq: 9, x: 77 });
});

// Decoding.

const vectors = new URL('../../docs/wire/vectors/', import.meta.url);
const vector = (name) => JSON.parse(readFileSync(new URL(name, vectors), 'utf8'));

/** The layers a tree holds as a full frame lists them: pre-order, defaults left out. */
function canonical(tree) {
  const out = [];
  const visit = (id) => {
    const layer = { ...tree.layer(id) };
    for (const [key, value] of Object.entries(WIRE.defaults.layer)) {
      if (key !== 'kind' && key !== 'frame' && layer[key] === value) delete layer[key];
    }
    out.push(layer);
    for (const child of tree.childIds(id)) visit(child);
  };
  visit(tree.rootId);
  return out;
}

/** `frames` in runs of consecutive seqs: the frames one timeline may hold. */
function runs(frames) {
  const out = [];
  for (const frame of frames) {
    if (out.at(-1)?.at(-1).json.seq === frame.json.seq - 1) out.at(-1).push(frame);
    else out.push([frame]);
  }
  return out;
}

for (const name of ['deltas.json', 'phone-push.json', 'templates.json']) {
  test(`binary timelines of ${name}'s deltas decode frame by frame against the tree the frame before left`, () => {
    const { templates, frames } = vector(name);
    // One by one, as separate messages: what each frame decodes to.
    const alone = new FrameDecoder();
    alone.withTemplates = templates;
    const tree = new LayerTree();
    const expected = frames.map(({ hex }) => {
      const frame = alone.decode(Buffer.from(hex, 'hex'), (id) => tree.layer(id));
      tree.apply(frame);
      return frame;
    });
    // The full frame alone, the deltas as timelines, one of each run of seqs (the frames after a
    // timeline's first go without seq and back).
    const decoder = new FrameDecoder();
    decoder.withTemplates = templates;
    const { player } = playout();
    player.apply(decoder.decode(Buffer.from(frames[0].hex, 'hex')), { arrival: 0 });
    const got = [];
    for (const run of runs(frames.slice(1))) {
      const message = timelineBytes(run.map((frame) => frame.hex));
      let bytes = 0;
      const places = [];
      for (const { frame, bytes: size, timeline: place } of decoder.read(message, (id) => player.received.layer(id), (seq) => player.picture(seq))) {
        assert.equal(player.apply(frame, { arrival: 10, timeline: place }).ok, true);
        got.push(frame);
        places.push(place);
        bytes += size;
      }
      assert.deepEqual(places, run.map((_, index) => ({ index, count: run.length })));
      assert.equal(bytes, message.length, 'the frames\' sizes add up to the message');
    }
    assert.deepEqual(got, expected.slice(1));
    assert.deepEqual(canonical(player.received), frames.at(-1).tree);
  });
}

test('a binary frame sent alone reads as one frame outside a timeline', () => {
  const [frame] = vector('deltas.json').frames;
  const read = [...new FrameDecoder().read(Buffer.from(frame.hex, 'hex'))];
  assert.equal(read.length, 1);
  assert.equal(read[0].timeline, null);
  assert.equal(read[0].bytes, frame.hex.length / 2);
});

test('a timeline of no frames, cut short, with bytes after its last frame or holding a timeline is refused', () => {
  const { frames } = vector('deltas.json');
  const bad = [
    Buffer.from([WIRE.frameTypes.timeline, 0]),
    timelineBytes([frames[1].hex]).subarray(0, 20),
    Buffer.concat([timelineBytes([frames[1].hex]), Buffer.from([0])]),
    timelineBytes([frames[1].hex, frames[2].hex]).subarray(0, 2 + frames[1].hex.length / 2),
    Buffer.from([WIRE.frameTypes.timeline, 1, WIRE.frameTypes.timeline, 0]),
  ];
  for (const [n, message] of bad.entries()) {
    const decoder = new FrameDecoder();
    const tree = new LayerTree();
    tree.apply(decoder.decode(Buffer.from(frames[0].hex, 'hex')));
    const strings = decoder.strings;
    assert.throws(() => {
      for (const { frame } of decoder.read(message, (id) => tree.layer(id))) tree.apply(frame);
    }, BinaryFrameError, `message ${n}`);
    if (n === 2) assert.deepEqual(decoder.strings, strings, 'bytes after the last frame: its tables are not kept');
  }
});

/** A binary full frame: a scene (1) of 390 × 844 and a page (2) whose role is "page" (string 0). */
const FULL_BYTES = [1, 1, 0, 0, 1, 4, ...Buffer.from('page'), 2,
  2, 0, 0x18, 0xB0, 0xE1, 0x04, 0xE0, 0xA6, 0x0A,
  2, 4, 0x98, 0x80, 0x04, 0xB0, 0xE1, 0x04, 0xE0, 0xA6, 0x0A, 0];
/** A binary delta moving the page to `x` (a whole number of points), `back` frames after its base, `tenths` later. */
function slideBytes(seq, back, tenths, x) {
  const z = x * 100 * 2;
  return [2, seq, ...varint(tenths), back, 1, 0, 0, 0, 1, 2, 0x02, ...varint(z), 0];
}
function varint(value) {
  const out = [];
  while (value >= 128) {
    out.push((value % 128) + 128);
    value = Math.floor(value / 128);
  }
  return [...out, value];
}

test('a binary cut counts its time from its base and writes its inserts like the base\'s layers', () => {
  const decoder = new FrameDecoder();
  const { player } = playout();
  const apply = (bytes, arrival) => {
    const frames = [];
    for (const { frame, timeline: place } of decoder.read(Uint8Array.from(bytes), (id) => player.received.layer(id), (seq) => player.picture(seq))) {
      assert.equal(player.apply(frame, { arrival, timeline: place }).ok, true);
      frames.push(frame);
    }
    return frames;
  };
  apply(FULL_BYTES, 0);
  apply(timelineBytes([slideBytes(2, 1, 167, 10), slideBytes(3, 1, 167, 20)]), 100);
  // Delta 4, based on 2 (back 2), 100 ms after it; strings from 1, none new; no removes; one
  // insert: id 3 (zig-zag 6) under 1 (3 − 1: zig-zag 4), at index 1 of kind 1 (like: 5), like
  // layer 2 (3 − 2: zig-zag 2), nothing differs; no patches, no orders.
  const [cut] = apply([2, 4, ...varint(1000), 2, 1, 0, 0, 1, 6, 4, 5, 2, 0, 0, 0], 200);
  assert.equal(cut.base, 2);
  assert.equal(cut.time, 116.7, 'the base\'s 16.7 and 100');
  assert.deepEqual(cut.insert[0].frame, [10, 0, 390, 844], 'like layer 2 as picture 2 holds it, not as 3 does');
  assert.deepEqual(player.received.layer(2).frame, [10, 0, 390, 844]);
  assert.deepEqual(player.received.childIds(1), [2, 3]);
  // A cut to a picture the viewer does not hold cannot be read.
  assert.throws(() => apply([2, 5, 0, 5, 1, 0, 0, 0, 0, 0], 300), /based on 0, we hold 4/);
});

test('a binary timeline\'s next frame is the one after the frame before it: a delta from it, or a full frame', () => {
  const decoder = new FrameDecoder();
  const { player } = playout();
  const read = (bytes) => {
    const frames = [];
    for (const { frame, timeline: place } of decoder.read(Uint8Array.from(bytes), (id) => player.received.layer(id), (seq) => player.picture(seq))) {
      assert.equal(player.apply(frame, { arrival: 0, timeline: place }).ok, true);
      frames.push(frame);
    }
    return frames;
  };
  read(FULL_BYTES);
  read(timelineBytes([slideBytes(2, 1, 167, 10), slideBytes(3, 1, 167, 20)]));
  // A timeline that starts with a cut to 2: the frame after it goes on from the cut, not from 3.
  const cut = read(timelineBytes([slideBytes(4, 2, 100, 15), slideBytes(5, 1, 167, 25)]));
  assert.deepEqual(cut.map((frame) => [frame.seq, frame.base, frame.time]), [[4, 2, 26.7], [5, 4, 43.4]]);
  // A full frame may follow as well (the server's tables started afresh): its time is its own.
  const fresh = read(timelineBytes([slideBytes(6, 1, 167, 35), [1, 7, ...varint(1000), ...FULL_BYTES.slice(3)]]));
  assert.deepEqual(fresh.map((frame) => [frame.seq, frame.base ?? null, frame.full ?? false, frame.time]), [[6, 5, false, 60.1], [7, null, true, 100]]);
  assert.deepEqual(player.received.layer(2).frame, [0, 0, 390, 844]);
});

// The connection.

class FakeSocket {
  static all = [];
  constructor(url, protocol) {
    Object.assign(this, { url, protocol, sent: [], readyState: 0, closedWith: null });
    FakeSocket.all.push(this);
  }
  send(data) { this.sent.push(data); }
  close(code) { this.readyState = 3; this.closedWith = code ?? 1005; }
  open() { this.readyState = 1; this.onopen(); }
  receive(data) { this.onmessage({ data: typeof data === 'string' || data instanceof ArrayBuffer ? data : JSON.stringify(data) }); }
  hello() { return JSON.parse(this.sent.find((text) => JSON.parse(text).type === 'hello')); }
  acks() { return this.sent.filter((text) => text.startsWith('{"type":"ack"')); }
}

function connect(wire, model) {
  FakeSocket.all = [];
  globalThis.WebSocket = Object.assign(FakeSocket, { OPEN: 1 });
  const connection = new Connection({
    url: 'ws://h/ws', app: 'phone', role: 'control', session: null, model, wire,
    storage: { getItem: () => null, setItem() {}, removeItem() {} },
    viewport: () => ({ width: 390, height: 844, scale: 1 }),
  });
  const frames = [];
  connection.addEventListener('frame', ({ detail }) => frames.push(detail));
  connection.start();
  const socket = FakeSocket.all.at(-1);
  socket.open();
  socket.receive({ type: 'welcome', protocol: wire === 'v1' ? 1 : 2, encoding: wire, session: 'abc', role: 'control', features: ['timelines'] });
  return { connection, socket, frames };
}

const quiet = () => playout().player;

test('hello asks for timelines on protocol v2 when the model plays them: not on v1, not for a bare tree', () => {
  for (const [wire, model, asks] of [['binary', quiet(), true], ['json', quiet(), true], ['binary', new LayerTree(), false]]) {
    const { connection, socket } = connect(wire, model);
    assert.equal(socket.hello().features.includes('timelines'), asks, `${wire}, ${model.constructor.name}`);
    assert.equal(socket.hello().protocol, 2);
    connection.stop('done');
  }
  const { connection, socket } = connect('v1', new LayerTree());
  assert.deepEqual(socket.hello().features, ['sessionUpdates']);
  assert.equal('protocol' in socket.hello(), false);
  connection.stop('done');
});

/** A JSON timeline's frames as the server sends them: after the first without type, seq and base. */
function compact(frames) {
  return frames.map((frame, index) => {
    if (index === 0) return frame;
    const { type, seq, base, ...rest } = frame;
    return rest;
  });
}

test('a JSON timeline\'s frames after its first are the frames after it: "frame", the next seq, a delta from the one before', () => {
  const sent = [slide(2, 1000, 10), slide(3, 1016.7, 20), full(4, 1033.4, 30), slide(5, 1050.1, 40)];
  assert.deepEqual(wholeFrames(compact(sent)), sent);
  assert.deepEqual(Object.keys(compact(sent)[1]), ['time', 'set']);
  for (const bad of [undefined, [], [{ seq: 2, time: 0 }], [slide(2, 0, 1), 3], [slide(2, 0, 1), null], { frames: [] }]) {
    assert.equal(wholeFrames(bad), null, JSON.stringify(bad));
  }
});

test('a JSON timeline is applied frame by frame and acknowledged once, with the seq of its last frame', async () => {
  const player = quiet();
  const { connection, socket, frames } = connect('json', player);
  socket.receive(full(1, 0));
  assert.deepEqual(socket.acks(), ['{"type":"ack","seq":1}']);
  socket.receive({ type: 'timeline', frames: compact([slide(2, 1000, 10), slide(3, 1016.7, 20), slide(4, 1033.4, 30)]) });
  assert.deepEqual(socket.acks(), ['{"type":"ack","seq":1}', '{"type":"ack","seq":4}']);
  assert.deepEqual(frames.map((frame) => frame.timeline), [null, { index: 0, count: 3 }, { index: 1, count: 3 }, { index: 2, count: 3 }]);
  assert.deepEqual(frames.slice(1).map(({ frame }) => frame), [slide(2, 1000, 10), slide(3, 1016.7, 20), slide(4, 1033.4, 30)]);
  assert.equal(player.received.seq, 4);
  assert.equal(player.seq, 2, 'the first picture is drawn; the others wait for their time');
  // A cut on the JSON wire; then one to a base not held resyncs.
  socket.receive(slide(5, 1010, 15, 2));
  assert.equal(player.received.seq, 5);
  assert.deepEqual(player.layer(2).frame, [15, 0, 390, 844]);
  // A lone delta is acknowledged once no more come (connection.js, ACK_DELAY_MS).
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.equal(socket.acks().at(-1), '{"type":"ack","seq":5}');
  socket.receive(slide(6, 1020, 16, 3));
  assert.equal(socket.closedWith, 4000, 'out of step: a full frame is asked for');
  connection.stop('done');
});

test('a binary timeline is decoded and acknowledged once; the frames\' sizes are their bytes', () => {
  const player = quiet();
  const { connection, socket, frames } = connect('binary', player);
  socket.receive(Uint8Array.from(FULL_BYTES).buffer);
  const message = timelineBytes([slideBytes(2, 1, 167, 10), slideBytes(3, 1, 167, 20)]);
  socket.receive(message.buffer);
  assert.deepEqual(socket.acks(), ['{"type":"ack","seq":1}', '{"type":"ack","seq":3}']);
  assert.deepEqual(frames.slice(1).map((frame) => frame.bytes), [2 + slideBytes(2, 1, 167, 10).length, continuing(slideBytes(3, 1, 167, 20)).length]);
  assert.deepEqual(frames.slice(1).map(({ frame }) => [frame.seq, frame.base]), [[2, 1], [3, 2]], 'seq and base of the second implied');
  assert.equal(player.received.seq, 3);
  // A timeline whose second frame cannot be read: the first stays applied, nothing is acked, resync.
  socket.receive(Uint8Array.from([WIRE.frameTypes.timeline, 2, ...slideBytes(4, 1, 167, 30), 9]).buffer);
  assert.equal(player.received.seq, 4);
  assert.equal(socket.acks().length, 2);
  assert.equal(socket.closedWith, 4000);
  connection.stop('done');
});

test('without a playout (v1, or a bare tree) frames are drawn as they come, as before', async () => {
  const tree = new LayerTree();
  const { connection, socket } = connect('json', tree);
  socket.receive(full(1, 0));
  socket.receive(slide(2, 1000, 10));
  assert.equal(tree.seq, 2);
  assert.deepEqual(tree.layer(2).frame, [10, 0, 390, 844]);
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.deepEqual(socket.acks(), ['{"type":"ack","seq":1}', '{"type":"ack","seq":2}']);
  connection.stop('done');
});

test('a frame due on arrival is drawn on arrival whatever the rounding of its clock', () => {
  for (const [time, arrival] of [[1850.6, 2345.678912], [0.1, 987654.3210987], [16.7, 0.3], [123456.7, 123.45678]]) {
    const { player } = playout();
    player.apply(full(1, time), { arrival });
    assert.equal(player.seq, 1, `${time} at ${arrival}`);
    timeline(player, [slide(2, time + 1000, 1), slide(3, time + 1016.7, 2)], arrival + 1111.1);
    assert.equal(player.seq, 2, `${time} at ${arrival}: the timeline's first`);
  }
});

test('over a network of 50-150 ms round trip with jitter, a slide moves at every display frame, by even steps', () => {
  // A seeded generator, so that a failure can be replayed.
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const tick = 1000 / 60;
  const xAt = (n) => Math.round((390 - n * 8) * 100) / 100; // 8 pt a tick, 48 ticks
  for (let run = 0; run < 20; run++) {
    const { player } = playout();
    const start = 5000;
    const delay = () => 25 + random() * 50;
    player.apply(full(1, start - 500, 390), { arrival: start - 500 + delay() });
    // The first 24 pictures when the slide starts; the next 24 sent ahead, half way through,
    // following the last one sent.
    const frames = (from, to, base) => Array.from({ length: to - from }, (_, i) => slide(from + i + 2, Math.round((start + (from + i) * tick) * 10) / 10, xAt(from + i), i === 0 ? base : from + i + 1));
    const arrivals = [[0, start + delay()], [1, start + 12 * tick + delay()]];
    const messages = [frames(0, 24, 1), frames(24, 48, 25)];
    const xs = [];
    let now = arrivals[0][1];
    let next = 0;
    while (xs.at(-1) !== xAt(47)) {
      while (next < 2 && arrivals[next][1] <= now) {
        timeline(player, messages[arrivals[next][0]], arrivals[next][1]);
        next++;
      }
      xs.push(player.nodes(now).find((node) => node.id === 2).frame[0]);
      now += 1000 / 120;
      assert.ok(xs.length < 200, 'the slide ends');
    }
    const steps = xs.slice(1).map((x, i) => xs[i] - x);
    // Half a tick's 8 pt at each display frame, within what times rounded to 0.1 ms make of it.
    const even = 8 * (1000 / 120) / tick;
    assert.ok(steps.every((step) => Math.abs(step - even) < 0.05), `run ${run}: steps ${steps.map((s) => s.toFixed(2))}`);
  }
});
