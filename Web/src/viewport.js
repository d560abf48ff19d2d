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
    bezel: 14, outerRadius: 62, screenRadius: 48, margin: 20,
  },
  ipad: {
    label: 'iPad 1024 × 768', family: 'ipad',
    width: 1024, height: 768, safeArea: { top: 24, left: 0, bottom: 0, right: 0 },
    bezel: 32, outerRadius: 50, screenRadius: 18, margin: 20,
  },
  'ipad-pro': {
    label: 'iPad Pro 1366 × 1024', family: 'ipad',
    width: 1366, height: 1024, safeArea: { top: 24, left: 0, bottom: 0, right: 0 },
    bezel: 36, outerRadius: 54, screenRadius: 18, margin: 20,
  },
  fit: {
    label: 'fit window', family: 'fit',
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
 * Lays a device out in the space the window gives it.
 * @param {string} name a key of DEVICES.
 * @param {number} spaceWidth CSS pixels available.
 * @param {number} spaceHeight CSS pixels available.
 * @returns {{name:string, family:string, width:number, height:number, safeArea:object,
 *            scale:number, bezel:number, outerRadius:number, screenRadius:number}}
 *   `width`/`height`/`safeArea` are the viewport the server lays out; `scale` is CSS pixels per
 *   viewport point (a device never grows past 1, it only shrinks to fit); the bezel and radii are
 *   already scaled, in CSS pixels.
 */
export function layoutDevice(name, spaceWidth, spaceHeight) {
  const key = Object.hasOwn(DEVICES, name) ? name : DEFAULT_DEVICE;
  const device = DEVICES[key];
  if (device.width === null) {
    return {
      name: key, family: device.family, width: Math.max(1, Math.floor(spaceWidth)), height: Math.max(1, Math.floor(spaceHeight)),
      safeArea: { ...NO_INSETS }, scale: 1, bezel: 0, outerRadius: 0, screenRadius: 0,
    };
  }
  const outerWidth = device.width + 2 * device.bezel;
  const outerHeight = device.height + 2 * device.bezel;
  const room = 2 * device.margin;
  const scale = Math.min(1, (spaceWidth - room) / outerWidth, (spaceHeight - room) / outerHeight);
  return {
    name: key, family: device.family,
    width: device.width, height: device.height, safeArea: { ...device.safeArea },
    scale: Math.max(scale, 0.1),
    bezel: device.bezel * scale, outerRadius: device.outerRadius * scale,
    screenRadius: device.screenRadius * scale,
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
