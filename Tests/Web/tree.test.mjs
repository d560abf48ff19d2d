// The protocol v2 model (docs/protocol.md §3.5): full frames and deltas on the layer tree, base
// checks, refusals that leave the picture alone, and the flattening into v1 display items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LayerTree, patchesOf } from '../../Web/src/tree.js';

// §3.5's full frame, verbatim.
const FULL_EXAMPLE = `{"type":"frame","seq":1,"time":0,"full":true,"nodes":[
 {"id":35,"kind":"rect","frame":[0,0,390,844],"clips":true,"name":"scene"},
 {"id":1,"parent":35,"kind":"rect","frame":[0,0,390,844],"fill":"#FFFFFF","role":"page","name":"Home","vc":"vc1"},
 {"id":2,"parent":1,"kind":"rect","frame":[0,91,390,753],"fill":"#F2F2F7","name":"content"},
 {"id":3,"parent":2,"kind":"rect","frame":[0,20,390,44],"fill":"#FFFFFF","role":"row","name":"General"},
 {"id":4,"parent":3,"kind":"text","frame":[16,0,338,44],"text":"General","font":{"size":17,"weight":400},"color":"#000000","align":"left"}]}`;

// The same picture as v1 draws it (§3.3's first four nodes, with the v2 example's ids).
const FULL_EXAMPLE_ITEMS = [
  { id: 1, kind: 'rect', frame: [0, 0, 390, 844], alpha: 1, fill: '#FFFFFF', role: 'page', name: 'Home', vc: 'vc1' },
  { id: 2, kind: 'rect', frame: [0, 91, 390, 753], alpha: 1, fill: '#F2F2F7', name: 'content' },
  { id: 3, kind: 'rect', frame: [0, 111, 390, 44], alpha: 1, fill: '#FFFFFF', role: 'row', name: 'General' },
  { id: 4, kind: 'text', frame: [16, 111, 338, 44], alpha: 1, text: 'General', font: { size: 17, weight: 400 }, color: '#000000', align: 'left' },
];

const ids = (tree) => tree.nodes().map((node) => node.id);

function example() {
  const tree = new LayerTree();
  const result = tree.apply(JSON.parse(FULL_EXAMPLE));
  assert.equal(result.ok, true, result.reason);
  return tree;
}

/** §3.5's example plus the layers its slide delta names: a dim (54) and a pushed page (55). */
function pushing() {
  const tree = example();
  const result = tree.apply({
    type: 'frame', seq: 4, time: 566.6, base: 1, insert: [
      { id: 54, parent: 35, index: 1, kind: 'rect', frame: [-20, 0, 390, 844], alpha: 0.03, fill: '#000000', role: 'dim', name: 'dim' },
      { id: 55, parent: 35, index: 2, kind: 'rect', frame: [330, 0, 390, 844], fill: '#FFFFFF', shadow: { color: '#00000033', blur: 8, x: -2, y: 0 }, role: 'page', name: 'Detail', vc: 'vc3' },
      { id: 56, parent: 55, index: 0, kind: 'rect', frame: [0, 0, 390, 91], fill: '#F9F9F9', role: 'navbar', name: 'navbar' },
    ],
    set: [{ id: 1, frame: [-20, 0, 390, 844] }],
  });
  assert.equal(result.ok, true, result.reason);
  return tree;
}

test('§3.5 full frame: the tree as listed, drawn as v1 draws it', () => {
  const tree = example();
  assert.equal(tree.seq, 1);
  assert.equal(tree.rootId, 35);
  assert.deepEqual(tree.childIds(35), [1]);
  assert.deepEqual(tree.childIds(1), [2]);
  assert.deepEqual(tree.childIds(3), [4]);
  assert.deepEqual(tree.childIds(4), []);
  assert.deepEqual(tree.layer(4).frame, [16, 0, 338, 44], 'the tree keeps relative frames');
  // The scene draws nothing and has no role; the rest is §3.3's picture.
  assert.deepEqual(tree.nodes(), FULL_EXAMPLE_ITEMS);
  assert.deepEqual(tree.order, [1, 2, 3, 4]);
  assert.deepEqual(tree.byId.get(3).frame, [0, 111, 390, 44]);
});

