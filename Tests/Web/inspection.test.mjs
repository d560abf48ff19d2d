// The inspector's pure logic: which drawn nodes a person can see (not those under an opaque page
// painted after them, nor a standby page's), the node under a point and its page, the node tree
// with each node's state, a node's fields in words, and an event in one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  eventGroup, eventLine, isOpaqueColour, nodeAt, nodeDetails, nodeLabel, nodeTree, pageOf, visibleIds,
} from '../../Web/src/inspection.js';
import { LayerTree } from '../../Web/src/tree.js';
import { DisplayList } from '../../Web/src/delta.js';

const VIEWPORT = [0, 0, 390, 844];

// Home at rest under a pushed Detail (v1 keeps the covered page while a sliver of it is on
// screen: here Detail has stopped 10 pt short, so Home's left edge still shows).
const home = { id: 1, kind: 'rect', frame: [-130, 0, 390, 844], alpha: 1, fill: '#FFFFFF', role: 'page', name: 'Home', vc: 'vc1' };
const general = { id: 2, kind: 'rect', frame: [-130, 111, 390, 44], alpha: 1, fill: '#FFFFFF', role: 'row', name: 'General' };
const generalText = { id: 3, kind: 'text', frame: [-114, 111, 338, 44], alpha: 1, text: 'General', font: { size: 17, weight: 400 }, color: '#000000', align: 'left' };
const dim = { id: 4, kind: 'rect', frame: [-130, 0, 390, 844], alpha: 0.1, fill: '#000000', role: 'dim', name: 'dim' };
const detail = { id: 5, kind: 'rect', frame: [10, 0, 390, 844], alpha: 1, fill: '#FFFFFF', role: 'page', name: 'Detail', vc: 'vc2' };
const back = { id: 6, kind: 'rect', frame: [10, 47, 120, 44], alpha: 1, role: 'back', name: 'Back' };
const picture = [home, general, generalText, dim, detail, back];

test('nodes under an opaque page painted after them are not visible; a sliver left showing is', () => {
  // The row's text starts at x = 16 in Home, so its first 10 pt are in the sliver too.
  assert.deepEqual([...visibleIds(picture, VIEWPORT)].sort(), [1, 2, 3, 4, 5, 6]);
  // With Detail at rest (x = 0) Home and its row are wholly covered; the dim over them too.
  const atRest = picture.map((node) => (node === detail ? { ...detail, frame: [0, 0, 390, 844] } : node));
  assert.deepEqual([...visibleIds(atRest, VIEWPORT)].sort(), [5, 6]);
});

test('a page covered by its own bar and content is seen; one covered by another page is not', () => {
  const page = { id: 1, kind: 'rect', frame: [0, 0, 390, 844], alpha: 1, fill: '#FFFFFF', role: 'page', name: 'A', vc: 'vc1' };
  const bar = { id: 2, kind: 'rect', frame: [0, 0, 390, 91], alpha: 1, fill: '#F9F9F9', role: 'navbar', name: 'navbar' };
  const content = { id: 3, kind: 'rect', frame: [0, 91, 390, 753], alpha: 1, fill: '#F2F2F7', name: 'content' };
  assert.deepEqual([...visibleIds([page, bar, content], VIEWPORT)].sort(), [1, 2, 3]);
  const top = { ...page, id: 4, name: 'B', vc: 'vc2' };
  assert.deepEqual([...visibleIds([page, bar, content, top], VIEWPORT)], [4]);
});

test('translucent, transparent and rounded covers hide only what they really paint over', () => {
  const under = { id: 1, kind: 'rect', frame: [0, 0, 100, 100], alpha: 1, fill: '#FF0000' };
  const cover = (fields) => [under, { id: 2, kind: 'rect', frame: [0, 0, 100, 100], alpha: 1, ...fields }];
  assert.ok(visibleIds(cover({ fill: '#FFFFFF80' }), VIEWPORT).has(1), 'a fill with alpha 0x80 shows what is under it');
  assert.ok(visibleIds(cover({ fill: '#FFFFFF', alpha: 0.5 }), VIEWPORT).has(1), 'a half-transparent node too');
  assert.ok(visibleIds(cover({ border: { color: '#000', width: 1 } }), VIEWPORT).has(1), 'a node with no fill covers nothing');
  assert.ok(visibleIds(cover({ fill: '#FFF', radius: 20 }), VIEWPORT).has(1), 'the corners of a rounded one show');
  assert.ok(!visibleIds(cover({ fill: '#FFFFFFFF' }), VIEWPORT).has(1), 'an opaque #RRGGBBAA covers');
  // Two opaque halves together cover it although neither does alone.
  const halves = [under, { id: 2, kind: 'rect', frame: [0, 0, 50, 100], alpha: 1, fill: '#000' },
    { id: 3, kind: 'rect', frame: [50, 0, 50, 100], alpha: 1, fill: '#000' }];
  assert.deepEqual([...visibleIds(halves, VIEWPORT)].sort(), [2, 3]);
});

