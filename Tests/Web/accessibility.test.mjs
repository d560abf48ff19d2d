// The accessibility mirror's mapping (accessibility.js `semantics`): node roles to DOM roles,
// texts to names and descriptions, tabs in their tablist, what is not seen left out, reading
// order, and where focus goes after navigation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headingOfTopPage, semantics } from '../../Web/src/accessibility.js';
import { LayerTree } from '../../Web/src/tree.js';

const PHONE = { width: 390, height: 844 };
const text = (id, frame, value, extra = {}) => ({ id, kind: 'text', frame, alpha: 1, text: value, ...extra });
const rect = (id, frame, extra = {}) => ({ id, kind: 'rect', frame, alpha: 1, ...extra });

// docs/protocol.md §3.3's full frame (without the Now Playing row), in paint order: the page, its
// section, rows and labels, the bar, then the status bar and home indicator.
const HOME = [
  rect(84, [0, 0, 390, 844], { fill: '#F2F2F7', role: 'page', name: 'Home', vc: 'vc4' }),
  rect(85, [0, 91, 390, 753], { fill: '#F2F2F7', name: 'content' }),
  rect(86, [16, 126, 358, 132], { fill: '#FFFFFF', radius: 10, role: 'section', name: 'section' }),
  rect(87, [16, 126, 358, 44], { role: 'row', name: 'General' }),
  text(88, [32, 126, 264, 44], 'General', { name: 'title' }),
  text(89, [304, 126, 35, 44], 'slide', { name: 'detail' }),
  { id: 90, kind: 'icon', frame: [342, 137, 22, 22], alpha: 1, icon: 'chevron.right', name: 'disclosure' },
  rect(91, [32, 169.5, 342, 0.5], { fill: '#3C3C434A', role: 'separator' }),
  rect(97, [16, 214, 358, 44], { role: 'row', name: 'About' }),
  text(98, [32, 214, 326, 44], 'About', { name: 'title' }),
  rect(99, [0, 0, 390, 91], { fill: '#F9F9F9', role: 'navbar', name: 'navbar' }),
  rect(100, [0, 90.5, 390, 0.5], { fill: '#3C3C434A', role: 'separator' }),
  text(101, [155, 47, 80, 44], 'Stackcast', { role: 'title', name: 'Stackcast' }),
  rect(78, [0, 0, 390, 47], { role: 'statusbar', name: 'statusbar' }),
  text(79, [0, 13.5, 114, 22], '9:41', { name: 'time' }),
  { id: 80, kind: 'icon', frame: [297.5, 18, 17, 12], alpha: 1, icon: 'signal', name: 'signal' },
  { id: 81, kind: 'icon', frame: [319.5, 18.5, 16, 12], alpha: 1, icon: 'wifi', name: 'wifi' },
  { id: 82, kind: 'icon', frame: [340.5, 18, 28, 13], alpha: 1, icon: 'battery', name: 'battery' },
  rect(83, [128, 831, 134, 5], { fill: '#000000', radius: 2.5, role: 'homeindicator', name: 'homeindicator' }),
];

// What a screen reader announces of each entry: the fields these tests compare.
const announced = (entries) => entries.map(({ id, role, name, description, selected, tabs }) => ({
  id, role, name, description,
  ...(selected === undefined ? {} : { selected }),
  ...(tabs ? { tabs: announced(tabs) } : {}),
}));

test('rows are buttons named by their title with the detail as description, the title a heading, read top to bottom', () => {
  assert.deepEqual(announced(semantics(HOME, PHONE)), [
    { id: 101, role: 'heading', name: 'Stackcast', description: '' },
    { id: 87, role: 'button', name: 'General', description: 'slide' },
    { id: 97, role: 'button', name: 'About', description: '' },
  ]);
  // The status bar (its 9:41 and icons) and the home indicator are the device's, not read.
});

