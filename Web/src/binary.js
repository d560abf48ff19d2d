// Protocol v2 binary frames (docs/protocol.md §3.6) decoded into the very objects a v2 JSON
// frame parses to (§3.5), so tree.js has one input shape whatever the wire. Pure: no DOM, no I/O.
//
// How we read the parts the spec leaves open:
// - The string table belongs to the picture, not to the socket: the server keeps one table per
//   session and a delta's `first` is the table size at its base, so the table must survive a
//   reconnect that resumes with `lastSeq`. The connection keeps one decoder for as long as it
//   keeps its model, and resets both together. The template table (feature `templates`) works the
//   same way and lives beside it; whether frames carry it is the connection's welcome's to say.
// - A delta's header is relative to its base (seq − base, time since the base's time), so the
//   decoder also keeps the seq and time of the frame it decoded last, which is the frame the
//   client holds: a delta based on another frame is refused here (code `base`), as tree.js would,
//   unless the caller still holds that frame's picture (`earlier`: a cut, §3.7), whose time the
//   header then counts from and whose layers an INSERT or a template may be written like.
// - With the feature `timelines` (§3.8) a type plus 16 carries `input` after the header and
//   BINDINGS after the body. Binary writes `input` whenever the flag is set; JSON only when it
//   changed since the base, so the decoder leaves it out when it is the base's (the decoder keeps
//   the input of the frame held, and a cut's picture gives its own) and the frame comes out as its
//   JSON form. The flag is read whether or not the welcome listed the feature, like a TIMELINE.
// - A TIMELINE (feature `timelines`, §3.7) is frames back to back, each after the first without
//   `seq` and `back` (the frame before's seq plus one, and 1): `read` yields them one at a time,
//   and decodes the next only when asked for it, so that the caller applies each frame before
//   the next is read against the tree it leaves. The tables grow frame by frame, in arrival
//   order, whatever a later cut voids.
// - A frame is decoded whole before the tables change: a frame that throws half way leaves them
//   as they were.
// - A PATCH may change only some of x, y, w, h (one bit each). JSON always sends the whole
//   `frame`, which the decoder cannot complete without the tree, so a partial frame comes out as
//   `[x, null, null, h]`-style arrays; tree.js keeps the held value where a slot is null.
// - Refused like a frame that ends early (they mean a corrupt or out-of-step stream): a full
//   frame whose string table's `first` is not 0, bytes left over after the body, an INSERT of
//   kind 3 without the feature `templates`, a full frame's LAYER that is its own parent or is
//   written like a layer the frame has not sent before it, a template written like an entry or a
//   held layer that is not there (or like a held layer in a full frame, which has no base), an
//   INSERT naming a template outside the table or below a full frame's `first` (the entries
//   there were never sent to this client), a LAYER, INSERT or template that clears its
//   frame, a `kind`, `clips`, `standby`,
//   `selected` or `align` byte out of range, a BINDINGS axis or field byte out of range or a
//   binding of layer 0, a field both written and cleared, a cleared mask naming bit 19 (which
//   is no field) or a bit above 18 (`standby` and `scale` are values, never cleared), and varints
//   beyond 2^53 (no exact JS number).

import { WIRE } from './wire-format.js';

// The format's constants come from docs/wire/binary-v2.json (through wire-format.js); this module
// knows the layout (§3.6) and what the viewer makes of it.

/** Frame types: the first byte. */
const FULL = WIRE.frameTypes.full;
const DELTA = WIRE.frameTypes.delta;
/** Added to the type when a TEMPLATES part follows STRINGS (feature `templates` only): most frames add no entry. */
const TEMPLATES_FOLLOW = WIRE.frameTypes.templatesFollow;
/** The first byte of a TIMELINE message (feature `timelines`): a count, a frame, then the next ones. */
const TIMELINE = WIRE.frameTypes.timeline;
/** Added to the type when `input` follows the header and BINDINGS the body (feature `timelines`). */
const INPUT_FOLLOWS = WIRE.frameTypes.inputFollows;
/** BINDINGS' count for none, and for the base's. */
const BINDINGS_NONE = WIRE.bindings.none;
const BINDINGS_SAME = WIRE.bindings.same;
/** BINDINGS' axis and field bytes, as names by value. */
const BINDING_AXES = byValue(WIRE.bindings.axes);
const BINDING_FIELDS = byValue(WIRE.bindings.fields);

