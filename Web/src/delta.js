// The protocol v1 model: the viewer's copy of the server's last frame as a flat display list
// (docs/protocol.md §3.1-3.4). The viewer speaks v2 by default (tree.js); this model serves
// `?wire=v1`, kept for debugging and for comparing the two protocols.
// Pure: no DOM, no time, no I/O, so node tests cover every rule below.
//
// Rules we apply, and how we read the parts the protocol leaves open:
// - A full frame (`full:true`) replaces everything; `nodes` is the paint order.
// - A delta applies only to the frame it names in `base`. If `base` is not the last applied
//   `seq`, the model is left untouched and `apply` reports `resync`: drawing a patch on top of
//   a different picture would show something the server never drew.
// - `remove` is applied before `set`, so an id that is removed and set in the same delta is a new
//   node (it must then carry all of its fields).
// - A patch merges only the fields it carries. A field set to `null` is deleted from the node
//   (the protocol has no other way to say "this node no longer has a shadow").
// - A patch for an id we do not hold must be a whole node (`kind` and `frame`); a partial patch
//   for an unknown id means our picture differs from the server's, so it is a resync too.
// - `order`, when present, is the whole paint order and must name exactly the nodes we hold after
//   the delta; otherwise we keep the old order (minus removed ids) and append new ids in the
//   order `set` lists them.
// Every check runs before anything is changed, so a refused frame leaves the last good picture.

/** Fields a patch must carry when it introduces a node. */
const REQUIRED_NEW_FIELDS = ['kind', 'frame'];

/**
 * The current display list: nodes by id plus their paint order, and the `seq` they came from.
 */
export class DisplayList {
  constructor() {
    /** @type {number|null} seq of the last applied frame, null before the first full frame. */
    this.seq = null;
    /** @type {Map<number, object>} */
    this.byId = new Map();
    /** @type {number[]} ids back to front. */
    this.order = [];
    this.cache = null;
  }

  /** Forgets everything, so the next frame must be a full one. */
  reset() {
    this.seq = null;
    this.byId = new Map();
    this.order = [];
    this.cache = null;
  }

  /**
   * The nodes in paint order (back to front). The array is shared until the next change:
   * callers must not modify it.
   * @returns {object[]}
   */
  nodes() {
    if (!this.cache) this.cache = this.order.map((id) => this.byId.get(id));
    return this.cache;
  }

  /**
   * Applies one `frame` message.
   * @param {object} frame a parsed `{"type":"frame",...}` message.
   * @returns {{ok:true, full:boolean, skipped:number, added:number[], updated:number[],
   *            removed:object[]} | {ok:false, resync:true, reason:string}}
   *   `skipped` counts frames the server merged into this one (seq jumps), `removed` holds the
   *   nodes that went away (with their last fields, so callers can tell which roles changed).
   */
  apply(frame) {
    if (!Number.isInteger(frame.seq)) return refuse(`frame without an integer seq`);
    return frame.full ? this.applyFull(frame) : this.applyDelta(frame);
  }

  applyFull(frame) {
    if (!Array.isArray(frame.nodes)) return refuse(`full frame ${frame.seq} without nodes`);
    const byId = new Map();
    for (const node of frame.nodes) {
      if (!Number.isInteger(node?.id)) return refuse(`full frame ${frame.seq}: node without id`);
      if (byId.has(node.id)) return refuse(`full frame ${frame.seq}: duplicate id ${node.id}`);
      byId.set(node.id, withoutNulls({ ...node }));
    }
    const removed = [...this.byId.values()].filter((node) => !byId.has(node.id));
    this.byId = byId;
    this.order = frame.nodes.map((node) => node.id);
    this.seq = frame.seq;
    this.cache = null;
    return { ok: true, full: true, skipped: 0, added: [...this.order], updated: [], removed };
  }

  applyDelta(frame) {
    if (this.seq === null) return refuse(`delta ${frame.seq} before any full frame`);
    if (frame.base !== this.seq) {
      return refuse(`delta ${frame.seq} is based on ${frame.base}, we hold ${this.seq}`);
    }
    const set = frame.set ?? [];
    const removeIds = frame.remove ?? [];
    if (!Array.isArray(set) || !Array.isArray(removeIds)) return refuse(`delta ${frame.seq}: bad set/remove`);

    // Check first: which ids exist once `remove` has run, and is every patch applicable?
    const removing = new Set(removeIds.filter((id) => this.byId.has(id)));
    const exists = (id) => this.byId.has(id) && !removing.has(id);
    const newIds = new Set();
    for (const patch of set) {
      if (!Number.isInteger(patch?.id)) return refuse(`delta ${frame.seq}: patch without id`);
      if (exists(patch.id) || newIds.has(patch.id)) continue;
      const missing = REQUIRED_NEW_FIELDS.filter((field) => patch[field] == null);
      if (missing.length) {
        return refuse(`delta ${frame.seq}: unknown node ${patch.id} without ${missing.join(', ')}`);
      }
      newIds.add(patch.id);
    }
    let order;
    if (frame.order != null) {
      const count = this.byId.size - removing.size + newIds.size;
      const named = new Set(frame.order);
      const complete = named.size === frame.order.length && named.size === count &&
        frame.order.every((id) => exists(id) || newIds.has(id));
      if (!complete) return refuse(`delta ${frame.seq}: order does not list the nodes held`);
      order = [...frame.order];
    } else {
      order = this.order.filter((id) => !removing.has(id)).concat([...newIds]);
    }

    // Then change.
    const removed = [...removing].map((id) => this.byId.get(id));
    for (const id of removing) this.byId.delete(id);
    const updated = [];
    for (const patch of set) {
      const node = this.byId.get(patch.id);
      if (node && !newIds.has(patch.id)) updated.push(patch.id);
      this.byId.set(patch.id, withoutNulls(Object.assign(node ?? {}, patch)));
    }
    this.order = order;
    this.seq = frame.seq;
    this.cache = null;
    return {
      ok: true, full: false, skipped: Math.max(0, frame.seq - frame.base - 1),
      added: [...newIds], updated, removed,
    };
  }
}

function refuse(reason) {
  return { ok: false, resync: true, reason };
}

/** Deletes fields whose value is null (a patch's way to drop a field). */
function withoutNulls(node) {
  for (const key of Object.keys(node)) if (node[key] === null) delete node[key];
  return node;
}
