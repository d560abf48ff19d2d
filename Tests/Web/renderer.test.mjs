// The renderer and the icon set: where icons go in their frames, and what the renderer draws for
// the tab bar's nodes (tinted icons, centred titles, badge pills) and a link view, checked on a
// recording stand-in for the canvas 2D context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasIcon, iconPlacement } from '../../Web/src/icons.js';
import { Renderer, snapHairline } from '../../Web/src/renderer.js';

// Node has no Path2D; the icon paths are only handed to the (recording) context.
globalThis.Path2D ??= class Path2D {
  constructor(data) { this.data = data; }
};

const STYLE_KEYS = ['fillStyle', 'strokeStyle', 'font', 'textAlign', 'textBaseline', 'globalAlpha', 'lineWidth'];

/** A 2D context that records each drawing call with the style in effect (save/restore kept). */
function recordingContext() {
  let state = { fillStyle: '#000000', strokeStyle: '#000000', font: '10px sans-serif', textAlign: 'start',
    textBaseline: 'alphabetic', globalAlpha: 1, lineWidth: 1 };
  const stack = [];
  const calls = [];
  let transform = [1, 0, 0, 1, 0, 0];
  const record = (name) => (...args) => {
    calls.push({ name, args, transform: [...transform], ...state });
  };
  const fontSize = () => Number(/(\d+(?:\.\d+)?)px/.exec(state.font)[1]);
  const target = {
    save: () => { stack.push({ state: { ...state }, transform: [...transform] }); },
    restore: () => { ({ state, transform } = stack.pop()); },
    setTransform: (a, b, c, d, e, f) => { transform = [a, b, c, d, e, f]; },
    translate: (x, y) => { transform = [transform[0], 0, 0, transform[3], transform[4] + x * transform[0], transform[5] + y * transform[3]]; },
    scale: (sx, sy) => { transform = [transform[0] * sx, 0, 0, transform[3] * sy, transform[4], transform[5]]; },
    measureText: (text) => ({
      width: String(text).length * fontSize() * 0.5,
      fontBoundingBoxAscent: fontSize() * 0.8,
      fontBoundingBoxDescent: fontSize() * 0.2,
    }),
    calls,
  };
  for (const name of ['clearRect', 'beginPath', 'rect', 'roundRect', 'fill', 'stroke', 'fillText', 'clip']) {
    target[name] = record(name);
  }
  return new Proxy(target, {
    get: (object, key) => (STYLE_KEYS.includes(key) ? state[key] : object[key]),
    set: (object, key, value) => {
      if (STYLE_KEYS.includes(key)) state[key] = value;
      else object[key] = value;
      return true;
    },
  });
}

function draw(nodes) {
  const ctx = recordingContext();
  const canvas = { width: 390, height: 844, style: {}, getContext: () => ctx };
  new Renderer(canvas, () => nodes).draw();
  return ctx.calls;
}

// The phone app's tab bar as the server sends it (Library selected, a badge on Search).
const TAB_BAR = [
  { id: 66, kind: 'rect', frame: [0, 761, 390, 83], fill: '#F9F9F9F0', role: 'tabbar', name: 'tabbar' },
  { id: 67, kind: 'rect', frame: [0, 761, 390, 0.5], fill: '#C6C6C8', role: 'separator' },
  { id: 68, kind: 'rect', frame: [0, 761, 130, 49], role: 'tab', name: 'Library' },
  { id: 69, kind: 'icon', frame: [51, 766, 28, 26], color: '#007AFF', icon: 'library', name: 'icon' },
  { id: 70, kind: 'text', frame: [0, 794, 130, 12], text: 'Library', font: { size: 10, weight: 500 }, color: '#007AFF', align: 'center' },
  { id: 71, kind: 'rect', frame: [130, 761, 130, 49], role: 'tab', name: 'Search' },
  { id: 72, kind: 'icon', frame: [181, 766, 28, 26], color: '#999999', icon: 'search', name: 'icon' },
  { id: 73, kind: 'text', frame: [130, 794, 130, 12], text: 'Search', font: { size: 10, weight: 500 }, color: '#999999', align: 'center' },
  { id: 74, kind: 'rect', frame: [200, 763, 18, 18], fill: '#FF3B30', radius: 9, role: 'badge', name: 'Search' },
  { id: 75, kind: 'text', frame: [200, 763, 18, 18], text: '3', font: { size: 13, weight: 400 }, color: '#FFFFFF', align: 'center' },
];

