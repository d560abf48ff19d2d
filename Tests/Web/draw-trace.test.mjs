// The draw trace: off until started, then each draw's time and its pages' frames, taken once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DrawTrace } from '../../Web/src/draw-trace.js';

const nodes = (x) => [
  { id: 1, role: 'page', frame: [0, 0, 390, 844] },
  { id: 2, role: 'row', frame: [0, 100, 390, 44] },
  { id: 3, role: 'page', frame: [x, 0, 390, 844] },
];

test('records nothing until started', () => {
  const trace = new DrawTrace();
  trace.drawn(16.7, nodes(200));
  assert.deepEqual(trace.take(), []);
});

test('records each draw with its pages in paint order, and take clears', () => {
  const trace = new DrawTrace();
  trace.start();
  const drawn = nodes(200);
  trace.drawn(16.7, drawn);
  drawn[2].frame[0] = 0;  // the trace keeps what was drawn, not the live node
  trace.drawn(33.4, nodes(100));
  assert.deepEqual(trace.take(), [
    { t: 16.7, pages: [{ id: 1, frame: [0, 0, 390, 844] }, { id: 3, frame: [200, 0, 390, 844] }] },
    { t: 33.4, pages: [{ id: 1, frame: [0, 0, 390, 844] }, { id: 3, frame: [100, 0, 390, 844] }] },
  ]);
  assert.deepEqual(trace.take(), []);
  trace.start(false);
  trace.drawn(50, nodes(0));
  assert.deepEqual(trace.take(), []);
});
