// Protocol v2 binary frames (docs/protocol.md §3.6), assembled by hand byte by byte: varints,
// zig-zag, fixed point, colours, field masks and the cleared mask, the string table across full
// frames and deltas, the template table (feature `templates`), and every way a frame is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BinaryFrameError, FrameDecoder, StringTableError, TemplateTableError, decodeFrame } from '../../Web/src/binary.js';
import { LayerTree } from '../../Web/src/tree.js';
import { Bytes, zigzag } from './support/bytes.mjs';

const B = { kind: 0, x: 1, y: 2, w: 3, h: 4, alpha: 5, clips: 6, fill: 7, radius: 8, shadow: 9, border: 10,
  text: 11, font: 12, color: 13, align: 14, icon: 15, role: 16, name: 17, vc: 18, standby: 20, scale: 21 };

// §3.5's full frame, and the same frame in binary.
const FULL_JSON = `{"type":"frame","seq":1,"time":0,"full":true,"nodes":[
 {"id":35,"kind":"rect","frame":[0,0,390,844],"clips":true,"name":"scene"},
 {"id":1,"parent":35,"kind":"rect","frame":[0,0,390,844],"fill":"#FFFFFF","role":"page","name":"Home","vc":"vc1"},
 {"id":2,"parent":1,"kind":"rect","frame":[0,91,390,753],"fill":"#F2F2F7","name":"content"},
 {"id":3,"parent":2,"kind":"rect","frame":[0,20,390,44],"fill":"#FFFFFF","role":"row","name":"General"},
 {"id":4,"parent":3,"kind":"text","frame":[16,0,338,44],"text":"General","font":{"size":17,"weight":400},"color":"#000000","align":"left"}]}`;
const STRINGS = ['scene', 'page', 'Home', 'vc1', 'content', 'row', 'General'];
const S = Object.fromEntries(STRINGS.map((text, index) => [text, index]));

/** §3.5's full frame; `templates` writes a TEMPLATES part after the strings (feature `templates`). */
function fullExample(templates) {
  const bytes = new Bytes().u8(1).v(1).v(0).strings(0, STRINGS);
  templates?.(bytes);
  return bytes.list(5)
    .layer(35, 0).fields([B.w, B.h, B.clips, B.name], (b) => b.c(390).c(844).u8(1).v(S.scene))
    .layer(1, 35).fields([B.w, B.h, B.fill, B.role, B.name, B.vc],
      (b) => b.c(390).c(844).rgba(255, 255, 255).v(S.page).v(S.Home).v(S.vc1))
    .layer(2, 1).fields([B.y, B.w, B.h, B.fill, B.name], (b) => b.c(91).c(390).c(753).rgba(0xF2, 0xF2, 0xF7).v(S.content))
    .layer(3, 2).fields([B.y, B.w, B.h, B.fill, B.role, B.name],
      (b) => b.c(20).c(390).c(44).rgba(255, 255, 255).v(S.row).v(S.General))
    // kind text; x, w, h; text; font; colour; align left is 0, and written since it is a field that is set
    .layer(4, 3).fields([B.kind, B.x, B.w, B.h, B.text, B.font, B.color, B.align],
      (b) => b.u8(1).c(16).c(338).c(44).v(S.General).c(17).v(400).rgba(0, 0, 0).u8(0))
    .bytes;
}

test('§3.5\'s full frame in binary decodes to exactly what its JSON parses to', () => {
  const decoder = new FrameDecoder();
  assert.deepEqual(decoder.decode(fullExample()), JSON.parse(FULL_JSON));
  assert.deepEqual(decoder.strings, STRINGS, 'a full frame\'s strings are the whole table');
  // And the tree drawn from either is the same picture.
  const fromBinary = new LayerTree();
  const fromJson = new LayerTree();
  fromBinary.apply(new FrameDecoder().decode(fullExample()));
  fromJson.apply(JSON.parse(FULL_JSON));
  assert.deepEqual(fromBinary.nodes(), fromJson.nodes());
  assert.equal(fromBinary.nodes().length, 4);
});

test('varints: one byte below 128, several above, low bits first; ArrayBuffer, Uint8Array and views all decode', () => {
  // type 1, seq 300 (0xAC 0x02), time 583.4 ms = 5834 tenths (0xCA 0x2D), no strings, one layer:
  // id 1 (z(1) = 2), the root (0), mask w|h (0x18), w 390 = z(39000) = 78000 (0xB0 0xE1 0x04),
  // h 844 = z(84400) = 168800 (0xE0 0xA6 0x0A).
  const bytes = [1, 0xAC, 0x02, 0xCA, 0x2D, 0, 0, 1, 2, 0, 0x18, 0xB0, 0xE1, 0x04, 0xE0, 0xA6, 0x0A];
  const expected = { type: 'frame', seq: 300, time: 583.4, full: true, nodes: [{ id: 1, kind: 'rect', frame: [0, 0, 390, 844] }] };
  assert.deepEqual(new FrameDecoder().decode(Uint8Array.from(bytes)), expected);
  assert.deepEqual(new FrameDecoder().decode(Uint8Array.from(bytes).buffer), expected);
  const padded = Uint8Array.from([9, 9, ...bytes, 9]);
  assert.deepEqual(new FrameDecoder().decode(new DataView(padded.buffer, 2, bytes.length)), expected);
  // Ids and seqs past 2^31 (where JS bit operators would wrap).
  const big = new Bytes().u8(1).v(2 ** 40 + 3).v(0).strings(0, []).list(1).layer(2 ** 33, 0).fields([]).bytes;
  const frame = new FrameDecoder().decode(big);
  assert.equal(frame.seq, 2 ** 40 + 3);
  assert.equal(frame.nodes[0].id, 2 ** 33);
});

