// Input echo and pointer bindings (docs/protocol.md §3.8, feature `timelines`): frames' `input`
// and `bind` as JSON and as binary (type + 16, bytes assembled by hand), the viewer numbering its
// input per connection, the change along the axis (1:1, a parallax slope, held at the ends), a
// held pointer moving the picture before the server's frame, a later frame replacing it, the
// HUD's input → frame by input number, and v1 left as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BinaryFrameError, FrameDecoder } from '../../Web/src/binary.js';
import { PointerBindings, boundPicture, readBindings, valueAt } from '../../Web/src/bindings.js';
import { Connection } from '../../Web/src/connection.js';
import { DisplayList } from '../../Web/src/delta.js';
import { hudRows } from '../../Web/src/hud.js';
import { Playout } from '../../Web/src/playout.js';
import { Bytes as FrameBytes } from './support/bytes.mjs';
import { ViewerStats } from '../../Web/src/stats.js';
import { LayerTree } from '../../Web/src/tree.js';

// Pictures: a scene (1) holding a covered page (3) and, above it, the top page (2), which a back
// swipe drags to the right while the covered page follows at 0.3 of the finger and a dim (4) fades.

const SCENE = { id: 1, kind: 'rect', frame: [0, 0, 390, 844], clips: true, name: 'scene' };
const layers = (x) => [
  SCENE,
  { id: 3, parent: 1, kind: 'rect', frame: [-117 + 0.3 * x, 0, 390, 844], fill: '#F2F2F7' },
  { id: 4, parent: 1, kind: 'rect', frame: [0, 0, 390, 844], fill: '#000000', alpha: 0.1 },
  { id: 2, parent: 1, kind: 'rect', frame: [x, 0, 390, 844], fill: '#FFFFFF', role: 'page' },
];
const full = (seq, time, x = 0, more = {}) => ({ type: 'frame', seq, time, full: true, ...more, nodes: layers(x) });
/** The top page at `x` (and the covered one at 0.3 of it), with `more` (input, bind) on the frame. */
const drag = (seq, time, x, more = {}, base = seq - 1) => ({
  type: 'frame', seq, time, base, ...more, set: { x: [2, x, 3, -117 + 0.3 * x] },
});
/**
 * A back swipe's bindings, the pan starting at x 20: the page 1:1 from 0 to the right edge, the
 * covered page at 0.3 of it, the dim fading; the same for every frame of the pan.
 */
const swipe = () => ({
  axis: 'x',
  origin: [20, 400],
  travel: [-600, 0, 390, 990],
  layers: [
    { id: 2, field: 'x', values: [0, 0, 390, 390] },
    { id: 3, field: 'x', values: [-117, -117, 0, 0] },
    { id: 4, field: 'alpha', values: [0.1, 0.1, 0, 0] },
  ],
});

const xOf = (nodes, id) => nodes.find((node) => node.id === id)?.frame[0];
const alphaOf = (nodes, id) => nodes.find((node) => node.id === id)?.alpha ?? 1;

// The frames' members.

test('a JSON frame\'s input is its picture\'s, and a delta without one shows its base\'s', () => {
  const tree = new LayerTree();
  tree.apply(full(1, 0));
  assert.equal(tree.input, null, 'no input numbered yet');
  tree.apply(drag(2, 16.7, 10, { input: 17 }));
  assert.equal(tree.input, 17);
  tree.apply(drag(3, 33.4, 20));
  assert.equal(tree.input, 17, 'unchanged since the base');
  const snapshot = tree.snapshot();
  tree.apply(drag(4, 50.1, 30, { input: 18 }));
  assert.equal(snapshot.input, 17, 'a snapshot keeps its own');
  tree.apply(full(5, 60, 0, { input: 19 }));
  assert.equal(tree.input, 19);
  tree.apply(full(6, 70));
  assert.equal(tree.input, null, 'a full frame without input shows none');
});

