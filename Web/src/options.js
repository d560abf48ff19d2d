// URL parameters (pure): `?app=NAME&device=iphone|ipad|fit&session=TOKEN&role=view`.

import { DEVICES, DEFAULT_DEVICE } from './viewport.js';

/** The app shown when `?app=` is missing. */
const DEFAULT_APP = 'phone';

/**
 * Reads the viewer's options from a query string.
 * @param {string} search e.g. `location.search`.
 * @returns {{app:string, device:string, role:'control'|'view', session:string|null}}
 */
export function readOptions(search) {
  const params = new URLSearchParams(search);
  const device = params.get('device');
  return {
    app: params.get('app') || DEFAULT_APP,
    device: device && Object.hasOwn(DEVICES, device) ? device : DEFAULT_DEVICE,
    role: params.get('role') === 'view' ? 'view' : 'control',
    session: params.get('session') || null,
  };
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
 * The address that watches a session: same app and device, `role=view`.
 * @param {string} href the current address.
 * @param {string} session the session token.
 */
export function watchUrl(href, session) {
  return withParams(href, { session, role: 'view' });
}
