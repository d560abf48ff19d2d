// Move coalescing: one message per pointer per flush, every sample kept in order with its time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MoveCoalescer } from '../../Web/src/coalescer.js';

function recorder() {
  const sent = [];
  return { sent, coalescer: new MoveCoalescer((message) => sent.push(message)) };
}

test('moves between two flushes become one message with every sample in order', () => {
  const { sent, coalescer } = recorder();
  coalescer.add(1, [[10, 300, 100.5]]);
  coalescer.add(1, [[14, 301, 104.7], [19, 301, 108.9]]);
  coalescer.add(1, [[25, 302, 112.2]]);
  assert.equal(sent.length, 0, 'nothing is sent before the frame');
  coalescer.flush();
  assert.deepEqual(sent, [{
    type: 'pointer', phase: 'move', id: 1, x: 25, y: 302, t: 112.2,
    samples: [[10, 300, 100.5], [14, 301, 104.7], [19, 301, 108.9], [25, 302, 112.2]],
  }]);
});

test('each flush sends only what came after the previous one', () => {
  const { sent, coalescer } = recorder();
  coalescer.add(1, [[1, 1, 1]]);
  coalescer.flush();
  coalescer.flush();
  assert.equal(sent.length, 1, 'an empty flush sends nothing');
  coalescer.add(1, [[2, 2, 2]]);
  coalescer.flush();
  assert.equal(sent.length, 2);
  assert.deepEqual(sent[1].samples, [[2, 2, 2]]);
  assert.equal(coalescer.hasPending, false);
});

test('two pointers get one message each', () => {
  const { sent, coalescer } = recorder();
  coalescer.add(1, [[1, 1, 1]]);
  coalescer.add(2, [[50, 50, 1.5]]);
  coalescer.add(1, [[3, 1, 2]]);
  coalescer.flush();
  assert.deepEqual(sent.map((m) => [m.id, m.samples.length, m.x]), [[1, 2, 3], [2, 1, 50]]);
});

test('flushing before a down or up keeps the order of events', () => {
  const { sent, coalescer } = recorder();
  const send = (message) => sent.push(message);
  // What input.js does on pointerup: pending moves first, then the up.
  coalescer.add(1, [[5, 5, 10], [9, 5, 12]]);
  coalescer.flush();
  send({ type: 'pointer', phase: 'up', id: 1, x: 9, y: 5, t: 13 });
  assert.deepEqual(sent.map((m) => m.phase), ['move', 'up']);
  assert.ok(sent[0].t < sent[1].t);
});

test('adding no samples queues nothing', () => {
  const { sent, coalescer } = recorder();
  coalescer.add(1, []);
  assert.equal(coalescer.hasPending, false);
  coalescer.flush();
  assert.equal(sent.length, 0);
});

test('the samples sent are a copy: later adds do not change a sent message', () => {
  const { sent, coalescer } = recorder();
  const samples = [[1, 1, 1]];
  coalescer.add(1, samples);
  samples.push([2, 2, 2]);
  coalescer.flush();
  assert.equal(sent[0].samples.length, 1);
});