test('bind: the bindings of the frame, "same" for its base\'s, none without it; ones without the spec\'s shape are dropped', () => {
  const tree = new LayerTree();
  tree.apply(full(1, 0, 0, { input: 1 }));
  assert.equal(tree.bindings, null);
  tree.apply(drag(2, 16.7, 10, { input: 2, bind: swipe(10) }));
  assert.deepEqual(tree.bindings, swipe(10));
  tree.apply(drag(3, 33.4, 20, { input: 3, bind: 'same' }));
  assert.deepEqual(tree.bindings, swipe(10), 'the base\'s, for this frame\'s values');
  tree.apply(drag(4, 50.1, 30, { input: 4 }));
  assert.equal(tree.bindings, null, 'a frame without bind has none');
  tree.apply(drag(5, 60, 40, { bind: 'same' }));
  assert.equal(tree.bindings, null, 'the same as none is none');
  const bad = [
    { ...swipe(0), axis: 'z' },
    { ...swipe(0), travel: [0, -10, 10, 20] },
    { ...swipe(0), travel: [] },
    { ...swipe(0), origin: [1] },
    { ...swipe(0), layers: [{ id: 2, field: 'w', values: [0, 0, 0, 0] }] },
    { ...swipe(0), layers: [{ id: 2, field: 'x', values: [0, 0] }] },
    'other',
  ];
  for (const [n, bind] of bad.entries()) {
    const result = tree.apply(drag(6 + n, 70 + n, 50, { bind }));
    assert.equal(result.ok, true, 'the frame applies');
    assert.equal(tree.bindings, null, `bindings ${n} are dropped`);
  }
  assert.equal(readBindings(undefined, swipe(0)), null);
});

// Binary: type + 16.

/** Binary frames with BINDINGS (§3.8) as well. */
class Bytes extends FrameBytes {
  /** BINDINGS: `"same"`, null for none, or the JSON form. */
  bind(bind) {
    if (bind === null) return this.v(0);
    if (bind === 'same') return this.v(1);
    this.v(bind.layers.length + 1).u8(bind.axis === 'x' ? 0 : 1);
    this.c(bind.origin[0]).c(bind.origin[1]).v(bind.travel.length);
    for (const distance of bind.travel) this.c(distance);
    for (const { id, field, values } of bind.layers) {
      this.v(id).u8({ x: 0, y: 1, alpha: 2 }[field]);
      for (const value of values) this.z(Math.round(value * (field === 'alpha' ? 1000 : 100)));
    }
    return this;
  }
}

/** A full frame of the scene (1) and the page (2) at `x`; `input` and `bind` with the flag. */
function fullBytes(seq, tenths, x, { input, bind } = {}) {
  const b = new Bytes().u8(input === undefined ? 1 : 1 + 16).v(seq).v(tenths);
  if (input !== undefined) b.v(input);
  // No strings; two layers: the root (mask w|h) and the page under it (x|w|h).
  b.v(0).v(0).v(2).z(1).v(0).v(0x18).z(39000).z(84400).z(1).v(4).v(0x1A).z(x * 100).z(39000).z(84400);
  return input === undefined ? b.bytes : b.bind(bind ?? null).bytes;
}

/** A delta moving the page to `x`, `back` after its base; `input` and `bind` with the flag; `templates` adds an empty TEMPLATES part (+ 4). */
function slideBytes(seq, back, tenths, x, { input, bind, templates = false } = {}) {
  const b = new Bytes().u8(2 + (templates ? 4 : 0) + (input === undefined ? 0 : 16)).v(seq).v(tenths).v(back);
  if (input !== undefined) b.v(input);
  b.v(0).v(0);
  if (templates) b.v(0).v(0);
  // No removes or inserts; one patch: the page's x; no orders.
  b.v(0).v(0).v(1).v(2).v(2).z(x * 100).v(0);
  return input === undefined ? b.bytes : b.bind(bind ?? null).bytes;
}

