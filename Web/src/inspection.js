// What the inspector reads out of the viewer's model, as pure functions (no DOM, no I/O) so node
// tests cover them: which node is under a point, which drawn nodes a person can actually see
// (not those under an opaque page painted over them), the node tree with each node's state, a
// node's fields in words, and an event in one line.

/** Effective alpha at or above this counts as opaque (the wire rounds alpha to 0.001). */
const OPAQUE_ALPHA = 0.999;
/** A node left with less than this area (pt²) showing is hidden: only anti-aliasing would show it. */
const VISIBLE_AREA = 0.25;
/** Fields the details list shows first, in this order; any other field follows. */
const DETAIL_ORDER = ['role', 'name', 'kind', 'id', 'vc', 'text', 'frame', 'alpha', 'fill', 'radius', 'border',
  'shadow', 'font', 'color', 'align', 'icon', 'clip'];
/** Fields the tree holds for structure only: not shown as properties. */
const STRUCTURAL = new Set(['parent', 'index', 'clips', 'standby']);
/** Event fields already in an event line's head, or not worth a column. */
const EVENT_HEAD = new Set(['type', 'name', 'time', 'vc', 'screen']);

/**
 * The front-most visible node whose frame (within its clip) contains a point.
 * @param {object[]} nodes display items in paint order.
 * @returns {object|null}
 */
export function nodeAt(nodes, x, y, visible = null) {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i];
    if (!drawn(node) || (visible && !visible.has(node.id))) continue;
    if (contains(node.frame, x, y) && (!node.clip || contains(node.clip, x, y))) return node;
  }
  return null;
}

/**
 * The page a node belongs to: the node itself if it carries `vc`, else the front-most page
 * painted before it that contains the point (pages are painted before their content).
 * @returns {object|null} the page's display item.
 */
export function pageOf(nodes, node, x, y) {
  if (node.vc) return node;
  for (let i = nodes.indexOf(node) - 1; i >= 0; i--) {
    if (nodes[i].vc && contains(nodes[i].frame, x, y)) return nodes[i];
  }
  return null;
}

/**
 * The ids of the display items a person can see: inside their clip and the viewport, with
 * alpha above 0, and not wholly covered by opaque nodes painted after them (the page below the
 * top one at rest, its rows and texts). A page is judged by what other pages' nodes cover: its
 * own bar and content always paint over its background, yet the page is what is seen there.
 * @param {object[]} nodes display items in paint order (absolute frames).
 * @param {number[]} viewport `[0, 0, W, H]`.
 * @returns {Set<number>}
 */
export function visibleIds(nodes, viewport) {
  // Each node's page: the last page (a node with `vc`) painted at or before it.
  const owners = [];
  let owner = null;
  for (const node of nodes) {
    if (node.vc) owner = node.id;
    owners.push(owner);
  }
  const visible = new Set();
  /** Rectangles already painted over with opaque colour, front to back, with their page. */
  const covers = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i];
    if (!drawn(node)) continue;
    let shown = intersect(node.frame, viewport);
    if (shown && node.clip) shown = intersect(shown, node.clip);
    if (!shown) continue;
    let pieces = [shown];
    for (const cover of covers) {
      if (node.vc && cover.owner === node.id) continue;
      pieces = pieces.flatMap((piece) => subtract(piece, cover.rect));
      if (!pieces.length) break;
    }
    if (pieces.reduce((sum, [, , w, h]) => sum + w * h, 0) < VISIBLE_AREA) continue;
    visible.add(node.id);
    for (const rect of opaqueRects(node, shown)) covers.push({ rect, owner: owners[i] });
  }
  return visible;
}

/**
 * The rectangles an opaque node paints over entirely: none for a translucent one; a rounded one
 * covers its frame less the corners (as two overlapping rectangles).
 * @param {object} node
 * @param {number[]} shown its frame within its clip and the viewport.
 */
export function opaqueRects(node, shown) {
  if ((node.alpha ?? 1) < OPAQUE_ALPHA || !isOpaqueColour(node.fill)) return [];
  const r = Math.min(node.radius ?? 0, node.frame[2] / 2, node.frame[3] / 2);
  if (!r) return [shown];
  const [x, y, w, h] = node.frame;
  return [[x, y + r, w, h - 2 * r], [x + r, y, w - 2 * r, h]]
    .map((rect) => intersect(rect, shown)).filter(Boolean);
}

/** `#RGB`, `#RRGGBB`, or `#RRGGBBAA` / `#RGBA` with full alpha. */
export function isOpaqueColour(colour) {
  if (typeof colour !== 'string' || !/^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(colour)) return false;
  const hex = colour.slice(1);
  if (hex.length === 4) return hex[3].toLowerCase() === 'f';
  if (hex.length === 8) return hex.slice(6).toLowerCase() === 'ff';
  return true;
}

/**
 * The node tree in pre-order, each entry with its depth and state:
 * `drawn` (on screen), `covered` (drawn, but under opaque nodes painted after it), `standby`
 * (a v2 page kept but not drawn, and its subtree) or `group` (a v2 layer that only places its
 * children). A v2 model (tree.js) gives its layer tree; a v1 list (delta.js) its items, flat.
 * @param {object} model LayerTree or DisplayList.
 * @param {Set<number>} visible from visibleIds.
 * @returns {{id:number, depth:number, node:object, state:string}[]}
 */