test('the tab icons, the default circle and the back chevron are in the icon set', () => {
  for (const name of ['library', 'search', 'settings', 'circle', 'home', 'house', 'back', 'chevron.right']) {
    assert.ok(hasIcon(name), name);
  }
  assert.equal(hasIcon('no-such-icon'), false);
  assert.equal(hasIcon('toString'), false, 'only own names count');
});

test('an icon on the 24-point grid is fitted into its frame as a centred square', () => {
  // A tab icon: 28 x 26, so the grid is 26 points square, 1 point in from each side.
  const placed = iconPlacement('search', [51, 766, 28, 26]);
  assert.equal(placed.scale, 26 / 24);
  assert.deepEqual([placed.x, placed.y], [52, 766]);
  // Unknown names draw the placeholder on the same grid.
  assert.deepEqual(iconPlacement('no-such-icon', [0, 0, 24, 24]), { x: 0, y: 0, scale: 1 });
  assert.equal(iconPlacement('search', [0, 0, 0, 20]), null);
});

test('the back chevron fills the height of its frame, as UIKit draws its back indicator', () => {
  // The navigation bar's chevron frame: 14 x 22 at (8, 58).
  const placed = iconPlacement('back', [8, 58, 14, 22]);
  const top = placed.y + 3.5 * placed.scale;
  const bottom = placed.y + 20.5 * placed.scale;
  assert.ok(Math.abs(top - 58) < 1e-9 && Math.abs(bottom - 80) < 1e-9, `chevron from ${top} to ${bottom}`);
  const left = placed.x + 6.5 * placed.scale;
  const right = placed.x + 16 * placed.scale;
  assert.ok(left >= 8 - 1e-9 && right <= 22 + 1e-9, 'inside the frame');
  assert.ok(Math.abs((left + right) / 2 - 15) < 1e-9, 'centred across');
  // The same chevron under its generic name keeps the grid's margin.
  assert.equal(iconPlacement('chevron.left', [8, 58, 14, 22]).scale, 14 / 24);
});

test('the status bar icons fill their frames and the battery outline is drawn at 35 %', () => {
  // The phone's status bar as the server sends it (LookTests): signal, wifi, battery at rest.
  const STATUS = [
    { id: 20, kind: 'icon', frame: [297.5, 18, 17, 12], color: '#000000', icon: 'signal', name: 'signal' },
    { id: 21, kind: 'icon', frame: [319.5, 18.5, 16, 12], color: '#000000', icon: 'wifi', name: 'wifi' },
    { id: 22, kind: 'icon', frame: [340.5, 18, 28, 13], color: '#000000', icon: 'battery', name: 'battery' },
  ];
  for (const node of STATUS) assert.ok(hasIcon(node.icon), node.icon);
  // Each box is its frame at 1 point per unit; the iPad's ¾ size scales it alike.
  assert.deepEqual(iconPlacement('signal', [297.5, 18, 17, 12]), { x: 297.5, y: 18, scale: 1 });
  assert.deepEqual(iconPlacement('battery', [340.5, 18, 28, 13]), { x: 340.5, y: 18, scale: 1 });
  assert.deepEqual(iconPlacement('battery', [981, 7.125, 21, 9.75]), { x: 981, y: 7.125, scale: 0.75 });
  const fills = draw(STATUS).filter((call) => call.name === 'fill' && call.args[0] instanceof Path2D);
  // Signal bars, the Wi-Fi dot, the battery level at full colour, then its outline and cap faint.
  assert.deepEqual(fills.map((call) => [call.fillStyle, call.globalAlpha]),
    [['#000000', 1], ['#000000', 1], ['#000000', 1], ['#000000', 0.35]]);
  // The outline is a ring: the inner rounded rectangle runs the other way round (a hole).
  assert.match(fills[3].args[0].data, /^M4 0 h17 a4 4 0 0 1 .* M4 1 a3 3 0 0 0 /);
});