test('zig-zag negatives and fixed point: hundredths, alpha thousandths, time tenths', () => {
  // x -21.74 = -2174 -> 4347 (0xFB 0x21); y -0.01 -> 1; w 0.01 -> 2; h -1 = -100 -> 199 (0xC7 0x01).
  // Delta 5, 583.3 ms after its base, 5 − 1.
  const bytes = [2, 5, 0xC9, 0x2D, 1, 1, 0, 0, 0, 1, 1, 0x1E, 0xFB, 0x21, 0x01, 0x02, 0xC7, 0x01, 0];
  const frame = new FrameDecoder();
  frame.strings = ['x'];
  frame.last = { seq: 4, time: 0 };
  assert.deepEqual(frame.decode(Uint8Array.from(bytes)), {
    type: 'frame', seq: 5, time: 583.3, base: 4, set: [{ id: 1, frame: [-21.74, -0.01, 0.01, -1] }],
  });
  const alpha = new Bytes().u8(2).v(6).v(1).v(1).strings(1, []).v(0).v(0).v(3)
    .v(54).fields([B.alpha], (b) => b.v(33))
    .v(55).fields([B.alpha, B.radius], (b) => b.v(1000).c(0))
    .v(56).fields([B.alpha], (b) => b.v(0))
    .v(0).bytes;
  assert.deepEqual(frame.decode(alpha), {
    type: 'frame', seq: 6, time: 583.4, base: 5,
    set: [{ id: 54, alpha: 0.033 }, { id: 55, alpha: 1, radius: 0 }, { id: 56, alpha: 0 }],
  });
});

test('a patch of x alone leaves the other frame slots null, and the tree keeps them', () => {
  // §3.5's slide delta as the binary encoder writes it: only x changed on the pages.
  const delta = new Bytes().u8(2).v(5).v(5833).v(1).strings(7, []).v(0).v(0).v(3)
    .v(1).fields([B.x], (b) => b.c(-21.74))
    .v(54).fields([B.alpha], (b) => b.v(33))
    .v(55).fields([B.x], (b) => b.c(324.78))
    .v(0).bytes;
  const decoder = new FrameDecoder();
  decoder.decode(fullExample());
  decoder.last = { seq: 4, time: 0 }; // as if it had decoded the tree's delta 4 below
  const frame = decoder.decode(delta);
  assert.deepEqual(frame.set, [
    { id: 1, frame: [-21.74, null, null, null] }, { id: 54, alpha: 0.033 }, { id: 55, frame: [324.78, null, null, null] },
  ]);
  const tree = new LayerTree();
  tree.apply(JSON.parse(FULL_JSON));
  tree.apply({ type: 'frame', seq: 4, base: 1, insert: [
    { id: 54, parent: 35, index: 1, kind: 'rect', frame: [0, 0, 390, 844], alpha: 0.02, fill: '#000000', role: 'dim' },
    { id: 55, parent: 35, index: 2, kind: 'rect', frame: [330, 0, 390, 844], fill: '#FFFFFF', role: 'page' },
  ] });
  assert.equal(tree.apply(frame).ok, true);
  assert.deepEqual(tree.layer(1).frame, [-21.74, 0, 390, 844]);
  assert.deepEqual(tree.byId.get(4).frame, [-5.74, 111, 338, 44]);
});

test('a scale comes last, in hundred-thousandths, after the vc and standby', () => {
  const bytes = new Bytes().u8(1).v(2).v(0).strings(0, ['vc1']).list(2)
    .layer(1, 0).fields([B.w, B.h], (b) => b.c(390).c(844))
    .layer(2, 1).fields([B.w, B.h, B.vc, B.scale], (b) => b.c(390).c(844).v(0).v(91795))
    .bytes;
  const frame = new FrameDecoder().decode(bytes);
  assert.deepEqual(frame.nodes[1], { id: 2, parent: 1, kind: 'rect', frame: [0, 0, 390, 844], vc: 'vc1', scale: 0.91795 });
});

