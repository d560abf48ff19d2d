// Devices and coordinates (pure, no DOM): which viewport the server lays out, how big it is shown
// in the window, and how page coordinates map to viewport coordinates and back.

const NO_INSETS = Object.freeze({ top: 0, left: 0, bottom: 0, right: 0 });

/**
 * The device presets of `?device=`. `bezel` and the radii are in viewport points and scale with
 * the device; `margin` is CSS pixels kept free around it. `family` names the frame style (the
 * CSS class `device-FAMILY`: the iPhone's camera island, the iPad's rim and camera). `fit` has no
 * bezel and takes the window's whole size. The iPads are landscape, as the tablet app is laid out:
 * a 10-inch iPad at 1024 × 768 and a 12.9-inch iPad Pro at 1366 × 1024, each with a 24 pt status
 * bar and a bezel of the same width all round, as iPads since 2018 have.
 */
export const DEVICES = Object.freeze({
  iphone: {
    label: 'iPhone', family: 'iphone',
    width: 390, height: 844, safeArea: { top: 47, left: 0, bottom: 34, right: 0 },
    bezel: 14, outerRadius: 62, screenRadius: 48, margin: 12,
  },
  ipad: {
    label: 'iPad', family: 'ipad',
    width: 1024, height: 768, safeArea: { top: 24, left: 0, bottom: 0, right: 0 },
    bezel: 32, outerRadius: 50, screenRadius: 18, margin: 12,
  },
  'ipad-pro': {
    label: 'iPad Pro', family: 'ipad',
    width: 1366, height: 1024, safeArea: { top: 24, left: 0, bottom: 0, right: 0 },
    bezel: 36, outerRadius: 54, screenRadius: 18, margin: 12,
  },
  fit: {
    label: 'Fit window', family: 'fit',
    width: null, height: null, safeArea: NO_INSETS, bezel: 0, outerRadius: 0, screenRadius: 0, margin: 0,
  },
});

/** The default device when `?device=` is missing or unknown (see defaultDevice for the app's). */
export const DEFAULT_DEVICE = 'iphone';

/** Apps laid out for another device than the iPhone: the tablet app is an iPad app. */
const APP_DEVICES = Object.freeze({ tablet: 'ipad' });

/**
 * The device an app is shown on when the address names none.
 * @param {string} app
 * @returns {string} a key of DEVICES.
 */
export function defaultDevice(app) {
  return Object.hasOwn(APP_DEVICES, app) ? APP_DEVICES[app] : DEFAULT_DEVICE;
}

/**
 * Lays a device out in the space the window gives it: as large as fits, never cropped or
 * stretched.
 * @param {string} name a key of DEVICES.
 * @param {number} spaceWidth CSS pixels available.
 * @param {number} spaceHeight CSS pixels available.
 * @param {{compact?: boolean}} [how] `compact`: a window about as narrow as a phone, where the
 *   screen goes edge to edge, without bezel or margin.
 * @returns {{name:string, family:string, width:number, height:number, safeArea:object,
 *            scale:number, bezel:number, outerRadius:number, screenRadius:number}}
 *   `width`/`height`/`safeArea` are the viewport the server lays out; `scale` is CSS pixels per
 *   viewport point (the device grows and shrinks with the window); the bezel and radii are
 *   already scaled, in CSS pixels.
 */
export function layoutDevice(name, spaceWidth, spaceHeight, { compact = false } = {}) {
  const key = Object.hasOwn(DEVICES, name) ? name : DEFAULT_DEVICE;
  const device = DEVICES[key];
  if (device.width === null) {
    return {
      name: key, family: device.family, width: Math.max(1, Math.floor(spaceWidth)), height: Math.max(1, Math.floor(spaceHeight)),
      safeArea: { ...NO_INSETS }, scale: 1, bezel: 0, outerRadius: 0, screenRadius: 0,
    };
  }
  return frame(key, device, device, spaceWidth, spaceHeight, compact);
}

