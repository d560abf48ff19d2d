// The pure parts of the connection and the HUD figures: backoff, plain words, byte counts, medians;
// then the connection itself on a stand-in socket (below).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, backoffDelay, describeClose, describeError, utf8Length } from '../../Web/src/connection.js';
import { DisplayList } from '../../Web/src/delta.js';
import { LayerTree } from '../../Web/src/tree.js';
import { RecentValues, ViewerStats } from '../../Web/src/stats.js';

test('reconnect delays double from 250 ms up to 5 s, with jitter of at most half', () => {
  const top = () => 1 - Number.EPSILON;
  const bottom = () => 0;
  assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, top)), [250, 500, 1000, 2000, 4000, 5000, 5000]);
  assert.deepEqual([0, 1, 5].map((n) => backoffDelay(n, bottom)), [125, 250, 2500]);
});

test('close codes and errors read as plain words', () => {
  assert.match(describeClose(1001), /went away/);
  assert.match(describeClose(1009), /too large/);
  assert.match(describeClose(1008, 'bad origin'), /refused.*\(bad origin\)/);
  assert.match(describeClose(4321), /code 4321/);
  assert.match(describeError({ code: 'forbidden', message: 'watchers send no input' }), /only watches\. watchers send no input/);
  assert.match(describeError({ code: 'something_new' }), /something_new/);
});

test('frame sizes are counted in UTF-8 bytes', () => {
  assert.equal(utf8Length('{"a":1}'), 7);
  assert.equal(utf8Length('é'), 2);
  assert.equal(utf8Length('…'), 3);
  assert.equal(utf8Length('🎵'), 4);
});

test('medians cover a window of recent values', () => {
  const values = new RecentValues(3);
  assert.equal(values.median(), null);
  for (const v of [100, 1, 3, 2]) values.push(v); // 100 falls out of the window
  assert.equal(values.median(), 2);
  values.push(10);
  assert.equal(values.median(), 3);
});

test('input-to-frame times the oldest unanswered input to the next frame', () => {
  const stats = new ViewerStats();
  stats.inputSent(1000);
  stats.inputSent(1008); // a second move before the frame: the first is still the one waiting
  stats.frameReceived(1020, 300, 0);
  stats.frameReceived(1040, 300, 0); // no input pending: not a sample
  stats.inputSent(2000);
  stats.frameReceived(4000, 300, 2); // an input that caused no frame is not a 2 s latency
  const figures = stats.snapshot(4000);
  assert.equal(figures.inputToFrameMs, 20);
  assert.equal(figures.frames, 3);
  assert.equal(figures.framesSkipped, 2);
  assert.equal(figures.bytesPerFrame, 300);
});

test('fps counts the draws of the last second', () => {
  const stats = new ViewerStats();
  for (let t = 0; t <= 2000; t += 20) stats.drawn(t);
  assert.equal(stats.snapshot(2000).fps, 50);
  assert.equal(stats.snapshot(5000).fps, 0);
});

// The connection against a stand-in WebSocket: what hello asks for on each wire, binary frames
// through binary.js into the tree, and a frame that cannot be decoded taking the resync path.

class FakeSocket {
  static OPEN = 1;
  static all = [];
  constructor(url, protocol) {
    Object.assign(this, { url, protocol, sent: [], readyState: 0, binaryType: 'blob', closedWith: null });
    FakeSocket.all.push(this);
  }
  send(data) { this.sent.push(data); }
  close(code) { this.readyState = 3; this.closedWith = code ?? 1005; }
  open() { this.readyState = FakeSocket.OPEN; this.onopen(); }
  receive(data) { this.onmessage({ data: typeof data === 'string' || data instanceof ArrayBuffer ? data : JSON.stringify(data) }); }
  hello() { return JSON.parse(this.sent.find((text) => JSON.parse(text).type === 'hello')); }
}

/**
 * A started connection on `wire` with its model, and a way to wait for the next socket.
 * `options` overrides the Connection's (app, role, session, viewport).
 */
function connect(wire, options = {}) {
  FakeSocket.all = [];
  globalThis.WebSocket = FakeSocket;
  const model = wire === 'v1' ? new DisplayList() : new LayerTree();
  const storage = { getItem: () => null, setItem() {}, removeItem() {} };
  const connection = new Connection({
    url: 'ws://h/ws', app: 'phone', role: 'control', session: null, model, storage, wire,
    viewport: () => ({ width: 390, height: 844, scale: 1 }), ...options,
  });
  const events = [];
  for (const type of ['frame', 'error', 'status', 'viewport', 'settings', 'sessionGone']) {
    connection.addEventListener(type, ({ detail }) => events.push({ type, ...detail }));
  }
  connection.start();
  return { connection, model, events, socket: () => FakeSocket.all.at(-1) };
}

