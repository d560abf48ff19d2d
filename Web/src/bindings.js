// Pointer bindings (docs/protocol.md §3.8, feature `timelines`): a frame made while the server
// holds a pan that follows the finger says where the layers the pan moves would be for any
// translation of the pan along its axis. While the pointer is held the viewer moves those layers with
// every local pointer move, at once, instead of waiting a round trip for the server's frame; each
// frame that arrives (showing a later move) replaces the local picture and is moved on from there.
// Pure: no DOM; the playout asks for the bound picture (`picture`), input.js and app.js report the
// pointer (`moved`, `sent`).
//
// How we read what the spec leaves open:
// - The bindings used are the picture drawn now's (the newest frame, while a pointer is held: the
//   server sends frames then, not timelines), applied to that picture.
// - The pan's translation is the pointer's position now less the bindings' `origin`, along the
//   axis. The position in the input message a frame names (the newest pointer message of the held
//   pointer numbered at most the frame's `input`) is used only to measure the reconciliation jump.
// - After `up` or `cancel` the viewer keeps drawing the picture bound at the pointer's last
//   position until a frame shows that input (its number or later): the frames still on their way
//   show moves the finger made before it lifted, and dropping the bindings at once would jump the
//   picture back by a round trip's travel before the server's release motion arrives.
// - Bindings that do not have the spec's shape (an unknown axis or field, travels not ascending,
//   a list of values of another length than the travels) are ignored, not a wrong base: the frame
//   itself is still good.

/** Pointer messages kept with their numbers: a few seconds of moves at one per display frame. */
const KEPT_MESSAGES = 512;
const AXES = new Set(['x', 'y']);
const FIELDS = new Set(['x', 'y', 'alpha']);

/**
 * A frame's bindings as the tree keeps them.
 * @typedef {{axis: 'x'|'y', origin: number[], travel: number[], layers: {id: number, field: 'x'|'y'|'alpha', values: number[]}[]}} Bindings
 */

/**
 * The bindings a frame carries: its `bind` (the string `"same"` for its base's), or null for none.
 * @param {unknown} bind the frame's `bind` member (parsed JSON, or binary.js's decoding).
 * @param {Bindings|null} base the bindings of the frame's base (null for a full frame).
 * @returns {Bindings|null}
 */
export function readBindings(bind, base) {
  if (bind === undefined || bind === null) return null;
  if (bind === 'same') return base;
  if (typeof bind !== 'object' || !AXES.has(bind.axis)) return null;
  const { origin, travel, layers } = bind;
  if (!Array.isArray(origin) || origin.length !== 2 || !origin.every(Number.isFinite)) return null;
  if (!Array.isArray(travel) || travel.length === 0 || !travel.every(Number.isFinite)) return null;
  if (travel.some((distance, i) => i > 0 && distance < travel[i - 1])) return null;
  if (!Array.isArray(layers)) return null;
  const out = [];
  for (const layer of layers) {
    if (!Number.isSafeInteger(layer?.id) || !FIELDS.has(layer.field)) return null;
    if (!Array.isArray(layer.values) || layer.values.length !== travel.length || !layer.values.every(Number.isFinite)) return null;
    out.push({ id: layer.id, field: layer.field, values: layer.values });
  }
  return { axis: bind.axis, origin, travel, layers: out };
}

/**
 * A bound field's value at translation `distance` along the axis: linear between two travels, the
 * end value beyond the first or last.
 * @param {number[]} travel ascending translations.
 * @param {number[]} values the field's value at each.
 * @param {number} distance
 */
export function valueAt(travel, values, distance) {
  const last = travel.length - 1;
  if (distance <= travel[0]) return values[0];
  if (distance >= travel[last]) return values[last];
  let i = 1;
  while (travel[i] < distance) i++;
  const [from, to] = [travel[i - 1], travel[i]];
  if (to === from) return values[i];
  return values[i - 1] + (values[i] - values[i - 1]) * ((distance - from) / (to - from));
}

/**
 * A bound layer's field as a layer holds it: its frame's x or y (in its parent's coordinates), or
 * its own alpha.
 */
export function fieldOf(layer, field) {
  if (field === 'x') return layer.frame[0];
  if (field === 'y') return layer.frame[1];
  return layer.alpha ?? 1;
}

/** The pan's translation along the bindings' axis with the pointer at `[x, y]`. */
export function translationOf(bindings, [x, y]) {
  return bindings.axis === 'x' ? x - bindings.origin[0] : y - bindings.origin[1];
}

/**
 * `tree` (a tree.js picture) with each layer its bindings move put where the pan's translation
 * `distance` puts it: a snapshot, the other layers shared. Alpha stays within 0 … 1.
 * @param {import('./tree.js').LayerTree} tree
 * @param {Bindings} bindings
 * @param {number} distance
 */
export function boundPicture(tree, bindings, distance) {
  const out = tree.snapshot();
  out.cache = null;
  for (const { id, field, values } of bindings.layers) {
    const layer = out.layers.get(id);
    if (!layer) continue;
    const value = valueAt(bindings.travel, values, distance);
    if (field === 'alpha') {
      out.layers.set(id, { ...layer, alpha: Math.min(1, Math.max(0, value)) });
    } else {
      const frame = [...layer.frame];
      frame[field === 'x' ? 0 : 1] = value;
      out.layers.set(id, { ...layer, frame });
    }
  }
  return out;
}

