// The toolbar outside the device: app and device pickers, slow motion and the busy policy (the
// session's settings, as the server reports them), the watch link, HUD and inspector toggles
// (also on the `h` and `i` keys), the short status line, and on narrow windows the menu button
// that the controls collapse into.

import { SESSION_KEY } from './connection.js';
import { switchAppUrl, watchUrl } from './options.js';
import { DEVICES } from './viewport.js';

const SLOW_MOTION_FACTOR = 10;

/** The status line's words for each connection state: short, so that the toolbar never wraps. */
export const STATUS_WORDS = Object.freeze({
  connecting: 'Connecting…', connected: 'Connected', watching: 'Watching', reconnecting: 'Reconnecting…', stopped: 'Not connected',
});

/**
 * Wires the toolbar.
 * @param {object} parts
 * @param {{app:string|null, role:string}} parts.options
 * @param {import('./connection.js').Connection} parts.connection
 * @param {{toggle: (show?: boolean) => boolean}} parts.hud
 * @param {{toggle: (on?: boolean) => boolean}} parts.inspector
 * @param {(device: string) => void} parts.onDevice a controller picked another device.
 * @param {(message: string) => void} parts.notice shows a transient message (the banner).
 * @returns the toolbar's setters: `status`, `apps`, `device`, `settings`.
 */
export function setupControls({ options, connection, hud, inspector, onDevice, notice }) {
  const $ = (id) => document.getElementById(id);
  const toolbar = $('toolbar');
  const statusLine = $('status');
  let shownApp = options.app;

  // The menu button shows the controls on windows too narrow for them (style.css); a choice,
  // Escape or a click elsewhere closes it.
  const menuToggle = $('menu-toggle');
  const openMenu = (open) => {
    toolbar.classList.toggle('open', open);
    menuToggle.setAttribute('aria-expanded', String(open));
  };
  menuToggle.addEventListener('click', () => openMenu(!toolbar.classList.contains('open')));
  document.addEventListener('pointerdown', (e) => { if (!toolbar.contains(e.target)) openMenu(false); });
  $('toolbar-menu').addEventListener('change', () => openMenu(false));

  const appPicker = $('app-picker');
  if (options.app) fill(appPicker, [[options.app, options.app]], options.app);
  appPicker.addEventListener('change', () => {
    // Another app is another session: forget this tab's token so the server starts one.
    sessionStorage.removeItem(SESSION_KEY);
    location.assign(switchAppUrl(location.href, appPicker.value, shownApp));
  });

  const devicePicker = $('device-picker');
  devicePicker.addEventListener('change', () => onDevice(devicePicker.value));

  const slowMotion = $('slow-motion');
  const busyPolicy = $('busy-policy');
  // The result is the settings now in force; every viewer also gets them as a `settings` message.
  const configure = (what, fields) => connection.command('configure', fields).then(
    (settings) => showSettings(settings, true), (error) => notice(`${what}: ${error.message}`));
  slowMotion.addEventListener('click', () => {
    const on = slowMotion.getAttribute('aria-pressed') !== 'true';
    configure('Slow motion', { slowMotion: on ? SLOW_MOTION_FACTOR : 1 });
  });
  busyPolicy.addEventListener('change', () => configure('Busy policy', { busyPolicy: busyPolicy.value }));

  const toggles = { h: [$('hud-toggle'), hud], i: [$('inspector-toggle'), inspector] };
  for (const [button, panel] of Object.values(toggles)) {
    button.addEventListener('click', () => button.setAttribute('aria-pressed', String(panel.toggle())));
  }
  window.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') openMenu(false);
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

  return {
    /** Shows the connection state in a word or two. */
    status(state) {
      const key = state === 'connected' && connection.role === 'view' ? 'watching' : state;
      statusLine.dataset.state = state;
      statusLine.textContent = STATUS_WORDS[key] ?? state;
    },

    /** The apps the server has, and the one shown. */
    apps(apps, app) {
      shownApp = app;
      fill(appPicker, (apps.includes(app) || !app ? apps : [...apps, app]).map((name) => [name, name]), app);
    },

    /**
     * The device shown: a controller may pick another (`name`, a key of DEVICES); a watcher's
     * is the session's (`name` null when no device has its size), and it cannot change it.
     */
    device(name, viewport, canChange) {
      const choices = Object.entries(DEVICES).map(([key, { label }]) => [key, label]);
      if (!name) choices.push(['session', `${viewport.width} × ${viewport.height}`]);
      fill(devicePicker, choices, name ?? 'session');
      devicePicker.disabled = !canChange;
      devicePicker.title = canChange ? '' : 'The controlling window chooses the device';
    },

    settings: showSettings,
  };

  /** The session's settings (welcome and `settings` messages); only a controller changes them. */
  function showSettings(settings, canChange) {
    slowMotion.setAttribute('aria-pressed', String(settings.slowMotion > 1));
    slowMotion.title = `Animations ${SLOW_MOTION_FACTOR}× slower (now ${settings.slowMotion}×)`;
    busyPolicy.value = settings.busyPolicy;
    slowMotion.disabled = busyPolicy.disabled = !canChange;
  }
}

/** Replaces a picker's options with `[value, label]` pairs and selects `value`. */
function fill(select, choices, value) {
  select.replaceChildren(...choices.map(([key, label]) => new Option(label, key)));
  select.value = value;
}