test('colours, kinds, aligns, shadow, border, font, clips and strings decode to JSON\'s values', () => {
  const strings = ['badge', 'Search', '3', 'chevron.right', 'Ünïcødé 🎵'];
  const bytes = new Bytes().u8(1).v(2).v(0).strings(0, strings).list(3)
    .layer(1, 0).fields([B.w, B.h], (b) => b.c(390).c(844))
    .layer(2, 1).fields([B.kind, B.x, B.y, B.w, B.h, B.alpha, B.clips, B.fill, B.radius, B.shadow, B.border, B.text, B.font, B.color, B.align, B.role, B.name],
      (b) => b.u8(1).c(300.5).c(790).c(20).c(18).v(500).u8(0).rgba(0xFF, 0x3B, 0x30).c(9)
        .rgba(0, 0, 0, 0x4D).c(12).c(-3).c(0)
        .rgba(0xc6, 0xc6, 0xc8, 0x80).c(0.5)
        .v(2).c(13).v(600).rgba(255, 255, 255).u8(1).v(0).v(1))
    // Values in bit order, whatever order the bits are listed in: kind, color, align, icon, name.
    .layer(3, 1).fields([B.kind, B.icon, B.color, B.align, B.name], (b) => b.u8(2).rgba(0xf9, 0xf9, 0xf9, 0xf0).u8(2).v(3).v(4))
    .bytes;
  const frame = new FrameDecoder().decode(bytes);
  assert.deepEqual(frame.nodes[1], {
    id: 2, parent: 1, kind: 'text', frame: [300.5, 790, 20, 18], alpha: 0.5, clips: false, fill: '#FF3B30', radius: 9,
    shadow: { color: '#0000004D', blur: 12, x: -3, y: 0 }, border: { color: '#C6C6C880', width: 0.5 },
    text: '3', font: { size: 13, weight: 600 }, color: '#FFFFFF', align: 'center', role: 'badge', name: 'Search',
  });
  assert.deepEqual(frame.nodes[2], {
    id: 3, parent: 1, kind: 'icon', frame: [0, 0, 0, 0], icon: 'chevron.right', color: '#F9F9F9F0', align: 'right', name: 'Ünïcødé 🎵',
  });
});

test('a delta\'s remove, insert (with index), set and order come out as JSON has them', () => {
  const decoder = new FrameDecoder();
  decoder.decode(fullExample());
  const bytes = new Bytes().u8(2).v(2).v(12345).v(1).strings(7, ['Detail', 'vc3'])
    .v(2).v(3).v(40) // remove 3 and 40
    .list(2) // insert two
    .head(55, 35).v(4).fields([B.x, B.w, B.h, B.fill, B.role, B.name, B.vc], // index 1 (times 4)
      (b) => b.c(390).c(390).c(844).rgba(255, 255, 255).v(S.page).v(7).v(8))
    .head(56, 55).v(0).fields([B.kind, B.text], (b) => b.u8(1).v(7))
    .v(1).v(1).fields([B.x], (b) => b.c(-130)) // set
    .v(1).v(35).v(2).v(55).v(1) // order
    .bytes;
  assert.deepEqual(decoder.decode(bytes), {
    type: 'frame', seq: 2, time: 1234.5, base: 1,
    set: [{ id: 1, frame: [-130, null, null, null] }],
    insert: [
      { id: 55, parent: 35, index: 1, kind: 'rect', frame: [390, 0, 390, 844], fill: '#FFFFFF', role: 'page', name: 'Detail', vc: 'vc3' },
      // A text layer starts from the body font, left-aligned.
      { id: 56, parent: 55, index: 0, kind: 'text', frame: [0, 0, 0, 0], text: 'Detail', font: { size: 17, weight: 400 }, align: 'left' },
    ],
    remove: [3, 40],
    order: [{ id: 35, children: [55, 1] }],
  });
  // Empty parts are left out, as in JSON; the time counts from the frame just decoded.
  const empty = new Bytes().u8(2).v(3).v(167).v(1).strings(9, []).v(0).v(0).v(0).v(0).bytes;
  assert.deepEqual(decoder.decode(empty), { type: 'frame', seq: 3, time: 1251.2, base: 2 });
});

test('an insert written like a held layer, or one inserted before it, lists only what differs', () => {
  const decoder = new FrameDecoder();
  decoder.decode(fullExample());
  const held = new Map([[3, { id: 3, parent: 2, kind: 'text', frame: [120, 47, 150, 44], text: 'Home',
    font: { size: 17, weight: 600 }, color: '#000000', align: 'center', role: 'title', name: 'Home' }]]);
  const bytes = new Bytes().u8(2).v(2).v(0).v(1).strings(STRINGS.length, ['Detail']) // string 7
    .v(0) // no removes
    .list(2)
    // id 10 under 2, index 1, like 3 (10 − 3 = 7): text and name "Detail", x 100
    .head(10, 2).v(5).z(7).fields([B.x, B.text, B.name], (b) => b.c(100).v(7).v(7))
    // id 11 under 2, index 2, like 10 (inserted just before): y 50, and the role cleared
    .head(11, 2).v(9).z(1).fields([B.y], (b) => b.c(50), [B.role])
    .v(0).v(0)
    .bytes;
  const frame = decoder.decode(bytes, (id) => held.get(id));
  assert.deepEqual(frame.insert, [
    { id: 10, parent: 2, index: 1, kind: 'text', frame: [100, 47, 150, 44], text: 'Detail', font: { size: 17, weight: 600 },
      color: '#000000', align: 'center', role: 'title', name: 'Detail' },
    { id: 11, parent: 2, index: 2, kind: 'text', frame: [100, 50, 150, 44], text: 'Detail', font: { size: 17, weight: 600 },
      color: '#000000', align: 'center', name: 'Detail' },
  ]);
  // A model the client does not hold means the stream is not what we think.
  const fresh = new FrameDecoder();
  fresh.decode(fullExample());
  assert.throws(() => fresh.decode(bytes), (error) => error instanceof BinaryFrameError && error.code === 'like');
});

