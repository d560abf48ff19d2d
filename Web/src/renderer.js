// The display: draws a display list (docs/protocol.md §3.1, NODE fields) on a canvas 2D context,
// sharp at any devicePixelRatio, only when something changed and at the display's rate.

import { drawIcon } from './icons.js';

/** Font families close to the platform the apps imitate; Arial maps to Liberation Sans on Linux. */
const FONT_FAMILY = '-apple-system, BlinkMacSystemFont, "SF Pro Text", "Segoe UI", Roboto, ' +
  '"Helvetica Neue", Arial, "Liberation Sans", sans-serif';
const FONT_WEIGHTS = {
  ultralight: 100, thin: 200, light: 300, regular: 400, normal: 400, medium: 500,
  semibold: 600, bold: 700, heavy: 800, black: 900,
};
const DEFAULT_FONT_SIZE = 17;
const DEFAULT_COLOR = '#000000';
/** Shadows are cast by a copy of the shape drawn this far away (see drawShadow). */
const SHADOW_CASTER_OFFSET = 100000;
const TEXT_CACHE_LIMIT = 1000;

/**
 * Draws display lists on one canvas.
 */
export class Renderer {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(now?: number) => object[]} nodes the display list to draw, in paint order, given the
   *   time of the display frame (a playout's picture depends on it).
   * @param {(now: number, nodes: object[]) => void} [onDraw] called after each draw with the
   *   nodes drawn (for the fps and picture counters and the draw trace).
   */
  constructor(canvas, nodes, onDraw = () => {}) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.nodes = nodes;
    this.onDraw = onDraw;
    this.scaleX = 1;
    this.scaleY = 1;
    /** Drawn after the nodes, in viewport coordinates: `(ctx, nodes, pixel) => void`. */
    this.overlay = null;
    this.scheduled = false;
    this.fittedText = new Map();
    this.fontMetrics = new Map();
  }

  /**
   * Sizes the canvas: `cssWidth` × `cssHeight` on the page, a backing store of that times the
   * devicePixelRatio, showing a viewport of `viewport.width` × `viewport.height` points.
   */
  resize(cssWidth, cssHeight, viewport, dpr = window.devicePixelRatio || 1) {
    this.canvas.style.width = `${cssWidth}px`;
    this.canvas.style.height = `${cssHeight}px`;
    this.canvas.width = Math.max(1, Math.round(cssWidth * dpr));
    this.canvas.height = Math.max(1, Math.round(cssHeight * dpr));
    this.scaleX = this.canvas.width / viewport.width;
    this.scaleY = this.canvas.height / viewport.height;
    this.invalidate();
  }

  /** Asks for a draw at the next animation frame; many calls before it make one draw. */
  invalidate() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame((now) => {
      this.scheduled = false;
      this.onDraw(now, this.draw(now));
    });
  }

  /**
   * Draws the display list now; returns it.
   * @param {number} [now] the display frame's time (requestAnimationFrame's).
   */
  draw(now) {
    const { ctx, canvas } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(this.scaleX, 0, 0, this.scaleY, 0, 0);
    const nodes = this.nodes(now);
    for (const node of nodes) this.drawNode(node);
    if (this.overlay) {
      ctx.save();
      this.overlay(ctx, nodes, 1 / this.scaleX);
      ctx.restore();
    }
    return nodes;
  }

  drawNode(node) {
    const alpha = node.alpha ?? 1;
    if (!(alpha > 0) || !Array.isArray(node.frame)) return;
    let [x, y, w, h] = node.frame;
    if (!(w > 0 && h > 0)) return;
    const { ctx } = this;
    ctx.save();
    ctx.globalAlpha = Math.min(1, alpha);
    if (Array.isArray(node.clip)) {
      shape(ctx, ...node.clip, node.clipRadius > 0 ? node.clipRadius : 0);
      ctx.clip();
    }
    // A scaled node (a page scaled back under a sheet): its frame is already scaled; its text,
    // corners, border, shadow and icon are drawn at their own size in a scaled space.
    const scale = node.scale > 0 ? node.scale : 1;
    if (scale !== 1) {
      ctx.translate(x, y);
      ctx.scale(scale, scale);
      [x, y, w, h] = [0, 0, w / scale, h / scale];
    }
    const radius = Math.max(0, Math.min(node.radius ?? 0, w / 2, h / 2));
    if (node.shadow) this.drawShadow(node.shadow, x, y, w, h, radius, scale);
    if (node.fill) {
      setStyle(ctx, 'fillStyle', node.fill);
      if (radius > 0) shape(ctx, x, y, w, h, radius);
      else shape(ctx, ...snapHairline([x, y, w, h], this.scaleX * scale, this.scaleY * scale), 0);
      ctx.fill();
    }
    if (node.border?.width > 0) {
      // UIKit draws borders inside the bounds: stroke a path inset by half the width.
      const inset = Math.min(node.border.width, w, h) / 2;
      setStyle(ctx, 'strokeStyle', node.border.color ?? DEFAULT_COLOR);
      ctx.lineWidth = inset * 2;
      shape(ctx, x + inset, y + inset, w - 2 * inset, h - 2 * inset, Math.max(0, radius - inset));
      ctx.stroke();
    }
    if (node.kind === 'text' && node.text != null && node.text !== '') this.drawText(node, x, y, w, h);
    else if (node.kind === 'icon' && node.icon) drawIcon(ctx, node.icon, [x, y, w, h], node.color ?? DEFAULT_COLOR);
    ctx.restore();
  }

  /**
   * Draws only the shadow of a shape: the shape itself is drawn far outside the canvas and its
   * shadow offset brings the shadow back, so a node without a fill still casts one. Canvas
   * shadow offsets and blur ignore the transform, hence the scaling to device pixels (times the
   * node's own `scale`).
   */
  drawShadow(shadow, x, y, w, h, radius, scale = 1) {
    const { ctx } = this;
    ctx.save();
    setStyle(ctx, 'shadowColor', shadow.color ?? '#00000033');
    ctx.shadowBlur = (shadow.blur ?? 0) * scale * (this.scaleX + this.scaleY) / 2;
    ctx.shadowOffsetX = ((shadow.x ?? 0) + SHADOW_CASTER_OFFSET) * this.scaleX * scale;
    ctx.shadowOffsetY = (shadow.y ?? 0) * this.scaleY * scale;
    ctx.fillStyle = '#000000';
    shape(ctx, x - SHADOW_CASTER_OFFSET, y, w, h, radius);
    ctx.fill();
    ctx.restore();
  }

  /**
   * One line of text, aligned as asked, vertically centred, with an ellipsis when too wide. The
   * server sizes a centred label (a bar's title, a tab's name) to its text as its own font
   * metrics measure it; the browser's font may draw it a little wider, so centred text may spill
   * out of its box on both sides by up to CENTRED_SPILL of its width before it is cut.
   */
  drawText(node, x, y, w, h) {
    const { ctx } = this;
    const font = fontString(node.font);
    ctx.font = font;
    setStyle(ctx, 'fillStyle', node.color ?? DEFAULT_COLOR);
    const align = node.align === 'center' || node.align === 'right' ? node.align : 'left';
    ctx.textAlign = align;
    ctx.textBaseline = 'alphabetic';
    const { ascent, descent } = this.metrics(font);
    const anchorX = align === 'center' ? x + w / 2 : align === 'right' ? x + w : x;
    const room = align === 'center' ? w * (1 + 2 * CENTRED_SPILL) : w;
    ctx.fillText(this.fit(String(node.text), font, room), anchorX, y + h / 2 + (ascent - descent) / 2);
  }

  /** The font's ascent and descent, to centre its line box the way a label does. */
  metrics(font) {
    let metrics = this.fontMetrics.get(font);
    if (!metrics) {
      const measured = this.ctx.measureText('Hg');
      metrics = {
        ascent: measured.fontBoundingBoxAscent ?? measured.actualBoundingBoxAscent,
        descent: measured.fontBoundingBoxDescent ?? measured.actualBoundingBoxDescent,
      };
      this.fontMetrics.set(font, metrics);
    }
    return metrics;
  }

  /**
   * The longest prefix of `text` that fits `width` with an ellipsis, or `text` when it fits.
   * Frames of a transition repeat the same labels, so results are cached.
   */
  fit(text, font, width) {
    const key = `${font}|${width}|${text}`;
    let fitted = this.fittedText.get(key);
    if (fitted !== undefined) return fitted;
    fitted = text;
    if (this.ctx.measureText(text).width > width) {
      const chars = Array.from(text);
      let low = 0;
      let high = chars.length;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (this.ctx.measureText(`${chars.slice(0, mid).join('').trimEnd()}…`).width <= width) low = mid;
        else high = mid - 1;
      }
      fitted = `${chars.slice(0, low).join('').trimEnd()}…`;
    }
    if (this.fittedText.size >= TEXT_CACHE_LIMIT) this.fittedText.clear();
    this.fittedText.set(key, fitted);
    return fitted;
  }
}

