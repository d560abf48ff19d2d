// Binary v2 frames assembled by hand for the viewer's tests (docs/protocol.md §3.6): varints,
// zig-zag, fixed point, layers, strings, templates and field masks, as the tests spell them; and
// timelines of whole frames (§3.7).
import { WIRE } from '../../../Web/src/wire-format.js';

/** Assembles a frame. Each method appends and returns `this`. */
export class Bytes {
  constructor() { this.out = []; }
  u8(...values) { this.out.push(...values); return this; }
  /** Unsigned LEB128, by arithmetic so that values past 2^31 work too. */
  v(value) {
    while (value >= 128) {
      this.out.push((value % 128) + 128);
      value = Math.floor(value / 128);
    }
    this.out.push(value);
    return this;
  }
  z(value) { return this.v(zigzag(value)); }
  /** Fixed point in hundredths (z of round(value × 100)). */
  c(value) { return this.z(Math.round(value * 100)); }
  rgba(r, g, b, a = 255) { return this.u8(r, g, b, a); }
  /** Starts a list of LAYERs or INSERTs: ids are differences from the previous one in the list. */
  list(count) { this.previous = 0; return this.v(count); }
  /** An INSERT's id (z of the difference) and parent (z of id − parent). */
  head(id, parent) {
    return this.id(id).z(id - parent);
  }
  /**
   * A full frame's LAYER: its id, then its parent (0 for the root, else z of id − parent, doubled,
   * plus 1 when it is written like the earlier layer `like`, whose id follows as z of id − like).
   */
  layer(id, parent, like) {
    this.id(id);
    if (!parent) return this.v(0);
    this.v(zigzag(id - parent) * 2 + (like ? 1 : 0));
    return like ? this.z(id - like) : this;
  }
  /** An id as z of the difference from the previous one in the list. */
  id(id) {
    this.z(id - (this.previous ?? 0));
    this.previous = id;
    return this;
  }
  strings(first, list) {
    this.v(first).v(list.length);
    for (const text of list) {
      const bytes = new TextEncoder().encode(text);
      this.v(bytes.length).u8(...bytes);
    }
    return this;
  }
  /**
   * TEMPLATES (feature `templates`): `first`, then each entry as [from, bits, values, cleared],
   * `from` being 0 (the defaults), 2n − 1 (the entry n before) or 2 × id (a held layer).
   */
  /** A TEMPLATES part; the frame's type (the first byte) then says one follows (+ 4). */
  templates(first, entries) {
    this.out[0] |= 4;
    this.v(first).v(entries.length);
    for (const [from, ...fields] of entries) this.v(from).fields(...fields);
    return this;
  }
  /** FIELDS: a mask from bit numbers, a cleared mask when given, then the values written by `values`. */
  fields(bits, values = () => {}, cleared = []) {
    let mask = bits.reduce((sum, bit) => sum + 2 ** bit, 0);
    if (cleared.length) mask += 2 ** 19;
    this.v(mask);
    if (cleared.length) this.v(cleared.reduce((sum, bit) => sum + 2 ** bit, 0));
    values(this);
    return this;
  }
  get bytes() { return Uint8Array.from(this.out); }
}

/** Zig-zag: 0, -1, 1, -2 … as 0, 1, 2, 3 … */
export function zigzag(value) {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

/**
 * A TIMELINE message (feature `timelines`, §3.7) of whole frames, each bytes or hex: the byte 8,
 * the count, the first frame as it is, then each next one as `continuing` writes it. Each next
 * frame must be the one after the frame before it, and a delta from it or a full frame.
 */
export function timelineBytes(frames) {
  const out = new Bytes().u8(WIRE.frameTypes.timeline).v(frames.length);
  let previous;
  for (const [index, frame] of frames.entries()) {
    const bytes = typeof frame === 'string' ? Uint8Array.from(Buffer.from(frame, 'hex')) : Uint8Array.from(frame);
    const { seq, back, next } = header(bytes);
    if (index > 0 && (seq !== previous + 1 || (back !== null && back !== 1))) {
      throw new Error(`frame ${seq} (back ${back}) cannot follow frame ${previous} in a timeline`);
    }
    out.u8(...(index === 0 ? bytes : next));
    previous = seq;
  }
  return out.bytes;
}

/** A whole frame as a timeline's next frame: without its `seq`, and a delta without its `back`. */
export function continuing(frame) {
  return header(Uint8Array.from(frame)).next;
}

/** A whole frame's seq and back (null in a full frame), and its bytes without them. */
function header(frame) {
  const varint = (at) => {
    let value = 0;
    for (let scale = 1; ; scale *= 128, at++) {
      value += (frame[at] % 128) * scale;
      if (frame[at] < 128) return { value, end: at + 1 };
    }
  };
  const seq = varint(1);
  const time = varint(seq.end);
  const delta = (frame[0] & 3) === WIRE.frameTypes.delta;
  const back = delta ? varint(time.end) : null;
  const next = [frame[0], ...frame.subarray(seq.end, time.end), ...frame.subarray(back?.end ?? time.end)];
  return { seq: seq.value, back: back?.value ?? null, next };
}