const nextTick = () => new Promise((resolve) => setTimeout(resolve, 5));
const WELCOME = { type: 'welcome', protocol: 2, encoding: 'binary', session: 'abc', role: 'control', features: [] };

/**
 * A binary full frame: the root, and a page layer under it whose role is string 0 of `strings`.
 * `templates`: the bytes of a TEMPLATES part, written after the strings (feature `templates`).
 */
function binaryFull(seq, strings, templates = []) {
  const text = strings.flatMap((s) => [s.length, ...new TextEncoder().encode(s)]);
  // Type 1, full; 5 when a TEMPLATES part follows the strings.
  return Uint8Array.from([templates.length ? 5 : 1, seq, 0, 0, strings.length, ...text, ...templates, 2,
    // id 1 (zig-zag 2), the root (0), mask w|h, w 390, h 844
    2, 0, 0x18, 0xB0, 0xE1, 0x04, 0xE0, 0xA6, 0x0A,
    // id 2 (one more: 2), parent one back (zig-zag 2, doubled: 4, not written like layer 1),
    // mask w|h|role, w 390, h 844, role string 0
    2, 4, 0x98, 0x80, 0x04, 0xB0, 0xE1, 0x04, 0xE0, 0xA6, 0x0A, 0]).buffer;
}

test('hello asks for protocol 2, binary by default, with arraybuffer binaries, session updates and templates', () => {
  const { connection, socket } = connect('binary');
  assert.equal(socket().binaryType, 'arraybuffer');
  assert.equal(socket().protocol, 'stackcast.v1');
  socket().open();
  const hello = socket().hello();
  assert.equal(hello.protocol, 2);
  assert.equal(hello.encoding, 'binary');
  assert.deepEqual(hello.features, ['sessionUpdates', 'templates'], 'the move feature is gone');
  connection.stop('done');
  // Templates are binary v2's only: the other wires do not ask for them.
  for (const [wire, expected] of [['json', { protocol: 2, encoding: 'json', features: ['sessionUpdates'] }], ['v1', { features: ['sessionUpdates'] }]]) {
    const other = connect(wire);
    other.socket().open();
    const { protocol, encoding, features } = other.socket().hello();
    assert.deepEqual(JSON.parse(JSON.stringify({ protocol, encoding, features })), expected, wire);
    other.connection.stop('done');
  }
});

test('binary frames go through the decoder into the tree; the byte count is the message size', () => {
  const { connection, model, events, socket } = connect('binary');
  socket().open();
  socket().receive(WELCOME);
  const full = binaryFull(1, ['page']);
  socket().receive(full);
  const frames = events.filter((event) => event.type === 'frame');
  assert.equal(frames.length, 1);
  assert.equal(frames[0].bytes, full.byteLength);
  assert.equal(model.seq, 1);
  assert.deepEqual(model.layer(2).frame, [0, 0, 390, 844]);
  assert.deepEqual(connection.decoder.strings, ['page']);
  // Flow control: hello asked for a window, and a full frame is acknowledged at once, spelled as
  // the server's scan expects.
  assert.equal(socket().hello().window, 20);
  assert.equal(socket().sent.at(-1), '{"type":"ack","seq":1}');
  connection.stop('done');
});

test('frames are acknowledged every fourth message, a full one at once, and a last few soon after', async () => {
  const { connection, socket } = connect('v1');
  socket().open();
  socket().receive({ ...WELCOME, protocol: 1 });
  const acks = () => socket().sent.filter((text) => JSON.parse(text).type === 'ack');
  socket().receive({ type: 'frame', seq: 1, time: 0, full: true, nodes: [{ id: 1, kind: 'rect', frame: [0, 0, 10, 10], alpha: 1 }] });
  assert.deepEqual(acks(), ['{"type":"ack","seq":1}'], 'a full frame at once');
  for (let seq = 2; seq <= 5; seq += 1) socket().receive({ type: 'frame', seq, base: seq - 1, time: seq });
  assert.deepEqual(acks(), ['{"type":"ack","seq":1}', '{"type":"ack","seq":5}'], 'four deltas, one ack for them all');
  socket().receive({ type: 'frame', seq: 6, base: 5, time: 6 });
  assert.equal(acks().length, 2, 'one delta waits for more');
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.equal(acks().at(-1), '{"type":"ack","seq":6}', 'and is acknowledged when none come');
  assert.equal(acks().length, 3);
  connection.stop('done');
});

