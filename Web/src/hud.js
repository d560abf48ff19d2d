// The heads-up display: the viewer's live figures (see stats.js) in a small panel.

const REFRESH_MS = 250;

/** Formats a number of milliseconds, or a dash before the first sample. */
function ms(value) {
  return value === null ? '–' : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
}

/**
 * Shows the figures while visible, refreshed four times a second (not per frame: the HUD must not
 * cost what it measures).
 */
export class Hud {
  /**
   * @param {HTMLElement} element the panel.
   * @param {() => object} figures returns stats.snapshot(now) plus `seq` and `nodes`.
   */
  constructor(element, figures) {
    this.element = element;
    this.figures = figures;
    this.timer = null;
  }

  get visible() {
    return !this.element.hidden;
  }

  /** Shows or hides the panel; returns whether it is now visible. */
  toggle(show = !this.visible) {
    this.element.hidden = !show;
    clearInterval(this.timer);
    if (show) {
      this.render();
      this.timer = setInterval(() => this.render(), REFRESH_MS);
    }
    return show;
  }

  render() {
    this.element.replaceChildren(...hudRows(this.figures()).map(([label, value]) => {
      const row = document.createElement('div');
      const name = document.createElement('span');
      const figure = document.createElement('b');
      name.textContent = label;
      figure.textContent = value;
      row.append(name, figure);
      return row;
    }));
  }
}

/**
 * The HUD's rows, `[label, value]`, for figures from stats.snapshot plus `seq` and `nodes`. With
 * nothing drawn in the last second the first row says `idle`: a still picture is not a frozen one.
 * @param {object} f
 * @returns {string[][]}
 */
export function hudRows(f) {
  return [
    f.fps === 0 ? ['drawing', 'idle'] : ['fps drawn', String(f.fps)],
    ['round trip', ms(f.roundTripMs)],
    ['input → frame', ms(f.inputToFrameMs)],
    ['bytes / frame', f.bytesPerFrame === null ? '–' : String(Math.round(f.bytesPerFrame))],
    ['frames received', String(f.frames)],
    ['pictures drawn', String(f.presented ?? 0)],
    ['frames skipped', String(f.framesSkipped)],
    ['seq', f.seq === null ? '–' : String(f.seq)],
    ['nodes', String(f.nodes)],
  ];
}