test('§3.5 slide delta: one patch moves a page and everything on it', () => {
  const tree = pushing();
  const result = tree.apply(JSON.parse(`{"type":"frame","seq":5,"time":583.3,"base":4,"set":{"x":[1,-21.74,55,324.78],"alpha":[54,0.033]}}`));
  assert.equal(result.ok, true, result.reason);
  assert.deepEqual(result.updated, [1, 55, 54]);
  assert.deepEqual(result.added, []);
  assert.equal(tree.seq, 5);
  const byId = tree.byId;
  assert.deepEqual(byId.get(1).frame, [-21.74, 0, 390, 844]);
  assert.deepEqual(byId.get(3).frame, [-21.74, 111, 390, 44]);
  // -21.74 + 16 is -5.739999999999998 in floating point: drawn as v1 writes it.
  assert.deepEqual(byId.get(4).frame, [-5.74, 111, 338, 44]);
  assert.equal(byId.get(54).alpha, 0.033);
  assert.deepEqual(byId.get(56).frame, [324.78, 0, 390, 91], 'the navbar rides on its page');
  assert.deepEqual(tree.order, [1, 2, 3, 4, 54, 55, 56]);
});

test('a delta on another base, or before any full frame, is refused and changes nothing', () => {
  const tree = example();
  const before = structuredClone(tree.nodes());
  const result = tree.apply({ type: 'frame', seq: 3, time: 10, base: 2, set: [{ id: 1, fill: '#FF0000' }], remove: [3] });
  assert.deepEqual(result, { ok: false, resync: true, reason: 'delta 3 is based on 2, we hold 1' });
  assert.equal(tree.seq, 1);
  assert.deepEqual(tree.nodes(), before);
  const empty = new LayerTree();
  assert.equal(empty.apply({ type: 'frame', seq: 2, base: 1, set: [] }).ok, false);
  assert.equal(empty.seq, null);
  assert.equal(empty.apply({ type: 'frame', time: 0, full: true, nodes: [] }).ok, false, 'no integer seq');
});

test('insert places layers at their index among the parent\'s children, parents before children', () => {
  const tree = example();
  const result = tree.apply({
    type: 'frame', seq: 2, time: 5, base: 1, insert: [
      { id: 10, parent: 2, index: 0, kind: 'rect', frame: [0, 0, 390, 20], fill: '#EEEEEE', name: 'header' },
      { id: 11, parent: 2, index: 2, kind: 'rect', frame: [0, 64, 390, 44], fill: '#FFFFFF', role: 'row', name: 'About' },
      { id: 12, parent: 11, index: 0, kind: 'text', frame: [16, 0, 100, 44], text: 'About', font: { size: 17, weight: 400 }, color: '#000000', align: 'left' },
    ],
  });
  assert.equal(result.ok, true, result.reason);
  assert.deepEqual(result.added, [10, 11, 12]);
  assert.deepEqual(tree.childIds(2), [10, 3, 11]);
  assert.deepEqual(tree.childIds(11), [12]);
  assert.equal('index' in tree.layer(11), false, 'index only places the insert');
  assert.deepEqual(tree.order, [1, 2, 10, 3, 4, 11, 12]);
  assert.deepEqual(tree.byId.get(12).frame, [16, 155, 100, 44]);
});

test('order rearranges one parent\'s children; its subtrees move with them', () => {
  const tree = pushing();
  assert.deepEqual(tree.childIds(35), [1, 54, 55]);
  const result = tree.apply({ type: 'frame', seq: 5, time: 600, base: 4, order: [{ id: 35, children: [55, 54, 1] }] });
  assert.equal(result.ok, true, result.reason);
  assert.deepEqual(tree.childIds(35), [55, 54, 1]);
  assert.deepEqual(tree.order, [55, 56, 54, 1, 2, 3, 4]);
});