test('tab icons are stroked in their colour, the selected one blue', () => {
  const strokes = draw(TAB_BAR).filter((call) => call.name === 'stroke' && call.args[0] instanceof Path2D);
  assert.deepEqual(strokes.map((call) => call.strokeStyle), ['#007AFF', '#999999']);
  // Scaled from the grid to the frame: 26 / 24 points per unit.
  assert.ok(Math.abs(strokes[0].transform[0] - 26 / 24) < 1e-9);
});

test('tab titles are 10 point text centred under their icons', () => {
  const texts = draw(TAB_BAR).filter((call) => call.name === 'fillText');
  const titles = texts.filter((call) => call.args[0] !== '3');
  assert.deepEqual(titles.map((call) => [call.args[0], call.args[1], call.textAlign, call.fillStyle]),
    [['Library', 65, 'center', '#007AFF'], ['Search', 195, 'center', '#999999']]);
  for (const title of titles) {
    assert.match(title.font, /^500 10px /);
    // The line box (ascent 8, descent 2 here) is centred in the 12-point frame: baseline 3 below its middle.
    assert.equal(title.args[2], 794 + 6 + 3);
  }
});

test('a badge is a red pill with its text centred in white', () => {
  const calls = draw(TAB_BAR);
  const pill = calls.find((call) => call.name === 'roundRect');
  assert.deepEqual(pill.args, [200, 763, 18, 18, 9]);
  const fill = calls[calls.indexOf(pill) + 1];
  assert.equal(fill.name, 'fill');
  assert.equal(fill.fillStyle, '#FF3B30');
  const label = calls.find((call) => call.name === 'fillText' && call.args[0] === '3');
  assert.deepEqual([label.args[1], label.textAlign, label.fillStyle], [209, 'center', '#FFFFFF']);
  assert.match(label.font, /^400 13px /);
  assert.ok(Math.abs(label.args[2] - (763 + 9 + 0.3 * 13)) < 1e-9, 'vertically centred in the pill');
});

test('the bar is drawn translucent and the tab items themselves draw nothing', () => {
  const fills = draw(TAB_BAR).filter((call) => call.name === 'fill');
  assert.deepEqual(fills.map((call) => call.fillStyle), ['#F9F9F9F0', '#C6C6C8', '#FF3B30']);
});

test('a link view draws its text centred on its fill', () => {
  const calls = draw([{
    id: 1, kind: 'text', frame: [0, 705, 390, 56], fill: '#F9F9F9', role: 'link', name: 'Mini',
    text: '▶ Melody A.M.', font: { size: 17, weight: 400 }, color: '#000000', align: 'center',
  }]);
  assert.equal(calls.find((call) => call.name === 'fill').fillStyle, '#F9F9F9');
  const text = calls.find((call) => call.name === 'fillText');
  assert.deepEqual([text.args[0], text.args[1], text.textAlign], ['▶ Melody A.M.', 195, 'center']);
  assert.ok(Math.abs(text.args[2] - (705 + 28 + 0.3 * 17)) < 1e-9);
});