/** What follows an INSERT's index: the low bits of its `at` (§3.6). */
const INSERT_KINDS = 2 ** WIRE.insert.kindBits;
const INSERT_NEW = WIRE.insert.kinds.new;
const INSERT_LIKE = WIRE.insert.kinds.like;
const INSERT_MOVE = WIRE.insert.kinds.move;
const INSERT_TEMPLATE = WIRE.insert.kinds.template;
/** A full frame's LAYER's parent: twice the parent's zig-zag, plus this when a model's id follows. */
const LIKE_FLAG = WIRE.layerParent.likeFlag;
const FROM_DEFAULTS = WIRE.templates.fromDefaults;

const CLEARED_FOLLOWS = WIRE.fields.clearedFollows;
/** Masks are this wide: anything at or above names no field. */
const MASK_LIMIT = 2 ** WIRE.fields.maskBits;
/** The fields in bit order, the order their values follow the mask, each with its reader. */
const FIELDS = [...WIRE.fields.list]
  .sort((a, b) => a.bit - b.bit)
  .map((field) => ({ ...field, flag: 2 ** field.bit, read: valueReader(field) }));
const FRAME_BITS = FIELDS.reduce((bits, field) => (field.frame === undefined ? bits : bits | field.flag), 0);
/** Fields a `cleared` bit turns into null: every field below the cleared bit but the frame's four. */
const CLEARABLE = FIELDS.filter((field) => field.bit < CLEARED_FOLLOWS && field.frame === undefined);
/** What JSON leaves out of a layer when it holds the default (kind and frame it always carries). */
const LEFT_OUT = Object.entries(WIRE.defaults.layer).filter(([key]) => key !== 'kind' && key !== 'frame');
/** A layer's place in the tree: what a layer written like another does not take from it. */
const PLACE = new Set(['id', 'parent', 'index']);
const TIME_SCALE = WIRE.fixedPoint.tenths.scale;
/** A varint's bytes: each carries this many values, and one at or above it says more follow. */
const VARINT_BASE = 2 ** WIRE.varint.payloadBits;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A binary frame that cannot be applied: cut short, of an unknown type, naming a field or string
 * that does not exist. The connection treats it like a wrong base (it asks for a full frame).
 */
export class BinaryFrameError extends Error {
  /**
   * @param {string} message what was wrong, for the status line and logs.
   * @param {string} code `truncated`, `type`, `id`, `mask`, `string`, `value`, `varint`, `utf8`,
   *   `trailing`, `input`, `like`, `template`, `base` or `table`.
   */
  constructor(message, code) {
    super(message);
    this.name = 'BinaryFrameError';
    this.code = code;
    /** Like a wrong base: the picture cannot go on from here without a full frame. */
    this.resync = true;
  }
}

/**
 * A frame whose string table does not continue ours: a delta whose `first` is not the number of
 * strings we hold (we missed or refused a frame), or a full frame whose `first` is not 0.
 */
export class StringTableError extends BinaryFrameError {
  constructor(message) {
    super(message, 'table');
    this.name = 'StringTableError';
  }
}

/** The same for the template table (feature `templates`): its `first` does not continue ours. */
export class TemplateTableError extends BinaryFrameError {
  constructor(message) {
    super(message, 'table');
    this.name = 'TemplateTableError';
  }
}

/**
 * Decodes the binary frames of one stream, keeping its string and template tables between frames.
 */
export class FrameDecoder {
  constructor() {
    /** @type {string[]} the table the next delta continues. */
    this.strings = [];
    /**
     * Whether frames carry a TEMPLATES part: the welcome lists the feature `templates`. A server
     * that did not accept it sends none, so this is the welcome's to set, not the hello's.
     */
    this.withTemplates = false;
    /** @type {object[]} the template table the next delta continues (layers without a place). */
    this.templates = [];
    /**
     * @type {{seq: number, time: number, input: number|null}|null} the frame a delta's header is
     *   relative to, and the input it shows (§3.8).
     */
    this.last = null;
  }

  /**
   * Forgets the tables and the frame held: only a full frame can be decoded next. Whether frames
   * carry templates stays: the connection's welcome said so, not the picture.
   */
  reset() {
    this.strings = [];
    this.templates = [];
    this.last = null;
  }

