// Input: pointer (mouse, touch, pen), wheel and Escape key events on the canvas, turned into
// protocol messages in viewport coordinates. Moves go through the coalescer: at most one message
// per pointer per animation frame, with every sample and its timestamp. Each move is also reported
// at once (`moved`), before it is sent, so that pointer bindings (bindings.js) can move the picture
// with it at the next draw.

import { MoveCoalescer } from './coalescer.js';
import { round2 } from './viewport.js';

/** Wheel `deltaMode` units in CSS pixels: pixels, lines, pages (a page is taken as 800 px). */
const WHEEL_UNIT = [1, 16, 800];

/**
 * Forwards a controlling viewer's input. Watchers never create one.
 */
export class PointerInput {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(message: object) => void} send
   * @param {(clientX: number, clientY: number) => number[]} toViewport page to viewport points.
   * @param {(id: number, x: number, y: number) => void} [moved] a pointer that is down moved to
   *   (x, y) in viewport points (its last coalesced sample), before the move is sent.
   */
  constructor(canvas, send, toViewport, moved = () => {}) {
    this.canvas = canvas;
    this.send = send;
    this.toViewport = toViewport;
    this.moved = moved;
    this.coalescer = new MoveCoalescer(send);
    /** pointer id -> last [x, y] in viewport points, for the pointers that are down. */
    this.down = new Map();
    this.flushRequested = false;
    const listeners = {
      pointerdown: (e) => this.pointerDown(e),
      pointermove: (e) => this.pointerMove(e),
      pointerup: (e) => this.pointerEnd(e, 'up'),
      pointercancel: (e) => this.pointerEnd(e, 'cancel'),
      // Capture lost without an up (the element went away, another capture took over): the
      // server must not be left with a finger that never lifts.
      lostpointercapture: (e) => this.pointerEnd(e, 'cancel'),
      wheel: (e) => this.wheel(e),
      contextmenu: (e) => e.preventDefault(),
    };
    for (const [type, listener] of Object.entries(listeners)) {
      canvas.addEventListener(type, listener, { passive: false });
    }
    window.addEventListener('blur', () => this.cancelAll());
    window.addEventListener('keydown', (e) => this.key(e));
  }

  pointerDown(e) {
    if (e.button !== 0) return;
    e.preventDefault();
    try {
      this.canvas.setPointerCapture(e.pointerId);
    } catch {
      // The pointer is already gone (released before this handler ran): nothing to capture,
      // and its up, if any, still reaches the canvas.
    }
    const [x, y] = this.toViewport(e.clientX, e.clientY);
    this.down.set(e.pointerId, [x, y]);
    this.coalescer.flush();
    this.send({ type: 'pointer', phase: 'down', id: e.pointerId, x, y, t: round2(e.timeStamp) });
  }

  pointerMove(e) {
    if (!this.down.has(e.pointerId)) return;
    const events = e.getCoalescedEvents?.() ?? [];
    const samples = (events.length ? events : [e]).map((event) => [
      ...this.toViewport(event.clientX, event.clientY), round2(event.timeStamp),
    ]);
    const [x, y] = samples[samples.length - 1];
    this.down.set(e.pointerId, [x, y]);
    this.coalescer.add(e.pointerId, samples);
    this.moved(e.pointerId, x, y);
    if (!this.flushRequested) {
      this.flushRequested = true;
      requestAnimationFrame(() => {
        this.flushRequested = false;
        this.coalescer.flush();
      });
    }
  }

  /** Ends a pointer with `up` or `cancel`, after its pending moves, so order is kept. */
  pointerEnd(e, phase) {
    if (!this.down.has(e.pointerId)) return;
    const [x, y] = phase === 'up' ? this.toViewport(e.clientX, e.clientY) : this.down.get(e.pointerId);
    this.down.delete(e.pointerId);
    this.coalescer.flush();
    this.send({ type: 'pointer', phase, id: e.pointerId, x, y, t: round2(e.timeStamp) });
  }

  /** The window lost focus: a pointer held down will not report its up to us. */
  cancelAll() {
    const t = round2(performance.now());
    this.coalescer.flush();
    for (const [id, [x, y]] of this.down) this.send({ type: 'pointer', phase: 'cancel', id, x, y, t });
    this.down.clear();
  }

  wheel(e) {
    e.preventDefault();
    const [x, y] = this.toViewport(e.clientX, e.clientY);
    const unit = WHEEL_UNIT[e.deltaMode] ?? 1;
    // Map the delta through the same scaling as positions: content follows the fingers.
    const [endX, endY] = this.toViewport(e.clientX + e.deltaX * unit, e.clientY + e.deltaY * unit);
    this.send({ type: 'scroll', x, y, dx: round2(endX - x), dy: round2(endY - y), t: round2(e.timeStamp) });
  }

  key(e) {
    if (e.key !== 'Escape' || e.repeat) return;
    this.send({ type: 'key', key: 'Escape' });
  }
}