test('hairlines are snapped to whole device pixels, one at least, clear of the next row', () => {
  // A row separator, 0.5 pt high at the bottom of its row (the next row starts at 155): at 1 device
  // pixel per point it fills the pixel row it half covers...
  assert.deepEqual(snapHairline([16, 154.5, 374, 0.5], 1, 1), [16, 154, 374, 1]);
  // ...at 2 exactly the one it covers, at 3 two rows (1.5 rounded), ending where it ended.
  assert.deepEqual(snapHairline([16, 154.5, 374, 0.5], 2, 2), [16, 154.5, 374, 0.5]);
  assert.deepEqual(snapHairline([16, 154.5, 374, 0.5], 3, 3), [16, 463 / 3, 374, 2 / 3]);
  // A device shrunk to 0.936 of its size: every separator is one pixel, on a pixel row, and ends
  // at or above the next row's top edge (which the next row, painted later, partly covers).
  const scale = 365 / 390;
  for (let row = 0; row < 24; row++) {
    const y = 154.5 + 44 * row;
    const [, top, , height] = snapHairline([16, y, 374, 0.5], scale, scale);
    const first = top * scale;
    assert.ok(Math.abs(first - Math.round(first)) < 1e-9, `row ${row}: starts on a pixel (${first})`);
    assert.ok(Math.abs(height * scale - 1) < 1e-9, `row ${row}: one pixel`);
    const nextRowTop = (y + 0.5) * scale;
    assert.ok(first + 1 <= nextRowTop + 1e-9 && first + 1 > nextRowTop - 1, `row ${row}: ${first} vs ${nextRowTop}`);
  }
  // Vertical hairlines too; anything thicker is left alone.
  assert.deepEqual(snapHairline([320.25, 0, 0.5, 844], 1, 1), [319, 0, 1, 844]);
  assert.deepEqual(snapHairline([0, 761.3, 390, 83], 1, 1), [0, 761.3, 390, 83]);
  assert.deepEqual(snapHairline([200, 763.2, 18, 18], 0.5, 0.5), [200, 763.2, 18, 18]);
});

test('the renderer fills a separator on whole pixels', () => {
  const calls = draw([{ id: 1, kind: 'rect', frame: [16, 154.5, 374, 0.5], fill: '#C6C6C8', role: 'separator' }]);
  assert.deepEqual(calls.find((call) => call.name === 'rect').args, [16, 154, 374, 1]);
});

test('a scaled node is drawn in a scaled space; a rounded clip is a rounded path', () => {
  const calls = draw([
    { id: 1, kind: 'text', frame: [126.15, 90.14, 137.69, 40.39], alpha: 1, scale: 0.91795, text: 'Home',
      font: { size: 17, weight: 600 }, align: 'center', clip: [16, 47, 358, 774.75], clipRadius: 9.18 },
  ]);
  const clip = calls.find((call) => call.name === 'roundRect');
  assert.deepEqual(clip.args, [16, 47, 358, 774.75, 9.18]);
  const text = calls.find((call) => call.name === 'fillText');
  // Drawn at 17 px in a space scaled by the node's scale from its frame's corner.
  assert.match(text.font, /^600 17px/);
  assert.deepEqual(text.transform, [0.91795, 0, 0, 0.91795, 126.15, 90.14]);
  assert.ok(Math.abs(text.args[1] - 137.69 / 0.91795 / 2) < 1e-9);
});

test('centred text may spill a little out of its box before it is cut; other text is cut at its box', () => {
  // The stand-in font draws 17 px text 8.5 px a character: "Röyksopp" is 68 px in a 60 px box.
  const title = (align, width) => ({ id: 1, kind: 'text', frame: [100, 0, width, 44], text: 'Röyksopp', font: { size: 17, weight: 600 }, align });
  const drawn = (node) => draw([node]).filter((call) => call.name === 'fillText').map((call) => call.args[0]);
  assert.deepEqual(drawn(title('center', 60)), ['Röyksopp']);
  assert.deepEqual(drawn(title('left', 60)), ['Röykso…']);
  // Past the spill (a quarter of the box in all), centred text is cut too.
  assert.deepEqual(drawn(title('center', 40)), ['Röyk…']);
});
