// The inspector: outlines what a person can see (not the nodes under an opaque page), picks out
// the node under the pointer and its page, and shows in its panel the node tree (roles, names,
// frames, styles, texts), the fields of the node pointed at, the server's controller tree
// (`query`) and the session's events as they come (`subscribe`). It only reads, so it works for
// watchers too (both commands are allowed to them). Runs on the page's main thread.

import { eventGroup, eventLine, nodeAt, nodeDetails, nodeLabel, nodeTree, pageOf, visibleIds } from './inspection.js';

/** The tree and controller state are rebuilt at most this often: a transition is 20 frames. */
const REFRESH_MS = 250;
/** Page structure changes bring a new controller query; these roles are pages. */
const PAGE_ROLES = new Set(['page', 'subpage', 'pagestack']);
/** The event groups the log subscribes to (docs/protocol.md §7). */
export const EVENT_GROUPS = ['action', 'gesture', 'lifecycle', 'page', 'transition'];
/** The log keeps this many events (the oldest go first). */
const LOG_LIMIT = 300;
const OUTLINE = { page: '#ff2d96', subpage: '#ff9500', row: '#00b3e6', navbar: '#34c759', tabbar: '#34c759' };
const OUTLINE_OTHER = 'rgba(120, 120, 140, 0.55)';
const HOVER_FILL = 'rgba(10, 132, 255, 0.18)';
const HOVER_STROKE = '#0a84ff';
const PAGE_STROKE = '#ff2d96';

/**
 * Inspector overlay, pointer tip and panel.
 */
export class Inspector {
  /**
   * @param {object} parts
   * @param {HTMLCanvasElement} parts.canvas
   * @param {import('./renderer.js').Renderer} parts.renderer
   * @param {HTMLElement} parts.panel the panel (`.nodes`, `.details`, `.state`, `.events` inside).
   * @param {HTMLElement} parts.tip the tooltip near the pointer.
   * @param {import('./tree.js').LayerTree|import('./delta.js').DisplayList} parts.model
   * @param {(clientX: number, clientY: number) => number[]} parts.toViewport
   * @param {(op: string, fields?: object) => Promise<any>} parts.command sends a command.
   */
  constructor({ canvas, renderer, panel, tip, model, toViewport, command }) {
    Object.assign(this, { renderer, panel, tip, model, toViewport, command });
    this.enabled = false;
    this.pointer = null;
    /** The node under the pointer, and its page (display items), or null. */
    this.hovered = null;
    this.hoveredPage = null;
    /** The node picked in the tree (its id), shown until another is picked. */
    this.pickedId = null;
    this.refreshTimer = null;
    this.refreshAgain = false;
    this.stateDue = true;
    this.visibleCache = { nodes: null, ids: new Set() };
    this.events = [];
    this.nodeList = panel.querySelector('.nodes');
    this.details = panel.querySelector('.details');
    this.state = panel.querySelector('.state');
    this.eventList = panel.querySelector('.events');
    this.note = panel.querySelector('.note');
    canvas.addEventListener('pointermove', (e) => this.pointerAt(e.clientX, e.clientY));
    canvas.addEventListener('pointerleave', () => this.pointerAt(null));
    this.nodeList.addEventListener('click', (e) => {
      const id = Number(e.target.closest('li[data-id]')?.dataset.id);
      if (!Number.isNaN(id)) this.pick(id === this.pickedId ? null : id);
    });
    panel.querySelector('.clear-events')?.addEventListener('click', () => {
      this.events = [];
      this.eventList.replaceChildren();
    });
  }

  /** Turns the inspector on or off; returns whether it is now on. */
  toggle(on = !this.enabled) {
    this.enabled = on;
    this.panel.hidden = !on;
    document.body.classList.toggle('inspecting', on);
    this.renderer.overlay = on ? (ctx, nodes, pixel) => this.drawOverlay(ctx, nodes, pixel) : null;
    if (on) {
      this.connected();
    } else {
      this.pointerAt(null);
      this.command('subscribe', { events: [] }).catch(() => {});
    }
    this.renderer.invalidate();
    return on;
  }

  /**
   * The connection is (again) live: a subscription belongs to one connection, so it is asked
   * for again, and the picture is read afresh.
   */
  connected() {
    if (!this.enabled) return;
    this.command('subscribe', { events: EVENT_GROUPS }).then(
      () => { this.note.textContent = 'Events: lifecycle, transitions, gestures, pages, actions'; },
      (error) => { this.note.textContent = `No events: ${error.message}`; },
    );
    this.stateDue = true;
    this.refresh();
  }