test('order after an insert lists the inserted child too (the index is its final place)', () => {
  const tree = pushing();
  // Kept children [1, 54, 55] become [55, 1] with a new 57 between 55 and 1 and 54 removed.
  const result = tree.apply({
    type: 'frame', seq: 5, time: 600, base: 4, remove: [54],
    insert: [{ id: 57, parent: 35, index: 1, kind: 'rect', frame: [0, 0, 10, 10], fill: '#123456' }],
    order: [{ id: 35, children: [55, 57, 1] }],
  });
  assert.equal(result.ok, true, result.reason);
  assert.deepEqual(tree.childIds(35), [55, 57, 1]);
});

test('remove takes whole subtrees, reporting every layer that went', () => {
  const tree = pushing();
  const result = tree.apply({ type: 'frame', seq: 5, time: 600, base: 4, remove: [1, 999] });
  assert.equal(result.ok, true, result.reason);
  assert.deepEqual(result.removed.map((layer) => layer.id).sort((a, b) => a - b), [1, 2, 3, 4]);
  assert.equal(result.removed.find((layer) => layer.id === 1).role, 'page', 'with their last fields');
  for (const id of [1, 2, 3, 4]) assert.equal(tree.layer(id), undefined);
  assert.deepEqual(tree.childIds(35), [54, 55]);
  assert.deepEqual(tree.order, [54, 55, 56]);
});

test('a removed id inserted again in the same delta is a new layer (nothing of the old one stays)', () => {
  const tree = example();
  const result = tree.apply({
    type: 'frame', seq: 2, time: 5, base: 1, remove: [3],
    insert: [
      { id: 3, parent: 35, index: 1, kind: 'icon', frame: [10, 50, 24, 24], icon: 'back' },
      { id: 5, parent: 3, index: 0, kind: 'rect', frame: [1, 1, 5, 5], fill: '#FFFFFF' },
    ],
  });
  assert.equal(result.ok, true, result.reason);
  assert.deepEqual(tree.layer(3), { id: 3, parent: 35, kind: 'icon', frame: [10, 50, 24, 24], icon: 'back' });
  assert.equal(tree.layer(4), undefined, 'the old 3\'s child went with it');
  assert.deepEqual(tree.childIds(3), [5], 'the new 3 starts with no children');
  assert.deepEqual(tree.childIds(35), [1, 3]);
  assert.deepEqual(tree.order, [1, 2, 3, 5]);
});

test('a move takes a held layer and its subtree to another parent, even out of a layer removed in the same delta', () => {
  const tree = pushing();
  // The row (3, with its text 4) goes into the pushed page's bar while its page (1) goes.
  const result = tree.apply({
    type: 'frame', seq: 5, time: 600, base: 4, remove: [1],
    insert: [{ id: 3, parent: 56, index: 0, move: true }],
    set: [{ id: 3, x: 5 }],
  });
  assert.equal(result.ok, true, result.reason);
  assert.deepEqual(result.removed.map((layer) => layer.id).sort((a, b) => a - b), [1, 2]);
  assert.deepEqual(result.added, []);
  assert.deepEqual(result.updated, [3], 'the moved layer, once, though it is patched too');
  assert.deepEqual(tree.layer(3), { id: 3, parent: 56, kind: 'rect', frame: [5, 20, 390, 44], fill: '#FFFFFF', role: 'row', name: 'General' });
  assert.deepEqual(tree.childIds(56), [3]);
  assert.deepEqual(tree.childIds(3), [4], 'its subtree came along');
  assert.deepEqual(tree.childIds(35), [54, 55]);
  assert.deepEqual(tree.order, [54, 55, 56, 3, 4]);
  assert.deepEqual(tree.byId.get(4).frame, [351, 20, 338, 44], 'drawn where its new parent is');
});