test('an ack waiting when the socket is replaced never goes on the new one', async () => {
  const { connection, socket } = connect('v1');
  const first = socket();
  first.open();
  first.receive({ ...WELCOME, protocol: 1 });
  first.receive({ type: 'frame', seq: 1, time: 0, full: true, nodes: [{ id: 1, kind: 'rect', frame: [0, 0, 10, 10], alpha: 1 }] });
  first.receive({ type: 'frame', seq: 2, base: 1, time: 1 });
  connection.start();
  const second = socket();
  assert.notEqual(second, first);
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.deepEqual(second.sent.filter((text) => JSON.parse(text).type === 'ack'), []);
  connection.stop('done');
});

test('an undecodable binary frame or a wrong base resyncs: a new socket, hello without lastSeq', async () => {
  // A table out of step, an unknown type, and delta 9 based on 9 − 1 while we hold 1.
  for (const bad of [Uint8Array.from([2, 2, 0, 1, 5, 0]).buffer, Uint8Array.from([9]).buffer, Uint8Array.from([2, 9, 0, 1, 1, 0, 0, 0, 0, 0]).buffer]) {
    const { connection, socket } = connect('binary');
    const first = socket();
    first.open();
    first.receive({ ...WELCOME });
    first.receive(binaryFull(1, ['page']));
    first.receive(bad);
    assert.equal(first.closedWith, 4000, 'closed as out of step');
    assert.deepEqual(connection.decoder.strings, [], 'the string table is dropped with the picture');
    assert.equal(connection.decoder.last, null, 'and so is the frame a delta counts from');
    await nextTick();
    const second = socket();
    assert.notEqual(second, first);
    second.open();
    const hello = second.hello();
    assert.equal(hello.session, 'abc');
    assert.equal('lastSeq' in hello, false, 'a full frame is asked for');
    connection.stop('done');
  }
});

test('frames carry templates only when the welcome lists them, so a server that did not accept them still works', () => {
  const { connection, model, socket } = connect('binary');
  socket().open();
  socket().receive({ ...WELCOME, features: ['sessionUpdates', 'templates'] });
  assert.equal(connection.decoder.withTemplates, true);
  // TEMPLATES: first 0, one entry from the defaults (from 0), mask w (bit 3), w 1.00 (zig-zag 200).
  socket().receive(binaryFull(1, ['page'], [0, 1, 0, 0x08, 0xC8, 0x01]));
  assert.equal(model.seq, 1);
  assert.deepEqual(connection.decoder.templates, [{ kind: 'rect', frame: [0, 0, 1, 0] }]);
  // Delta 2 after 2 − 1, no entries (type 2, no TEMPLATES part): strings from 1, none new; no
  // removes; one insert, id 3 (zig-zag 6) under 2 (3 − 1: 2), at index 0 of kind 3 (03) like
  // entry 0, an empty mask; no sets, no orders.
  socket().receive(Uint8Array.from([2, 2, 0, 1, 1, 0, 0, 1, 6, 2, 3, 0, 0, 0, 0]).buffer);
  assert.equal(model.seq, 2);
  assert.deepEqual(model.layer(3), { id: 3, parent: 2, kind: 'rect', frame: [0, 0, 1, 0] });
  connection.stop('done');

  const older = connect('binary');
  older.socket().open();
  older.socket().receive(WELCOME); // features: [], the feature not accepted
  assert.equal(older.connection.decoder.withTemplates, false);
  older.socket().receive(binaryFull(1, ['page']));
  assert.equal(older.model.seq, 1, 'a frame without the part decodes');
  older.connection.stop('done');
});