  /** Forgets the input the frame held shows: a new connection numbers its input from 1 again. */
  forgetInput() {
    if (this.last) this.last = { ...this.last, input: null };
  }

  /**
   * Decodes one binary frame. A full frame replaces the tables, a delta appends to them; the
   * tables and the frame held change only when the whole frame decoded.
   * @param {ArrayBuffer|ArrayBufferView} data one WebSocket binary message.
   * @returns {object} `{type:'frame',seq,time,full:true,nodes}` or
   *   `{type:'frame',seq,time,base,set?,insert?,remove?,order?}` (empty parts left out, as in JSON).
   * @param {(id: number) => object|undefined} held the layers the client holds (its tree before
   *   this frame), which an INSERT or a template may be written like.
   * @param {(seq: number) => Picture|undefined} [earlier] the pictures held besides the last frame,
   *   which a cut's delta may be based on (§3.7).
   * @throws {BinaryFrameError} on anything that cannot be applied (see the codes there).
   */
  decode(data, held = () => undefined, earlier = noPictures) {
    return this.next(new Reader(toBytes(data)), held, earlier, true, false);
  }

  /**
   * The frames of one binary message, a frame or a TIMELINE of them (§3.7), one at a time: each
   * is decoded when the next is asked for, so the caller applies a frame to the tree `held` reads
   * before the frame after it is read (an INSERT may be written like a layer the frame before
   * inserted). Each frame's tables are kept as it decodes.
   * @param {ArrayBuffer|ArrayBufferView} data one WebSocket binary message.
   * @param {(id: number) => object|undefined} held the client's layers as they stand.
   * @param {(seq: number) => Picture|undefined} [earlier] as in `decode`.
   * @yields {{frame: object, bytes: number, timeline: {index: number, count: number}|null}} each
   *   frame as `decode` returns it, its size in the message (the first also carries the
   *   timeline's header), and its place in the timeline (null for a frame sent alone).
   * @throws {BinaryFrameError} from the first frame that cannot be read; the ones before it have
   *   been yielded.
   */
  *read(data, held = () => undefined, earlier = noPictures) {
    const reader = new Reader(toBytes(data));
    if (reader.bytes[0] !== TIMELINE) {
      const frame = this.decode(reader.bytes, held, earlier);
      yield { frame, bytes: reader.bytes.length, timeline: null };
      return;
    }
    reader.u8();
    const count = reader.count();
    if (count === 0) throw new BinaryFrameError('a timeline of no frames', 'value');
    for (let index = 0, start = 0; index < count; index++) {
      const frame = this.next(reader, held, earlier, index === count - 1, index > 0);
      yield { frame, bytes: reader.pos - start, timeline: { index, count } };
      start = reader.pos;
    }
  }

  /**
   * Decodes the frame at the reader's position and keeps its tables and header; `last`: the
   * message must end with it (checked before anything is kept); `continues`: a timeline's frame
   * after its first, which goes on from the frame decoded last (§3.7).
   */
  next(reader, held, earlier, last, continues) {
    const { frame, strings, templates, input } =
      readFrame(reader, this.strings, held, this.last, this.withTemplates ? this.templates : null, earlier, continues);
    if (last && !reader.atEnd()) throw trailing(frame.seq, reader);
    this.strings = strings;
    if (templates) this.templates = templates;
    this.last = { seq: frame.seq, time: frame.time, input };
    return frame;
  }
}

/**
 * A picture the client holds besides its last frame (a frame of a timeline a cut may go back to),
 * with the input it shows (§3.8).
 * @typedef {{time: number, input?: number|null, layer: (id: number) => object|undefined}} Picture
 */

function noPictures() {
  return undefined;
}

/**
 * Decodes one binary frame against a string table (and a template table), without changing them.
 * @param {ArrayBuffer|ArrayBufferView} data the message.
 * @param {string[]} table the strings held before this frame.
 * @param {(id: number) => object|undefined} held the client's layers before this frame.
 * @param {{seq: number, time: number, input?: number|null}|null} last the seq and time (ms, as
 *   JSON) of the frame the client holds, which a delta's header counts from, and the input it
 *   shows; null before any.
 * @param {object[]|null} templateTable the templates held before this frame, or null without the
 *   feature `templates` (no TEMPLATES part, and an INSERT of kind 3 is refused).
 * @param {(seq: number) => Picture|undefined} [earlier] other pictures a delta may be based on
 *   (a cut, §3.7): their time and layers stand in for `last` and `held`.
 * @returns {{frame: object, strings: string[], templates: object[]|null, input: number|null}} the
 *   frame (as FrameDecoder.decode), the tables to hold after it (templates null without the
 *   feature) and the input the frame shows (its own or its base's).
 * @throws {BinaryFrameError}
 */