/** How far centred text may spill out of each side of its box, as a share of the box's width. */
export const CENTRED_SPILL = 0.125;

/** Thinner than this many device pixels, a filled rectangle is a hairline (see snapHairline). */
const HAIRLINE_PIXELS = 2;

/**
 * A hairline (a separator, 0.5 pt high or wide) snapped to whole device pixels, at least one:
 * drawn where it falls, it would be smeared over two pixel rows at a fraction of its colour, and
 * the separators of a list would come out in different greys as their positions vary. It ends
 * on the last pixel boundary at or before its own end, so it stays clear of the row below it
 * (painted after it, whose top edge shares that pixel). Other rectangles are returned unchanged.
 * @param {number[]} frame `[x, y, w, h]` in viewport points.
 * @param {number} scaleX device pixels per point across.
 * @param {number} scaleY device pixels per point down.
 * @returns {number[]} `[x, y, w, h]` in viewport points.
 */
export function snapHairline([x, y, w, h], scaleX, scaleY) {
  if (h * scaleY < HAIRLINE_PIXELS && h < w) {
    const [top, height] = snapSpan(y, h, scaleY);
    return [x, top, w, height];
  }
  if (w * scaleX < HAIRLINE_PIXELS && w < h) {
    const [left, width] = snapSpan(x, w, scaleX);
    return [left, y, width, h];
  }
  return [x, y, w, h];
}

/** `[start, length]` in points of a span `length` long at `start`, on whole pixels (see above). */
function snapSpan(start, length, scale) {
  const pixels = Math.max(1, Math.round(length * scale));
  const end = Math.floor((start + length) * scale + 1e-6);
  return [(end - pixels) / scale, pixels / scale];
}

/** A CSS font from a node's `font` `{size, weight}`; weight is a number or a name. */
function fontString(font) {
  const size = font?.size ?? DEFAULT_FONT_SIZE;
  const weight = typeof font?.weight === 'number' ? font.weight : FONT_WEIGHTS[font?.weight] ?? 400;
  return `${weight} ${size}px ${FONT_FAMILY}`;
}

/**
 * Sets a colour. Canvas ignores a value it cannot parse and keeps the previous one, which would
 * paint this node in the last node's colour: reset to transparent first.
 */
function setStyle(ctx, property, value) {
  ctx[property] = 'transparent';
  ctx[property] = value;
}

/** Begins a path for a rectangle with corner radius `radius`. */
function shape(ctx, x, y, w, h, radius) {
  ctx.beginPath();
  if (radius > 0) ctx.roundRect(x, y, w, h, radius);
  else ctx.rect(x, y, w, h);
}