test('binary type + 16: input after the header, BINDINGS after the body, decoded to the frame JSON sends', () => {
  const decoder = new FrameDecoder();
  const first = decoder.decode(fullBytes(1, 100, 0, { input: 5 }));
  assert.equal(first.input, 5, 'a full frame always carries it');
  assert.equal('bind' in first, false, 'BINDINGS count 0: none');
  const bind = { axis: 'x', origin: [20.5, 400], travel: [-10, 0, 380], layers: [{ id: 2, field: 'x', values: [0, 0, 380] }, { id: 4, field: 'alpha', values: [0.1, 0.1, 0] }] };
  // Input 5 again (binary writes it whenever the flag is set; JSON leaves it out when unchanged).
  assert.deepEqual(decoder.decode(slideBytes(2, 1, 167, 10, { input: 5, bind })),
    { type: 'frame', seq: 2, time: 26.7, base: 1, set: [{ id: 2, frame: [10, null, null, null] }], bind });
  assert.deepEqual(decoder.decode(slideBytes(3, 1, 167, 20, { input: 6, bind: 'same' })),
    { type: 'frame', seq: 3, time: 43.4, base: 2, input: 6, set: [{ id: 2, frame: [20, null, null, null] }], bind: 'same' });
  // Without the flag: nothing of either, and the input held stays the frame's.
  assert.deepEqual(decoder.decode(slideBytes(4, 1, 167, 30)), { type: 'frame', seq: 4, time: 60.1, base: 3, set: [{ id: 2, frame: [30, null, null, null] }] });
  assert.equal(decoder.last.input, 6);
  // A vertical axis and a list's y, and the flag beside templates' (2 + 4 + 16).
  decoder.withTemplates = true;
  const scroll = { axis: 'y', origin: [200, 610], travel: [-500, 0, 120.5], layers: [{ id: 2, field: 'y', values: [-500, 0, 120.5] }] };
  const frame = decoder.decode(slideBytes(5, 1, 167, 40, { input: 7, bind: scroll, templates: true }));
  assert.equal(frame.input, 7);
  assert.deepEqual(frame.bind, scroll);
  // Applied to a tree, as JSON would be.
  const tree = new LayerTree();
  const json = new LayerTree();
  const again = new FrameDecoder();
  tree.apply(again.decode(fullBytes(1, 100, 0, { input: 5 })));
  tree.apply(again.decode(slideBytes(2, 1, 167, 10, { input: 5, bind })));
  json.apply({ type: 'frame', seq: 1, time: 10, full: true, input: 5, nodes: [{ ...SCENE, clips: undefined, name: undefined }, { id: 2, parent: 1, kind: 'rect', frame: [0, 0, 390, 844] }] });
  json.apply({ type: 'frame', seq: 2, time: 26.7, base: 1, set: { x: [2, 10] }, bind });
  assert.equal(tree.input, json.input);
  assert.deepEqual(tree.bindings, json.bindings);
});

test('a cut\'s input is compared with its base picture\'s, not the newest frame\'s', () => {
  const decoder = new FrameDecoder();
  const player = new Playout({ clock: () => 0, setTimer: () => 0, clearTimer: () => {} });
  const apply = (bytes, arrival, timeline = null) => {
    const frame = decoder.decode(bytes, (id) => player.received.layer(id), (seq) => player.picture(seq));
    assert.equal(player.apply(frame, { arrival, timeline }).ok, true);
    return frame;
  };
  apply(fullBytes(1, 0, 0, { input: 1 }), 0);
  apply(slideBytes(2, 1, 167, 10), 100, { index: 0, count: 2 });
  apply(slideBytes(3, 1, 167, 20, { input: 2 }), 100, { index: 1, count: 2 });
  assert.equal(player.picture(2).input, 1);
  // Based on 2 (back 2), which shows input 1: input 2 changed since that base.
  const cut = apply(slideBytes(4, 2, 100, 15, { input: 2 }), 110);
  assert.equal(cut.input, 2);
  assert.equal(player.received.input, 2);
});