export function decodeFrame(data, table, held = () => undefined, last = null, templateTable = null, earlier = noPictures) {
  const reader = new Reader(toBytes(data));
  const decoded = readFrame(reader, table, held, last, templateTable, earlier);
  if (!reader.atEnd()) throw trailing(decoded.frame.seq, reader);
  return decoded;
}

/**
 * `decodeFrame` from the reader's position, leaving the reader after the frame. `continues`: the
 * frame follows `last` in a timeline (§3.7), so its header leaves out `seq` and `back`.
 */
function readFrame(reader, table, held, last, templateTable, earlier, continues = false) {
  const first = reader.u8();
  const withInput = (first & INPUT_FOLLOWS) !== 0;
  const flagless = withInput ? first - INPUT_FOLLOWS : first;
  const withEntries = templateTable !== null && (flagless & TEMPLATES_FOLLOW) !== 0;
  const type = withEntries ? flagless - TEMPLATES_FOLLOW : flagless;
  if (type !== FULL && type !== DELTA) throw new BinaryFrameError(`unknown frame type ${first}`, 'type');
  // A timeline's next frame is the one after the frame before it, and a delta from it.
  const seq = continues ? last.seq + 1 : reader.varint();
  // A full frame's time is absolute; a delta's counts from its base's, which must be the frame
  // held, or a picture held for a cut, whose layers then are the ones the delta may name.
  let tenths = reader.varint();
  let base = null;
  let cut = false;
  let baseInput = null;
  if (type === DELTA) {
    base = continues ? last.seq : seq - reader.varint();
    let baseTime = last?.time;
    baseInput = last?.input ?? null;
    if (base !== last?.seq) {
      const picture = earlier(base);
      if (!picture) throw new BinaryFrameError(`delta ${seq} is based on ${base}, we hold ${last?.seq ?? 'nothing'}`, 'base');
      baseTime = picture.time;
      baseInput = picture.input ?? null;
      held = (id) => picture.layer(id);
      cut = true;
    }
    tenths += Math.round(baseTime * TIME_SCALE);
  }
  const time = tenths / TIME_SCALE;
  const input = withInput ? reader.varint() : baseInput;

  const strings = continueTable(reader, type, seq, table, 'string', StringTableError, false, cut);
  for (let n = reader.count(); n > 0; n--) strings.push(reader.string());
  const fields = new FieldReader(reader, strings);
  // Without entries a full frame empties the table and a delta keeps it.
  const templates = withEntries ? continueTable(reader, type, seq, templateTable, 'template', TemplateTableError, true, cut)
    : templateTable && (type === FULL ? [] : templateTable.slice());
  if (withEntries) {
    for (let n = reader.count(); n > 0; n--) {
      const from = reader.varint();
      templates.push(from === FROM_DEFAULTS ? fields.layer({}) : fields.like({}, entryModel(from, templates, type === FULL ? null : held)));
    }
  }

  let frame;
  if (type === FULL) {
    const nodes = [];
    const written = new Map();
    const ids = new IdReader(reader);
    for (let n = reader.count(); n > 0; n--) {
      const { layer, like } = ids.nextLayer();
      if (like === undefined) {
        nodes.push(fields.layer(layer));
      } else {
        // Written like an earlier layer of this frame: one that comes later is a corrupt stream.
        const model = written.get(like);
        if (!model) throw new BinaryFrameError(`layer ${layer.id} is written like layer ${like}, which the frame has not sent before it`, 'like');
        nodes.push(fields.like(layer, model));
      }
      written.set(layer.id, nodes.at(-1));
    }
    frame = { type: 'frame', seq, time, full: true };
    if (withInput) frame.input = input;
    frame.nodes = nodes;
  } else {
    frame = { type: 'frame', seq, time, base };
    if (withInput && input !== baseInput) frame.input = input;
    const remove = [];
    for (let n = reader.count(); n > 0; n--) remove.push(reader.varint());
    const insert = [];
    const inserted = new Map();
    const ids = new IdReader(reader);
    for (let n = reader.count(); n > 0; n--) {
      const layer = ids.next();
      // The index shifted past the kind of insert: a new layer, a new layer written like one the
      // client holds, a held layer moved here (nothing follows), a new layer written like a
      // template (with the feature only).
      const at = reader.varint();
      const kind = at % INSERT_KINDS;
      layer.index = Math.floor(at / INSERT_KINDS);
      if (kind === INSERT_MOVE) {
        if (layer.parent === undefined) throw new BinaryFrameError(`move of ${layer.id} without a parent`, 'id');
        layer.move = true;
        insert.push(layer);
        continue;
      }
      if (kind === INSERT_LIKE) {
        const modelId = layer.id - reader.zigzag();
        const model = inserted.get(modelId) ?? held(modelId);
        if (!model) throw new BinaryFrameError(`insert ${layer.id} is written like layer ${modelId}, which is not held`, 'like');
        insert.push(fields.like(layer, model));
      } else if (kind === INSERT_NEW) {
        insert.push(fields.layer(layer));
      } else if (kind === INSERT_TEMPLATE && templates) {
        // The entry's index in the table as it stands after this frame's entries.
        const index = reader.varint();
        if (index >= templates.length) throw new BinaryFrameError(`insert ${layer.id} is written like template ${index}, outside the table of ${templates.length}`, 'template');
        if (!templates[index]) throw new BinaryFrameError(`insert ${layer.id} is written like template ${index}, which came before our full frame's`, 'template');
        insert.push(fields.like(layer, templates[index]));
      } else {
        throw new BinaryFrameError(`insert ${layer.id} of kind ${kind}, which needs the feature templates`, 'value');
      }
      inserted.set(layer.id, insert.at(-1));
    }
    const set = [];
    for (let n = reader.count(); n > 0; n--) set.push(fields.patch({ id: reader.varint() }));
    const order = [];
    for (let n = reader.count(); n > 0; n--) {
      const id = reader.varint();
      const children = [];
      for (let c = reader.count(); c > 0; c--) children.push(reader.varint());
      order.push({ id, children });
    }
    // The key order of the server's JSON, each part left out when empty.
    if (set.length) frame.set = set;
    if (insert.length) frame.insert = insert;
    if (remove.length) frame.remove = remove;
    if (order.length) frame.order = order;
  }
  if (withInput) {
    const bind = readBindings(reader);
    if (bind !== undefined) frame.bind = bind;
  }
  return { frame, strings, templates, input };
}

