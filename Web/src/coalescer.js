// Pointer-move coalescing (pure, no DOM): a pointer can report hundreds of moves a second, but the
// server only needs them once per display frame. Moves of each pointer are gathered, with their
// own timestamps (the server's velocity tracker uses the viewer's times, not arrival times), and
// sent as one message per pointer per animation frame.

/**
 * Gathers move samples per pointer until `flush` sends them.
 */
export class MoveCoalescer {
  /** @param {(message: object) => void} send called with each `pointer` `move` message. */
  constructor(send) {
    this.send = send;
    /** @type {Map<number, number[][]>} pointer id -> samples `[x, y, t]`, oldest first. */
    this.pending = new Map();
  }

  /** True when some moves wait for the next flush. */
  get hasPending() {
    return this.pending.size > 0;
  }

  /**
   * Queues move samples of one pointer.
   * @param {number} id pointer id.
   * @param {number[][]} samples `[x, y, t]` in viewport coordinates, oldest first.
   */
  add(id, samples) {
    if (!samples.length) return;
    const queue = this.pending.get(id);
    if (queue) queue.push(...samples);
    else this.pending.set(id, [...samples]);
  }

  /**
   * Sends the queued moves: one message per pointer, `x`/`y`/`t` from its last sample and every
   * sample in `samples`. Call it once per animation frame, and before a down, up or cancel so
   * the server sees events in the order they happened.
   */
  flush() {
    for (const [id, samples] of this.pending) {
      const [x, y, t] = samples[samples.length - 1];
      this.send({ type: 'pointer', phase: 'move', id, x, y, t, samples });
    }
    this.pending.clear();
  }
}
