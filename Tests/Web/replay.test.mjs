// The replay page's timeline (replay.js): which frame shows at a time, stepping, and frames of
// either protocol drawn from their full form alone.
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
