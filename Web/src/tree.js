// The protocol v2 model (docs/protocol.md §3.5): the viewer's copy of the server's layer tree,
// flattened on demand into the same display items the v1 model (delta.js) holds, so the
// renderer, the inspector and the HUD read either model the same way. Pure: no DOM, no I/O.
//
// Rules we apply, and how we read the parts the spec leaves open:
// - A full frame replaces everything. Its first layer is the root (no `parent`); every other
//   layer names a parent listed before it (pre-order), and a parent's children come in the order
//   listed (back to front).
// - A delta applies only to the frame it names in `base` (as in v1); otherwise the model is left
//   untouched and `apply` reports `resync`.
// - Order of work: the moved layers (`"move":true` in `insert`) leave their parents with their
//   subtrees, then `remove` (whole subtrees, which no longer hold the moved layers), `insert` in
//   the order listed at `index` among the parent's children (a move puts the held layer there),
//   `set`, then `order`. An `index` past the end of the parent's children at that moment, an
//   insert of an id we hold, a parent we do not hold, a move of a layer we do not hold (or that
//   a remove took, or the root), a move listed twice, carrying fields or going under its own
//   subtree, a `set` for an unknown id, a `kind` or `frame` set to null, or an `order` that is
//   not a rearrangement of exactly that parent's children all mean our tree differs from the
//   server's: resync. `remove` of an id we do not hold is ignored (there is nothing left to take
//   away), as v1 does.
// - A patch's `frame` may have null slots (binary.js: a binary patch may change x alone); the
//   held value stays in those slots. A JSON patch of a layer that only moved carries `x` and/or
//   `y` instead of `frame`.
// - `set` comes by field: {"x": [id, value, id, value, …], "alpha": […], …}; patchesOf turns it
//   into one patch per layer. A list of patches ({id, field: value, …}), which binary.js decodes
//   to, is taken as it is. A column that is not a list of id and value pairs means resync.
// - `parent` and `index` in a patch are ignored: a layer changes parent by a move.
// - `input` and `bind` (§3.8, feature `timelines`) belong to the picture: a delta without `input`
//   shows its base's, one without `bind` has no bindings, `"bind":"same"` its base's (bindings.js
//   reads them; bindings it cannot read are dropped, the frame still applies).
// Every check runs before anything changes, so a refused frame leaves the last good picture.
// Held layer objects are never changed in place: a patch or a move replaces the layer with a
// changed copy, so a snapshot (the pictures playout.js keeps to draw later or to cut back to)
// shares every layer a later frame leaves alone and costs two map copies.
//
// Drawing (§3.5 "Drawing the tree"): pre-order from the root with offset (0, 0), alpha 1 and the
// clip [0, 0, W, H], W × H being the root's own size (the root is the scene, the viewport's size).
// Absolute frames and clip rectangles are rounded to hundredths, effective alpha to thousandths,
// as v1 writes them: sums of two-decimal numbers in binary floating point pick up noise
// (0.1 + 0.2), which would otherwise show up as 154.50000000000003 and could turn a touching edge
// into an overlap.

import { readBindings } from './bindings.js';

/** The keys of a move in `insert`: its new place and nothing else. */
const MOVE_KEYS = new Set(['id', 'parent', 'index', 'move']);
/** Keys of a layer that describe the tree, not the drawing; never copied onto display items. */
const STRUCTURAL = new Set(['id', 'parent', 'index', 'clips', 'standby']);
/** Fields a display item carries, in v1's key order (after id, kind, frame, alpha). */
const STYLE_FIELDS = ['fill', 'radius', 'clip', 'clipRadius', 'shadow', 'border', 'text', 'font', 'color', 'align', 'icon',
  'role', 'name', 'vc'];
/** Keys written explicitly when flattening; the rest of a layer's keys are copied as they are. */
const ITEM_KEYS = new Set(['kind', 'frame', 'alpha', 'scale', ...STYLE_FIELDS]);
/** Fields that make a layer draw something of its own (with `role`, what gets it drawn). */
const DRAWING_FIELDS = ['fill', 'border', 'shadow', 'text', 'icon'];

/**
 * The current layer tree, the `seq` it came from, and its flattening into display items.
 * Shaped like delta.js's DisplayList: `seq`, `apply`, `reset`, `nodes()`, `order`, `byId`.
 */
export class LayerTree {
  constructor() {
    this.reset();
  }