test('moves into a layer inserted before them and out of a layer moved before them', () => {
  const tree = example();
  const result = tree.apply({
    type: 'frame', seq: 2, time: 5, base: 1,
    insert: [
      { id: 9, parent: 35, index: 1, kind: 'rect', frame: [0, 0, 10, 10] },
      { id: 2, parent: 9, index: 0, move: true },
      { id: 4, parent: 1, index: 0, move: true },
    ],
  });
  assert.equal(result.ok, true, result.reason);
  assert.deepEqual(tree.childIds(35), [1, 9]);
  assert.deepEqual(tree.childIds(9), [2]);
  assert.deepEqual(tree.childIds(2), [3]);
  assert.deepEqual(tree.childIds(3), []);
  assert.deepEqual(tree.childIds(1), [4]);
  assert.equal(tree.layer(4).parent, 1);
});

test('set by field becomes one patch per layer, layers in the order they first come', () => {
  assert.deepEqual(patchesOf({ x: [4, -5.72, 69, 159.89], alpha: [88, 0.004, 69, 0.956], text: [5, null] }), [
    { id: 4, x: -5.72 }, { id: 69, x: 159.89, alpha: 0.956 }, { id: 88, alpha: 0.004 }, { id: 5, text: null },
  ]);
  const list = [{ id: 3, alpha: 0.5 }];
  assert.equal(patchesOf(list), list, 'a list of patches (binary.js) is taken as it is');
  assert.deepEqual(patchesOf(undefined), []);
  assert.equal(patchesOf({ x: [3] }), null);
  assert.equal(patchesOf(7), null);
});

test('set merges the fields given; null deletes one; alpha, clips and radius take their value', () => {
  const tree = pushing();
  assert.equal(tree.apply({ type: 'frame', seq: 5, base: 4, set: [{ id: 55, shadow: null, radius: 12, alpha: 0.5 }] }).ok, true);
  assert.equal('shadow' in tree.layer(55), false);
  assert.deepEqual(tree.byId.get(55), {
    id: 55, kind: 'rect', frame: [330, 0, 390, 844], alpha: 0.5, fill: '#FFFFFF', radius: 12, role: 'page', name: 'Detail', vc: 'vc3',
  });
  assert.equal(tree.byId.get(56).alpha, 0.5, 'children take the new alpha');
  assert.equal(tree.apply({ type: 'frame', seq: 6, base: 5, set: [{ id: 55, radius: 0, alpha: 1 }] }).ok, true);
  assert.equal(tree.layer(55).radius, 0);
  assert.equal('radius' in tree.byId.get(55), false, 'radius 0 is left out of items, as v1 leaves it out of nodes');
  assert.equal(tree.byId.get(55).alpha, 1);
});

test('a patch frame with null slots (a binary patch of x alone) keeps the held values there', () => {
  const tree = example();
  assert.equal(tree.apply({ type: 'frame', seq: 2, base: 1, set: [{ id: 3, frame: [-21.74, null, null, 50] }] }).ok, true);
  assert.deepEqual(tree.layer(3).frame, [-21.74, 20, 390, 50]);
});

test('a JSON patch of a layer that only moved carries x and/or y instead of frame', () => {
  const tree = example();
  assert.equal(tree.apply({ type: 'frame', seq: 2, base: 1, set: [{ id: 3, x: -21.74 }, { id: 4, y: 3 }] }).ok, true);
  assert.deepEqual(tree.layer(3).frame, [-21.74, 20, 390, 44]);
  assert.deepEqual(tree.layer(4).frame, [16, 3, 338, 44]);
  assert.equal(tree.layer(3).x, undefined, 'x is not kept as a field of its own');
  assert.deepEqual(tree.byId.get(4).frame, [-5.74, 114, 338, 44]);
});