test('a dropped connection resumes with lastSeq and keeps the string table for the resumed delta', async () => {
  const { connection, model, events, socket } = connect('binary');
  const first = socket();
  first.open();
  first.receive(WELCOME);
  first.receive(binaryFull(1, ['page']));
  first.readyState = 3;
  first.onclose({ code: 1006, reason: '' });
  await new Promise((resolve) => setTimeout(resolve, 300)); // the first backoff is at most 250 ms
  const second = socket();
  assert.notEqual(second, first);
  second.open();
  assert.equal(second.hello().lastSeq, 1);
  second.receive(WELCOME);
  // Delta 2, 16.7 ms after its base 2 − 1, continuing the table of 1 with "x", naming layer 2
  // by it (string 1, mask bit 17).
  second.receive(Uint8Array.from([2, 2, 0xA7, 0x01, 1, 1, 1, 1, 0x78, 0, 0, 1, 2, 0x80, 0x80, 0x08, 1, 0]).buffer);
  const { frame } = events.findLast((event) => event.type === 'frame');
  assert.deepEqual([frame.seq, frame.time, frame.base], [2, 16.7, 1]);
  assert.equal(model.seq, 2);
  assert.equal(model.layer(2).name, 'x');
  assert.equal(model.layer(2).role, 'page');
  assert.deepEqual(connection.decoder.strings, ['page', 'x']);
  connection.stop('done');
});

test('a welcome for another protocol stops the viewer instead of misreading its frames', () => {
  const { connection, events, socket } = connect('binary');
  socket().open();
  socket().receive({ ...WELCOME, protocol: 1 });
  assert.equal(connection.stopped, true);
  assert.match(events.at(-1).message, /protocol v1, not v2.*\?wire=v1/);
});

test('on the v1 wire, frames go to the flat list and binary data is reported', () => {
  const { connection, model, events, socket } = connect('v1');
  socket().open();
  socket().receive({ ...WELCOME, protocol: 1 });
  socket().receive({ type: 'frame', seq: 1, time: 0, full: true, nodes: [{ id: 1, kind: 'rect', frame: [0, 0, 10, 10], alpha: 1 }] });
  assert.deepEqual(model.order, [1]);
  socket().receive(new ArrayBuffer(3));
  assert.equal(events.at(-1).type, 'error');
  assert.equal(model.seq, 1);
  connection.stop('done');
});

// What the session tells the viewer, and the states a person must be told about in words.

test('without an app or a device of its own, hello names neither: the server\'s app and viewport', () => {
  const { connection, socket } = connect('binary', { app: null, viewport: () => null });
  socket().open();
  const hello = socket().hello();
  assert.equal('app' in hello, false);
  assert.equal('viewport' in hello, false);
  connection.stop('done');
});

test('viewport and settings messages become events with what the server sent', () => {
  const { connection, events, socket } = connect('binary');
  socket().open();
  socket().receive(WELCOME);
  const viewport = { width: 700, height: 500, scale: 2, safeArea: { top: 0, left: 0, bottom: 0, right: 0 } };
  socket().receive({ type: 'viewport', viewport });
  socket().receive({ type: 'settings', settings: { slowMotion: 10, busyPolicy: 'queue' } });
  assert.deepEqual(events.filter((e) => e.type === 'viewport').map((e) => e.viewport), [viewport]);
  assert.deepEqual(events.filter((e) => e.type === 'settings').map((e) => e.settings.slowMotion), [10]);
  connection.stop('done');
});

test('an unknown app stops the viewer with the server\'s refusal, instead of connecting for ever', () => {
  const { connection, events, socket } = connect('binary', { app: 'nope' });
  socket().open();
  const error = { type: 'error', code: 'not_found', message: 'no app named nope; available: phone, tablet, stack', apps: ['phone', 'tablet', 'stack'] };
  socket().receive(error);
  assert.equal(connection.stopped, true);
  const status = events.at(-1);
  assert.deepEqual([status.type, status.state, status.cause], ['status', 'stopped', 'refused']);
  assert.deepEqual(status.error.apps, ['phone', 'tablet', 'stack']);
  assert.equal(FakeSocket.all.length, 1, 'no second attempt');
});

test('a server that takes no new session is tried again after a backoff, not given up on', async () => {
  const { connection, events, socket } = connect('binary');
  const first = socket();
  first.open();
  const before = performance.now();
  first.receive({ type: 'error', code: 'busy', message: 'this server is at capacity; try again in a few seconds' });
  assert.equal(connection.stopped, false);
  assert.equal(first.closedWith, 1000);
  const status = events.at(-1);
  assert.deepEqual([status.type, status.state, status.cause], ['status', 'reconnecting', 'busy']);
  assert.equal(status.serverMessage, 'this server is at capacity; try again in a few seconds');
  assert.ok(status.retryAt >= before && status.retryAt <= performance.now() + 250, 'the first backoff');
  // The next refusal waits longer; a welcome starts the backoff again.
  await new Promise((resolve) => setTimeout(resolve, status.retryAt - performance.now() + 5));
  const second = socket();
  assert.notEqual(second, first);
  second.open();
  second.receive({ type: 'error', code: 'busy', message: 'still at capacity' });
  assert.equal(connection.attempt, 2);
  connection.restart();
  socket().open();
  socket().receive(WELCOME);
  assert.equal(connection.attempt, 0);
  connection.stop('done');
});

