// The pure parts of the connection and the HUD figures: backoff, plain words, byte counts, medians.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, describeClose, describeError, utf8Length } from '../../Web/src/connection.js';
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