  /** Forgets everything, so the next frame must be a full one. */
  reset() {
    /** @type {number|null} seq of the last applied frame, null before the first full frame. */
    this.seq = null;
    /** @type {Map<number, object>} every layer by id, with `frame` and `alpha` as sent (relative, own). */
    this.layers = new Map();
    /** @type {Map<number, number[]>} each layer's children, back to front. */
    this.children = new Map();
    /** @type {number|null} */
    this.rootId = null;
    this.cache = null;
    /** @type {number|null} the number of the last input the server had applied to this picture (§3.8). */
    this.input = null;
    /** @type {import('./bindings.js').Bindings|null} how the layers a held pan moves would follow the pointer. */
    this.bindings = null;
  }

  /**
   * The display items in paint order (back to front), v1-shaped: absolute `frame`, effective
   * `alpha`, `clip` when a clipping ancestor narrowed the viewport. Flattened once per change;
   * the array is shared until the next change, so callers must not modify it.
   * @returns {object[]}
   */
  nodes() {
    this.cache ??= flatten(this);
    return this.cache.items;
  }

  /** @returns {number[]} ids of the drawn items in paint order (what v1 calls the order). */
  get order() {
    this.nodes();
    return this.cache.order;
  }

  /** @returns {Map<number, object>} the drawn items by id. */
  get byId() {
    this.nodes();
    return this.cache.byId;
  }

  /**
   * This picture as it stands, unchanged by the frames applied after it: the maps are copied,
   * the layers (never changed in place) and the flattening shared.
   * @returns {LayerTree}
   */
  snapshot() {
    const copy = new LayerTree();
    copy.seq = this.seq;
    copy.layers = new Map(this.layers);
    copy.children = new Map(this.children);
    copy.rootId = this.rootId;
    copy.cache = this.cache;
    copy.input = this.input;
    copy.bindings = this.bindings;
    return copy;
  }

  /**
   * Forgets which input this picture shows, and its bindings: the numbers were a connection's,
   * and a new one counts from 1 again.
   */
  forgetInput() {
    this.input = null;
    this.bindings = null;
  }

  /**
   * The layer with `id` as the tree holds it (relative frame, own alpha), or undefined.
   * @param {number} id
   */
  layer(id) {
    return this.layers.get(id);
  }

  /**
   * The ids of a layer's children, back to front (empty for a leaf or an unknown id).
   * @param {number} id
   * @returns {number[]}
   */
  childIds(id) {
    return this.children.get(id) ?? [];
  }

  /**
   * Applies one v2 `frame` message (parsed JSON, or binary.js's decoding of a binary one).
   * @param {object} frame
   * @returns {{ok:true, full:boolean, skipped:number, added:number[], updated:number[],
   *            removed:object[]} | {ok:false, resync:true, reason:string}}
   *   As delta.js: `added` the inserted ids, `updated` the moved and patched ones, `removed`
   *   every layer that went away (subtrees included, with their last fields), `skipped` the frames the server
   *   merged into this one.
   */
  apply(frame) {
    if (!Number.isInteger(frame?.seq)) return refuse('frame without an integer seq');
    return frame.full ? this.applyFull(frame) : this.applyDelta(frame);
  }

  /** A full frame: checks the whole tree, then replaces ours (see apply). */
  applyFull(frame) {
    const { seq, nodes } = frame;
    if (!Array.isArray(nodes) || nodes.length === 0) return refuse(`full frame ${seq} without layers`);
    const layers = new Map();
    const children = new Map();
    for (const [position, node] of nodes.entries()) {
      const problem = checkNew(node, (id) => layers.has(id));
      if (problem) return refuse(`full frame ${seq}: ${problem}`);
      if (position === 0) {
        if (node.parent != null) return refuse(`full frame ${seq}: the first layer ${node.id} has a parent`);
      } else if (node.parent == null) {
        return refuse(`full frame ${seq}: a second root, ${node.id}`);
      } else if (!layers.has(node.parent)) {
        return refuse(`full frame ${seq}: layer ${node.id} before its parent ${node.parent}`);
      }
      layers.set(node.id, layerFrom(node));
      children.set(node.id, []);
      if (position > 0) children.get(node.parent).push(node.id);
    }
    const removed = [...this.layers.values()].filter((layer) => !layers.has(layer.id));
    this.layers = layers;
    this.children = children;
    this.rootId = nodes[0].id;
    this.seq = seq;
    this.cache = null;
    this.input = Number.isSafeInteger(frame.input) ? frame.input : null;
    this.bindings = readBindings(frame.bind, null);
    return { ok: true, full: true, skipped: 0, added: nodes.map((node) => node.id), updated: [], removed };
  }