test('a tab bar is a tablist of its tabs, the selected one marked, a badge as the description', () => {
  const nodes = [
    ...HOME,
    rect(60, [0, 761, 390, 83], { fill: '#F9F9F9F0', role: 'tabbar', name: 'tabbar' }),
    rect(61, [195, 761, 195, 49], { role: 'tab', name: 'Search' }),
    { id: 62, kind: 'icon', frame: [278, 765, 30, 30], alpha: 1, icon: 'magnifyingglass', name: 'icon' },
    text(63, [195, 795, 195, 12], 'Search'),
    text(64, [290, 763, 18, 18], '3', { role: 'badge', name: 'Search' }),
    rect(65, [0, 761, 195, 49], { role: 'tab', name: 'Home', selected: true }),
    text(66, [0, 795, 195, 12], 'Home'),
  ];
  const entries = announced(semantics(nodes, PHONE));
  assert.deepEqual(entries.at(-1), {
    id: 60, role: 'tablist', name: 'Tab bar', description: '',
    tabs: [
      { id: 65, role: 'tab', name: 'Home', description: '', selected: true },
      { id: 61, role: 'tab', name: 'Search', description: '3', selected: false },
    ],
  });
  assert.equal(entries.length, 4, 'the tabs are inside the tablist only');
});

test('the back button is a button with its label as description; texts of no button are text', () => {
  const nodes = [
    rect(70, [0, 0, 390, 844], { role: 'page', name: 'General', vc: 'vc3' }),
    text(71, [16, 300, 358, 44], 'Nothing here yet'),
    rect(72, [0, 0, 390, 91], { role: 'navbar', name: 'navbar' }),
    rect(73, [8, 47, 100, 44], { role: 'back', name: 'Back' }),
    { id: 74, kind: 'icon', frame: [8, 57, 13, 21], alpha: 1, icon: 'back' },
    text(75, [26, 47, 80, 44], 'Stackcast'),
    text(76, [120, 47, 150, 44], 'General', { role: 'title', name: 'General' }),
  ];
  assert.deepEqual(announced(semantics(nodes, PHONE)), [
    { id: 73, role: 'button', name: 'Back', description: 'Stackcast' },
    { id: 76, role: 'heading', name: 'General', description: '' },
    { id: 71, role: 'text', name: 'Nothing here yet', description: '' },
  ]);
});

test("a sheet's Close and a swiped row's Delete are buttons named by what they do", () => {
  const nodes = [
    rect(60, [0, 57, 390, 787], { role: 'page', name: 'Cart', vc: 'vc2' }),
    rect(61, [16, 148, 358, 44], { role: 'row', name: 'Bread' }),
    text(62, [32, 148, 200, 44], 'Bread', { name: 'title' }),
    rect(63, [294, 148, 80, 44], { fill: '#FF3B30', role: 'delete', name: 'Delete' }),
    text(64, [294, 148, 80, 44], 'Delete', { name: 'label' }),
    rect(65, [0, 57, 390, 56], { role: 'navbar', name: 'navbar' }),
    rect(66, [16, 57, 60, 56], { role: 'close', name: 'Close' }),
    text(67, [16, 57, 60, 56], 'Close'),
  ];
  const buttons = announced(semantics(nodes, PHONE)).filter((entry) => entry.role === 'button');
  assert.deepEqual(buttons.map(({ id, name }) => ({ id, name })), [
    { id: 66, name: 'Close' }, { id: 61, name: 'Bread' }, { id: 63, name: 'Delete' },
  ]);
});

test('a row\'s switch is a switch named by its row, checked when the node is selected', () => {
  const nodes = [
    rect(50, [0, 0, 390, 844], { role: 'page', name: 'Settings', vc: 'vc1' }),
    rect(51, [16, 79, 358, 44], { role: 'row', name: 'Wi-Fi' }),
    text(52, [32, 79, 200, 44], 'Wi-Fi', { name: 'title' }),
    rect(53, [307, 85.5, 51, 31], { fill: '#34C759', radius: 15.5, role: 'switch', name: 'Wi-Fi', selected: true }),
  ];
  const switches = semantics(nodes, PHONE).filter((entry) => entry.role === 'switch');
  assert.deepEqual(switches.map(({ id, name, checked }) => ({ id, name, checked })), [{ id: 53, name: 'Wi-Fi', checked: true }]);
});