/**
 * BINDINGS (§3.8): `"same"` for the base's, their JSON form, or undefined for none. Travel, x and
 * y in hundredths, alpha in thousandths (signed: a change).
 */
function readBindings(reader) {
  const count = reader.varint();
  if (count === BINDINGS_NONE) return undefined;
  if (count === BINDINGS_SAME) return 'same';
  // Each layer takes at least two bytes: a larger count is a frame cut short.
  if (count - 1 > reader.remaining()) throw truncated(reader.bytes.length);
  const axis = pick(BINDING_AXES, reader.u8(), 'axis');
  const origin = [reader.hundredths(), reader.hundredths()];
  const travel = [];
  for (let n = reader.count(); n > 0; n--) travel.push(reader.hundredths());
  const layers = [];
  for (let n = count - 1; n > 0; n--) {
    const id = reader.varint();
    if (id < WIRE.ids.min) throw new BinaryFrameError(`a binding of layer ${id} (ids start at 1)`, 'id');
    const field = pick(BINDING_FIELDS, reader.u8(), 'field');
    const scale = field === 'alpha' ? WIRE.fixedPoint.thousandths.scale : WIRE.fixedPoint.hundredths.scale;
    const values = travel.map(() => reader.zigzag() / scale);
    layers.push({ id, field, values });
  }
  return { axis, origin, travel, layers };
}

/** `{name: value}` as the names in order of value. */
function byValue(values) {
  const names = [];
  for (const [name, value] of Object.entries(values)) names[value] = name;
  return names;
}

function trailing(seq, reader) {
  return new BinaryFrameError(`frame ${seq}: ${reader.remaining()} bytes after the end of the frame`, 'trailing');
}

