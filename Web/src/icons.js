// The viewer's icon set, drawn with canvas paths (no images, no icon fonts): crisp at any size
// and any devicePixelRatio, nothing to load. Each icon is SVG path data on a 24 × 24 grid,
// stroked 2 units wide with round caps, or filled, and maybe a `faint` part filled at 35 %
// opacity (the battery's outline). The grid square is fitted into the node's frame, except for an
// icon with its own `box` (the part of the grid that fills the frame).

/** Path data of a circle, for composing icons. */
function circle(cx, cy, r) {
  return `M${cx + r} ${cy} A${r} ${r} 0 1 1 ${cx - r} ${cy} A${r} ${r} 0 1 1 ${cx + r} ${cy} Z`;
}

/**
 * Path data of a rounded rectangle, clockwise; `hole` draws it counter-clockwise, so that inside
 * a clockwise shape it is left unfilled (the non-zero rule).
 */
function roundedRect(x, y, w, h, r, hole = false) {
  const arc = (dx, dy) => `a${r} ${r} 0 0 ${hole ? 0 : 1} ${dx} ${dy}`;
  return hole
    ? `M${x + r} ${y} ${arc(-r, r)} v${h - 2 * r} ${arc(r, r)} h${w - 2 * r} ${arc(r, -r)} v${-(h - 2 * r)} ${arc(-r, -r)} Z`
    : `M${x + r} ${y} h${w - 2 * r} ${arc(r, r)} v${h - 2 * r} ${arc(-r, r)} h${-(w - 2 * r)} ${arc(-r, -r)} v${-(h - 2 * r)} ${arc(r, -r)} Z`;
}

