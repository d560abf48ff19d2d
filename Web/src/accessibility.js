// Accessibility: an invisible DOM mirror of the picture the canvas draws, so that a screen
// reader reads the remote app and the keyboard works it. The server sends semantics as node
// roles (docs/protocol.md §3.1); this module maps them to DOM roles:
//
// - `row`, `back`, `close`, `delete`, and a panel's `mask` → button, named by the node's `name`
//   (a row's title, the mask's "Dismiss"), its other texts (a row's detail, the back button's
//   label) as the description;
// - `switch` → a switch (a button with role switch), `aria-checked` from the node's `selected`;
// - `tab` → a tab (button) inside a tablist made of its `tabbar` or `sidebar`, `aria-selected`
//   from the node's `selected`; a tab's badge becomes its description;
// - `title` and a list section's `header` → a heading (the header named as written, not in the
//   capitals it is drawn in); any other text → a line of text.
//
// The mirror lies exactly over the canvas, each element at its node's frame, transparent and
// letting the pointer through, so that the browser's focus ring shows on the node it stands for.
// Enter (or a screen reader's click) on a button taps the node's centre through the ordinary
// pointer input: the server runs the same action as a tap. After a frame only the elements whose
// node changed are written to.
//
// `semantics` is pure (no DOM) so that the mapping is tested in node; `AccessibilityMirror`
// keeps the DOM in step with it.

/** Roles a person activates, as the DOM role they get. */
const ACTIONABLE = { row: 'button', back: 'button', close: 'button', delete: 'button', mask: 'button', switch: 'switch', tab: 'tab' };
/** Roles that group tabs into a tablist. */
const TAB_BARS = new Set(['tabbar', 'sidebar']);
/** The device's chrome, drawn over the app but no part of it: not read (its clock is always 9:41). */
const CHROME = new Set(['statusbar', 'homeindicator']);
/** A node this transparent or less is not seen, so not read either. */
const INVISIBLE_ALPHA = 0.01;

/**
 * The accessible picture of a display list (paint order, v1-shaped items as delta.js and
 * tree.js give them).
 *
 * A node belongs to the last page (`role: page`) painted before it that contains its centre, and
 * a text to the last button of the same page painted before it that contains its centre (the
 * node's parent in the scene: pre-order puts children right after their parent, and of two
 * pages the one painted later covers the other). Nodes outside `viewport` (or their clip) or
 * invisible are left out, and so are the status bar and home indicator and the nodes painted
 * after them inside them (their time and icons).
 *
 * Reading order: each page's entries top to bottom (then left to right), pages in the order of
 * their left edges, then the entries outside any page (the tab bar) the same way.
 *
 * @param {object[]} nodes display items in paint order.
 * @param {{width:number, height:number}} viewport the session's viewport, in points.
 * @returns {object[]} entries `{id, role, name, description, frame, page, selected?, tabs?}`,
 *   `role` one of `button`, `tab`, `tablist`, `heading`, `text`; a tablist holds its tabs in
 *   `tabs`, left to right (top to bottom for a side bar).
 */
export function semantics(nodes, viewport) {
  const pages = [];
  const buttons = [];
  const bars = [];
  const entries = [];
  const chrome = [];
  const byId = new Map();
  const last = (list, point, page) => {
    for (let i = list.length - 1; i >= 0; i--) {
      if ((page === undefined || list[i].page === page) && contains(list[i].frame, point)) return list[i];
    }
    return null;
  };
  for (const node of nodes) {
    if (!visible(node, viewport)) continue;
    const centre = centreOf(node.frame);
    if (CHROME.has(node.role)) {
      chrome.push(node.frame);
      continue;
    }
    if (chrome.some((frame) => contains(frame, centre))) continue;
    const page = last(pages, centre)?.id ?? null;
    if (node.role === 'page') {
      pages.push({ id: node.id, frame: node.frame, left: node.frame[0] });
      continue;
    }
    if (TAB_BARS.has(node.role)) {
      // A tab bar lies over the pages, not in one: it reads after them wherever they are.
      const bar = { id: node.id, role: 'tablist', name: node.name === 'sidebar' ? 'Tabs' : 'Tab bar', description: '', frame: node.frame, page: null, tabs: [] };
      bars.push(bar);
      entries.push(bar);
      continue;
    }
    const role = ACTIONABLE[node.role];
    if (role) {
      const entry = { id: node.id, role, name: node.name ?? '', description: '', frame: node.frame, page, texts: [] };
      if (role === 'switch') entry.checked = node.selected === true;
      if (role === 'tab') {
        entry.selected = node.selected === true;
        const bar = last(bars, centre);
        if (bar) bar.tabs.push(entry);
        else entries.push(entry);
      } else {
        entries.push(entry);
      }
      buttons.push(entry);
      byId.set(node.id, entry);
      continue;
    }
    const text = node.text == null ? '' : String(node.text).trim();
    if (!text) continue;
    const owner = last(buttons, centre, page);
    if (owner) owner.texts.push(text);
    else if (node.role === 'header') entries.push({ id: node.id, role: 'heading', name: node.name ?? text, description: '', frame: node.frame, page });
    else entries.push({ id: node.id, role: node.role === 'title' ? 'heading' : 'text', name: text, description: '', frame: node.frame, page });
  }
  for (const entry of byId.values()) {
    if (!entry.name) entry.name = entry.texts[0] ?? '';
    entry.description = entry.texts.filter((text) => text !== entry.name).join(', ');
    delete entry.texts;
  }
  for (const bar of bars) bar.tabs.sort(readingOrder);
  const pageLeft = new Map(pages.map((page, index) => [page.id, [page.left, index]]));
  const groupOf = (entry) => (entry.page === null ? [Infinity, Infinity] : pageLeft.get(entry.page));
  return entries.sort((a, b) => {
    const [leftA, indexA] = groupOf(a);
    const [leftB, indexB] = groupOf(b);
    return leftA - leftB || indexA - indexB || readingOrder(a, b);
  });
}