test("a section's header is a heading named as written, its footer lines are text", () => {
  const nodes = [
    rect(1, [0, 0, 390, 844], { fill: '#F2F2F7', role: 'page', name: 'Settings', vc: 'vc1' }),
    text(2, [32, 108, 326, 18], 'ACCOUNT', { role: 'header', name: 'Account' }),
    rect(3, [16, 132, 358, 44], { fill: '#FFFFFF', radius: 10, role: 'section', name: 'section' }),
    rect(4, [16, 132, 358, 44], { role: 'row', name: 'Name' }),
    text(5, [32, 132, 326, 44], 'Name', { name: 'title' }),
    rect(6, [32, 182, 326, 16], { name: 'footer' }),
    text(7, [32, 182, 326, 16], 'Used to sign in.'),
  ];
  assert.deepEqual(announced(semantics(nodes, PHONE)), [
    { id: 2, role: 'heading', name: 'Account', description: '' },
    { id: 4, role: 'button', name: 'Name', description: '' },
    { id: 7, role: 'text', name: 'Used to sign in.', description: '' },
  ]);
});

test("a panel's mask is a Dismiss button read after the panel's page", () => {
  const nodes = [
    rect(1, [0, 0, 390, 844], { fill: '#F2F2F7', role: 'page', name: 'Home', vc: 'vc1' }),
    rect(2, [0, 0, 390, 844], { fill: '#000000', alpha: 0.4, role: 'mask', name: 'Dismiss' }),
    rect(3, [0, 422, 390, 787], { role: 'panel', name: 'panel' }),
    rect(4, [0, 422, 390, 787], { fill: '#F2F2F7', role: 'page', name: 'Queue', vc: 'vc5' }),
    rect(5, [16, 513, 358, 44], { role: 'row', name: 'Track 1' }),
  ];
  const entries = announced(semantics(nodes, PHONE));
  assert.deepEqual(entries.map(({ id, role, name }) => [id, role, name]), [[2, 'button', 'Dismiss'], [5, 'button', 'Track 1']]);
});

test('mid-push: each page reads on its own, left page first, and a text goes to a row of its own page', () => {
  const incoming = [
    rect(80, [195, 0, 390, 844], { role: 'page', name: 'General', vc: 'vc3' }),
    // Over Home's General row, but General's: it must not become that row's description.
    text(81, [227, 126, 142, 44], 'Nothing here yet'),
    text(82, [315, 47, 150, 44], 'General', { role: 'title', name: 'General' }),
  ];
  const entries = announced(semantics([...HOME, ...incoming], PHONE));
  assert.deepEqual(entries.map((entry) => entry.id), [101, 87, 97, 82, 81]);
  assert.equal(entries[1].description, 'slide');
  assert.deepEqual(headingOfTopPage(semantics([...HOME, ...incoming], PHONE), [...HOME, ...incoming])?.id, 82);
});

test('what is not seen is not mirrored: off the viewport, outside its clip, transparent', () => {
  const nodes = [
    ...HOME,
    rect(90, [400, 111, 390, 44], { role: 'row', name: 'Right of the screen' }),
    rect(91, [0, 300, 390, 44], { role: 'row', name: 'Clipped away', clip: [0, 0, 390, 200] }),
    rect(92, [0, 400, 390, 44], { role: 'row', name: 'Faded out', alpha: 0 }),
    text(93, [0, 500, 390, 44], '   '),
  ];
  assert.deepEqual(semantics(nodes, PHONE).map((entry) => entry.id), [101, 87, 97]);
});

test('a layer on standby (v2) is not drawn, so not mirrored', () => {
  const tree = new LayerTree();
  const result = tree.apply({
    type: 'frame', seq: 1, full: true, nodes: [
      { id: 1, kind: 'rect', frame: [0, 0, 390, 844], name: 'scene' },
      { id: 2, parent: 1, kind: 'rect', frame: [0, 0, 390, 844], role: 'page', name: 'Home', vc: 'vc1' },
      { id: 3, parent: 2, kind: 'rect', frame: [0, 111, 390, 44], role: 'row', name: 'General' },
      { id: 4, parent: 1, kind: 'rect', frame: [0, 0, 390, 844], role: 'page', name: 'General', vc: 'vc2', standby: true },
      { id: 5, parent: 4, kind: 'text', frame: [120, 47, 150, 44], text: 'General', role: 'title', name: 'General' },
    ],
  });
  assert.equal(result.ok, true, result.reason);
  assert.deepEqual(announced(semantics(tree.nodes(), PHONE)), [{ id: 3, role: 'button', name: 'General', description: '' }]);
});