/** A gear: `teeth` trapezoids around a ring, and the hole in the middle. */
function gear(teeth, outer, inner, hole) {
  const points = [];
  for (let k = 0; k < teeth; k++) {
    const a = (k * 2 * Math.PI) / teeth;
    for (const [radius, offset] of [[inner, -0.3], [outer, -0.17], [outer, 0.17], [inner, 0.3]]) {
      points.push([12 + radius * Math.cos(a + offset), 12 + radius * Math.sin(a + offset)]);
    }
  }
  const ring = points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(2)} ${y.toFixed(2)}`).join(' ');
  return `${ring} Z ${circle(12, 12, hole)}`;
}

const CHEVRON_LEFT = 'M15 4.5 L7.5 12 L15 19.5';
const HOME = { stroke: 'M3 11 L12 3.5 L21 11 M5.5 9 V20.5 H10 V14.5 H14 V20.5 H18.5 V9' };
/** The whole 24 × 24 design grid: `[x, y, width, height]`. */
const GRID = Object.freeze([0, 0, 24, 24]);

/** name -> {stroke?, fill?, faint?: path data, box?: [x, y, w, h] of the grid}. */
const ICONS = {
  // The back indicator fills its frame, as UIKit's backIndicatorImage (a 13 × 21 pt chevron)
  // fills its image view: its box is the chevron and its round caps, without the grid's margin.
  back: { stroke: CHEVRON_LEFT, box: [6.5, 3.5, 9.5, 17] },
  'chevron.left': { stroke: CHEVRON_LEFT },
  'chevron.right': { stroke: 'M9 4.5 L16.5 12 L9 19.5' },
  home: HOME,
  house: HOME,
  // A tab without an icon of its own shows `circle` (docs/protocol.md, NODE fields).
  circle: { stroke: circle(12, 12, 8.5) },
  envelope: { stroke: 'M3 6 H21 V18 H3 Z M3.5 6.5 L12 13 L20.5 6.5' },
  search: { stroke: `${circle(10.5, 10.5, 6.5)} M15.3 15.3 L20.5 20.5` },
  library: { stroke: 'M3.5 3.5 H7.5 V20.5 H3.5 Z M9.5 3.5 H13.5 V20.5 H9.5 Z M15.3 5 L19 4 L22 19.6 L18.3 20.6 Z' },
  music: { stroke: 'M8.6 17.5 V5.6 L19.6 3.5 V15.5', fill: `${circle(6.1, 17.5, 2.8)} ${circle(17.1, 15.5, 2.8)}` },
  settings: { stroke: gear(8, 10, 7.4, 3) },
  play: { stroke: 'M7 4.5 L19.5 12 L7 19.5 Z', fill: 'M7 4.5 L19.5 12 L7 19.5 Z' },
  pause: { fill: 'M6 4.5 H10 V19.5 H6 Z M14 4.5 H18 V19.5 H14 Z' },
  plus: { stroke: 'M12 4.5 V19.5 M4.5 12 H19.5' },
  cart: { stroke: 'M2.5 4 H5.5 L8 15 H18 L20.5 7.5 H6.5', fill: `${circle(9.5, 19, 1.6)} ${circle(16.5, 19, 1.6)}` },
  more: { fill: `${circle(5, 12, 2)} ${circle(12, 12, 2)} ${circle(19, 12, 2)}` },
  close: { stroke: 'M6 6 L18 18 M18 6 L6 18' },
  // The status bar's Wi-Fi: a dot and two arcs about it, filling its frame (16 × 12 pt).
  wifi: {
    stroke: 'M7.76 14.76 A6 6 0 0 1 16.24 14.76 M4.22 11.22 A11 11 0 0 1 19.78 11.22',
    fill: circle(12, 19, 1.8),
    box: [3, 7, 18, 14],
  },
  // The status bar's cellular signal: four bars rising to the right, full strength (17 × 12 pt).
  signal: {
    fill: [4, 6.6, 9.2, 11.8].map((h, i) => roundedRect(i * 14 / 3, 12 - h, 3, h, 1)).join(' '),
    box: [0, 0, 17, 12],
  },
  // The status bar's battery, full (28 × 13 pt): a 1 pt outline and the cap at 35 %, the level
  // inside at full colour.
  battery: {
    faint: `${roundedRect(0, 0, 25, 13, 4)} ${roundedRect(1, 1, 23, 11, 3, true)} ${roundedRect(26, 4.5, 2, 4, 1)}`,
    fill: roundedRect(2, 2, 21, 9, 2.5),
    box: [0, 0, 28, 13],
  },
  person: { stroke: `${circle(12, 8, 3.8)} M4.5 20.5 C4.5 16.2 8 13.8 12 13.8 C16 13.8 19.5 16.2 19.5 20.5` },
};

/** The opacity of an icon's `faint` part, as iOS draws the battery's outline. */
const FAINT_ALPHA = 0.35;

/** Drawn for a name the set does not have: visible, so the gap is noticed, but quiet. */
const PLACEHOLDER = { stroke: 'M7 7 H17 V17 H7 Z' };

const compiled = new Map();

function definition(name) {
  return Object.hasOwn(ICONS, name) ? ICONS[name] : PLACEHOLDER;
}

/** Whether the set has an icon called `name` (others draw a placeholder). */
export function hasIcon(name) {
  return Object.hasOwn(ICONS, String(name));
}

/**
 * Where an icon's grid goes in `frame`: its box scaled to fit (the same scale on both axes)
 * and centred. The grid point (gx, gy) lands at (x + gx × scale, y + gy × scale).
 * @param {string} name
 * @param {number[]} frame `[x, y, w, h]` in viewport points.
 * @returns {{x:number, y:number, scale:number}|null} null for an empty frame.
 */
export function iconPlacement(name, frame) {
  const [x, y, w, h] = frame;
  const [bx, by, bw, bh] = definition(String(name)).box ?? GRID;
  const scale = Math.min(w / bw, h / bh);
  if (!(scale > 0)) return null;
  return {
    x: x + (w - bw * scale) / 2 - bx * scale,
    y: y + (h - bh * scale) / 2 - by * scale,
    scale,
  };
}

/** The Path2D objects of an icon, built once. */
function paths(name) {
  let entry = compiled.get(name);
  if (!entry) {
    const icon = definition(name);
    entry = {
      stroke: icon.stroke ? new Path2D(icon.stroke) : null,
      fill: icon.fill ? new Path2D(icon.fill) : null,
      faint: icon.faint ? new Path2D(icon.faint) : null,
    };
    compiled.set(name, entry);
  }
  return entry;
}

/**
 * Draws an icon as large as fits, centred in `frame` (see iconPlacement). Unknown names draw a
 * placeholder square.
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} name
 * @param {number[]} frame `[x, y, w, h]` in viewport points.
 * @param {string} color
 */
export function drawIcon(ctx, name, frame, color) {
  const placement = iconPlacement(name, frame);
  if (!placement) return;
  const { stroke, fill, faint } = paths(String(name));
  ctx.save();
  ctx.translate(placement.x, placement.y);
  ctx.scale(placement.scale, placement.scale);
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  if (fill) ctx.fill(fill);
  if (stroke) ctx.stroke(stroke);
  if (faint) {
    ctx.globalAlpha *= FAINT_ALPHA;
    ctx.fill(faint);
  }
  ctx.restore();
}
