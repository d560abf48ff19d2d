// The viewer's icon set, drawn with canvas paths (no images, no icon fonts): crisp at any size
// and any devicePixelRatio, nothing to load. Each icon is SVG path data on a 24 × 24 grid,
// stroked 2 units wide with round caps, or filled.

/** Path data of a circle, for composing icons. */
function circle(cx, cy, r) {
  return `M${cx + r} ${cy} A${r} ${r} 0 1 1 ${cx - r} ${cy} A${r} ${r} 0 1 1 ${cx + r} ${cy} Z`;
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

const CHEVRON_LEFT = { stroke: 'M15 4.5 L7.5 12 L15 19.5' };

/** name -> {stroke?: path data, fill?: path data}. */
const ICONS = {
  back: CHEVRON_LEFT,
  'chevron.left': CHEVRON_LEFT,
  'chevron.right': { stroke: 'M9 4.5 L16.5 12 L9 19.5' },
  home: { stroke: 'M3 11 L12 3.5 L21 11 M5.5 9 V20.5 H10 V14.5 H14 V20.5 H18.5 V9' },
  search: { stroke: `${circle(10.5, 10.5, 6.5)} M15.3 15.3 L20.5 20.5` },
  library: { stroke: 'M3.5 3.5 H7.5 V20.5 H3.5 Z M9.5 3.5 H13.5 V20.5 H9.5 Z M15.3 5 L19 4 L22 19.6 L18.3 20.6 Z' },
  music: { stroke: 'M8.6 17.5 V5.6 L19.6 3.5 V15.5', fill: `${circle(6.1, 17.5, 2.8)} ${circle(17.1, 15.5, 2.8)}` },
  settings: { stroke: gear(8, 10, 7.4, 3) },
  play: { stroke: 'M7 4.5 L19.5 12 L7 19.5 Z', fill: 'M7 4.5 L19.5 12 L7 19.5 Z' },
  pause: { fill: 'M6 4.5 H10 V19.5 H6 Z M14 4.5 H18 V19.5 H14 Z' },
  plus: { stroke: 'M12 4.5 V19.5 M4.5 12 H19.5' },
  more: { fill: `${circle(5, 12, 2)} ${circle(12, 12, 2)} ${circle(19, 12, 2)}` },
  close: { stroke: 'M6 6 L18 18 M18 6 L6 18' },
  person: { stroke: `${circle(12, 8, 3.8)} M4.5 20.5 C4.5 16.2 8 13.8 12 13.8 C16 13.8 19.5 16.2 19.5 20.5` },
};

/** Drawn for a name the set does not have: visible, so the gap is noticed, but quiet. */
const PLACEHOLDER = { stroke: 'M7 7 H17 V17 H7 Z' };

const compiled = new Map();

/** The Path2D objects of an icon, built once. */
function paths(name) {
  let entry = compiled.get(name);
  if (!entry) {
    const icon = Object.hasOwn(ICONS, name) ? ICONS[name] : PLACEHOLDER;
    entry = {
      stroke: icon.stroke ? new Path2D(icon.stroke) : null,
      fill: icon.fill ? new Path2D(icon.fill) : null,
    };
    compiled.set(name, entry);
  }
  return entry;
}

/**
 * Draws an icon as large as fits, centred in `frame`. Unknown names draw a placeholder square.
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} name
 * @param {number[]} frame `[x, y, w, h]` in viewport points.
 * @param {string} color
 */
export function drawIcon(ctx, name, frame, color) {
  const [x, y, w, h] = frame;
  const size = Math.min(w, h);
  if (!(size > 0)) return;
  const { stroke, fill } = paths(String(name));
  ctx.save();
  ctx.translate(x + (w - size) / 2, y + (h - size) / 2);
  ctx.scale(size / 24, size / 24);
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  if (fill) ctx.fill(fill);
  if (stroke) ctx.stroke(stroke);
  ctx.restore();
}
