// Plays protocol v2 frames on the viewer's own clock (docs/protocol.md §3.7, feature `timelines`):
// holds the pictures the server sent, each with the session time it is due at, and gives the
// display the one due now, or one in between two neighbours on a display faster than the
// session's frames. No DOM: the clock, the timer and what to do when the picture will change come
// in from outside, so node tests drive it with fake ones.
//
// It has two faces, and app.js hands the same object to both:
// - the connection's: `apply(frame, {arrival, timeline})` takes each frame in arrival order into
//   `received`, the newest picture (binary frames decode against it), and `picture(seq)` gives a
//   held picture a cut's binary delta is read against;
// - the display's: `nodes(now)`, `seq`, `order`, `byId`, `layer`, `childIds` and `rootId`, as
//   tree.js has them, for the picture drawn now.
//
// Rules (§3.7), and how we read what the spec leaves open:
// - Session time maps to local time by one offset: a picture is due at `time + offset`. A frame
//   due when made (one outside a timeline, or a timeline's first) is due on arrival: the spec's
//   offset, the smallest `arrival − time` over recent such frames moved later by one that arrives
//   after its due time, comes to this frame's own `arrival − time` either way (earlier than the
//   smallest, it is the new smallest; later, it moves the offset to itself). The frames after it
//   in its timeline are due at their distances after it, so a motion starts when its first
//   picture arrives and then runs at its own pace however its bytes were delayed.
// - A frame based on a picture still waiting to be shown was not due when made (the next
//   pictures of a motion, sent before the viewer runs out): it leaves the offset alone.
// - A picture is never drawn before its due time. Between two held pictures at most
//   INTERPOLATED_GAP_MS apart the display gets frame, alpha, corner radius and scale in between,
//   for the layers both hold under the same parent; farther apart, the picture holds still (the
//   server sent nothing because nothing moved).
// - Frames are kept in seq order, and a frame timed before pictures still to come (which the
//   server does not send) makes them go, so a later frame is never followed by an earlier one.
// - A cut: a delta whose base is a held picture older than the newest voids every picture after
//   its base; its picture is the base's with the delta applied. A base not held is a wrong base
//   (the frame is refused and the connection asks for a full frame).
// - Held pictures: the latest HELD_PICTURES, and all of the latest timeline with the frame before
//   it. A picture is a tree.js snapshot, which shares every layer the next frame leaves alone.
// - Pointer bindings (§3.8): while a pointer is held, the picture due now goes through
//   `bindings.picture` (bindings.js), which moves the layers it binds with the pointer's moves
//   that picture's frame does not show yet. The pointer's moves wake the display themselves.

import { LayerTree } from './tree.js';

/**
 * Pictures held for a cut to go back to: the server names as a base only one of the last 24
 * frames it sent, and a timeline holds at most 24 (with the frame before it, 25).
 */
const HELD_PICTURES = 25;
/**
 * Two pictures at most this far apart (session ms) are interpolated: the ticks of a motion are a
 * frame apart (16.7 ms at 60 fps), two or three when the server's clock stumbled.
 */
const INTERPOLATED_GAP_MS = 50;
/** A change due sooner than this (ms) is waited for display frame by display frame, a later one by a timer. */
const FRAME_BY_FRAME_MS = 20;
/**
 * Slack (ms) in comparing due times: `time + (arrival − time)` need not come back to `arrival`
 * exactly in floating point, and a frame due on arrival must be drawn on arrival.
 */
const DUE_SLACK_MS = 0.001;
/** The numeric fields interpolated, with the value a layer has when it leaves one out. */
const INTERPOLATED_FIELDS = [['alpha', 1], ['radius', 0], ['scale', 1]];

/**
 * The pictures of a v2 session, played on the viewer's clock.
 */
export class Playout {
  /**
   * @param {object} [options]
   * @param {() => number} [options.clock] local time in ms (performance.now()'s clock).
   * @param {() => void} [options.wake] called when the picture drawn should change: the display
   *   asks for a draw (requestAnimationFrame), which reads `nodes(now)`.
   * @param {(run: () => void, ms: number) => any} [options.setTimer]
   * @param {(handle: any) => void} [options.clearTimer]
   * @param {{picture: (tree: LayerTree) => LayerTree}|null} [options.bindings] what the picture due
   *   now is drawn through (bindings.js's PointerBindings), or null.
   */
  constructor({
    clock = () => performance.now(), wake = () => {},
    setTimer = (run, ms) => setTimeout(run, ms), clearTimer = (handle) => clearTimeout(handle),
    bindings = null,
  } = {}) {
    Object.assign(this, { clock, wake, setTimer, clearTimer, bindings });
    this.timer = null;
    this.reset();
  }