test('deltas that do not fit the tree are refused and change nothing', () => {
  const cases = {
    'insert past the end': { insert: [{ id: 9, parent: 2, index: 2, kind: 'rect', frame: [0, 0, 1, 1] }] },
    'insert under an unknown parent': { insert: [{ id: 9, parent: 77, index: 0, kind: 'rect', frame: [0, 0, 1, 1] }] },
    'insert under a removed parent': { remove: [2], insert: [{ id: 9, parent: 3, index: 0, kind: 'rect', frame: [0, 0, 1, 1] }] },
    'insert of an id held': { insert: [{ id: 4, parent: 2, index: 0, kind: 'rect', frame: [0, 0, 1, 1] }] },
    'insert without a frame': { insert: [{ id: 9, parent: 2, index: 0, kind: 'rect' }] },
    'insert without a parent (a second root)': { insert: [{ id: 9, index: 0, kind: 'rect', frame: [0, 0, 1, 1] }] },
    'set for an unknown layer': { set: [{ id: 1, fill: '#000000' }, { id: 42, alpha: 0.5 }] },
    'set for a removed layer': { remove: [3], set: [{ id: 4, alpha: 0.5 }] },
    'set taking the frame': { set: [{ id: 3, frame: null }] },
    'set taking the kind': { set: [{ id: 3, kind: null }] },
    'set with an x that is not a number': { set: [{ id: 3, x: '12' }] },
    'set with a null y': { set: [{ id: 3, y: null }] },
    'set by field with an odd list': { set: { x: [3, 1, 4] } },
    'set by field with an id that is not a number': { set: { alpha: ['3', 0.5] } },
    'set by field that is not a list': { set: { alpha: { 3: 0.5 } } },
    'set by field naming id': { set: { id: [3, 4] } },
    'set that is neither': { set: 'x' },
    'order missing a child': { order: [{ id: 35, children: [] }] },
    'order naming a stranger': { order: [{ id: 2, children: [3, 4] }] },
    'order naming a child twice': { order: [{ id: 2, children: [3, 3] }] },
    'remove of the root': { remove: [35] },
    'move of a layer not held': { insert: [{ id: 77, parent: 35, index: 0, move: true }] },
    'move of a layer a remove takes': { remove: [3], insert: [{ id: 3, parent: 35, index: 0, move: true }] },
    'move under its own subtree': { insert: [{ id: 2, parent: 4, index: 0, move: true }] },
    'move of the root': { insert: [{ id: 35, parent: 1, index: 0, move: true }] },
    'move listed twice': { insert: [{ id: 3, parent: 35, index: 0, move: true }, { id: 3, parent: 35, index: 1, move: true }] },
    'move carrying fields': { insert: [{ id: 3, parent: 35, index: 0, move: true, fill: '#000000' }] },
    'move past the end': { insert: [{ id: 3, parent: 35, index: 2, move: true }] },
    'move under a parent not held': { insert: [{ id: 3, parent: 77, index: 0, move: true }] },
  };
  for (const [name, parts] of Object.entries(cases)) {
    const tree = example();
    const before = structuredClone(tree.nodes());
    const layers = structuredClone([...tree.layers.values()]);
    const result = tree.apply({ type: 'frame', seq: 2, time: 5, base: 1, ...parts });
    assert.equal(result.ok, false, name);
    assert.equal(result.resync, true, name);
    assert.equal(tree.seq, 1, name);
    assert.deepEqual(tree.nodes(), before, name);
    assert.deepEqual([...tree.layers.values()], layers, `${name}: the layers are untouched`);
    assert.deepEqual(tree.childIds(2), [3], name);
  }
});

test('full frames that are not a pre-order tree are refused', () => {
  const tree = example();
  const layer = (id, parent) => ({ id, ...(parent ? { parent } : {}), kind: 'rect', frame: [0, 0, 10, 10], fill: '#000000' });
  for (const nodes of [[], [layer(1, 5)], [layer(1), layer(2)], [layer(1), layer(3, 2), layer(2, 1)], [layer(1), layer(1, 1)]]) {
    assert.equal(tree.apply({ type: 'frame', seq: 9, time: 0, full: true, nodes }).ok, false, JSON.stringify(nodes));
  }
  assert.equal(tree.seq, 1);
  assert.deepEqual(tree.order, [1, 2, 3, 4]);
});