test('a full frame\'s LAYER written like an earlier layer of the frame lists only what differs', () => {
  const strings = ['row', 'A', 'B'];
  const rows = (secondRowLike) => new Bytes().u8(1).v(1).v(0).strings(0, strings).list(5)
    .layer(1, 0).fields([B.w, B.h], (b) => b.c(390).c(844))
    .layer(2, 1).fields([B.y, B.w, B.h, B.fill, B.role, B.name], (b) => b.c(20).c(390).c(44).rgba(255, 255, 255).v(0).v(1))
    .layer(3, 2).fields([B.kind, B.x, B.w, B.h, B.text], (b) => b.u8(1).c(16).c(338).c(44).v(1))
    // like row 2 (4 − 2 = 2): y 64 and name B; its label like label 3: text B
    .layer(4, 1, secondRowLike).fields([B.y, B.name], (b) => b.c(64).v(2))
    .layer(5, 4, 3).fields([B.text], (b) => b.v(2))
    .bytes;
  const row = { kind: 'rect', frame: [0, 20, 390, 44], fill: '#FFFFFF', role: 'row' };
  const label = { kind: 'text', frame: [16, 0, 338, 44], font: { size: 17, weight: 400 }, align: 'left' };
  assert.deepEqual(new FrameDecoder().decode(rows(2)).nodes, [
    { id: 1, kind: 'rect', frame: [0, 0, 390, 844] },
    { id: 2, parent: 1, ...row, name: 'A' },
    { id: 3, parent: 2, ...label, text: 'A' },
    { id: 4, parent: 1, ...row, frame: [0, 64, 390, 44], name: 'B' },
    { id: 5, parent: 4, ...label, text: 'B' },
  ]);
  // Like a layer the frame has not sent before it (the layer itself, or a later one).
  for (const model of [4, 5]) {
    assert.throws(() => new FrameDecoder().decode(rows(model)),
      (error) => error instanceof BinaryFrameError && error.code === 'like' && /which the frame has not sent before it/.test(error.message));
  }
  // A parent of 1 would be the layer itself, written like something.
  const own = new Bytes().u8(1).v(1).v(0).strings(0, []).list(2).layer(1, 0).fields([]).id(2).v(1).z(1).fields([]).bytes;
  assert.throws(() => new FrameDecoder().decode(own), (error) => error instanceof BinaryFrameError && error.code === 'id');
});

test('a move is an INSERT of kind 2: its place alone, as JSON\'s {id, parent, index, move: true}', () => {
  const decoder = new FrameDecoder();
  decoder.decode(fullExample());
  const insert = (kind) => new Bytes().u8(2).v(2).v(0).v(1).strings(STRINGS.length, []).v(0)
    .list(1).head(4, 35).v(1 * 4 + kind) // id 4 under 35 at index 1
    .v(0).v(0).bytes;
  // Kind 3 is none: the stream is not what we think.
  assert.throws(() => decoder.decode(insert(3)), (error) => error instanceof BinaryFrameError && error.code === 'value');
  assert.deepEqual(decoder.decode(insert(2)).insert, [{ id: 4, parent: 35, index: 1, move: true }]);
  // Applied: the text (4) leaves its row for the scene, with its fields.
  const tree = new LayerTree();
  tree.apply(new FrameDecoder().decode(fullExample()));
  const again = new FrameDecoder();
  again.decode(fullExample());
  assert.equal(tree.apply(again.decode(insert(2))).ok, true);
  assert.deepEqual(tree.childIds(35), [1, 4]);
  assert.equal(tree.layer(4).text, 'General');
});

test('the cleared mask (bit 19) turns fields into null', () => {
  const decoder = new FrameDecoder();
  decoder.decode(fullExample());
  const bytes = new Bytes().u8(2).v(2).v(10).v(1).strings(7, []).v(0).v(0).v(2)
    .v(1).fields([B.x], (b) => b.c(-2.5), [B.shadow, B.vc, B.fill])
    .v(4).fields([], () => {}, [B.text, B.font, B.align])
    .v(0).bytes;
  assert.deepEqual(decoder.decode(bytes).set, [
    { id: 1, frame: [-2.5, null, null, null], fill: null, shadow: null, vc: null },
    { id: 4, text: null, font: null, align: null },
  ]);
  // Applied: the fields are gone from the layers.
  const tree = new LayerTree();
  tree.apply(new FrameDecoder().decode(fullExample()));
  const again = new FrameDecoder();
  again.decode(fullExample());
  assert.equal(tree.apply(again.decode(bytes)).ok, true);
  assert.equal('fill' in tree.layer(1) || 'vc' in tree.layer(1), false);
  assert.deepEqual(tree.layer(4), { id: 4, parent: 3, kind: 'text', frame: [16, 0, 338, 44], color: '#000000' });
});