test('binary BINDINGS out of range or cut short are refused like a corrupt frame', () => {
  const held = () => {
    const decoder = new FrameDecoder();
    decoder.decode(fullBytes(1, 0, 0, { input: 1 }));
    return decoder;
  };
  // The delta without its BINDINGS' count, then BINDINGS as given.
  const body = slideBytes(2, 1, 167, 10, { input: 2, bind: null }).subarray(0, -1);
  const frame = (...bindings) => Uint8Array.from([...body, ...bindings]);
  // Two entries (one layer), axis x, origin (0, 1), two travels 0 and 10, layer 2's x 0 and 10.
  const good = [2, 0, 0, 0xC8, 0x01, 2, 0, 0xD0, 0x0F, 2, 0, 0, 0xD0, 0x0F];
  assert.deepEqual(held().decode(frame(...good)).bind,
    { axis: 'x', origin: [0, 1], travel: [0, 10], layers: [{ id: 2, field: 'x', values: [0, 10] }] });
  const bad = [
    frame(...good.slice(0, -1)), // cut short
    frame(),                     // no count at all
    frame(2, 2, ...good.slice(2)), // axis 2
    frame(...good.slice(0, 10), 3, ...good.slice(11)), // field 3
    frame(...good.slice(0, 9), 0, ...good.slice(10)), // layer id 0
    frame(0x7F, ...good.slice(1)), // 126 layers in 10 bytes
    frame(...good, 0), // a byte after the bindings
  ];
  for (const [n, bytes] of bad.entries()) {
    assert.throws(() => held().decode(bytes), BinaryFrameError, `frame ${n}`);
  }
});

// Numbering.

class FakeSocket {
  static OPEN = 1;
  static all = [];
  constructor(url, protocol) {
    Object.assign(this, { url, protocol, sent: [], readyState: 0 });
    FakeSocket.all.push(this);
  }
  send(data) { this.sent.push(data); }
  close() { this.readyState = 3; }
  open() { this.readyState = FakeSocket.OPEN; this.onopen(); }
  receive(data) { this.onmessage({ data: typeof data === 'string' || data instanceof ArrayBuffer ? data : JSON.stringify(data) }); }
  inputs() { return this.sent.map((text) => JSON.parse(text)).filter((message) => ['pointer', 'scroll', 'key'].includes(message.type)); }
}

function connect(wire, model, features = ['timelines']) {
  FakeSocket.all = [];
  globalThis.WebSocket = FakeSocket;
  const connection = new Connection({
    url: 'ws://h/ws', app: 'phone', role: 'control', session: null, model, wire,
    storage: { getItem: () => null, setItem() {}, removeItem() {} },
    viewport: () => ({ width: 390, height: 844, scale: 1 }),
  });
  connection.start();
  const welcome = () => {
    const socket = FakeSocket.all.at(-1);
    socket.open();
    socket.receive({ type: 'welcome', protocol: wire === 'v1' ? 1 : 2, encoding: wire, session: 'abc', role: 'control', features });
    return socket;
  };
  return { connection, welcome };
}

const quietPlayout = (bindings = null) => new Playout({ clock: () => 0, setTimer: () => 0, clearTimer: () => {}, bindings });
const POINTER = [
  { type: 'pointer', phase: 'down', id: 1, x: 20, y: 400, t: 1000 },
  { type: 'pointer', phase: 'move', id: 1, x: 40, y: 400, t: 1016, samples: [[30, 400, 1008], [40, 400, 1016]] },
  { type: 'scroll', x: 40, y: 400, dx: 0, dy: 10, t: 1020 },
  { type: 'key', key: 'Escape' },
];

test('with timelines accepted, pointer, scroll and key messages are numbered from 1 on each connection', () => {
  const { connection, welcome } = connect('json', quietPlayout());
  let socket = welcome();
  assert.deepEqual(POINTER.map((message) => connection.sendInput(message).input), [1, 2, 3, 4]);
  assert.deepEqual(socket.inputs().map((message) => message.input), [1, 2, 3, 4]);
  assert.deepEqual(socket.inputs()[1], { ...POINTER[1], input: 2 }, 'the message as it was, with its number');
  assert.equal('input' in POINTER[0], false, 'the caller\'s message is not changed');
  // The connection drops; the next one counts from 1 again.
  socket.onclose({ code: 1006, reason: '' });
  connection.start();
  socket = welcome();
  assert.equal(connection.sendInput(POINTER[0]).input, 1);
  connection.stop('done');
});