  /** Forgets every picture, so the next frame must be a full one. */
  reset() {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    /** @type {LayerTree} the newest picture received: frames apply to it, binary ones decode against it. */
    this.received = new LayerTree();
    /** @type {{seq: number, time: number, tree: LayerTree}[]} held, in seq order. */
    this.pictures = [];
    /** Index in `pictures` of the picture shown (the one due last), -1 before any. */
    this.shown = -1;
    /** @type {number|null} local time − session time (ms), null before the first frame. */
    this.offset = null;
    /** The seq of the latest timeline's first frame (null before any). */
    this.timelineStart = null;
    /** @type {LayerTree} the picture due now: a held one, or one interpolated between two. */
    this.duePicture = new LayerTree();
    /** @type {LayerTree} what the display reads: `duePicture`, or that moved by the pointer's bindings. */
    this.view = this.duePicture;
    /** The pictures and fraction `view` shows, so that the same instant gives the same object. */
    this.viewOf = null;
    /** The interpolation between two pictures, worked out once: which layers change. */
    this.pair = null;
    /** The latest time presented: the display's clock never goes back. */
    this.presentedAt = -Infinity;
  }

  // The connection's face.

  /**
   * Applies one frame as it arrives (a timeline's frames one by one, in order).
   * @param {object} frame a v2 frame (parsed JSON, or binary.js's decoding).
   * @param {object} [context]
   * @param {number} [context.arrival] local time the message arrived.
   * @param {{index: number, count: number}|null} [context.timeline] its place in a timeline, or
   *   null for a frame sent alone.
   * @returns {object} tree.js's result, with `voided`: how many pictures a cut voided (and
   *   `skipped` counting from the newest received, not from the cut's base).
   */
  apply(frame, { arrival = this.clock(), timeline = null } = {}) {
    // A cut: the delta goes onto a copy of its base's picture, and the pictures after it go only
    // once it applied, so a refused frame leaves everything as it was.
    const held = this.received.seq !== null && !frame.full && frame.base !== this.received.seq
      ? this.pictures.findIndex((picture) => picture.seq === frame.base) : -1;
    const tree = held >= 0 ? this.pictures[held].tree.snapshot() : this.received;
    const result = tree.apply(frame);
    if (!result.ok) return result;
    let voided = 0;
    let skipped = result.skipped;
    if (held >= 0) {
      skipped = Math.max(0, frame.seq - this.received.seq - 1);
      voided = this.pictures.length - held - 1;
      this.pictures.length = held + 1;
      this.shown = Math.min(this.shown, held);
      this.viewOf = null;
    }
    this.received = tree;

    const newest = this.pictures.at(-1);
    const first = timeline === null || timeline.index === 0;
    const continues = held < 0 && !frame.full && newest?.seq === frame.base && this.pending(newest, arrival);
    if ((first && !continues) || this.offset === null) this.offset = arrival - frame.time;
    // Pictures still to come that this one is timed before would show after it.
    while (this.pictures.length - 1 > this.shown && this.pictures.at(-1).time > frame.time) this.pictures.pop();
    this.pictures.push({ seq: frame.seq, time: frame.time, tree: tree.snapshot() });
    if (timeline?.index === 0) this.timelineStart = frame.seq;
    this.prune();

    const before = this.view;
    this.present(arrival);
    if (this.view !== before) this.wake();
    this.schedule(arrival);
    return { ...result, skipped, voided };
  }

  /**
   * A held picture, for a binary delta based on it (a cut): its time and layers.
   * @param {number} seq
   * @returns {{time: number, input: number|null, layer: (id: number) => object|undefined}|undefined}
   */
  picture(seq) {
    const picture = this.pictures.find((held) => held.seq === seq);
    return picture && { time: picture.time, input: picture.tree.input, layer: (id) => picture.tree.layer(id) };
  }

  /**
   * Forgets which input every held picture shows, and their bindings: a new connection numbers
   * its input from 1 again (§3.8), and a resumed delta without `input` would otherwise show an
   * old connection's number.
   */
  forgetInput() {
    this.received.forgetInput();
    for (const picture of this.pictures) picture.tree.forgetInput();
    this.viewOf = null;
  }

  // The display's face: the picture drawn now.

  /**
   * The display items of the picture due at `now` (tree.js's `nodes`). Without a time, the
   * picture last presented.
   * @param {number} [now] local time of the display frame being drawn.
   */
  nodes(now) {
    if (now !== undefined) {
      this.present(now);
      this.schedule(now);
    }
    return this.view.nodes();
  }

