// The inspector: outlines every node, names the front-most node under the pointer, and shows the
// server's controller tree (`query` `state`) in a side panel. It only reads: no input is sent.

/** Page structure changes come in bursts (a transition is 20 frames): query at most this often. */
const REFRESH_MS = 300;
const PAGE_ROLES = new Set(['page', 'subpage', 'pagestack']);
const OUTLINE = { page: '#ff2d96', subpage: '#ff9500', row: '#00b3e6', navbar: '#34c759', tabbar: '#34c759' };
const OUTLINE_OTHER = 'rgba(120, 120, 140, 0.55)';
const HOVER_FILL = 'rgba(10, 132, 255, 0.18)';
const HOVER_STROKE = '#0a84ff';

/**
 * The front-most visible node whose frame (within its clip) contains a point.
 * @param {object[]} nodes in paint order.
 * @returns {object|null}
 */
export function nodeAt(nodes, x, y) {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i];
    if (!isVisible(node)) continue;
    if (contains(node.frame, x, y) && (!node.clip || contains(node.clip, x, y))) return node;
  }
  return null;
}

/**
 * The controller a node belongs to: its own `vc`, else that of the front-most page behind it
 * that contains the point (pages are painted before their content).
 */
export function controllerOf(nodes, node, x, y) {
  if (node.vc) return node.vc;
  for (let i = nodes.indexOf(node) - 1; i >= 0; i--) {
    if (nodes[i].vc && contains(nodes[i].frame, x, y)) return nodes[i].vc;
  }
  return null;
}

function isVisible(node) {
  return (node.alpha ?? 1) > 0 && Array.isArray(node.frame);
}

function contains([fx, fy, fw, fh], x, y) {
  return x >= fx && y >= fy && x < fx + fw && y < fy + fh;
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

/**
 * Inspector overlay, pointer tip and controller-tree panel.
 */
export class Inspector {
  /**
   * @param {object} parts
   * @param {HTMLCanvasElement} parts.canvas
   * @param {import('./renderer.js').Renderer} parts.renderer
   * @param {HTMLElement} parts.panel the side panel.
   * @param {HTMLElement} parts.tip the tooltip near the pointer.
   * @param {() => object[]} parts.nodes the current display list.
   * @param {(clientX: number, clientY: number) => number[]} parts.toViewport
   * @param {() => Promise<object>} parts.queryState
   */
  constructor({ canvas, renderer, panel, tip, nodes, toViewport, queryState }) {
    Object.assign(this, { renderer, panel, tip, nodes, toViewport, queryState });
    this.enabled = false;
    this.pointer = null;
    this.hovered = null;
    this.refreshTimer = null;
    this.refreshAgain = false;
    this.tree = panel.querySelector('.tree');
    this.note = panel.querySelector('.note');
    canvas.addEventListener('pointermove', (e) => this.pointerAt(e.clientX, e.clientY));
    canvas.addEventListener('pointerleave', () => this.pointerAt(null));
  }

  /** Turns the inspector on or off; returns whether it is now on. */
  toggle(on = !this.enabled) {
    this.enabled = on;
    this.panel.hidden = !on;
    this.renderer.overlay = on ? (ctx, nodes, pixel) => this.drawOverlay(ctx, nodes, pixel) : null;
    if (on) this.refresh();
    else this.pointerAt(null);
    this.renderer.invalidate();
    return on;
  }

  /**
   * Tells the inspector what a frame changed (delta.js result); the tree is queried again
   * when pages were added, moved or removed.
   */
  frameApplied(result) {
    if (!this.enabled) return;
    this.updateTip();
    const nodes = this.nodes();
    const touchesPage = (node) => node && PAGE_ROLES.has(node.role);
    const byId = new Map(nodes.map((node) => [node.id, node]));
    if (result.full || result.removed.some(touchesPage) ||
        result.added.some((id) => touchesPage(byId.get(id))) ||
        result.updated.some((id) => touchesPage(byId.get(id)))) {
      this.refresh();
    }
  }

  /** Queries the state now, then at most once per REFRESH_MS with a final query after a burst. */
  refresh() {
    if (!this.enabled) return;
    if (this.refreshTimer) {
      this.refreshAgain = true;
      return;
    }
    this.queryState().then(
      (state) => this.showState(state),
      (error) => { this.note.textContent = `State unavailable: ${error.message}`; },
    );
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      if (this.refreshAgain) {
        this.refreshAgain = false;
        this.refresh();
      }
    }, REFRESH_MS);
  }

  showState(state) {
    this.note.textContent = `Controller tree, ${new Date().toLocaleTimeString()}`;
    const root = document.createElement('ul');
    root.append(renderState(state ?? {}));
    this.tree.replaceChildren(root);
  }

  pointerAt(clientX, clientY) {
    this.pointer = clientX === null ? null : { clientX, clientY };
    if (this.enabled) this.updateTip();
  }

  /** Finds the node under the pointer and shows its role, name, controller and frame. */
  updateTip() {
    let hovered = null;
    if (this.pointer) {
      const nodes = this.nodes();
      const [x, y] = this.toViewport(this.pointer.clientX, this.pointer.clientY);
      hovered = nodeAt(nodes, x, y);
      if (hovered) {
        const vc = controllerOf(nodes, hovered, x, y);
        this.tip.textContent = [
          `${hovered.role ?? hovered.kind} ${hovered.name ? `“${hovered.name}”` : ''}`.trim(),
          `vc ${vc ?? '–'} · id ${hovered.id} · ${hovered.kind}`,
          `frame [${hovered.frame.map((v) => Math.round(v * 10) / 10).join(', ')}]`,
        ].join('\n');
        this.tip.style.left = `${this.pointer.clientX + 14}px`;
        this.tip.style.top = `${this.pointer.clientY + 14}px`;
      }
    }
    this.tip.hidden = !hovered;
    if (hovered !== this.hovered) {
      this.hovered = hovered;
      this.renderer.invalidate();
    }
  }

  drawOverlay(ctx, nodes, pixel) {
    ctx.lineWidth = pixel;
    for (const node of nodes) {
      if (!isVisible(node)) continue;
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
    if (this.hovered) {
      const [x, y, w, h] = this.hovered.frame;
      ctx.fillStyle = HOVER_FILL;
      ctx.fillRect(x, y, w, h);
      ctx.strokeStyle = HOVER_STROKE;
      ctx.lineWidth = 2 * pixel;
      ctx.strokeRect(x + pixel, y + pixel, w - 2 * pixel, h - 2 * pixel);
    }
  }
}