test('input is not numbered when the server did not accept timelines, without a playout, on v1, or when not connected', () => {
  for (const [wire, model, features] of [
    ['binary', quietPlayout(), []],
    ['json', new LayerTree(), ['timelines']],
    ['v1', new DisplayList(), ['timelines']],
  ]) {
    const { connection, welcome } = connect(wire, model, features);
    const socket = welcome();
    const sent = connection.sendInput(POINTER[0]);
    assert.deepEqual(sent, POINTER[0], `${wire} ${model.constructor.name} [${features}]`);
    assert.deepEqual(socket.inputs(), [POINTER[0]]);
    connection.stop('done');
  }
  const { connection } = connect('json', quietPlayout());
  assert.equal(connection.sendInput(POINTER[0]), null, 'before the welcome: not sent');
  connection.stop('done');
});

test('a new connection forgets the input the held pictures show: its numbers start again', () => {
  const player = quietPlayout();
  const { connection, welcome } = connect('json', player);
  let socket = welcome();
  socket.receive(full(1, 0, 0, { input: 40 }));
  assert.equal(player.received.input, 40);
  socket.onclose({ code: 1006, reason: '' });
  connection.start();
  socket = welcome();
  assert.equal(player.received.input, null);
  assert.equal(player.picture(1).input, null);
  // A resumed delta that does not change it shows none, not the old connection's 40.
  socket.receive(drag(2, 16.7, 10));
  player.nodes(1e9);
  assert.equal(player.input, null);
  connection.stop('done');
});

// The change along the axis.

test('a bound field is linear between travels: 1:1, a parallax slope, held beyond the ends', () => {
  const { travel, layers: [page, covered, dim] } = swipe();
  assert.equal(valueAt(travel, page.values, 0), 0);
  assert.equal(valueAt(travel, page.values, 37.5), 37.5, '1:1');
  assert.equal(valueAt(travel, page.values, -60), 0, 'the page stops at the left edge');
  assert.equal(valueAt(travel, page.values, 500), 390, 'and at the right one');
  assert.equal(valueAt(travel, page.values, -4000), 0, 'held at the first');
  assert.ok(Math.abs(valueAt(travel, covered.values, 50) - (-117 + 0.3 * 50)) < 1e-9, 'parallax: 0.3 of the finger');
  assert.ok(Math.abs(valueAt(travel, dim.values, 195) - 0.05) < 1e-9);
  // Uneven steps: a rubber band's slope changes past an end.
  assert.equal(valueAt([-100, 0, 100], [-50, 0, 100], -40), -20);
  assert.equal(valueAt([0], [3], 99), 3, 'a single travel: the same value everywhere');
  // A bound picture: the bound layers moved, alpha within 0 … 1, the rest shared.
  const tree = new LayerTree();
  tree.apply(full(1, 0, 100, { bind: swipe() }));
  const bound = boundPicture(tree, tree.bindings, 1000);
  assert.equal(xOf(bound.nodes(), 2), 390);
  assert.equal(bound.layer(4).alpha, 0);
  assert.equal(bound.layer(1), tree.layer(1));
  assert.equal(xOf(tree.nodes(), 2), 100, 'the frame\'s picture is left as it was');
});

// A held pointer.

/** A playout drawn through pointer bindings on a fake clock, with the jumps they report. */
function held() {
  const jumps = [];
  let wakes = 0;
  const bindings = new PointerBindings({ wake: () => { wakes += 1; }, jumped: (points) => jumps.push(points) });
  const player = quietPlayout(bindings);
  let input = 0;
  let now = 0;
  /** Sends a pointer message as the viewer would: numbered, then told to the bindings. */
  const send = (phase, x, y = 400) => {
    const message = { type: 'pointer', phase, id: 1, x, y, t: now, input: ++input };
    if (phase === 'move') message.samples = [[x - 1, y, now - 8], [x, y, now]];
    bindings.sent(message);
    return input;
  };
  const move = (x, y = 400) => bindings.moved(1, x, y);
  const receive = (frame) => {
    now += 16.7;
    assert.equal(player.apply(frame, { arrival: now }).ok, true);
  };
  const draw = () => player.nodes((now += 1));
  return { bindings, player, jumps, send, move, receive, draw, wakes: () => wakes };
}