test('a controller\'s ended session is said, and a new one started; a watcher\'s stops', async () => {
  const { connection, events, socket } = connect('binary', { session: 'dead' });
  const first = socket();
  first.open();
  assert.equal(first.hello().session, 'dead');
  first.receive({ type: 'error', code: 'not_found', message: 'no session with that token' });
  assert.equal(events.filter((e) => e.type === 'sessionGone').length, 1);
  await nextTick();
  const second = socket();
  assert.notEqual(second, first);
  second.open();
  assert.equal('session' in second.hello(), false, 'a new session');
  connection.stop('done');

  const watcher = connect('binary', { role: 'view', session: 'dead' });
  watcher.socket().open();
  watcher.socket().receive({ type: 'error', code: 'not_found', message: 'no session with that token' });
  assert.deepEqual([watcher.events.at(-1).state, watcher.events.at(-1).cause], ['stopped', 'gone']);
  assert.equal(watcher.events.some((e) => e.type === 'sessionGone'), false);
});

test('a takeover stops the viewer until it takes control back with the same token', () => {
  const { connection, events, socket } = connect('binary');
  const first = socket();
  first.open();
  first.receive(WELCOME);
  first.onclose({ code: 1008, reason: 'another viewer took control of this session' });
  assert.deepEqual([events.at(-1).state, events.at(-1).cause], ['stopped', 'takenOver']);
  assert.equal(connection.stopped, true);
  connection.restart();
  const second = socket();
  assert.notEqual(second, first);
  second.open();
  assert.equal(second.hello().session, 'abc', 'the same session, taken back');
  assert.equal(connection.stopped, false);
  connection.stop('done');
});

test('a server that never answers is unreachable, a dropped one lost; both say when the next try is', () => {
  const { connection, events, socket } = connect('binary');
  const before = performance.now();
  socket().onclose({ code: 1006, reason: '' });
  const unreachable = events.at(-1);
  assert.deepEqual([unreachable.state, unreachable.cause], ['reconnecting', 'unreachable']);
  assert.ok(unreachable.retryAt >= before && unreachable.retryAt <= performance.now() + 250, 'the first backoff');
  connection.restart();
  socket().open();
  socket().receive(WELCOME);
  socket().onclose({ code: 1006, reason: '' });
  assert.deepEqual([events.at(-1).state, events.at(-1).cause], ['reconnecting', 'lost']);
  connection.stop('done');
});

test('a resume carries its token in the URL too, for a load balancer; a new session none', () => {
  const resuming = connect('binary', { session: 's1.abc', url: 'ws://h/ws?deflate=0' });
  assert.equal(resuming.socket().url, 'ws://h/ws?deflate=0&session=s1.abc');
  resuming.socket().open();
  assert.equal(resuming.socket().hello().session, 's1.abc', 'and in hello, the same');
  resuming.connection.stop('done');
  const fresh = connect('binary');
  assert.equal(fresh.socket().url, 'ws://h/ws');
  fresh.connection.stop('done');
});

test('a server restarting (1012) is reconnected to at once with the same token, a second one after a backoff', async () => {
  const { connection, events, socket } = connect('binary', { session: 's2.abc' });
  const first = socket();
  first.open();
  first.receive({ ...WELCOME, session: 's2.abc' });
  first.onclose({ code: 1012, reason: 'server restarting: reconnect with the same session token' });
  const status = events.filter((e) => e.type === 'status').at(-1);
  assert.deepEqual([status.state, status.cause, status.message], ['reconnecting', 'lost', 'The server is restarting; reconnecting. (server restarting: reconnect with the same session token)']);
  await nextTick();
  const second = socket();
  assert.notEqual(second, first, 'reconnected without waiting for the backoff');
  assert.equal(second.url, 'ws://h/ws?session=s2.abc');
  second.open();
  assert.equal(second.hello().session, 's2.abc');
  // No welcome yet, and the next server restarts too: now the backoff applies.
  second.onclose({ code: 1012, reason: '' });
  const retry = events.filter((e) => e.type === 'status').at(-1);
  assert.ok(retry.retryAt - performance.now() > 100, 'a backoff before the third attempt');
  connection.stop('done');
});