test('a full frame replaces the whole tree and reports the layers that went', () => {
  const tree = pushing();
  const result = tree.apply({ type: 'frame', seq: 20, time: 900, full: true, nodes: [
    { id: 35, kind: 'rect', frame: [0, 0, 390, 844], clips: true, name: 'scene' },
    { id: 55, parent: 35, kind: 'rect', frame: [0, 0, 390, 844], fill: '#FFFFFF', role: 'page', name: 'Detail', vc: 'vc3' },
  ] });
  assert.equal(result.ok, true, result.reason);
  assert.equal(result.full, true);
  assert.deepEqual(result.added, [35, 55]);
  assert.deepEqual(result.removed.map((layer) => layer.id), [1, 2, 3, 4, 54, 56]);
  assert.deepEqual(tree.order, [55]);
  assert.equal(tree.byId.get(55).shadow, undefined);
});

test('seq jumps count the frames the server merged', () => {
  const tree = example();
  assert.equal(tree.apply({ type: 'frame', seq: 5, base: 1, set: [{ id: 1, alpha: 0.8 }] }).skipped, 3);
  assert.equal(tree.apply({ type: 'frame', seq: 6, base: 5, set: [{ id: 1, alpha: 0.7 }] }).skipped, 0);
});

test('nodes() is flattened again only when something changed', () => {
  const tree = example();
  const first = tree.nodes();
  assert.equal(tree.nodes(), first);
  assert.equal(tree.order, tree.order);
  assert.equal(tree.apply({ type: 'frame', seq: 2, base: 1 }).ok, true, 'an empty delta');
  assert.equal(tree.nodes(), first, 'an empty delta changes nothing');
  tree.apply({ type: 'frame', seq: 3, base: 2, set: [{ id: 3, alpha: 0.4 }] });
  assert.notEqual(tree.nodes(), first);
  tree.reset();
  assert.deepEqual(tree.nodes(), []);
  assert.equal(tree.seq, null);
});

// Flattening (§3.5 "Drawing the tree").

/** A tree from `[id, parent, fields]` rows, root first; frames default to [0, 0, 10, 10]. */
function build(rows, viewport = [0, 0, 390, 844]) {
  const tree = new LayerTree();
  const nodes = rows.map(([id, parent, fields]) => ({
    id, ...(parent ? { parent } : {}), kind: 'rect', frame: [0, 0, 10, 10], ...fields,
  }));
  nodes[0].frame = viewport;
  const result = tree.apply({ type: 'frame', seq: 1, time: 0, full: true, nodes });
  assert.equal(result.ok, true, result.reason);
  return tree;
}

const FILL = { fill: '#FFFFFF' };

test('effective alpha is the product of the own alphas down the tree, rounded to 0.001', () => {
  const tree = build([
    [1, 0, {}],
    [2, 1, { alpha: 0.5, ...FILL }],
    [3, 2, { alpha: 0.3 }], // draws nothing: not drawn, but its alpha still counts
    [4, 3, { alpha: 0.7, ...FILL }],
    [5, 4, FILL],
    [6, 3, { alpha: 0.333, ...FILL }],
    [7, 1, { alpha: 0, role: 'dim' }], // drawn: written as 0, as v1 writes alpha below 0.0005
  ]);
  assert.deepEqual(tree.nodes().map((node) => [node.id, node.alpha]), [[2, 0.5], [4, 0.105], [5, 0.105], [6, 0.05], [7, 0]]);
});

test('absolute frames add up the origins of all ancestors', () => {
  const tree = build([
    [1, 0, {}],
    [2, 1, { frame: [10.5, 20.25, 300, 300] }],
    [3, 2, { frame: [0.1, 0.2, 100, 100] }],
    [4, 3, { frame: [-5.3, 7.07, 30, 40], ...FILL }],
  ]);
  assert.deepEqual(tree.nodes(), [{ id: 4, kind: 'rect', frame: [5.3, 27.52, 30, 40], alpha: 1, fill: '#FFFFFF' }]);
});