/**
 * What a template entry's FIELDS start from when its `from` is not 0 (the defaults): odd 2n − 1
 * the entry n before it (entries of this frame count), even 2 × id the layer id as the base frame
 * has it (the tree before this delta's removes, inserts and patches).
 * @param {object[]} templates the table so far, this frame's entries included.
 * @param {((id: number) => object|undefined)|null} held the client's layers; null in a full
 *   frame, which has no base.
 */
function entryModel(from, templates, held) {
  const entry = templates.length;
  if (from % 2 === 1) {
    const back = (from + 1) / 2;
    const model = templates[entry - back];
    if (!model) throw new BinaryFrameError(`template ${entry} is written like the entry ${back} before it, and the table holds ${entry}`, 'template');
    return model;
  }
  const id = from / 2;
  if (!held) throw new BinaryFrameError(`template ${entry} is written like layer ${id}, and a full frame has no base to hold it`, 'template');
  const model = held(id);
  if (!model) throw new BinaryFrameError(`template ${entry} is written like layer ${id}, which is not held`, 'like');
  return model;
}

/**
 * Reads a table's `first` (STRINGS, TEMPLATES) and returns the table the frame's entries go on: a
 * full frame starts a new one (its `first` is 0), a delta a copy of ours, which its `first` must
 * name the size of, or we are out of step.
 * @param {string} noun what the table holds, for the message.
 * @param {typeof BinaryFrameError} OutOfStep the error to throw.
 * @param {boolean} [startsAnywhere] a full frame's table may start past 0 (templates): the
 *   entries below its `first` are unknown (null), and the server never names them to us.
 */
function continueTable(reader, type, seq, table, noun, OutOfStep, startsAnywhere = false, rewinds = false) {
  const first = reader.varint();
  if (type === FULL && startsAnywhere) return new Array(first).fill(null);
  // A cut (§3.7) continues the table as it was at its base: what came after is sent again.
  if (type !== FULL && rewinds && first <= table.length) return table.slice(0, first);
  const expected = type === FULL ? WIRE.strings.fullFirst : table.length;
  if (first !== expected) {
    throw new OutOfStep(type === FULL
      ? `full frame ${seq}: its ${noun} table starts at ${first}, not ${expected}`
      : `delta ${seq}: its ${noun}s continue a table of ${first}, we hold ${table.length}`);
  }
  return type === FULL ? [] : table.slice();
}

/** The bytes of a WebSocket binary message as a Uint8Array (no copy). */
function toBytes(data) {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new BinaryFrameError('a binary frame must be an ArrayBuffer or a typed array', 'input');
}

/** The primitives of §3.6 read from a byte array; every read checks the end first. */
class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.pos = 0;
  }

  atEnd() {
    return this.pos === this.bytes.length;
  }

  remaining() {
    return this.bytes.length - this.pos;
  }

  u8() {
    if (this.pos >= this.bytes.length) throw truncated(this.pos);
    return this.bytes[this.pos++];
  }

  /**
   * Unsigned LEB128. Built with multiplication, not shifts: JS bit operators stop at 32 bits and
   * ids or times may pass 2^31. Values beyond 2^53 cannot be held exactly, so they are refused.
   */
  varint() {
    let value = 0;
    let scale = 1;
    for (let length = 1; ; length++) {
      const byte = this.u8();
      value += (byte % VARINT_BASE) * scale;
      if (byte < VARINT_BASE) break;
      scale *= VARINT_BASE;
      if (length === WIRE.varint.maxBytes) throw new BinaryFrameError(`a varint longer than ${length} bytes at byte ${this.pos}`, 'varint');
    }
    if (value > Number.MAX_SAFE_INTEGER) {
      throw new BinaryFrameError(`a varint too large for an exact number at byte ${this.pos}`, 'varint');
    }
    return value;
  }

  zigzag() {
    return unzigzag(this.varint());
  }

  /** Fixed point in hundredths. Dividing the integer gives the same double as JSON's decimal. */
  hundredths() {
    return this.zigzag() / WIRE.fixedPoint.hundredths.scale;
  }

  /**
   * A count of items that follow. Each item takes at least one byte, so a count larger than
   * what is left is a frame cut short (and no loop runs a billion times on a corrupt count).
   */
  count() {
    const count = this.varint();
    if (count > this.remaining()) throw truncated(this.bytes.length);
    return count;
  }

  string() {
    const length = this.varint();
    if (length > this.remaining()) throw truncated(this.bytes.length);
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    try {
      return utf8.decode(slice);
    } catch {
      throw new BinaryFrameError(`a string that is not UTF-8 at byte ${this.pos - length}`, 'utf8');
    }
  }

  /** `#RRGGBB`, or `#RRGGBBAA` when not opaque, upper case: what JSON frames carry. */
  color() {
    const r = this.u8(), g = this.u8(), b = this.u8(), a = this.u8();
    return `#${hex(r)}${hex(g)}${hex(b)}${a === WIRE.colour.opaque ? '' : hex(a)}`;
  }
}