  /** A delta: checks every part on a sketch of the child lists, then applies them (see apply). */
  applyDelta(frame) {
    const { seq, base } = frame;
    if (this.seq === null) return refuse(`delta ${seq} before any full frame`);
    if (base !== this.seq) return refuse(`delta ${seq} is based on ${base}, we hold ${this.seq}`);
    const removeIds = frame.remove ?? [];
    const inserts = frame.insert ?? [];
    const patches = patchesOf(frame.set);
    if (patches === null) return refuse(`delta ${seq}: set must list id and value pairs by field`);
    const orders = frame.order ?? [];
    if (![removeIds, inserts, orders].every(Array.isArray)) {
      return refuse(`delta ${seq}: insert, remove and order must be arrays`);
    }

    // Check on a sketch first: the ids that go, and copies of the child lists that change.
    // Moved layers leave their parents first, so a subtree that goes does not take them along.
    const moving = new Set();
    for (const node of inserts) {
      if (node?.move !== true) continue;
      if (!this.layers.has(node.id) || node.id === this.rootId) {
        return refuse(`delta ${seq}: moves layer ${node.id}, which we do not hold (or the root)`);
      }
      if (moving.has(node.id)) return refuse(`delta ${seq}: moves layer ${node.id} twice`);
      moving.add(node.id);
    }
    const gone = new Set();
    for (const id of removeIds) {
      if (id === this.rootId) return refuse(`delta ${seq}: removes the root`);
      if (this.layers.has(id)) this.collect(id, gone, moving);
    }
    const lists = new Map(); // parent id -> its new child list (only the parents that change)
    const listOf = (id) => {
      // A removed id inserted again is a new layer: none of the old one's children are its.
      if (!lists.has(id)) lists.set(id, gone.has(id) ? [] : [...(this.children.get(id) ?? [])]);
      return lists.get(id);
    };
    for (const id of [...moving, ...gone]) {
      const parent = this.layers.get(id).parent;
      if (!gone.has(parent)) lists.set(parent, listOf(parent).filter((child) => child !== id));
    }
    const inserted = new Map();
    const moved = new Map(); // moved id -> its new parent
    const holds = (id) => (this.layers.has(id) && !gone.has(id)) || inserted.has(id);
    const parentOf = (id) => moved.get(id) ?? inserted.get(id)?.parent ?? this.layers.get(id)?.parent;
    for (const node of inserts) {
      if (node.move === true) {
        const problem = this.checkMove(node, holds, parentOf);
        if (problem) return refuse(`delta ${seq}: ${problem}`);
        const list = listOf(node.parent);
        if (node.index > list.length) return refuse(`delta ${seq}: move ${node.id} to index ${node.index} of ${list.length} children`);
        list.splice(node.index, 0, node.id);
        moved.set(node.id, node.parent);
        continue;
      }
      const problem = checkNew(node, holds);
      if (problem) return refuse(`delta ${seq}: insert ${problem}`);
      if (!holds(node.parent)) return refuse(`delta ${seq}: insert ${node.id} under ${node.parent}, which we do not hold`);
      const list = listOf(node.parent);
      if (!Number.isInteger(node.index) || node.index < 0 || node.index > list.length) {
        return refuse(`delta ${seq}: insert ${node.id} at index ${node.index} of ${list.length} children`);
      }
      list.splice(node.index, 0, node.id);
      inserted.set(node.id, node);
    }
    for (const patch of patches) {
      if (!holds(patch?.id)) return refuse(`delta ${seq}: set for layer ${patch?.id}, which we do not hold`);
      if (patch.kind === null || patch.frame === null) return refuse(`delta ${seq}: set takes kind or frame from ${patch.id}`);
      if (patch.frame !== undefined && !isFrame(patch.frame, true)) return refuse(`delta ${seq}: set ${patch.id}: bad frame`);
      for (const edge of ['x', 'y']) {
        if (patch[edge] !== undefined && !Number.isFinite(patch[edge])) return refuse(`delta ${seq}: set ${patch.id}: bad ${edge}`);
      }
    }
    for (const entry of orders) {
      if (!holds(entry?.id) || !Array.isArray(entry.children)) return refuse(`delta ${seq}: order for an unknown layer`);
      const now = listOf(entry.id);
      const listed = new Set(entry.children);
      if (listed.size !== entry.children.length || listed.size !== now.length || !now.every((id) => listed.has(id))) {
        return refuse(`delta ${seq}: order for ${entry.id} does not list exactly its children`);
      }
      lists.set(entry.id, [...entry.children]);
    }

    // Then change.
    const removed = [...gone].map((id) => this.layers.get(id));
    for (const id of gone) {
      this.layers.delete(id);
      this.children.delete(id);
    }
    for (const [id, node] of inserted) {
      this.layers.set(id, layerFrom(node));
      this.children.set(id, []);
    }
    for (const [id, parent] of moved) this.layers.set(id, { ...this.layers.get(id), parent });
    const updated = [...moved.keys()];
    for (const patch of patches) {
      if (!inserted.has(patch.id) && !moved.has(patch.id)) updated.push(patch.id);
      this.layers.set(patch.id, merged(this.layers.get(patch.id), patch));
    }
    for (const [id, list] of lists) if (this.layers.has(id)) this.children.set(id, list);
    this.seq = seq;
    if (Number.isSafeInteger(frame.input)) this.input = frame.input;
    this.bindings = readBindings(frame.bind, this.bindings);
    if (gone.size || inserted.size || moved.size || patches.length || orders.length) this.cache = null;
    return {
      ok: true, full: false, skipped: Math.max(0, seq - base - 1),
      added: [...inserted.keys()], updated, removed,
    };
  }