test('the string table: a full frame replaces it, deltas append to it', () => {
  const decoder = new FrameDecoder();
  const full = (strings, textIndex) => new Bytes().u8(1).v(1).v(0).strings(0, strings).list(2)
    .layer(1, 0).fields([B.w, B.h], (b) => b.c(390).c(844))
    .layer(2, 1).fields([B.kind, B.text], (b) => b.u8(1).v(textIndex)).bytes;
  const delta = (seq, first, strings, textIndex) => new Bytes().u8(2).v(seq).v(0).v(1).strings(first, strings)
    .v(0).v(0).v(1).v(2).fields([B.text], (b) => b.v(textIndex)).v(0).bytes;

  assert.equal(decoder.decode(full(['Home'], 0)).nodes[1].text, 'Home');
  assert.deepEqual(decoder.strings, ['Home']);
  assert.equal(decoder.decode(delta(2, 1, ['Detail'], 1)).set[0].text, 'Detail');
  assert.equal(decoder.decode(delta(3, 2, ['About', 'Help'], 3)).set[0].text, 'Help');
  assert.equal(decoder.decode(delta(4, 4, [], 0)).set[0].text, 'Home', 'earlier strings stay named');
  assert.deepEqual(decoder.strings, ['Home', 'Detail', 'About', 'Help']);
  // A new full frame starts a new table: index 1 no longer names anything.
  assert.equal(decoder.decode(full(['Fresh'], 0)).nodes[1].text, 'Fresh');
  assert.deepEqual(decoder.strings, ['Fresh']);
  assert.throws(() => decoder.decode(delta(2, 1, [], 1)), (error) => error instanceof BinaryFrameError && error.code === 'string');
  // A delta whose strings do not continue our table: out of step, like a wrong base.
  for (const first of [0, 2]) {
    assert.throws(() => decoder.decode(delta(2, first, ['X'], 0)), (error) =>
      error instanceof StringTableError && error instanceof BinaryFrameError && error.code === 'table' &&
      error.resync === true && /continue a table of \d, we hold 1/.test(error.message));
  }
  assert.throws(() => decoder.decode(full(['A'], 0).map((byte, i) => (i === 3 ? 1 : byte))),
    (error) => error instanceof StringTableError, 'a full frame\'s first must be 0');
  assert.deepEqual(decoder.strings, ['Fresh'], 'refused frames leave the table as it was');
  decoder.reset();
  assert.throws(() => decoder.decode(delta(2, 0, [], 0)), (error) => error instanceof BinaryFrameError && error.code === 'base');
});

