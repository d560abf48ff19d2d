// The display-list model: full frames, merges, removal, paint order, and refusing deltas that do
// not fit the picture we hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DisplayList } from '../../Web/src/delta.js';

const page = { id: 1, kind: 'rect', frame: [0, 0, 390, 844], fill: '#FFFFFF', role: 'page', vc: 'vc1', name: 'Home' };
const title = { id: 2, kind: 'text', frame: [80, 47, 230, 44], text: 'Home', font: { size: 17, weight: 600 }, color: '#000000', align: 'center' };
const row = { id: 3, kind: 'rect', frame: [0, 100, 390, 44], fill: '#FFFFFF', role: 'row', name: 'Songs' };

function loaded() {
  const list = new DisplayList();
  const result = list.apply({ type: 'frame', seq: 10, full: true, nodes: [page, title, row] });
  assert.equal(result.ok, true);
  return list;
}

const ids = (list) => list.nodes().map((node) => node.id);

test('a full frame sets the nodes in paint order and the seq', () => {
  const list = loaded();
  assert.equal(list.seq, 10);
  assert.deepEqual(ids(list), [1, 2, 3]);
  assert.deepEqual(list.nodes()[1], title);
});

test('a full frame replaces everything and reports what went away', () => {
  const list = loaded();
  const result = list.apply({ type: 'frame', seq: 20, full: true, nodes: [row] });
  assert.equal(result.ok, true);
  assert.equal(result.full, true);
  assert.deepEqual(ids(list), [3]);
  assert.deepEqual(result.removed.map((node) => node.id).sort(), [1, 2]);
  assert.equal(list.seq, 20);
});

test('set merges only the given fields and keeps the others', () => {
  const list = loaded();
  const result = list.apply({ type: 'frame', seq: 11, base: 10, set: [{ id: 2, frame: [70, 47, 250, 44], alpha: 0.5 }] });
  assert.equal(result.ok, true);
  assert.deepEqual(result.updated, [2]);
  const node = list.nodes()[1];
  assert.deepEqual(node.frame, [70, 47, 250, 44]);
  assert.equal(node.alpha, 0.5);
  assert.equal(node.text, 'Home');
  assert.deepEqual(node.font, { size: 17, weight: 600 });
  assert.deepEqual(ids(list), [1, 2, 3]);
});

test('a field set to null is removed from the node', () => {
  const list = loaded();
  list.apply({ type: 'frame', seq: 11, base: 10, set: [{ id: 1, shadow: { color: '#00000033', blur: 8, x: -3, y: 0 } }] });
  assert.ok(list.nodes()[0].shadow);
  list.apply({ type: 'frame', seq: 12, base: 11, set: [{ id: 1, shadow: null }] });
  assert.equal('shadow' in list.nodes()[0], false);
});

test('remove drops nodes and keeps the order of the rest', () => {
  const list = loaded();
  const result = list.apply({ type: 'frame', seq: 11, base: 10, remove: [2] });
  assert.equal(result.ok, true);
  assert.deepEqual(ids(list), [1, 3]);
  assert.deepEqual(result.removed, [title]);
  assert.equal(list.byId.has(2), false);
});

test('new ids without order are appended at the end, in the order set lists them', () => {
  const list = loaded();
  const dim = { id: 9, kind: 'rect', frame: [0, 0, 390, 844], fill: '#000000', alpha: 0.1, role: 'dim' };
  const top = { id: 7, kind: 'rect', frame: [390, 0, 390, 844], fill: '#FFFFFF', role: 'page', vc: 'vc2', name: 'Detail' };
  const result = list.apply({ type: 'frame', seq: 11, base: 10, set: [dim, { id: 3, alpha: 0.9 }, top] });
  assert.equal(result.ok, true);
  assert.deepEqual(ids(list), [1, 2, 3, 9, 7]);
  assert.deepEqual(result.added, [9, 7]);
  assert.deepEqual(result.updated, [3]);
  assert.deepEqual(list.byId.get(7), top);
});

test('order, when present, is the new paint order', () => {
  const list = loaded();
  const badge = { id: 4, kind: 'text', frame: [300, 800, 20, 18], text: '5', role: 'badge' };
  const result = list.apply({ type: 'frame', seq: 11, base: 10, set: [badge], remove: [2], order: [3, 4, 1] });
  assert.equal(result.ok, true);
  assert.deepEqual(ids(list), [3, 4, 1]);
});

test('a removed id set again in the same delta is a new node', () => {
  const list = loaded();
  const reborn = { id: 2, kind: 'icon', frame: [10, 50, 24, 24], icon: 'back' };
  const result = list.apply({ type: 'frame', seq: 11, base: 10, remove: [2], set: [reborn] });
  assert.equal(result.ok, true);
  assert.deepEqual(list.byId.get(2), reborn); // no text or font left from the old node
  assert.deepEqual(ids(list), [1, 3, 2]);
});

test('seq jumps count the frames the server merged', () => {
  const list = loaded();
  const result = list.apply({ type: 'frame', seq: 14, base: 10, set: [{ id: 1, alpha: 0.8 }] });
  assert.equal(result.ok, true);
  assert.equal(result.skipped, 3);
  assert.equal(list.seq, 14);
  assert.equal(list.apply({ type: 'frame', seq: 15, base: 14, set: [] }).skipped, 0);
});

test('a delta on another base is refused and changes nothing', () => {
  const list = loaded();
  const before = structuredClone(list.nodes());
  const result = list.apply({ type: 'frame', seq: 12, base: 11, set: [{ id: 1, fill: '#FF0000' }], remove: [3] });
  assert.equal(result.ok, false);
  assert.equal(result.resync, true);
  assert.match(result.reason, /based on 11/);
  assert.equal(list.seq, 10);
  assert.deepEqual(list.nodes(), before);
});

test('a delta before any full frame is refused', () => {
  const list = new DisplayList();
  const result = list.apply({ type: 'frame', seq: 1, base: 0, set: [page] });
  assert.equal(result.ok, false);
  assert.equal(list.seq, null);
});

test('a partial patch for an unknown node is refused: our picture differs from the server', () => {
  const list = loaded();
  const result = list.apply({ type: 'frame', seq: 11, base: 10, set: [{ id: 1, alpha: 0.5 }, { id: 42, alpha: 0.5 }] });
  assert.equal(result.ok, false);
  assert.match(result.reason, /unknown node 42/);
  assert.equal(list.nodes()[0].alpha, undefined, 'the valid patch before it must not be half-applied');
  assert.equal(list.seq, 10);
});

test('an order that does not list exactly the nodes held is refused', () => {
  const list = loaded();
  for (const order of [[1, 2], [1, 2, 3, 99], [1, 2, 2, 3]]) {
    const result = list.apply({ type: 'frame', seq: 11, base: 10, order });
    assert.equal(result.ok, false, `order ${order}`);
  }
  assert.deepEqual(ids(list), [1, 2, 3]);
});

test('nodes() returns the same array until something changes', () => {
  const list = loaded();
  const first = list.nodes();
  assert.equal(list.nodes(), first);
  list.apply({ type: 'frame', seq: 11, base: 10, set: [{ id: 3, alpha: 0.4 }] });
  assert.notEqual(list.nodes(), first);
});
