// The replay page's timeline (replay.js): which frame shows at a time, stepping, and frames of
// either protocol drawn from the full frame before them and the deltas after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPLAY_NAME, ReplayTimeline } from '../../Web/src/replay.js';
import { readOptions } from '../../Web/src/options.js';

const rect = (id, x) => ({ id, kind: 'rect', frame: [x, 0, 10, 10], fill: '#FFFFFF' });
const v1 = (seq, t, x) => ({
  seq, t, hash: `h${seq}`, matches: true, wire: 'v1',
  frame: { type: 'frame', seq, time: t, full: true, nodes: [rect(1, x), rect(2, 0)] },
});

const document = { name: 'r', app: 'stack', frames: [v1(1, 0, 0), v1(2, 0.5, 10), v1(3, 0.516, 20), v1(4, 2, 30)] };

test('the frame shown at a time is the last one made by then', () => {
  const timeline = new ReplayTimeline(document);
  assert.deepEqual([-1, 0, 0.4, 0.5, 0.51, 0.6, 1.99, 2, 9].map((t) => timeline.indexAt(t)), [0, 0, 0, 1, 1, 2, 2, 3, 3]);
});

test('showing a frame draws that frame alone, whichever came before', () => {
  const timeline = new ReplayTimeline(document);
  assert.deepEqual(timeline.nodes().map((node) => node.frame[0]), [0, 0]);
  timeline.show(3);
  assert.deepEqual(timeline.nodes().map((node) => node.frame[0]), [30, 0]);
  timeline.show(1);
  assert.equal(timeline.current.seq, 2);
  assert.deepEqual(timeline.nodes().map((node) => node.frame[0]), [10, 0]);
});

// A full frame, then deltas (each based on the frame before), a frame that changed nothing,
// and a full frame again: what the server sends between its keyframes.
const delta = (seq, base, t, x) => ({
  seq, t, hash: `h${seq}`, matches: true, wire: 'v1',
  frame: { type: 'frame', seq, base, time: t, set: [{ id: 1, frame: [x, 0, 10, 10] }] },
});
const same = (seq, t) => ({ seq, t, hash: `h${seq}`, matches: true, wire: 'v1', frame: null });
const keyed = {
  name: 'k', app: 'stack',
  frames: [v1(1, 0, 0), delta(2, 1, 0.1, 5), same(3, 0.2), delta(4, 3, 0.3, 15), v1(5, 0.4, 40), delta(6, 5, 0.5, 45)],
};

test('deltas between full frames are applied from the full frame before, in order', () => {
  const timeline = new ReplayTimeline(keyed);
  const x = () => timeline.nodes()[0].frame[0];
  for (const [index, expected] of [[3, 15], [1, 5], [2, 5], [5, 45], [0, 0], [4, 40], [3, 15]]) {
    timeline.show(index);
    assert.equal(x(), expected, `frame ${index}`);
    assert.equal(timeline.model.seq, keyed.frames[index].seq);
  }
  // Stepping applies the next frame to the one shown.
  timeline.show(0);
  const seen = [];
  while (timeline.step(1)) seen.push(x());
  assert.deepEqual(seen, [5, 5, 15, 40, 45]);
});

test('steps stop at either end and say so', () => {
  const timeline = new ReplayTimeline(document);
  assert.equal(timeline.step(-1), false);
  assert.equal(timeline.step(1), true);
  assert.equal(timeline.current.seq, 2);
  timeline.show(99);
  assert.equal(timeline.atEnd, true);
  assert.equal(timeline.step(1), false);
  assert.equal(timeline.current.seq, 4);
});

test('a recording without frames, or with a broken frame, is refused with a reason', () => {
  assert.throws(() => new ReplayTimeline({ frames: [] }), /no frames/);
  const broken = { frames: [{ ...v1(1, 0, 0), frame: { type: 'frame', seq: 1, full: true } }] };
  assert.throws(() => new ReplayTimeline(broken), /frame 1/);
});

test('?replay= takes recording names only', () => {
  assert.equal(readOptions('?replay=20250101-120000-phone-0a1b2c3d').replay, '20250101-120000-phone-0a1b2c3d');
  assert.equal(readOptions('?replay=..%2Fsecret').replay, '');
  assert.equal(readOptions('?replay=').replay, '');
  assert.equal(readOptions('?app=phone').replay, null);
  assert.ok(!REPLAY_NAME.test('a.b'));
  assert.equal(readOptions('?replay=r&token=abc_-1').token, 'abc_-1');
});