test('a delta\'s header counts back from the frame held: seq − base, then time since the base\'s', () => {
  const decoder = new FrameDecoder();
  decoder.decode(new Bytes().u8(1).v(299).v(58334).strings(0, []).list(1).layer(1, 0).fields([]).bytes);
  // Delta 300 (ac 02), 16.7 ms after its base (167 tenths: a7 01), based on 300 − 1.
  const header = [2, 0xAC, 0x02, 0xA7, 0x01, 0x01];
  const delta = Uint8Array.from([...header, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(decoder.decode(delta), { type: 'frame', seq: 300, time: 5850.1, base: 299 });
  // The same bytes again are based on 299, which is no longer the frame held: a wrong base.
  assert.throws(() => decoder.decode(delta), (error) => error instanceof BinaryFrameError && error.code === 'base' &&
    error.resync === true && /delta 300 is based on 299, we hold 300/.test(error.message));
  assert.throws(() => new FrameDecoder().decode(delta), (error) => error.code === 'base' && /we hold nothing/.test(error.message));
  assert.deepEqual(decoder.last, { seq: 300, time: 5850.1, input: null }, 'a refused frame leaves the frame held as it was');
});

test('a frame that throws half way leaves the string table untouched', () => {
  const decoder = new FrameDecoder();
  decoder.decode(fullExample());
  // New strings, then a layer naming string 99.
  const bytes = new Bytes().u8(2).v(2).v(0).v(1).strings(7, ['new']).v(0).v(0).v(1)
    .v(1).fields([B.name], (b) => b.v(99)).v(0).bytes;
  assert.throws(() => decoder.decode(bytes), (error) => error.code === 'string' && /string 99 is outside the table of 8/.test(error.message));
  assert.deepEqual(decoder.strings, STRINGS);
  assert.deepEqual(decodeFrame(fullExample(), ['ignored']).strings, STRINGS, 'decodeFrame leaves its table alone');
});

test('every frame cut short is refused as truncated', () => {
  const decoder = new FrameDecoder();
  const whole = fullExample();
  for (let length = 0; length < whole.length; length++) {
    assert.throws(() => decoder.decode(whole.subarray(0, length)),
      (error) => error instanceof BinaryFrameError && error.code === 'truncated', `cut at ${length}`);
  }
  decoder.decode(whole);
  const delta = new Bytes().u8(2).v(2).v(0).v(1).strings(7, ['x']).v(1).v(3).list(1).head(9, 35).v(0).fields([B.kind], (b) => b.u8(1))
    .v(1).v(1).fields([B.shadow], (b) => b.rgba(0, 0, 0, 0x33).c(8).c(-2).c(0)).v(1).v(35).v(2).v(9).v(1).bytes;
  for (let length = 0; length < delta.length; length++) {
    assert.throws(() => decoder.decode(delta.subarray(0, length)),
      (error) => error instanceof BinaryFrameError && error.code === 'truncated', `delta cut at ${length}`);
  }
  assert.equal(decoder.decode(delta).seq, 2);
});

test('unknown types, mask bits above 22, bad bytes and leftovers are refused', () => {
  const refused = (bytes, code) => assert.throws(() => new FrameDecoder().decode(Uint8Array.from(bytes)),
    (error) => error instanceof BinaryFrameError && error.code === code, `${code}: ${bytes}`);
  // A full frame of one layer: id 1 (z 2), the root, then the mask and values given.
  const layer = (maskBytes, values = []) => [1, 1, 0, 0, 0, 1, 2, 0, ...maskBytes, ...values];
  refused([1, 1, 0, 0, 0, 1, 1, 0, 0], 'id'); // z 1 is id -1
  refused([1, 1, 0, 0, 0, 1, 0, 0, 0], 'id'); // id 0
  refused([0, 1, 0, 0, 0, 0], 'type');
  refused([3, 1, 0, 0, 0, 0], 'type');
  refused([255], 'type');
  refused(layer(new Bytes().v(2 ** 23).out), 'mask'); // bit 23
  refused(layer(new Bytes().v(2 ** 23 + 2 ** 3).out, [0]), 'mask');
  refused(layer(new Bytes().v(2 ** 22).out, [2]), 'value'); // selected is 0 or 1
  assert.equal(new FrameDecoder().decode(Uint8Array.from(layer(new Bytes().v(2 ** 22).out, [1]))).nodes[0].selected, true);
  refused(layer(new Bytes().v(2 ** 19).v(2 ** 21).out), 'mask'); // a cleared mask naming scale
  refused(layer(new Bytes().v(2 ** 20).out, [2]), 'value'); // standby is 0 or 1
  assert.equal(new FrameDecoder().decode(Uint8Array.from(layer(new Bytes().v(2 ** 20).out, [1]))).nodes[0].standby, true);
  refused(layer(new Bytes().v(2 ** 31).out), 'mask');
  refused(layer(new Bytes().v(2 ** 19).v(2 ** 19).out), 'mask'); // a cleared mask naming bit 19
  refused(layer(new Bytes().v(2 ** 19 + 2 ** 7).v(2 ** 7).out, [1, 2, 3, 4]), 'mask'); // fill written and cleared
  refused(layer([1], [3]), 'value'); // kind 3
  refused(layer([0x40], [2]), 'value'); // clips 2
  refused(layer(new Bytes().v(2 ** 14).out, [3]), 'value'); // align 3
  refused(layer(new Bytes().v(2 ** 11).out, [0]), 'string'); // text 0 of an empty table
  refused([...layer([0]), 0], 'trailing');
  refused([1, 1, 0, 0, 1, 2, 0xC3, 0x28, 0], 'utf8'); // a string that is not UTF-8
  refused([1, ...new Bytes().v(2 ** 60).out, 0, 0, 0, 0], 'varint');
  refused([1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], 'varint'); // 11 bytes
  refused([1, 1, 0, 0, 0, 200], 'truncated'); // a count larger than what is left
  assert.throws(() => new FrameDecoder().decode('text'), (error) => error.code === 'input');
});

// Templates (feature `templates`): a TEMPLATES part after the strings, and INSERTs of kind 3.

/** A decoder that reads TEMPLATES, holding §3.5's full frame (with an empty table), and the tree it drew. */
function withTemplates() {
  const decoder = new FrameDecoder();
  decoder.withTemplates = true;
  const tree = new LayerTree();
  assert.equal(tree.apply(decoder.decode(fullExample((b) => b.templates(0, [])))).ok, true);
  return { decoder, tree, held: (id) => tree.layer(id) };
}

/** Delta 2 on §3.5's full frame: TEMPLATES `first` and `entries`, no removes, then what `inserts` writes (a list). */
function templateDelta(first, entries, inserts = (b) => b.list(0)) {
  return inserts(new Bytes().u8(2).v(2).v(0).v(1).strings(STRINGS.length, []).templates(first, entries).v(0)).v(0).v(0).bytes;
}

test('templates: entries like a held layer, the defaults or an earlier entry; an insert of kind 3 is the whole layer', () => {
  const { decoder, tree, held } = withTemplates();
  // Delta 2 pops the page (1) and keeps its layers as entries, as the server does.
  const pop = new Bytes().u8(2).v(2).v(167).v(1).strings(STRINGS.length, ['chevron.right', 'Detail']) // strings 7, 8
    .templates(0, [
      [2 * 1, []], // 0: the page as held (before this delta's remove), nothing changed
      [2 * 4, [B.x], (b) => b.c(20)], // 1: its label, 20 from the left
      [0, [B.kind, B.w, B.h, B.icon], (b) => b.u8(2).c(8).c(14).v(7)], // 2: a chevron, from the defaults
      [1, [B.x], (b) => b.c(350)], // 3: like the entry just before (2), at x 350
      [7, [B.name], (b) => b.v(8)], // 4: like the entry 4 before this one (0), named Detail
    ])
    .v(1).v(1) // remove the page
    .v(0).v(0).v(0).bytes;
  const popped = decoder.decode(pop, held);
  assert.deepEqual(popped, { type: 'frame', seq: 2, time: 16.7, base: 1, remove: [1] }, 'entries are no part of the JSON form');
  const page = { kind: 'rect', frame: [0, 0, 390, 844], fill: '#FFFFFF', role: 'page', name: 'Home', vc: 'vc1' };
  const label = { kind: 'text', frame: [20, 0, 338, 44], text: 'General', font: { size: 17, weight: 400 }, color: '#000000', align: 'left' };
  const chevron = { kind: 'icon', frame: [0, 0, 8, 14], icon: 'chevron.right' };
  assert.deepEqual(decoder.templates, [page, label, chevron, { ...chevron, frame: [350, 0, 8, 14] }, { ...page, name: 'Detail' }],
    'entries are layers without a place: no id, parent or index');
  assert.equal(tree.apply(popped).ok, true);

  // Delta 3 pushes the page again from the table: what differs from each entry, nothing else.
  const push = new Bytes().u8(2).v(3).v(167).v(1).strings(9, []).templates(5, [])
    .v(0) // no removes
    .list(3)
    .head(60, 35).v(0 * 4 + 3).v(0).fields([B.x], (b) => b.c(390)) // like entry 0, coming in from the right
    .head(61, 60).v(0 * 4 + 3).v(1).fields([]) // like entry 1 as it is
    .head(62, 60).v(1 * 4 + 3).v(3).fields([B.y], (b) => b.c(15)) // like entry 3, 15 down
    .v(0).v(0).bytes;
  const pushed = decoder.decode(push, held);
  // The same insert as JSON (§3.5): each layer whole, defaults left out.
  const json = JSON.parse(`{"type":"frame","seq":3,"time":33.4,"base":2,"insert":[
    {"id":60,"parent":35,"index":0,"kind":"rect","frame":[390,0,390,844],"fill":"#FFFFFF","role":"page","name":"Home","vc":"vc1"},
    {"id":61,"parent":60,"index":0,"kind":"text","frame":[20,0,338,44],"text":"General","font":{"size":17,"weight":400},"color":"#000000","align":"left"},
    {"id":62,"parent":60,"index":1,"kind":"icon","frame":[350,15,8,14],"icon":"chevron.right"}]}`);
  assert.deepEqual(pushed, json);
  assert.equal(decoder.templates.length, 5, 'inserts leave the table as it is');
  assert.equal(tree.apply(pushed).ok, true);
  assert.deepEqual(tree.childIds(35), [60]);
  assert.deepEqual(tree.layer(61), { id: 61, parent: 60, ...label });
});

test('templates: a full frame\'s entries (first 0) are the whole table, a delta\'s are appended, a reset forgets them', () => {
  const { decoder, held } = withTemplates();
  decoder.decode(templateDelta(0, [[2 * 3, []]]), held);
  assert.deepEqual(decoder.templates, [{ kind: 'rect', frame: [0, 20, 390, 44], fill: '#FFFFFF', role: 'row', name: 'General' }]);
  // A text from the defaults starts with the body font, left-aligned; the second is like it.
  const full = fullExample((b) => b.templates(0, [
    [0, [B.kind, B.w, B.text], (v) => v.u8(1).c(100).v(S.Home)],
    [1, [B.text, B.align], (v) => v.v(S.General).u8(1)],
  ]));
  decoder.decode(full, held);
  const text = { kind: 'text', frame: [0, 0, 100, 0], text: 'Home', font: { size: 17, weight: 400 }, align: 'left' };
  const centred = { ...text, text: 'General', align: 'center' };
  assert.deepEqual(decoder.templates, [text, centred], 'the row entry is gone');
  // The next delta continues the new table of two, and may insert like an entry it adds itself.
  const next = decoder.decode(templateDelta(2, [[3, [B.font], (v) => v.c(13).v(600)]], (b) => b.list(2)
    .head(9, 35).v(1 * 4 + 3).v(1).fields([])
    .head(10, 35).v(2 * 4 + 3).v(2).fields([B.y], (v) => v.c(44))), held);
  assert.deepEqual(next.insert, [
    { id: 9, parent: 35, index: 1, ...centred },
    { id: 10, parent: 35, index: 2, ...text, frame: [0, 44, 100, 0], font: { size: 13, weight: 600 } },
  ]);
  assert.equal(decoder.templates.length, 3);
  // A delta that adds no entry has no TEMPLATES part (type 2) and keeps the table; a full frame
  // without one (type 1) empties it.
  const plainDelta = new Bytes().u8(2).v(3).v(0).v(1).strings(STRINGS.length, []).v(0).list(1)
    .head(11, 35).v(3 * 4 + 3).v(0).fields([]).v(0).v(0).bytes;
  assert.deepEqual(decoder.decode(plainDelta, held).insert, [{ id: 11, parent: 35, index: 3, ...text }]);
  assert.equal(decoder.templates.length, 3);
  decoder.decode(fullExample(), held);
  assert.deepEqual(decoder.templates, []);
  decoder.reset();
  assert.deepEqual([decoder.templates, decoder.withTemplates], [[], true], 'the tables go with the picture; the feature stays');
});

test('templates: a table out of step, kind 3 without the feature, an entry or a template that is not there are refused', () => {
  const { decoder, held } = withTemplates();
  const refused = (bytes, code, pattern, message) => assert.throws(() => decoder.decode(bytes, held),
    (error) => error instanceof BinaryFrameError && error.resync === true && error.code === code && pattern.test(error.message), message);
  // Out of step, like a wrong base: a delta that continues another table, a full frame not starting one.
  refused(templateDelta(1, []), 'table', /its templates continue a table of 1, we hold 0/, 'a delta\'s first');
  assert.throws(() => decoder.decode(templateDelta(1, []), held), TemplateTableError);
  // A full frame's table may start past 0 (the server's, when we joined): nothing below is ours.
  const joined = withTemplates();
  joined.decoder.decode(fullExample((b) => b.templates(2, [])), joined.held);
  assert.deepEqual(joined.decoder.templates, [null, null]);
  assert.throws(() => joined.decoder.decode(templateDelta(2, [[1, []]]), joined.held),
    (error) => error.code === 'template' && /the entry 1 before it/.test(error.message), 'an entry like one we were never sent');
  assert.throws(() => joined.decoder.decode(templateDelta(2, [], (b) => b.list(1).head(9, 35).v(3).v(1).fields([])), joined.held),
    (error) => error.code === 'template' && /template 1, which came before our full frame's/.test(error.message), 'an insert like one');
  assert.equal(joined.decoder.decode(templateDelta(2, [[0, [B.w], (v) => v.c(5)]], (b) => b.list(1).head(9, 35).v(3).v(2).fields([])), joined.held)
    .insert[0].frame[2], 5, 'entries after the first are ours');
  // The index counts this frame's entries, and nothing past them.
  const insertLike = (index) => (b) => b.list(1).head(9, 35).v(3).v(index).fields([]);
  refused(templateDelta(0, [[0, []]], insertLike(1)), 'template', /template 1, outside the table of 1/, 'an index past the table');
  refused(templateDelta(0, [], insertLike(0)), 'template', /outside the table of 0/, 'an empty table');
  // An entry like something that is not there.
  refused(fullExample((b) => b.templates(0, [[2 * 35, []]])), 'template', /a full frame has no base/, 'an even from in a full frame');
  refused(templateDelta(0, [[2 * 99, []]]), 'like', /template 0 is written like layer 99, which is not held/, 'a layer not held');
  refused(templateDelta(0, [[0, []], [3, []]]), 'template', /the entry 2 before it, and the table holds 1/, 'an entry not there');
  refused(templateDelta(0, [[2 * 1, [], undefined, [B.w]]]), 'mask', /a template clears its frame/, 'a template without a frame');
  assert.deepEqual([decoder.templates, decoder.last.seq], [[], 1], 'refused frames leave the table as it was');
  // Every cut of a frame with templates is a frame that ends early.
  const whole = templateDelta(0, [[2 * 4, [B.x], (v) => v.c(20)], [1, []]], insertLike(1));
  for (let length = 0; length < whole.length; length++) {
    refused(whole.subarray(0, length), 'truncated', /ends early/, `cut at ${length}`);
  }
  assert.equal(decoder.decode(whole, held).insert[0].frame[0], 20);

  // Without the feature the same bytes have no TEMPLATES part, and kind 3 is none.
  const plain = new FrameDecoder();
  plain.decode(fullExample());
  const kind3 = new Bytes().u8(2).v(2).v(0).v(1).strings(STRINGS.length, []).v(0).list(1).head(9, 35).v(3).v(0).fields([]).v(0).v(0).bytes;
  assert.throws(() => plain.decode(kind3, held), (error) => error instanceof BinaryFrameError && error.code === 'value' &&
    /insert 9 of kind 3, which needs the feature templates/.test(error.message));
  assert.throws(() => plain.decode(fullExample((b) => b.templates(0, []))), BinaryFrameError, 'a TEMPLATES part is misread as the body');
});