/**
 * The pointer held on this viewer and the numbered messages it sent, turned into the picture to
 * draw: the playout's picture with the bindings applied for the moves its frame does not show yet.
 */
export class PointerBindings {
  /**
   * @param {object} [options]
   * @param {() => void} [options.wake] asks for a draw (the pointer moved: the picture changes).
   * @param {(points: number) => void} [options.jumped] called when a frame for a later input
   *   replaces the local picture, with how far (points, the largest over the bound `x` and `y`)
   *   the server's layers are from where the local picture had them for that same input.
   */
  constructor({ wake = () => {}, jumped = () => {} } = {}) {
    Object.assign(this, { wake, jumped });
    this.reset();
  }

  /** Forgets the pointer and its messages: a new connection numbers its input from 1. */
  reset() {
    /** @type {number|null} the id of the pointer whose moves are bound, null when none is. */
    this.pointer = null;
    /** @type {number[]|null} its position now, viewport points. */
    this.position = null;
    /** @type {{input: number, x: number, y: number}[]} its numbered messages, oldest first. */
    this.sentPositions = [];
    /** @type {number} the number of its `down`. */
    this.downInput = Infinity;
    /** @type {number|null} the number of its `up` or `cancel`, once sent. */
    this.endedAt = null;
    /** The last picture bound, with its input and bindings: a later frame is measured against it. */
    this.last = null;
    /** The last bound picture made, with the picture and travel it came from. */
    this.cached = null;
  }

  /** Whether a pointer's moves are being bound (held, or lifted and not yet shown so). */
  get active() {
    return this.pointer !== null;
  }

  /**
   * A message as sent (with its `input` number, or without one when the session does not echo
   * them): a pointer's `down` starts binding it, its moves record where it was, `up` and `cancel`
   * end it.
   * @param {object} message
   */
  sent(message) {
    if (message.type !== 'pointer' || !Number.isSafeInteger(message.input)) return;
    const id = message.id ?? 1;
    if (message.phase === 'down') {
      // One pointer at a time, as the server follows one: another finger's down is ignored while
      // one is held (but not once the held one has lifted).
      if (this.pointer !== null && this.endedAt === null) return;
      this.reset();
      this.pointer = id;
      this.downInput = message.input;
    }
    if (id !== this.pointer || this.endedAt !== null) return;
    const [x, y] = message.samples?.length ? message.samples.at(-1) : [message.x, message.y];
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    this.sentPositions.push({ input: message.input, x, y });
    if (this.sentPositions.length > KEPT_MESSAGES) this.sentPositions.shift();
    if (message.phase === 'down' || message.phase === 'up' || message.phase === 'cancel') this.position = [x, y];
    if (message.phase === 'up' || message.phase === 'cancel') this.endedAt = message.input;
  }

  /**
   * The pointer moved on this viewer (before its move is sent): the picture follows at the next
   * draw.
   */
  moved(id, x, y) {
    if (id !== this.pointer || this.endedAt !== null) return;
    this.position = [x, y];
    this.wake();
  }

  /** Where the held pointer was in the newest of its messages numbered at most `input`, or null. */
  positionAt(input) {
    const positions = this.sentPositions;
    for (let i = positions.length - 1; i >= 0; i--) if (positions[i].input <= input) return positions[i];
    return null;
  }

  /**
   * The picture to draw for `tree`, the playout's picture due now: bound at the pointer's travel
   * since the input its frame shows, or `tree` itself. The same tree at the same travel gives the
   * same object, so a draw that changes nothing is no new picture.
   * @param {import('./tree.js').LayerTree} tree
   */
  picture(tree) {
    if (this.pointer === null) return tree;
    const input = tree.input;
    if (!Number.isSafeInteger(input)) return tree;
    this.reconcile(tree);
    if (this.endedAt !== null && input >= this.endedAt) {
      // The server has seen the pointer lift: its frames and timelines take over.
      this.reset();
      return tree;
    }
    const bindings = tree.bindings;
    // A frame from before this pointer's down shows another pan's bindings.
    if (!bindings || !this.position || input < this.downInput) return tree;
    const distance = translationOf(bindings, this.position);
    if (this.cached?.tree === tree && this.cached.distance === distance) return this.cached.picture;
    this.last = { input, tree, bindings };
    const picture = boundPicture(tree, bindings, distance);
    this.cached = { tree, distance, picture };
    return picture;
  }

  /**
   * A picture for a later input than the last one bound: how far its layers are from where the
   * last bindings put them for that input (the server's frame against the local guess).
   */
  reconcile(tree) {
    const last = this.last;
    if (!last || tree.input <= last.input) return;
    this.last = null;
    const now = this.positionAt(tree.input);
    if (!now) return;
    const distance = translationOf(last.bindings, [now.x, now.y]);
    let jump = null;
    for (const { id, field, values } of last.bindings.layers) {
      if (field === 'alpha') continue;
      const shown = tree.layer(id);
      if (!shown) continue;
      const local = valueAt(last.bindings.travel, values, distance);
      jump = Math.max(jump ?? 0, Math.abs(fieldOf(shown, field) - local));
    }
    if (jump !== null) this.jumped(jump);
  }
}
