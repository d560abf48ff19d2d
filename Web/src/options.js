// URL parameters (pure): `?app=NAME&device=iphone|ipad|ipad-pro|fit&session=TOKEN&role=view&wire=json|v1`,
// or `?replay=NAME` to play a recording.

import { REPLAY_NAME } from './replay.js';
import { DEVICES, defaultDevice } from './viewport.js';

/**
 * Frame formats by `?wire=`: protocol v2 binary (the default, the fewest bytes), v2 as JSON
 * text (readable in the browser's network panel) and the flat v1 list (for debugging and
 * comparing the two protocols).
 */
export const WIRES = ['binary', 'json', 'v1'];

/**
 * Reads the viewer's options from a query string. Without `app`, the session's app is the
 * server's (`serve --app`), and known only once it welcomes the viewer. Without a known
 * `device`, `device` is null: the app's own device is used (deviceFor). An unknown `wire` is
 * the default, binary.
 * @param {string} search e.g. `location.search`.
 * `replay` is null without `?replay=`, and empty for a name the server would refuse; `token`
 * (`?token=`) is what the server serves that recording for: its session's token or the operator's.
 * @returns {{app:string|null, device:string|null, role:'control'|'view', session:string|null,
 *            wire:'binary'|'json'|'v1', replay:string|null, token:string|null}}
 */
export function readOptions(search) {
  const params = new URLSearchParams(search);
  const device = params.get('device');
  const wire = params.get('wire');
  return {
    app: params.get('app') || null,
    device: device && Object.hasOwn(DEVICES, device) ? device : null,
    role: params.get('role') === 'view' ? 'view' : 'control',
    session: params.get('session') || null,
    wire: WIRES.includes(wire) ? wire : WIRES[0],
    replay: params.has('replay') ? (REPLAY_NAME.test(params.get('replay')) ? params.get('replay') : '') : null,
    token: params.get('token') || null,
  };
}

/**
 * The device a controlling viewer shows `app` on: the one the address names, else the app's
 * own (the iPad for `tablet`, the iPhone for the others).
 * @param {{device:string|null}} options
 * @param {string|null} app
 * @returns {string} a key of DEVICES.
 */
export function deviceFor(options, app) {
  return options.device ?? defaultDevice(app);
}

/**
 * The same page with some parameters changed; a `null` value removes the parameter.
 * @param {string} href the current address.
 * @param {Object<string, string|null>} changes
 * @returns {string}
 */
export function withParams(href, changes) {
  const url = new URL(href);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  return url.toString();
}

/**
 * The address that shows another app in a new session. The device follows the app (the tablet
 * app comes on the iPad, the phone app on the iPhone) unless the address chose one that is not
 * the current app's own device.
 * @param {string} href the current address.
 * @param {string} app the app to show.
 * @param {string|null} [shownApp] the app shown now (the server's when the address names none).
 * @returns {string}
 */
export function switchAppUrl(href, app, shownApp = null) {
  const current = readOptions(new URL(href).search);
  const keepsDevice = current.device !== null && current.device !== defaultDevice(current.app ?? shownApp);
  return withParams(href, { app, session: null, role: null, ...(keepsDevice ? {} : { device: null }) });
}

/**
 * The address that watches a session: same app and device, `role=view`.
 * @param {string} href the current address.
 * @param {string} session the session's watch token (`welcome.watchToken`), which can only watch.
 */
export function watchUrl(href, session) {
  return withParams(href, { session, role: 'view' });
}