/** Zig-zag: 0, 1, 2, 3 … are 0, -1, 1, -2 …; arithmetic, not shifts, as in `varint`. */
function unzigzag(value) {
  return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
}

function hex(byte) {
  return byte.toString(16).toUpperCase().padStart(2, '0');
}

function truncated(at) {
  return new BinaryFrameError(`the frame ends early (at byte ${at})`, 'truncated');
}

/**
 * Reads the id and parent that start a LAYER or INSERT: the id as a zig-zag difference from the
 * previous one in the same list (from 0 for the first), the parent as the zig-zag of
 * (id − parent), 0 for the root (which JSON writes without a parent).
 */
class IdReader {
  constructor(reader) {
    this.reader = reader;
    this.previous = 0;
  }

  /** An INSERT's id and parent. */
  next() {
    const layer = { id: this.id() };
    const back = this.reader.zigzag();
    if (back !== 0) layer.parent = layer.id - back;
    return layer;
  }

  /**
   * A full frame's LAYER: its parent's zig-zag is doubled, plus 1 when the layer is written like
   * an earlier one of the frame, whose id follows as the zig-zag of (id − its id).
   * @returns {{layer: object, like: number|undefined}} the layer's id and parent, and the model's id.
   */
  nextLayer() {
    const layer = { id: this.id() };
    const parent = this.reader.varint();
    if (parent === 0) return { layer };
    const back = unzigzag(Math.floor(parent / 2));
    if (back === 0) throw new BinaryFrameError(`layer ${layer.id} is its own parent`, 'id');
    layer.parent = layer.id - back;
    return { layer, like: parent % 2 === LIKE_FLAG ? layer.id - this.reader.zigzag() : undefined };
  }

  id() {
    const id = this.previous + this.reader.zigzag();
    if (!Number.isSafeInteger(id) || id < WIRE.ids.min) throw new BinaryFrameError(`layer id ${id} (ids start at 1)`, 'id');
    this.previous = id;
    return id;
  }
}

/** Reads FIELDS (a mask, maybe a cleared mask, then values in bit order) into layer objects. */
class FieldReader {
  constructor(reader, strings) {
    this.reader = reader;
    this.strings = strings;
  }

  /**
   * A LAYER, INSERT or template (`layer` then has no id): fields over the defaults. `kind` and
   * `frame` are always written out, as JSON does, and a text layer's `font` and `align`; alpha,
   * clips and radius only when the mask carries them.
   */
  layer(layer) {
    const fields = this.whole(layer);
    // The defaults first, so the keys come in JSON's order (id, parent, index, kind, frame, …).
    const out = Object.assign(layer, { kind: 'rect', frame: null }, fields);
    // Components the mask left out are the default 0.
    out.frame = fields.frame === undefined ? [0, 0, 0, 0] : fields.frame.map((v) => v ?? 0);
    // Text layers start from the body font, left-aligned (every text node has both).
    if (out.kind === 'text') {
      for (const [key, value] of Object.entries(WIRE.defaults.text)) {
        if (out[key] === undefined) out[key] = structuredClone(value);
      }
    }
    return out;
  }

  /**
   * A LAYER, INSERT or template written like `model` (a layer or a template): the model's fields
   * (not its place in the tree), then what the mask changes or clears. Defaults are left out, as
   * JSON leaves them out.
   */
  like(layer, model) {
    const fields = this.whole(layer);
    const out = Object.assign(layer, { kind: model.kind, frame: [...model.frame] });
    for (const [key, value] of Object.entries(model)) {
      if (!(key in out) && !PLACE.has(key)) out[key] = value;
    }
    for (const [key, value] of Object.entries(fields)) {
      if (key === 'frame') value.forEach((component, i) => { if (component !== null) out.frame[i] = component; });
      else if (value === null) delete out[key];
      else out[key] = value;
    }
    for (const [key, value] of LEFT_OUT) if (out[key] === value) delete out[key];
    return out;
  }