test('a held pointer moves the bound layers at once, to where its translation puts them', () => {
  const h = held();
  h.receive(full(1, 0, 0));
  h.send('down', 20);
  h.move(30);
  h.send('move', 30);
  h.move(40);
  h.send('move', 40);
  // The pan started on input 2: the server's frame shows the page at 10 and binds it.
  h.receive(drag(2, 16.7, 10, { input: 2, bind: swipe(10) }));
  // The pointer is at 40 now, 20 from the pan's origin: drawn there at once.
  assert.equal(xOf(h.draw(), 2), 20);
  const wakes = h.wakes();
  h.move(75);
  assert.equal(h.wakes(), wakes + 1, 'a local move asks for a draw');
  const nodes = h.draw();
  assert.equal(xOf(nodes, 2), 55, '1:1 with the finger');
  assert.ok(Math.abs(xOf(nodes, 3) - (-117 + 0.3 * 55)) < 1e-9, 'the covered page at 0.3');
  assert.ok(Math.abs(alphaOf(nodes, 4) - 0.1 * (1 - 55 / 390)) < 1e-3, 'the dim fades along (drawn to thousandths)');
  assert.equal(h.player.input, 2, 'the picture still shows input 2');
  // Past the right edge: held at the last travel.
  h.move(900);
  assert.equal(xOf(h.draw(), 2), 390);
  assert.equal(alphaOf(h.draw(), 4), 0);
  // The same picture at the same travel is the same picture.
  assert.equal(h.draw(), h.draw());
});

test('a frame for a later input replaces the local picture, the moves after it are applied again, and the jump is reported', () => {
  const h = held();
  h.receive(full(1, 0, 0));
  h.send('down', 20);
  h.send('move', 30); // 2
  h.receive(drag(2, 16.7, 10, { input: 2, bind: swipe(10) }));
  h.move(50);
  h.send('move', 50); // 3
  h.move(60);
  assert.equal(xOf(h.draw(), 2), 40);
  assert.deepEqual(h.jumps, []);
  // The server's frame for input 3 (the pointer at 50): it says 31, where input 2's bindings put 30.
  h.receive(drag(3, 33.4, 31, { input: 3, bind: 'same' }));
  assert.deepEqual(h.jumps.map((jump) => Math.round(jump * 1000) / 1000), [1], 'the server against the local guess for that input');
  // Drawn from the new frame, its bound layers where the pointer now (60) puts them.
  assert.equal(xOf(h.draw(), 2), 40);
  // A frame without bindings for a later input is drawn as it came.
  h.send('move', 60); // 4
  h.receive(drag(4, 50.1, 41, { input: 4 }));
  h.move(80);
  assert.equal(xOf(h.draw(), 2), 41);
  assert.equal(h.jumps.length, 2);
  assert.ok(Math.abs(h.jumps[1] - 1) < 1e-9, 'one point from where the bindings put it for input 4');
});

test('after up the last bound picture stays until a frame shows the up; then the server\'s frames and timelines draw alone', () => {
  const h = held();
  h.receive(full(1, 0, 0));
  h.send('down', 20);
  h.send('move', 30); // 2
  h.receive(drag(2, 16.7, 10, { input: 2, bind: swipe(10) }));
  h.move(60);
  h.send('move', 60); // 3
  const up = h.send('up', 70); // 4
  assert.equal(xOf(h.draw(), 2), 50, 'at the up\'s position');
  h.move(200);
  assert.equal(xOf(h.draw(), 2), 50, 'moves after the up are not bound');
  // Input 3's frame, still bound: the up is 10 past it.
  h.receive(drag(3, 33.4, 40, { input: 3, bind: 'same' }));
  assert.equal(xOf(h.draw(), 2), 50);
  // The release: a frame that shows the up, the first of a timeline.
  h.receive(drag(4, 50.1, 48, { input: up }));
  assert.equal(xOf(h.draw(), 2), 48);
  assert.ok(Math.abs(h.jumps.at(-1) - 2) < 1e-9, 'the release against the bound picture at the up');
  assert.equal(h.bindings.active, false);
  // A later frame with bindings (another pointer's drag) is not bound without a pointer held.
  h.receive(drag(5, 66.8, 60, { bind: swipe() }));
  assert.equal(xOf(h.draw(), 2), 60);
});