  /** Adds `id` and its descendants to `into`, except the subtrees of the layers in `moving`. */
  collect(id, into, moving) {
    into.add(id);
    for (const child of this.children.get(id) ?? []) if (!moving.has(child)) this.collect(child, into, moving);
  }

  /**
   * Why a move (`{id, parent, index, move: true}`, already out of its old parent) cannot be
   * taken, or null. `parentOf` gives each layer's parent as the delta has it so far: walking up
   * from the new parent must not meet the moved layer, or it would hold itself.
   */
  checkMove(node, holds, parentOf) {
    if (Object.keys(node).some((key) => !MOVE_KEYS.has(key))) return `move ${node.id} carries fields (they go in set)`;
    if (!holds(node.id)) return `moves layer ${node.id}, which a remove took`;
    if (!holds(node.parent)) return `move ${node.id} under ${node.parent}, which we do not hold`;
    if (!Number.isInteger(node.index) || node.index < 0) return `move ${node.id} to index ${node.index}`;
    for (let above = node.parent; above != null; above = parentOf(above)) {
      if (above === node.id) return `move ${node.id} under its own subtree`;
    }
    return null;
  }
}

/**
 * Flattens a tree into display items (§3.5 "Drawing the tree").
 * @param {LayerTree} tree
 * @returns {{items: object[], order: number[], byId: Map<number, object>}}
 */
export function flatten(tree) {
  const items = [];
  const root = tree.layers.get(tree.rootId);
  if (root) {
    const viewport = [0, 0, root.frame[2], root.frame[3]];
    visit(tree, root, 0, 0, 1, 1, viewport, 0, false, items);
  }
  return { items, order: items.map((item) => item.id), byId: new Map(items.map((item) => [item.id, item])) };
}

/**
 * One layer and its subtree. `clip` is the current clip rectangle; `clipped` says whether a
 * clipping ancestor made it narrower than the viewport (only then does an item carry `clip`).
 */
function visit(tree, layer, ox, oy, parentAlpha, parentScale, clip, clipRadius, clipped, items) {
  // A page on standby waits on the viewer, with its subtree, until a patch uncovers it.
  if (layer.standby) return;
  const [x, y, w, h] = layer.frame;
  // A layer's `scale` draws it and its subtree that many times their size about its top-left
  // corner: its frame is in its parent's unscaled coordinates.
  const scale = parentScale * (layer.scale ?? 1);
  // Children are placed from the exact origin: rounding at every level of a scaled subtree would
  // add up past what v1's absolute frames show.
  const left = ox + x * parentScale;
  const top = oy + y * parentScale;
  const frame = scale === 1 && parentScale === 1
    ? [hundredths(left), hundredths(top), w, h]
    : [hundredths(left), hundredths(top), hundredths(w * scale), hundredths(h * scale)];
  const alpha = parentAlpha * (layer.alpha ?? 1);
  // The server already left out what is off screen and stripped layers kept only to place their
  // children, so every layer that draws or has a role is drawn: deciding again here, with
  // rounded frames, would disagree with v1 at the viewport's edges.
  if (layer.role != null || DRAWING_FIELDS.some((field) => layer[field] != null)) {
    items.push(item(layer, frame, alpha, scale, clipped ? clip : null, clipped ? clipRadius : 0));
  }
  const children = tree.children.get(layer.id);
  if (!children?.length) return;
  let childClip = clip;
  let childClipRadius = clipRadius;
  let childClipped = clipped;
  if (layer.clips) {
    // A layer with rounded corners (a sheet's card) always clips, with its corners.
    const rounded = layer.radius > 0;
    const narrowed = intersection(clip, frame);
    if (rounded || !sameRect(narrowed, clip)) {
      childClip = narrowed;
      childClipRadius = rounded ? hundredths(layer.radius * scale) : 0;
      childClipped = true;
    }
  }
  for (const id of children) {
    visit(tree, tree.layers.get(id), left, top, alpha, scale, childClip, childClipRadius, childClipped, items);
  }
}