  /** One protocol `event` message (§7): appended to the log. */
  event(event) {
    if (!this.enabled) return;
    this.events.push(event);
    const line = document.createElement('li');
    line.dataset.group = eventGroup(event);
    line.textContent = eventLine(event);
    const list = this.eventList;
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.append(line);
    if (this.events.length > LOG_LIMIT) {
      this.events.shift();
      list.firstElementChild.remove();
    }
    // Follows the newest unless the person scrolled back to read.
    if (atEnd) list.scrollTop = list.scrollHeight;
  }

  /** Tells the inspector what a frame changed (delta.js / tree.js result). */
  frameApplied(result) {
    if (!this.enabled) return;
    this.updateTip();
    const byId = this.model.byId;
    const touchesPage = (node) => node && PAGE_ROLES.has(node.role);
    if (result.full || result.removed.some(touchesPage) ||
        result.added.some((id) => touchesPage(byId.get(id))) ||
        result.updated.some((id) => touchesPage(byId.get(id)))) {
      this.stateDue = true;
    }
    this.refresh();
  }

  /** Rebuilds the panel now, then at most once per REFRESH_MS with a last one after a burst. */
  refresh() {
    if (!this.enabled) return;
    if (this.refreshTimer) {
      this.refreshAgain = true;
      return;
    }
    this.showNodes();
    if (this.stateDue) {
      this.stateDue = false;
      this.command('query', { what: 'state' }).then(
        (state) => this.showState(state),
        (error) => { this.state.textContent = `Controller tree unavailable: ${error.message}`; },
      );
    }
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      if (this.refreshAgain) {
        this.refreshAgain = false;
        this.refresh();
      }
    }, REFRESH_MS);
  }

  /** The ids of the nodes a person can see, worked out once per picture. */
  visible() {
    const nodes = this.model.nodes();
    if (this.visibleCache.nodes !== nodes) {
      const root = typeof this.model.layer === 'function' ? this.model.layer(this.model.rootId) : null;
      const viewport = root ? [0, 0, root.frame[2], root.frame[3]] : [0, 0, Infinity, Infinity];
      this.visibleCache = { nodes, ids: visibleIds(nodes, viewport) };
    }
    return this.visibleCache.ids;
  }

  showNodes() {
    const entries = nodeTree(this.model, this.visible());
    this.entries = new Map(entries.map((entry) => [entry.id, entry]));
    const items = entries.map(({ id, depth, node, state }) => {
      const item = document.createElement('li');
      item.dataset.id = id;
      item.dataset.state = state;
      item.style.setProperty('--depth', String(depth));
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = nodeLabel(node);
      const frame = document.createElement('span');
      frame.className = 'frame';
      frame.textContent = `#${id} [${node.frame.map((v) => Math.round(v)).join(', ')}]`;
      item.append(label, ' ', frame);
      return item;
    });
    this.nodeList.replaceChildren(...items);
    this.markTree();
    this.showDetails();
  }

  /** Picks a node in the tree (null: none): its fields stay shown and it is outlined. */
  pick(id) {
    this.pickedId = id;
    this.markTree();
    this.showDetails();
    this.renderer.invalidate();
  }

  /** Marks the picked and the hovered node in the tree. */
  markTree() {
    for (const item of this.nodeList.querySelectorAll('[data-picked], [data-hovered]')) {
      delete item.dataset.picked;
      delete item.dataset.hovered;
    }
    const mark = (id, flag) => {
      const item = id == null ? null : this.nodeList.querySelector(`li[data-id="${id}"]`);
      if (item) item.dataset[flag] = 'true';
    };
    mark(this.pickedId, 'picked');
    mark(this.hovered?.id, 'hovered');
  }

  /** The fields of the node pointed at, else of the one picked in the tree. */
  showDetails() {
    const id = this.hovered?.id ?? this.pickedId;
    const entry = id == null ? null : this.entries?.get(id);
    if (!entry) {
      this.details.replaceChildren(hint('Point at the screen, or pick a node in the tree.'));
      return;
    }
    const layer = typeof this.model.layer === 'function' ? this.model.layer(id) : null;
    const rows = nodeDetails(entry.node, layer, entry.state).map(([key, text, colour]) => {
      const term = document.createElement('dt');
      term.textContent = key;
      const value = document.createElement('dd');
      if (colour) {
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = colour;
        value.append(swatch);
      }
      value.append(text);
      return [term, value];
    });
    const list = document.createElement('dl');
    list.append(...rows.flat());
    this.details.replaceChildren(list);
  }

  showState(state) {
    const root = document.createElement('ul');
    root.append(renderState(state ?? {}));
    this.state.replaceChildren(root);
  }

  pointerAt(clientX, clientY) {
    this.pointer = clientX === null ? null : { clientX, clientY };
    if (this.enabled) this.updateTip();
  }

  /** Finds the visible node under the pointer and its page, and names them in the tip. */
  updateTip() {
    let hovered = null;
    let page = null;
    if (this.pointer) {
      const nodes = this.model.nodes();
      const [x, y] = this.toViewport(this.pointer.clientX, this.pointer.clientY);
      hovered = nodeAt(nodes, x, y, this.visible());
      if (hovered) {
        page = pageOf(nodes, hovered, x, y);
        this.tip.textContent = [
          nodeLabel(hovered),
          `page ${page ? `${page.name ?? '–'} (${page.vc})` : '–'} · id ${hovered.id} · ${hovered.kind}`,
          `frame [${hovered.frame.map((v) => Math.round(v * 10) / 10).join(', ')}]`,
        ].join('\n');
        this.tip.style.left = `${this.pointer.clientX + 14}px`;
        this.tip.style.top = `${this.pointer.clientY + 14}px`;
      }
    }
    this.tip.hidden = !hovered;
    if (hovered?.id !== this.hovered?.id || page?.id !== this.hoveredPage?.id) {
      this.hovered = hovered;
      this.hoveredPage = page;
      this.markTree();
      this.showDetails();
      this.renderer.invalidate();
    }
  }

  drawOverlay(ctx, nodes, pixel) {
    const visible = this.visible();
    ctx.lineWidth = pixel;
    for (const node of nodes) {
      if (!visible.has(node.id)) continue;
      // Outline only what the node shows: a clipped-out row has nothing to point at.
      ctx.save();
      if (Array.isArray(node.clip)) {
        ctx.beginPath();
        ctx.rect(...node.clip);
        ctx.clip();
      }
      ctx.strokeStyle = OUTLINE[node.role] ?? OUTLINE_OTHER;
      const [x, y, w, h] = node.frame;
      ctx.strokeRect(x + pixel / 2, y + pixel / 2, w - pixel, h - pixel);
      ctx.restore();
    }
    if (this.hoveredPage && this.hoveredPage !== this.hovered) {
      ctx.strokeStyle = PAGE_STROKE;
      ctx.lineWidth = 3 * pixel;
      const [x, y, w, h] = this.hoveredPage.frame;
      ctx.strokeRect(x + 1.5 * pixel, y + 1.5 * pixel, w - 3 * pixel, h - 3 * pixel);
    }
    const marked = this.hovered ?? (this.pickedId == null ? null : this.model.byId.get(this.pickedId));
    if (marked) {
      const [x, y, w, h] = marked.frame;
      ctx.fillStyle = HOVER_FILL;
      ctx.fillRect(x, y, w, h);
      ctx.strokeStyle = HOVER_STROKE;
      ctx.lineWidth = 2 * pixel;
      ctx.strokeRect(x + pixel, y + pixel, w - 2 * pixel, h - 2 * pixel);
    }
  }
}