test('clip is the intersection of the clipping ancestors, on items only when it narrowed the viewport', () => {
  const tree = build([
    [1, 0, { clips: true }], // the scene: clips to exactly the viewport, which narrows nothing
    [2, 1, { frame: [0, 0, 390, 844], clips: true, ...FILL, role: 'page' }], // the same again
    [3, 2, { frame: [0, 0, 10, 10], ...FILL }],
    [4, 2, { frame: [20, 100, 350, 400], clips: true, role: 'pagestack' }],
    [5, 4, { frame: [-10, 0, 200, 50], ...FILL }], // under the narrowed clip
    [6, 4, { frame: [-50, -50, 1000, 1000], clips: true }], // wider: the clip stays as it was...
    [7, 6, { frame: [60, 60, 10, 10], ...FILL }], // ...and is still reported
    [8, 4, { frame: [300, 350, 100, 100], clips: true }], // narrows further
    [9, 8, { frame: [10, 10, 10, 10], ...FILL }],
  ]);
  const items = tree.nodes();
  assert.deepEqual(items.map((node) => [node.id, node.clip ?? null]), [
    [2, null], [3, null], [4, null], [5, [20, 100, 350, 400]], [7, [20, 100, 350, 400]], [9, [320, 450, 50, 50]],
  ]);
  assert.deepEqual(tree.byId.get(9).frame, [330, 460, 10, 10]);
});

test('every layer that draws or has a role is drawn, even at the edges: the server culls, not the viewer', () => {
  // The server decides what is on screen with exact geometry (a page at x 389.996 is on screen
  // and comes as 390); a viewer judging rounded frames again would drop it where v1 draws it.
  const tree = build([
    [1, 0, {}],
    [2, 1, { frame: [100, 100, 100, 100], clips: true, role: 'pagestack' }],
    [3, 2, { frame: [100, 0, 10, 10], ...FILL }], // at the clip's right edge, as rounded
    [4, 2, { frame: [99.99, 0, 10, 10], ...FILL }],
    [9, 1, { frame: [390, 0, 390, 844], ...FILL }], // at the viewport's right edge, as rounded
    // A clip whose right edge is 0.1 + 0.2, 0.30000000000000004 in floating point.
    [11, 1, { frame: [0.1, 0, 0.2, 10], clips: true, role: 'pagestack' }],
    [13, 11, { frame: [0.19, 0, 1, 10], ...FILL }],
  ]);
  assert.deepEqual(tree.order, [2, 3, 4, 9, 11, 13]);
  assert.deepEqual(tree.byId.get(13).clip, [0.1, 0, 0.2, 10]);
  assert.deepEqual(tree.byId.get(4).clip, [100, 100, 100, 100]);
  assert.deepEqual(tree.byId.get(9).clip, undefined, 'the viewport itself is never written as a clip');
});

test('a layer kept only to place its child draws nothing; the child is drawn where it hangs', () => {
  const tree = build([
    [1, 0, {}],
    [2, 1, { frame: [-500, 0, 100, 100], name: 'Far' }], // off screen: the server sent it stripped
    [3, 2, { frame: [500, 0, 100, 100], ...FILL }], // back on screen at x 0
  ]);
  assert.deepEqual(tree.order, [3]);
  assert.deepEqual(tree.byId.get(3).frame, [0, 0, 100, 100]);
});

test('layers that draw nothing and have no role are not drawn; a role or any drawing field is enough', () => {
  const tree = build([
    [1, 0, { name: 'scene' }],
    [2, 1, { name: 'content' }], // groups only
    [3, 2, { role: 'back', name: 'Back' }], // draws nothing itself, but has a role
    [4, 2, { kind: 'text', text: '' }], // empty text still counts as text
    [5, 2, { border: { color: '#000000', width: 1 } }],
    [6, 2, { shadow: { color: '#00000033', blur: 8, x: -2, y: 0 } }],
    [7, 2, { kind: 'icon', icon: 'back' }],
    [8, 2, { color: '#FF0000', font: { size: 17, weight: 400 }, vc: 'vc9' }], // none of these draw
  ]);
  assert.deepEqual(tree.order, [3, 4, 5, 6, 7]);
});