/** A v1 display item for a drawn layer, keys in v1's order. */
function item(layer, frame, alpha, scale, clip, clipRadius) {
  const out = { id: layer.id, kind: layer.kind, frame, alpha: thousandths(alpha) };
  if (scale !== 1) out.scale = Math.round(scale * 100000) / 100000;
  for (const field of STYLE_FIELDS) {
    if (field === 'clip') {
      // Shared by every item under the same clip: items are read, never changed.
      if (clip) out.clip = clip;
    } else if (field === 'clipRadius') {
      if (clipRadius) out.clipRadius = clipRadius;
    } else if (field === 'radius') {
      // v1 leaves radius 0 out of whole nodes.
      if (layer.radius) out.radius = layer.radius;
    } else if (layer[field] != null) {
      out[field] = layer[field];
    }
  }
  // Fields this viewer does not know yet travel on, as delta.js keeps them.
  for (const key of Object.keys(layer)) {
    if (!ITEM_KEYS.has(key) && !STRUCTURAL.has(key)) out[key] = layer[key];
  }
  return out;
}

/** The common part of two rectangles (empty ones keep a width or height of 0). */
function intersection([ax, ay, aw, ah], [bx, by, bw, bh]) {
  const x = Math.max(ax, bx);
  const y = Math.max(ay, by);
  const width = Math.max(0, hundredths(Math.min(ax + aw, bx + bw) - x));
  const height = Math.max(0, hundredths(Math.min(ay + ah, by + bh) - y));
  return [x, y, width, height];
}

function sameRect(a, b) {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

/** Rounded to 0.01, without a -0 (a tiny negative noise would otherwise round to -0). */
function hundredths(value) {
  return Math.round(value * 100) / 100 + 0;
}

function thousandths(value) {
  return Math.round(value * 1000) / 1000 + 0;
}

/** Why a new layer (full frame or insert) cannot be taken, or null. */
/**
 * A delta's `set` as one patch per layer ({id, field: value, …}), in the order the layers first
 * come: from JSON v2's columns ({"x": [id, value, …], …}), or a list of patches as it is. Null
 * when it is neither.
 */
export function patchesOf(set) {
  if (set == null) return [];
  if (Array.isArray(set)) return set;
  if (typeof set !== 'object') return null;
  const byId = new Map();
  for (const [key, pairs] of Object.entries(set)) {
    if (key === 'id' || !Array.isArray(pairs) || pairs.length % 2 !== 0) return null;
    for (let at = 0; at < pairs.length; at += 2) {
      const id = pairs[at];
      if (!Number.isInteger(id)) return null;
      if (!byId.has(id)) byId.set(id, { id });
      byId.get(id)[key] = pairs[at + 1];
    }
  }
  return [...byId.values()];
}

function checkNew(node, holds) {
  if (!Number.isInteger(node?.id)) return 'a layer without an integer id';
  if (holds(node.id)) return `layer ${node.id} twice`;
  if (node.kind == null || !isFrame(node.frame, false)) return `layer ${node.id} without kind or frame`;
  return null;
}

/** `[x, y, w, h]` of numbers; a patch's may have null slots (binary.js). */
function isFrame(frame, partial) {
  return Array.isArray(frame) && frame.length === 4 &&
    frame.every((value) => typeof value === 'number' || (partial && value === null));
}

/** A held copy of a new layer without the insert-only `index` and without null fields. */
function layerFrom(node) {
  const layer = { ...node };
  delete layer.index;
  for (const key of Object.keys(layer)) if (layer[key] === null) delete layer[key];
  return layer;
}

/**
 * A held layer with a patch merged into a copy of it: null deletes a field, a null frame slot
 * keeps the old value, `x` and `y` move it.
 */
function merged(held, patch) {
  const layer = { ...held };
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'id' || key === 'parent' || key === 'index') continue;
    if (value === null) delete layer[key];
    else if (key === 'frame') layer.frame = value.map((slot, i) => slot ?? layer.frame[i]);
    else if (key === 'x') layer.frame = [value, layer.frame[1], layer.frame[2], layer.frame[3]];
    else if (key === 'y') layer.frame = [layer.frame[0], value, layer.frame[2], layer.frame[3]];
    else layer[key] = value;
  }
  return layer;
}

function refuse(reason) {
  return { ok: false, resync: true, reason };
}
