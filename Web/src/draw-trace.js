// What each canvas draw showed, for tools that measure motion as a person sees it (Scripts/wan):
// the draw's time and the frames of its pages. Off until asked for, so a normal viewer keeps
// nothing; whatever computes the picture, the trace holds what the renderer was given to draw.

/** A tool that forgets to collect stops recording here rather than growing without bound. */
const MAX_RECORDS = 20000;

/**
 * Records draws while on.
 */
export class DrawTrace {
  constructor() {
    /** The draws recorded since the last take, or null when off. */
    this.records = null;
  }

  /** Starts recording afresh (`on`), or stops and drops what was recorded. */
  start(on = true) {
    this.records = on ? [] : null;
  }

  /**
   * A draw of `nodes` (in paint order) at the animation frame of time `t` (performance.now()'s
   * clock, the same for every callback of one display frame).
   */
  drawn(t, nodes) {
    if (!this.records || this.records.length >= MAX_RECORDS) return;
    const pages = [];
    for (const node of nodes) {
      if (node.role === 'page' && Array.isArray(node.frame)) pages.push({ id: node.id, frame: [...node.frame] });
    }
    this.records.push({ t, pages });
  }

  /** The draws recorded so far, in order, each `{t, pages: [{id, frame: [x, y, w, h]}]}`; clears them. */
  take() {
    const records = this.records ?? [];
    if (this.records) this.records = [];
    return records;
  }
}