  /** @returns {number|null} the seq of the picture drawn (the earlier one while in between two). */
  get seq() { return this.view.seq; }
  /** @returns {number|null} the number of the last input the picture drawn shows (§3.8). */
  get input() { return this.view.input; }
  get order() { return this.view.order; }
  get byId() { return this.view.byId; }
  get rootId() { return this.view.rootId; }
  layer(id) { return this.view.layer(id); }
  childIds(id) { return this.view.childIds(id); }

  // Inside.

  /** Local time at which `picture` is due. */
  due(picture) {
    return picture.time + this.offset;
  }

  /** Whether `picture` is not due yet at `now`. */
  pending(picture, now) {
    return this.offset !== null && this.due(picture) > now + DUE_SLACK_MS;
  }

  /** Makes `view` the picture due at `now`: the last one due, or one between it and the next. */
  present(now) {
    now = Math.max(now, this.presentedAt);
    this.presentedAt = now;
    let shown = this.shown;
    while (shown + 1 < this.pictures.length && !this.pending(this.pictures[shown + 1], now)) shown++;
    this.shown = shown;
    if (shown < 0) return;
    const from = this.pictures[shown];
    const to = this.pictures[shown + 1];
    let fraction = 0;
    if (to && to.time - from.time <= INTERPOLATED_GAP_MS && to.time > from.time) {
      fraction = Math.min(1, Math.max(0, (now - this.due(from)) / (to.time - from.time)));
    }
    const of = this.viewOf;
    if (!of || of.from !== from || (fraction === 0 ? of.fraction !== 0 : of.to !== to || of.fraction !== fraction)) {
      this.viewOf = { from, to, fraction };
      this.duePicture = fraction === 0 ? from.tree : this.between(from, to, fraction);
    }
    // Bindings move the picture with the pointer whether or not a new one fell due.
    this.view = this.bindings ? this.bindings.picture(this.duePicture) : this.duePicture;
  }

  /** The picture `fraction` of the way from `from` to `to`. */
  between(from, to, fraction) {
    if (this.pair?.from !== from || this.pair.to !== to) this.pair = { from, to, changes: changes(from.tree, to.tree) };
    const tree = from.tree.snapshot();
    tree.cache = null;
    for (const [id, a, b] of this.pair.changes) tree.layers.set(id, interpolated(a, b, fraction));
    return tree;
  }

  /** Asks to be woken when the picture will next change: display frame by frame, or by a timer. */
  schedule(now) {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    const to = this.pictures[this.shown + 1];
    if (!to) return;
    const from = this.pictures[this.shown];
    const moving = from && to.time - from.time <= INTERPOLATED_GAP_MS && now >= this.due(from);
    const wait = (moving ? now : this.due(to)) - now;
    if (wait <= FRAME_BY_FRAME_MS) {
      this.wake();
    } else {
      this.timer = this.setTimer(() => {
        this.timer = null;
        this.wake();
      }, wait - FRAME_BY_FRAME_MS / 2);
    }
  }

  /** Drops the pictures no cut can name any more (see HELD_PICTURES). */
  prune() {
    let drop = this.pictures.length - HELD_PICTURES;
    const start = this.pictures.findIndex((picture) => picture.seq === this.timelineStart);
    if (start >= 0) drop = Math.min(drop, start - 1);
    drop = Math.min(drop, this.shown);
    if (drop <= 0) return;
    this.pictures.splice(0, drop);
    this.shown -= drop;
  }
}

/**
 * The layers of `a` whose interpolated fields differ in `b`, under the same parent and with the
 * same standby: `[id, layer in a, layer in b]`. Layers a frame left alone are the same object in
 * both (tree.js never changes one in place), so most are passed over at a glance.
 */
function changes(a, b) {
  const out = [];
  for (const [id, from] of a.layers) {
    const to = b.layers.get(id);
    if (!to || to === from || to.parent !== from.parent || Boolean(to.standby) !== Boolean(from.standby)) continue;
    const moved = from.frame.some((value, i) => value !== to.frame[i]);
    if (moved || INTERPOLATED_FIELDS.some(([key, none]) => (from[key] ?? none) !== (to[key] ?? none))) out.push([id, from, to]);
  }
  return out;
}

/** Layer `a` with frame, alpha, radius and scale `fraction` of the way to `b`'s. */
function interpolated(a, b, fraction) {
  const layer = { ...a, frame: a.frame.map((value, i) => value + (b.frame[i] - value) * fraction) };
  for (const [key, none] of INTERPOLATED_FIELDS) {
    const from = a[key] ?? none;
    const to = b[key] ?? none;
    if (from !== to) layer[key] = from + (to - from) * fraction;
  }
  return layer;
}
