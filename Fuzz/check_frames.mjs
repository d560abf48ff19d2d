// Applies the frames FrameReplay recorded (one .jsonl file per FrameRoundTrip input) with the
// web viewer's own models: v1 frames with delta.js, v2 JSON frames with tree.js, v2 binary frames
// with binary.js and tree.js. Each viewer must then hold exactly what a full frame of the last
// picture gives (the v2 ones: the same tree, and the same flattened picture). Prints one line per
// failing input and a summary; exits 1 on any failure.
//
// Usage: node check_frames.mjs REPLAY_DIR
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DisplayList } from '../Web/src/delta.js';
import { LayerTree } from '../Web/src/tree.js';
import { FrameDecoder } from '../Web/src/binary.js';

/** The layers in pre-order with their parent, without the defaults a full frame leaves out. */
function canonical(tree) {
  const out = [];
  const visit = (id) => {
    const layer = { ...tree.layer(id) };
    if (layer.alpha === 1) delete layer.alpha;
    if (layer.clips === false) delete layer.clips;
    if (layer.standby === false) delete layer.standby;
    if (layer.radius === 0) delete layer.radius;
    if (layer.scale === 1) delete layer.scale;
    out.push(layer);
    for (const child of tree.childIds(id)) visit(child);
  };
  if (tree.rootId != null) visit(tree.rootId);
  return out;
}

function firstDifference(got, want) {
  for (let i = 0; i < Math.max(got.length, want.length); i++) {
    if (!isDeepStrictEqual(got[i], want[i])) return `at ${i}: ${JSON.stringify(got[i])} != ${JSON.stringify(want[i])}`;
  }
  return '';
}

/** What is wrong with one recorded input, or null. */
function check(text) {
  const list = new DisplayList(), tree = new LayerTree(), binaryTree = new LayerTree(), decoder = new FrameDecoder();
  const expected = {};
  const lines = text.split('\n').filter(Boolean);
  for (const [number, line] of lines.entries()) {
    const record = JSON.parse(line);
    let result = { ok: true };
    try {
      if (record.format === 'v1') result = list.apply(record.frame);
      else if (record.format === 'v2json') result = tree.apply(record.frame);
      else if (record.format === 'v2binary') result = binaryTree.apply(decoder.decode(Buffer.from(record.hex, 'hex'), (id) => binaryTree.layer(id)));
      else if (record.expect) expected[record.expect] = record.frame;
      else if ('input' in record) decoder.withTemplates = record.templates === true;
    } catch (error) {
      return `line ${number + 1}: ${error.message}`;
    }
    if (!result.ok) return `line ${number + 1} (${record.format}): ${result.reason}`;
  }
  if (!expected.v1 || !expected.v2) return 'no expected picture (the Swift check failed first)';
  const fullList = new DisplayList();
  fullList.apply(expected.v1);
  // A patch may set a field back to the value a full node leaves out.
  const listed = (model) => model.nodes().map((node) => {
    const out = { ...node };
    if (out.radius === 0) delete out.radius;
    if (out.clipRadius === 0) delete out.clipRadius;
    if (out.scale === 1) delete out.scale;
    return out;
  });
  if (!isDeepStrictEqual(listed(list), listed(fullList))) {
    return `v1 frames give another list than a full frame: ${firstDifference(listed(list), listed(fullList))}`;
  }
  const fullTree = new LayerTree();
  fullTree.apply(expected.v2);
  for (const [name, held] of [['v2 JSON', tree], ['v2 binary', binaryTree]]) {
    if (!isDeepStrictEqual(canonical(held), canonical(fullTree))) {
      return `${name} frames give another tree than a full frame: ${firstDifference(canonical(held), canonical(fullTree))}`;
    }
    if (!isDeepStrictEqual(held.nodes(), fullTree.nodes())) {
      return `${name} frames draw another picture than a full frame: ${firstDifference(held.nodes(), fullTree.nodes())}`;
    }
  }
  return null;
}

const dir = process.argv[2];
const files = readdirSync(dir).filter((name) => name.endsWith('.jsonl')).sort();
let failed = 0;
for (const name of files) {
  const text = readFileSync(join(dir, name), 'utf8');
  const reason = check(text);
  if (reason) {
    failed += 1;
    if (failed <= 20) console.log(`check_frames.mjs: ${JSON.parse(text.split('\n')[0]).input}: ${reason}`);
  }
}
console.log(`check_frames.mjs: ${files.length - failed} of ${files.length} inputs reconstructed exactly (v1, v2 JSON, v2 binary)`);
process.exit(failed || !files.length ? 1 : 0);