test('frames from before the down, other pointers, and unnumbered messages are not bound', () => {
  const h = held();
  h.receive(full(1, 0, 0));
  h.send('down', 20);
  h.send('move', 30); // 2
  h.send('up', 30); // 3
  h.receive(drag(2, 16.7, 10, { input: 3 }));
  h.send('down', 100); // 4: a new drag
  h.move(150);
  // A frame that shows input 2 of the drag before, with that pan's bindings: not bound.
  h.receive(drag(3, 33.4, 10, { input: 2, bind: swipe(10) }, 2));
  assert.equal(xOf(h.draw(), 2), 10);
  // Another pointer's down and moves change nothing.
  h.bindings.sent({ type: 'pointer', phase: 'down', id: 2, x: 0, y: 0, input: 5 });
  h.bindings.moved(2, 300, 0);
  h.receive(drag(4, 50.1, 10, { input: 5, bind: swipe(10) }));
  assert.equal(xOf(h.draw(), 2), 130, 'pointer 1 at 150, 130 from the origin');
  // Without numbers (a server that does not echo them) nothing is bound at all.
  const plain = new PointerBindings();
  plain.sent({ type: 'pointer', phase: 'down', id: 1, x: 20, y: 400 });
  assert.equal(plain.active, false);
});

// The HUD.

test('input → frame times each numbered input to the first picture drawn that shows it', () => {
  const stats = new ViewerStats();
  stats.inputSent(1000, 1);
  stats.inputSent(1016, 2);
  stats.inputSent(1032, 3);
  // A frame of any kind before it is drawn does not answer anything now.
  stats.frameReceived(1010, 100, 0);
  stats.drawn(1010, [], null);
  stats.drawn(1040, [], 1);
  assert.equal(stats.snapshot(1040).inputToFrameMs, 40);
  stats.drawn(1060, [], 3);
  // 40, 44, 28: the median.
  assert.equal(stats.snapshot(1060).inputToFrameMs, 40);
  assert.equal(stats.snapshot(1060).inputEchoed, true);
  // An input no picture shows within a second caused nothing: not a sample.
  stats.inputSent(2000, 4);
  stats.drawn(3500, [], 4);
  assert.deepEqual(stats.inputToPicture.values, [40, 44, 28]);
  // A new connection: the numbers start again, and nothing sent before waits.
  stats.inputSent(4000, 5);
  stats.inputReset();
  stats.drawn(4010, [], 9);
  assert.equal(stats.inputToPicture.values.length, 3);
  const rows = new Map(hudRows({ ...stats.snapshot(4010), seq: 1, nodes: 4 }));
  assert.equal(rows.get('input → frame'), '40 ms');
});

test('without input numbers, input → frame is the next frame of any kind; the jump is the recent largest', () => {
  const stats = new ViewerStats();
  stats.inputSent(1000);
  stats.frameReceived(1030, 100, 0);
  stats.drawn(1030, []);
  assert.equal(stats.snapshot(1030).inputToFrameMs, 30);
  assert.equal(stats.snapshot(1030).inputEchoed, false);
  assert.equal(stats.snapshot(1030).reconcileJumpPt, null);
  for (const jump of [0.5, 3, 1]) stats.reconcileJump(jump);
  assert.equal(stats.snapshot(1030).reconcileJumpPt, 3);
});

test('v1 is as it was: a flat list, no numbers, nothing bound', () => {
  const list = new DisplayList();
  const { connection, welcome } = connect('v1', list);
  const socket = welcome();
  socket.receive({ type: 'frame', seq: 1, time: 0, full: true, nodes: [{ id: 1, kind: 'rect', frame: [0, 0, 390, 844] }] });
  assert.equal(list.seq, 1);
  assert.equal(list.input, undefined);
  assert.equal(connection.numbersInput, false);
  assert.deepEqual(connection.sendInput(POINTER[1]), POINTER[1]);
  assert.equal(JSON.parse(socket.sent.find((text) => JSON.parse(text).type === 'hello')).features.includes('timelines'), false);
  connection.stop('done');
});
