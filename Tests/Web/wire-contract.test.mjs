// The binary v2 wire contract as the viewer reads it: Web/src/wire-format.js is what
// Scripts/wire-gen writes from docs/wire/binary-v2.json, and every golden vector of
// docs/wire/vectors/ (frames the server's encoder wrote) decodes with binary.js to its JSON frame
// and, applied by tree.js, leaves the tree the vector gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { WIRE } from '../../Web/src/wire-format.js';
import { FrameDecoder } from '../../Web/src/binary.js';
import { LayerTree, patchesOf } from '../../Web/src/tree.js';

const root = new URL('../../', import.meta.url);
const vectors = new URL('docs/wire/vectors/', root);

/** Scripts/wire-gen's reading of the contract: descriptions dropped, {value, description} its value. */
function contract(node, top = true) {
  if (Array.isArray(node)) return node.map((item) => contract(item, false));
  if (node === null || typeof node !== 'object') return node;
  const keys = Object.keys(node);
  if ('value' in node && keys.every((key) => key === 'value' || key === 'description')) return contract(node.value, false);
  const out = {};
  for (const key of keys) {
    if (key === 'description' || (top && (key === 'title' || key === 'layout'))) continue;
    const value = contract(node[key], false);
    if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length) out[key] = value;
  }
  return out;
}

test('wire-format.js holds docs/wire/binary-v2.json (run Scripts/wire-gen after changing it)', () => {
  const document = JSON.parse(readFileSync(new URL('docs/wire/binary-v2.json', root), 'utf8'));
  assert.deepStrictEqual(WIRE, contract(document));
});

/**
 * A frame as comparable: a delta's `set` as one patch per layer by id, JSON's `x`/`y` and the
 * decoder's partial `frame` both made the whole frame, the rest taken from the layer held.
 */
function comparable(frame, held) {
  if (frame.set === undefined) return frame;
  const set = {};
  for (const patch of patchesOf(frame.set)) {
    const whole = { ...patch };
    const parts = Array.isArray(patch.frame) ? patch.frame : [patch.x ?? null, patch.y ?? null, null, null];
    delete whole.x;
    delete whole.y;
    if (parts.some((part) => part !== null)) whole.frame = parts.map((part, i) => part ?? held.get(patch.id)?.frame[i]);
    set[patch.id] = whole;
  }
  return { ...frame, set };
}

/** The layers a tree holds as a full frame lists them: pre-order, defaults left out. */
function canonical(tree) {
  const out = [];
  const visit = (id) => {
    const layer = { ...tree.layer(id) };
    delete layer.index;
    for (const [key, value] of Object.entries(WIRE.defaults.layer)) {
      if (key !== 'kind' && key !== 'frame' && layer[key] === value) delete layer[key];
    }
    out.push(layer);
    for (const child of tree.childIds(id)) visit(child);
  };
  if (tree.rootId != null) visit(tree.rootId);
  return out;
}

const names = readdirSync(vectors).filter((name) => name.endsWith('.json')).sort();

test('there are golden vectors', () => {
  assert.ok(names.length > 0, 'no vectors in docs/wire/vectors');
});

for (const name of names) {
  test(`golden vector ${name}`, () => {
    const vector = JSON.parse(readFileSync(new URL(name, vectors), 'utf8'));
    const decoder = new FrameDecoder();
    decoder.withTemplates = vector.templates;
    const tree = new LayerTree();
    let held = new Map();
    vector.frames.forEach((frame, index) => {
      const at = `${name} frame ${index + 1} (${frame.description})`;
      const decoded = decoder.decode(Buffer.from(frame.hex, 'hex'), (id) => tree.layer(id));
      assert.deepStrictEqual(comparable(decoded, held), comparable(frame.json, held), `${at}: the decoded frame`);
      const result = tree.apply(decoded);
      assert.ok(result.ok, `${at}: ${result.reason}`);
      assert.deepStrictEqual(canonical(tree), frame.tree, `${at}: the tree`);
      held = new Map(frame.tree.map((layer) => [layer.id, layer]));
    });
  });
}