function hint(text) {
  const note = document.createElement('p');
  note.className = 'hint';
  note.textContent = text;
  return note;
}

/** Key fields that make a one-line label for a state entry, in the order shown. */
function describe(entry) {
  const parts = [];
  for (const key of ['kind', 'id', 'screen', 'name', 'title']) if (entry[key] != null) parts.push(String(entry[key]));
  if (entry.vc != null) parts.push(`(${entry.vc})`);
  if (entry.appearance) parts.push(entry.appearance);
  if (entry.selected != null) parts.push(`selected ${entry.selected}`);
  if (entry.offset != null) parts.push(`offset ${entry.offset}`);
  if (entry.scrollOffset) parts.push(`scrolled ${Math.round(entry.scrollOffset)}`);
  if (entry.badge != null) parts.push(`badge ${entry.badge}`);
  if (entry.barVisible === false) parts.push('bar hidden');
  if (Array.isArray(entry.frame)) parts.push(`[${entry.frame.map((v) => Math.round(v)).join(', ')}]`);
  if (entry.hidden) parts.push('hidden');
  if (entry.dim) parts.push(`dim ${entry.dim}`);
  return parts.join(' ') || '·';
}

/** A nested list of the state tree: every object and array of objects becomes a branch. */
function renderState(value) {
  const item = document.createElement('li');
  const label = document.createElement('span');
  label.textContent = describe(value);
  item.append(label);
  for (const [key, child] of Object.entries(value)) {
    const children = Array.isArray(child) ? child.filter(isObject) : isObject(child) ? [child] : [];
    if (!children.length) continue;
    const list = document.createElement('ul');
    list.dataset.key = key;
    list.append(...children.map(renderState));
    item.append(list);
  }
  return item;
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