test('clipped out, off screen and alpha 0 nodes are not visible', () => {
  const nodes = [
    { id: 1, kind: 'rect', frame: [0, 0, 50, 50], alpha: 1, fill: '#F00', clip: [100, 0, 100, 100] },
    { id: 2, kind: 'rect', frame: [400, 0, 50, 50], alpha: 1, fill: '#F00' },
    { id: 3, kind: 'rect', frame: [0, 0, 50, 50], alpha: 0, fill: '#F00' },
    { id: 4, kind: 'rect', frame: [0, 0, 50, 50], alpha: 1, fill: '#F00', clip: [25, 0, 100, 100] },
  ];
  assert.deepEqual([...visibleIds(nodes, VIEWPORT)], [4]);
});

test('isOpaqueColour reads the alpha of every hex spelling', () => {
  assert.deepEqual(['#FFF', '#FFFF', '#FFFE', '#123456', '#123456FF', '#123456F0', 'red', null].map(isOpaqueColour),
    [true, true, false, true, true, false, false, false]);
});

test('nodeAt skips nodes that are not visible; pageOf finds the node\'s page', () => {
  const visible = visibleIds(picture, VIEWPORT);
  // Over Detail's back button: the button, on page Detail.
  const button = nodeAt(picture, 20, 60, visible);
  assert.equal(button.id, 6);
  assert.equal(pageOf(picture, button, 20, 60).name, 'Detail');
  // In the sliver of Home: the dim over Home is front-most there.
  assert.equal(nodeAt(picture, 5, 130, visible).id, 4);
  // Home's row text is covered everywhere except the sliver, where the dim lies over it.
  const atRest = picture.map((node) => (node === detail ? { ...detail, frame: [0, 0, 390, 844] } : node));
  assert.equal(nodeAt(atRest, 100, 130, visibleIds(atRest, VIEWPORT)).id, 5);
});

/** A v2 tree: scene ▸ Home (standby) ▸ row ▸ text, and Detail ▸ content group ▸ row. */
function layerTree() {
  const tree = new LayerTree();
  const result = tree.apply({ type: 'frame', seq: 1, time: 0, full: true, nodes: [
    { id: 35, kind: 'rect', frame: [0, 0, 390, 844], clips: true, name: 'scene' },
    { id: 1, parent: 35, kind: 'rect', frame: [0, 0, 390, 844], fill: '#FFFFFF', role: 'page', name: 'Home', vc: 'vc1', standby: true },
    { id: 2, parent: 1, kind: 'rect', frame: [0, 111, 390, 44], fill: '#FFFFFF', role: 'row', name: 'General' },
    { id: 5, parent: 35, kind: 'rect', frame: [0, 0, 390, 844], fill: '#F2F2F7', role: 'page', name: 'Detail', vc: 'vc2' },
    { id: 7, parent: 5, kind: 'rect', frame: [0, 91, 390, 753] },
    { id: 8, parent: 7, kind: 'rect', frame: [0, 20, 390, 44], fill: '#FFFFFF', role: 'row', name: 'Wi-Fi' },
    { id: 9, parent: 8, kind: 'text', frame: [16, 0, 338, 44], text: 'Wi-Fi', font: { size: 17, weight: 400 }, color: '#000000', align: 'left' },
  ] });
  assert.ok(result.ok);
  return tree;
}