export function nodeTree(model, visible) {
  const entries = [];
  const byId = model.byId;
  if (typeof model.childIds !== 'function') {
    for (const node of model.nodes()) entries.push({ id: node.id, depth: 0, node, state: visible.has(node.id) ? 'drawn' : 'covered' });
    return entries;
  }
  const walk = (id, depth, standby) => {
    const layer = model.layer(id);
    if (!layer) return;
    const asleep = standby || Boolean(layer.standby);
    const item = byId.get(id);
    const state = asleep ? 'standby' : !item ? 'group' : visible.has(id) ? 'drawn' : 'covered';
    entries.push({ id, depth, node: item ?? layer, state });
    for (const child of model.childIds(id)) walk(child, depth + 1, asleep);
  };
  if (model.rootId != null) walk(model.rootId, 0, false);
  return entries;
}

/** One line for a tree entry: role (or kind), name, a short text, and the frame. */
export function nodeLabel(node) {
  const head = node.role ?? node.kind;
  const parts = [head];
  if (node.name != null && node.name !== head) parts.push(`“${node.name}”`);
  if (node.text != null && node.text !== node.name) parts.push(`"${short(node.text)}"`);
  if (node.icon != null) parts.push(`icon ${node.icon}`);
  if (node.vc) parts.push(node.vc);
  return parts.join(' ');
}

/**
 * A node's fields as `[label, text, colour]` rows (colour: a CSS colour to show as a swatch, or
 * null), known fields first in a fixed order, then whatever else the server sent. `layer`, for v2,
 * is the layer as held (frame in its parent's coordinates, own alpha).
 * @param {object} node the display item (absolute frame, effective alpha), or a layer not drawn.
 * @param {object|null} [layer]
 * @param {string} [state] the tree entry's state.
 * @returns {[string, string, string|null][]}
 */
export function nodeDetails(node, layer = null, state = null) {
  const rows = [];
  const keys = [...DETAIL_ORDER, ...Object.keys(node).filter((key) => !DETAIL_ORDER.includes(key))];
  for (const key of keys) {
    const value = node[key];
    if (value == null || STRUCTURAL.has(key)) continue;
    rows.push(...detailRows(key, value));
  }
  if (layer && layer !== node) {
    rows.push(['in parent', rect(layer.frame), null]);
    if ((layer.alpha ?? 1) !== 1) rows.push(['own alpha', String(layer.alpha), null]);
    if (layer.clips) rows.push(['clips', 'its children to its frame', null]);
  }
  if (state) rows.push(['state', STATE_WORDS[state] ?? state, null]);
  return rows;
}

const STATE_WORDS = {
  drawn: 'drawn',
  covered: 'drawn, but covered by opaque nodes in front of it',
  standby: 'standby: kept for the next pop, not drawn',
  group: 'group: only places its children, draws nothing',
};

function detailRows(key, value) {
  switch (key) {
    case 'frame': case 'clip': return [[key, rect(value), null]];
    case 'fill': case 'color': return [[key, String(value), String(value)]];
    case 'font': return [['font', `${value.size} pt, weight ${value.weight}${value.family ? `, ${value.family}` : ''}`, null]];
    case 'border': return [['border', `${value.width} pt ${value.color}`, value.color]];
    case 'shadow': return [['shadow', `${value.color} blur ${value.blur} at (${value.x}, ${value.y})`, value.color]];
    case 'text': return [['text', JSON.stringify(value), null]];
    default: return [[key, typeof value === 'object' ? JSON.stringify(value) : String(value), null]];
  }
}

/**
 * An event in one line: its session time, name, page (screen and vc) and the other fields.
 * @param {object} event a protocol `event` message (docs/protocol.md §7).
 */
export function eventLine(event) {
  const parts = [`${(event.time ?? 0).toFixed(1).padStart(8)} ms`, event.name];
  if (event.screen != null) parts.push(event.vc ? `${event.screen} (${event.vc})` : event.screen);
  for (const [key, value] of Object.entries(event)) {
    if (!EVENT_HEAD.has(key)) parts.push(`${key}=${typeof value === 'object' ? JSON.stringify(value) : value}`);
  }
  return parts.join(' ');
}

/**
 * The group an event belongs to (`lifecycle`, `transition`, `gesture`, `page`, `action`): an
 * action says so (its name is what a row emits), the others by their names.
 */
export function eventGroup({ name, group }) {
  if (group) return group;
  if (name.startsWith('transition')) return 'transition';
  if (name.startsWith('gesture')) return 'gesture';
  if (name.startsWith('page')) return 'page';
  return 'lifecycle';
}

function drawn(node) {
  return (node.alpha ?? 1) > 0 && Array.isArray(node.frame);
}

function contains([fx, fy, fw, fh], x, y) {
  return x >= fx && y >= fy && x < fx + fw && y < fy + fh;
}

/** The common part of two rectangles, or null when they do not overlap. */
function intersect([ax, ay, aw, ah], [bx, by, bw, bh]) {
  const x = Math.max(ax, bx);
  const y = Math.max(ay, by);
  const w = Math.min(ax + aw, bx + bw) - x;
  const h = Math.min(ay + ah, by + bh) - y;
  return w > 0 && h > 0 ? [x, y, w, h] : null;
}

/** `a` less `b`: up to four rectangles (above, below, left, right of the overlap). */
function subtract(a, b) {
  const overlap = intersect(a, b);
  if (!overlap) return [a];
  const [ax, ay, aw, ah] = a;
  const [ox, oy, ow, oh] = overlap;
  const pieces = [];
  if (oy > ay) pieces.push([ax, ay, aw, oy - ay]);
  if (oy + oh < ay + ah) pieces.push([ax, oy + oh, aw, ay + ah - oy - oh]);
  if (ox > ax) pieces.push([ax, oy, ox - ax, oh]);
  if (ox + ow < ax + aw) pieces.push([ox + ow, oy, ax + aw - ox - ow, oh]);
  return pieces;
}

function rect(frame) {
  return `[${frame.map((v) => Math.round(v * 100) / 100).join(', ')}]`;
}

function short(text) {
  return text.length > 28 ? `${text.slice(0, 27)}…` : text;
}