/** Top to bottom, then left to right, by frame. */
function readingOrder(a, b) {
  return a.frame[1] - b.frame[1] || a.frame[0] - b.frame[0];
}

function visible(node, viewport) {
  if (!(node.alpha > INVISIBLE_ALPHA) || !Array.isArray(node.frame)) return false;
  const [x, y, w, h] = node.frame;
  if (!(w > 0 && h > 0)) return false;
  const overlaps = ([cx, cy, cw, ch]) => x < cx + cw && x + w > cx && y < cy + ch && y + h > cy;
  return overlaps([0, 0, viewport.width, viewport.height]) && (!Array.isArray(node.clip) || overlaps(node.clip));
}

function centreOf([x, y, w, h]) {
  return [x + w / 2, y + h / 2];
}

function contains([x, y, w, h], [px, py]) {
  return px >= x && px <= x + w && py >= y && py <= y + h;
}

/**
 * The top page of a display list: the last page painted, the one a push brings in and a pop
 * takes away. Its heading is where focus goes after navigation.
 * @param {object[]} entries from `semantics`.
 * @param {object[]} nodes the display list they came from.
 * @returns {object|null} its heading entry, or the last heading when no page has one.
 */
export function headingOfTopPage(entries, nodes) {
  const pages = nodes.filter((node) => node.role === 'page');
  const top = pages[pages.length - 1]?.id ?? null;
  const headings = entries.filter((entry) => entry.role === 'heading');
  return headings.find((entry) => entry.page === top) ?? headings[headings.length - 1] ?? null;
}

/**
 * Keeps a DOM mirror in step with the display list. Main thread only (the viewer's).
 */
export class AccessibilityMirror {
  /**
   * @param {object} options
   * @param {HTMLElement} options.root the element laid over the canvas.
   * @param {() => object[]} options.nodes the display list in paint order.
   * @param {() => {width:number, height:number, scale:number}} options.layout the viewport shown
   *   and its CSS pixels per point.
   * @param {(x: number, y: number) => boolean} options.tap taps a viewport point; false when this
   *   window cannot (a watcher), and the buttons say so (`aria-disabled`).
   * @param {() => boolean} options.controlling whether this window drives the session.
   */
  constructor({ root, nodes, layout, tap, controlling }) {
    this.root = root;
    this.nodesOf = nodes;
    this.layoutOf = layout;
    this.tap = tap;
    this.controlling = controlling;
    /** node id -> {element, props}: what each element was last written with. */
    this.elements = new Map();
    this.topHeading = null;
    this.scheduled = false;
    root.addEventListener('click', (event) => this.activate(event));
  }