test('nodeTree gives the v2 layer tree in pre-order with depth and state', () => {
  const tree = layerTree();
  const entries = nodeTree(tree, visibleIds(tree.nodes(), VIEWPORT));
  assert.deepEqual(entries.map(({ id, depth, state }) => [id, depth, state]), [
    [35, 0, 'group'], [1, 1, 'standby'], [2, 2, 'standby'], [5, 1, 'drawn'], [7, 2, 'group'], [8, 3, 'drawn'], [9, 4, 'drawn'],
  ]);
  // A drawn entry carries its display item (absolute frame), a group its layer.
  assert.deepEqual(entries.find((entry) => entry.id === 9).node.frame, [16, 111, 338, 44]);
});

test('nodeTree gives a v1 list flat, covered items marked', () => {
  const list = new DisplayList();
  assert.ok(list.apply({ type: 'frame', seq: 1, time: 0, full: true, nodes: picture.map((node) => (node === detail ? { ...detail, frame: [0, 0, 390, 844] } : node)) }).ok);
  const entries = nodeTree(list, visibleIds(list.nodes(), VIEWPORT));
  assert.deepEqual(entries.map(({ id, depth, state }) => [id, depth, state]),
    [[1, 0, 'covered'], [2, 0, 'covered'], [3, 0, 'covered'], [4, 0, 'covered'], [5, 0, 'drawn'], [6, 0, 'drawn']]);
});

test('nodeLabel names role, name, text, icon and controller', () => {
  assert.equal(nodeLabel(home), 'page “Home” vc1');
  assert.equal(nodeLabel(generalText), 'text "General"');
  assert.equal(nodeLabel({ kind: 'text', role: 'title', name: 'A very long title for this page', text: 'A very long title for this page, indeed' }),
    'title “A very long title for this page” "A very long title for this …"');
  assert.equal(nodeLabel({ kind: 'icon', icon: 'chevron.right', name: 'disclosure' }), 'icon “disclosure” icon chevron.right');
});

test('nodeDetails lists styles and text in words, with swatches, then the layer and state', () => {
  const tree = layerTree();
  const text = tree.byId.get(9);
  assert.deepEqual(nodeDetails({ ...text, lineBreak: 'truncateTail' }, tree.layer(9), 'drawn'), [
    ['kind', 'text', null],
    ['id', '9', null],
    ['text', '"Wi-Fi"', null],
    ['frame', '[16, 111, 338, 44]', null],
    ['alpha', '1', null],
    ['font', '17 pt, weight 400', null],
    ['color', '#000000', '#000000'],
    ['align', 'left', null],
    ['lineBreak', 'truncateTail', null],
    ['in parent', '[16, 0, 338, 44]', null],
    ['state', 'drawn', null],
  ]);
  assert.deepEqual(nodeDetails({ id: 1, kind: 'rect', frame: [0, 0, 10, 10], border: { color: '#C6C6C8', width: 0.5 },
    shadow: { color: '#00000033', blur: 8, x: -2, y: 0 }, radius: 10 }).slice(3), [
    ['radius', '10', null],
    ['border', '0.5 pt #C6C6C8', '#C6C6C8'],
    ['shadow', '#00000033 blur 8 at (-2, 0)', '#00000033'],
  ]);
});

test('eventLine puts time, name and page first, then every other field', () => {
  assert.equal(eventLine({ type: 'event', name: 'viewWillAppear', vc: 'vc2', screen: 'Detail', animated: true, time: 603.196 }),
    '   603.2 ms viewWillAppear Detail (vc2) animated=true');
  assert.equal(eventLine({ type: 'event', name: 'transitionEnd', op: 'pop', interactive: true, cancelled: true, time: 3965.225 }),
    '  3965.2 ms transitionEnd op=pop interactive=true cancelled=true');
  assert.deepEqual(['viewDidLoad', 'released', 'transitionStart', 'gestureBegan', 'pageDidShow'].map((name) => eventGroup({ name })),
    ['lifecycle', 'lifecycle', 'transition', 'gesture', 'page']);
  // An action is named by what its row emits (a `page…` name, say), and says its group.
  assert.equal(eventGroup({ name: 'pageTurn', group: 'action' }), 'action');
  assert.equal(eventLine({ type: 'event', group: 'action', name: 'buy', value: { sku: 'tea' }, vc: 'vc3', screen: 'Shop', time: 4102.5 }),
    '  4102.5 ms buy Shop (vc3) group=action value={"sku":"tea"}');
});