/**
 * Lays out the picture of a session whose viewport this viewer does not choose (a watcher's):
 * in the frame of the device of that size if there is one, else without a frame, as large as
 * the space allows, letterboxed, never cropped or stretched.
 * @param {{width:number, height:number, safeArea?:object}} viewport the session's.
 * @param {number} spaceWidth CSS pixels available.
 * @param {number} spaceHeight CSS pixels available.
 * @param {{compact?: boolean}} [how] as layoutDevice's.
 * @returns the same shape as layoutDevice's; `name` is the device's, or `session`.
 */
export function layoutViewport(viewport, spaceWidth, spaceHeight, { compact = false } = {}) {
  const name = deviceForViewport(viewport);
  const device = name ? DEVICES[name] : { family: 'fit', bezel: 0, outerRadius: 0, screenRadius: 0, margin: 0 };
  const shown = { width: viewport.width, height: viewport.height, safeArea: { ...NO_INSETS, ...viewport.safeArea } };
  return frame(name ?? 'session', device, shown, spaceWidth, spaceHeight, compact);
}

/**
 * The device whose screen is `viewport`'s size, or null.
 * @param {{width:number, height:number}} viewport
 * @returns {string|null} a key of DEVICES.
 */
export function deviceForViewport(viewport) {
  return Object.keys(DEVICES).find((name) =>
    DEVICES[name].width === viewport.width && DEVICES[name].height === viewport.height) ?? null;
}

/**
 * True when two viewports lay out the same (size, safe area and scale).
 * @param {object|null} a
 * @param {object|null} b
 */
export function sameViewport(a, b) {
  if (!a || !b) return a === b;
  const edges = ['top', 'left', 'bottom', 'right'];
  return a.width === b.width && a.height === b.height && (a.scale ?? 1) === (b.scale ?? 1)
    && edges.every((edge) => (a.safeArea?.[edge] ?? 0) === (b.safeArea?.[edge] ?? 0));
}

/** `device`'s frame (bezel, radii, margin) around a screen showing `shown`, scaled to the space. */
function frame(name, device, shown, spaceWidth, spaceHeight, compact) {
  const bezel = compact ? 0 : device.bezel;
  const room = compact ? 0 : 2 * device.margin;
  const outerWidth = shown.width + 2 * bezel;
  const outerHeight = shown.height + 2 * bezel;
  const scale = Math.max(0.1, Math.min((spaceWidth - room) / outerWidth, (spaceHeight - room) / outerHeight));
  return {
    name, family: device.family,
    width: shown.width, height: shown.height, safeArea: { ...shown.safeArea },
    scale,
    bezel: bezel * scale, outerRadius: (compact ? 0 : device.outerRadius) * scale,
    screenRadius: (compact ? 0 : device.screenRadius) * scale,
  };
}

/**
 * Maps a point in page (client) coordinates to viewport coordinates.
 * @param {{left:number, top:number, width:number, height:number}} rect the canvas's client rect.
 * @param {{width:number, height:number}} viewport the viewport the server lays out.
 * @returns {[number, number]} rounded to 1/100 point (finer is noise, and costs bytes).
 */
export function clientToViewport(rect, viewport, clientX, clientY) {
  return [
    round2(((clientX - rect.left) * viewport.width) / rect.width),
    round2(((clientY - rect.top) * viewport.height) / rect.height),
  ];
}

/**
 * Maps a point in viewport coordinates to page (client) coordinates: the inverse of
 * clientToViewport, for tools that click on a node.
 * @returns {{x:number, y:number}}
 */
export function viewportToClient(rect, viewport, x, y) {
  return {
    x: rect.left + (x * rect.width) / viewport.width,
    y: rect.top + (y * rect.height) / viewport.height,
  };
}

/** Rounds to two decimals. */
export function round2(value) {
  return Math.round(value * 100) / 100;
}
