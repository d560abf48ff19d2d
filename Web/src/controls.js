// The toolbar outside the device: app and device pickers, slow motion, the watch link, HUD and
// inspector toggles (also on the `h` and `i` keys), and the status line.

import { SESSION_KEY } from './connection.js';
import { switchAppUrl, watchUrl, withParams } from './options.js';
import { DEVICES } from './viewport.js';

/** How long a transient message (a refused command, an error) stays in the status line. */
const NOTICE_MS = 6000;
const SLOW_MOTION_FACTOR = 10;

/**
 * Wires the toolbar.
 * @param {object} parts
 * @param {{app:string, device:string, role:string}} parts.options
 * @param {import('./connection.js').Connection} parts.connection
 * @param {{toggle: (show?: boolean) => boolean}} parts.hud
 * @param {{toggle: (on?: boolean) => boolean}} parts.inspector
 * @returns {{status: (state: string, message: string) => void, notice: (message: string) => void}}
 */
export function setupControls({ options, connection, hud, inspector }) {
  const $ = (id) => document.getElementById(id);
  const statusLine = $('status');
  let statusText = '';
  let noticeTimer = null;

  pick($('app-picker'), options.app, (app) => {
    // Another app is another session: forget this tab's token so the server starts one.
    sessionStorage.removeItem(SESSION_KEY);
    location.assign(switchAppUrl(location.href, app));
  });
  const devicePicker = $('device-picker');
  devicePicker.replaceChildren(...Object.entries(DEVICES).map(([name, { label }]) => new Option(label, name)));
  pick(devicePicker, options.device, (device) => location.assign(withParams(location.href, { device })));

  const slowMotion = $('slow-motion');
  slowMotion.disabled = options.role === 'view';
  slowMotion.addEventListener('click', () => {
    const on = slowMotion.getAttribute('aria-pressed') !== 'true';
    connection.command('configure', { slowMotion: on ? SLOW_MOTION_FACTOR : 1 }).then(
      () => slowMotion.setAttribute('aria-pressed', String(on)),
      (error) => notice(`Slow motion: ${error.message}`),
    );
  });

  const toggles = { h: [$('hud-toggle'), hud], i: [$('inspector-toggle'), inspector] };
  for (const [button, panel] of Object.values(toggles)) {
    button.addEventListener('click', () => button.setAttribute('aria-pressed', String(panel.toggle())));
  }
  window.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest?.('input, select, textarea')) return;
    toggles[e.key]?.[0].click();
  });

  const watch = $('watch-link');
  // The link carries the read-only watch token, never the control token: whoever opens it can
  // only watch, even if they ask for control.
  connection.addEventListener('welcome', ({ detail }) => {
    const { watchToken } = detail.welcome;
    if (!watchToken) return;
    watch.href = watchUrl(location.href, watchToken);
    watch.removeAttribute('aria-disabled');
  });

  function show(text) {
    statusLine.textContent = text;
    statusLine.title = text;
  }

  /** Shows the connection state (kept until the next state). */
  function status(state, message) {
    statusLine.dataset.state = state;
    statusText = message;
    if (!noticeTimer) show(message);
  }

  /** Shows a message for a few seconds, then the connection state again. */
  function notice(message) {
    clearTimeout(noticeTimer);
    show(message);
    noticeTimer = setTimeout(() => {
      noticeTimer = null;
      show(statusText);
    }, NOTICE_MS);
  }

  return { status, notice };
}

/** Selects `value` in a picker (adding it if the address named one not listed) and reacts to changes. */
function pick(select, value, onChange) {
  if (![...select.options].some((option) => option.value === value)) select.add(new Option(value, value));
  select.value = value;
  select.addEventListener('change', () => onChange(select.value));
}