  /**
   * The FIELDS of a whole layer, which cannot clear its frame: a layer has one, and a template
   * without one would break every insert written like it.
   */
  whole(layer) {
    const fields = this.fields();
    if (fields.frame === null) {
      throw new BinaryFrameError(`${layer.id === undefined ? 'a template' : `layer ${layer.id}`} clears its frame`, 'mask');
    }
    return fields;
  }

  /** A PATCH: only the fields its mask names (`null` for the cleared ones). */
  patch(patch) {
    return Object.assign(patch, this.fields());
  }

  /**
   * The fields of one mask as an object in bit order. A frame component not in the mask is null
   * in the `frame` array (see the header); a cleared field is null.
   */
  fields() {
    const r = this.reader;
    const mask = r.varint();
    if (mask >= MASK_LIMIT) throw new BinaryFrameError(`field mask ${mask.toString(2)} names bits above ${WIRE.fields.maskBits - 1}`, 'mask');
    let cleared = 0;
    if (mask & 2 ** CLEARED_FOLLOWS) {
      cleared = r.varint();
      if (cleared >= 2 ** CLEARED_FOLLOWS) {
        throw new BinaryFrameError(`cleared mask ${cleared.toString(2)} names bits above ${CLEARED_FOLLOWS - 1}`, 'mask');
      }
      if (cleared & mask) {
        throw new BinaryFrameError(`fields both written and cleared (bits ${(cleared & mask).toString(2)})`, 'mask');
      }
    }
    const out = {};
    for (const field of FIELDS) {
      if (!(mask & field.flag)) continue;
      const value = field.read(this);
      if (field.frame === undefined) out[field.name] = value;
      else (out.frame ??= [null, null, null, null])[field.frame] = value;
    }
    if (cleared) {
      // A frame cannot go away; a cleared component says the stream is not what we think, and
      // tree.js refuses a null frame.
      if (cleared & FRAME_BITS) out.frame = null;
      for (const field of CLEARABLE) if (cleared & field.flag) out[field.name] = null;
    }
    return out;
  }

  string() {
    const index = this.reader.varint();
    if (index >= this.strings.length) {
      throw new BinaryFrameError(`string ${index} is outside the table of ${this.strings.length}`, 'string');
    }
    return this.strings[index];
  }
}

function pick(names, value, field) {
  if (value >= names.length) throw new BinaryFrameError(`${field} byte ${value} names no ${field}`, 'value');
  return names[value];
}

/** A byte that must be 0 or 1. */
function bit(value, field) {
  if (value > 1) throw new BinaryFrameError(`${field} byte ${value} is neither 0 nor 1`, 'value');
  return value;
}

/**
 * How to read a field's value, or one part of it, as its type says (`types` in wire-format.js):
 * a function of the FieldReader, whose bytes are next.
 */
function valueReader(field) {
  const fixed = WIRE.fixedPoint[field.type];
  if (fixed) return fixed.signed ? (f) => f.reader.zigzag() / fixed.scale : (f) => f.reader.varint() / fixed.scale;
  switch (field.type) {
    case 'enum': {
      const names = WIRE.enums[field.enum];
      return (f) => pick(names, f.reader.u8(), field.name);
    }
    case 'bool': return (f) => bit(f.reader.u8(), field.name) === 1;
    // 1: the selected tab; 0: no longer selected, JSON's null.
    case 'selected': return (f) => (bit(f.reader.u8(), field.name) === 1 ? true : null);
    case 'colour': return (f) => f.reader.color();
    case 'string': return (f) => f.string();
    case 'varint': return (f) => f.reader.varint();
    case 'object': {
      const parts = field.parts.map((part) => [part.name, valueReader(part)]);
      return (f) => {
        const out = {};
        for (const [name, read] of parts) out[name] = read(f);
        return out;
      };
    }
    default: throw new Error(`wire-format.js: field ${field.name} has the unknown type ${field.type}`);
  }
}