  /** Asks for an update at the next animation frame; many calls before it make one. */
  invalidate() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.update();
    });
  }

  /** Brings the DOM in step with the current display list now. */
  update() {
    const layout = this.layoutOf();
    this.root.style.width = `${layout.width}px`;
    this.root.style.height = `${layout.height}px`;
    this.root.style.transform = `scale(${layout.scale})`;
    const nodes = this.nodesOf();
    const entries = semantics(nodes, layout);
    const focused = this.focusedId();
    // Stale elements go first: left in place, they would make the ones after them move.
    const seen = new Set(entries.flatMap((entry) => [entry.id, ...(entry.tabs ?? []).map((tab) => tab.id)]));
    let lostFocus = false;
    for (const [id, { element }] of this.elements) {
      if (seen.has(id)) continue;
      if (id === focused) lostFocus = true;
      element.remove();
      this.elements.delete(id);
    }
    const place = (parent, list, origin) => {
      let next = parent.firstElementChild;
      for (const entry of list) {
        const element = this.write(entry, origin);
        if (entry.tabs) place(element, entry.tabs, entry.frame);
        // Moving a focused element would blur it: only out-of-place elements move.
        if (element === next) next = next.nextElementSibling;
        else parent.insertBefore(element, next);
      }
    };
    place(this.root, entries, [0, 0]);
    // A focused element that had to move lost the focus on the way: it gets it back.
    const stillFocused = focused === null ? null : this.elements.get(focused)?.element;
    if (stillFocused && document.activeElement !== stillFocused) stillFocused.focus({ preventScroll: true });
    this.followNavigation(headingOfTopPage(entries, nodes), lostFocus);
  }

  /**
   * Focus follows navigation: when another page comes to the top (a push, a pop, a tab), its
   * heading takes the focus, if the focus was in the mirror and not on a tab that is still
   * there; so does a focused node's disappearance. Focus on nothing (a page just loaded, a
   * mouse user) stays there: a focus ring on the title at load is not what an iPhone shows.
   */
  followNavigation(heading, lostFocus) {
    const changed = heading !== null && heading.id !== this.topHeading;
    if (heading) this.topHeading = heading.id;
    if (!heading || !(changed || lostFocus)) return;
    const active = document.activeElement;
    const onNothing = active === null || active === document.body;
    const inMirror = this.root.contains(active) || (lostFocus && onNothing);
    if (!inMirror || (active?.getAttribute('role') === 'tab' && !lostFocus)) return;
    this.elements.get(heading.id)?.element.focus({ preventScroll: true });
  }

  /** The node id of the focused mirror element, or null. */
  focusedId() {
    const active = document.activeElement;
    return active && this.root.contains(active) ? Number(active.dataset.node) : null;
  }

  /**
   * The element of an entry, created or updated; only what changed is written. `origin` is the
   * viewport point the parent element's box starts at (a tab sits inside its tablist's box).
   */
  write(entry, [originX, originY]) {
    let held = this.elements.get(entry.id);
    if (!held || held.props.role !== entry.role) {
      held?.element.remove();
      held = { element: createElement(entry.role), props: {} };
      held.element.dataset.node = String(entry.id);
      this.elements.set(entry.id, held);
    }
    const { element, props } = held;
    const [x, y, w, h] = entry.frame;
    const disabled = entry.role === 'button' || entry.role === 'tab' || entry.role === 'switch' ? !this.controlling() : undefined;
    const want = {
      role: entry.role, name: entry.name, description: entry.description,
      left: x - originX, top: y - originY, width: w, height: h, x, y, selected: entry.selected, checked: entry.checked, disabled,
    };
    if (props.name !== want.name) {
      if (entry.role === 'tablist') element.setAttribute('aria-label', want.name);
      else element.textContent = want.name;
    }
    if (props.description !== want.description) setAttribute(element, 'aria-description', want.description || null);
    for (const key of ['left', 'top', 'width', 'height']) {
      if (props[key] !== want[key]) element.style[key] = `${want[key]}px`;
    }
    if (props.selected !== want.selected) setAttribute(element, 'aria-selected', want.selected === undefined ? null : String(want.selected));
    if (props.checked !== want.checked) setAttribute(element, 'aria-checked', want.checked === undefined ? null : String(want.checked));
    if (props.disabled !== want.disabled) setAttribute(element, 'aria-disabled', want.disabled ? 'true' : null);
    held.props = want;
    return element;
  }

  /** A click on a button (Enter, Space, a screen reader's activation) taps its node's centre. */
  activate(event) {
    const element = event.target.closest?.('[data-node]');
    const held = element && this.elements.get(Number(element.dataset.node));
    if (!held || !(held.props.role === 'button' || held.props.role === 'tab')) return;
    event.preventDefault();
    const { x, y, width, height } = held.props;
    this.tap(x + width / 2, y + height / 2);
  }
}

/** A new element for a DOM role. */
function createElement(role) {
  let element;
  if (role === 'button' || role === 'tab' || role === 'switch') {
    element = document.createElement('button');
    element.type = 'button';
    if (role !== 'button') element.setAttribute('role', role);
  } else if (role === 'tablist') {
    element = document.createElement('div');
    element.setAttribute('role', 'tablist');
  } else if (role === 'heading') {
    element = document.createElement('h1');
    // Focus lands here after navigation, but Tab skips it: it is not a control.
    element.tabIndex = -1;
  } else {
    element = document.createElement('p');
  }
  element.className = `a11y-${role}`;
  return element;
}

function setAttribute(element, name, value) {
  if (value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}