test('items carry the v1 fields only: no parent, clips or index, and radius only when not 0', () => {
  const tree = build([
    [1, 0, { clips: true }],
    [2, 1, { frame: [5, 6, 7, 8], clips: true, radius: 9, fill: '#FF3B30', kind: 'text', text: '3', font: { size: 13, weight: 400 }, color: '#FFFFFF', align: 'center', role: 'badge', name: 'Search', future: 'kept' }],
  ]);
  assert.deepEqual(tree.nodes(), [{
    id: 2, kind: 'text', frame: [5, 6, 7, 8], alpha: 1, fill: '#FF3B30', radius: 9, text: '3',
    font: { size: 13, weight: 400 }, color: '#FFFFFF', align: 'center', role: 'badge', name: 'Search', future: 'kept',
  }]);
});

test('the root\'s size is the viewport: a resize patch of the root changes which clips narrow it', () => {
  const tree = build([
    [1, 0, {}],
    [2, 1, { frame: [0, 0, 390, 844], clips: true, role: 'pagestack' }],
    [3, 2, { frame: [0, 0, 100, 100], ...FILL }],
  ]);
  assert.equal(tree.byId.get(3).clip, undefined, 'a clip the size of the viewport narrows nothing');
  assert.equal(tree.apply({ type: 'frame', seq: 2, base: 1, set: [{ id: 1, frame: [0, 0, 844, 390] }] }).ok, true);
  assert.deepEqual(tree.byId.get(3).clip, [0, 0, 390, 390]);
});

test('a scaled layer scales its subtree about its corner; a rounded clipping layer clips to its corners', () => {
  const tree = new LayerTree();
  const result = tree.apply({
    type: 'frame', seq: 1, time: 0, full: true, nodes: [
      { id: 1, kind: 'rect', frame: [0, 0, 390, 844], fill: '#000000', name: 'main' },
      // The page under a sheet: scaled to 358/390, moved to (16, 47), corners of 10.
      { id: 2, parent: 1, kind: 'rect', frame: [16, 47, 390, 844], scale: 0.91795, radius: 10, clips: true, fill: '#FFFFFF', role: 'page', name: 'Home' },
      { id: 3, parent: 2, kind: 'text', frame: [120, 47, 150, 44], text: 'Home', font: { size: 17, weight: 600 }, align: 'center', role: 'title' },
      // The sheet: a card clipping its bar to its rounded corners.
      { id: 4, parent: 1, kind: 'rect', frame: [0, 57, 390, 787], radius: 10, clips: true, fill: '#FFFFFF', role: 'page', name: 'Sheet' },
      { id: 5, parent: 4, kind: 'rect', frame: [0, 0, 390, 44], fill: '#F9F9F9', role: 'navbar' },
    ],
  });
  assert.equal(result.ok, true, result.reason);
  const [, page, title, sheet, bar] = tree.nodes();
  assert.deepEqual(page.frame, [16, 47, 358, 774.75]);
  assert.equal(page.scale, 0.91795);
  assert.equal(page.clip, undefined);
  // The title's place and size scale with the page; its font stays 17 (the renderer scales it).
  assert.deepEqual(title.frame, [126.15, 90.14, 137.69, 40.39]);
  assert.equal(title.scale, 0.91795);
  assert.deepEqual(title.clip, [16, 47, 358, 774.75]);
  assert.equal(title.clipRadius, 9.18);
  assert.equal(sheet.scale, undefined);
  assert.deepEqual(bar.clip, [0, 57, 390, 787]);
  assert.equal(bar.clipRadius, 10);
});
