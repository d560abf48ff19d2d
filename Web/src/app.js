// Wires the viewer: options from the address, the device layout, the connection and its model,
// the renderer, input (controlling viewers only), HUD, inspector, toolbar and banner; or, for
// `?replay=NAME`, a recording's frames with the replay bar (replay.js) and no connection. No
// navigation logic lives here or anywhere in the viewer: the server decides, the viewer draws.
//
// The session decides the picture: its viewport comes in `welcome` and `viewport` messages.
// The controlling window chooses it (its device, or its own size with `fit`) and tells the
// server; a watcher draws whatever the session's is, scaled to its own window.

import { AccessibilityMirror } from './accessibility.js';
import { Banner, SESSION_GONE_BANNER, SESSION_MOVED_BANNER, statusBanner } from './banner.js';
import { PointerBindings } from './bindings.js';
import { Connection, SESSION_KEY } from './connection.js';
import { setupControls, STATUS_WORDS } from './controls.js';
import { DisplayList } from './delta.js';
import { DrawTrace } from './draw-trace.js';
import { Hud } from './hud.js';
import { PointerInput } from './input.js';
import { Inspector } from './inspector.js';
import { deviceFor, readOptions, switchAppUrl, withParams } from './options.js';
import { Playout } from './playout.js';
import { Renderer } from './renderer.js';
import { setupReplay } from './replay.js';
import { ViewerStats } from './stats.js';
import {
  clientToViewport, deviceForViewport, layoutDevice, layoutViewport, sameViewport, viewportToClient,
} from './viewport.js';

/** A controller tells the server its new viewport once the window has stopped moving this long. */
const RESIZE_SETTLE_MS = 120;
/** Windows at most this wide (CSS pixels) are phone-like: the toolbar folds into a menu and the
 * screen goes edge to edge (the same width as style.css's media query). */
const COMPACT_WIDTH = 640;
/** How long a transient message (a refused command) stays in the banner. */
const NOTICE_MS = 6000;
/** How long the banner says that a new session replaced one that had ended. */
const SESSION_GONE_MS = 30000;
/** How often a retry countdown counts. */
const COUNTDOWN_MS = 250;
/** The pointer id of taps made from the keyboard (browsers give the mouse 1, touches 2 and up). */
const KEYBOARD_POINTER = 0;

const $ = (id) => document.getElementById(id);
const options = readOptions(location.search);
const stage = $('stage');
const device = $('device');
const screen = $('screen');
const canvas = $('display');
const screenMessage = $('screen-message');

// The v2 wires bring a layer tree, v1 a flat list; both models hand the renderer, the inspector
// and the HUD the same display items. On v2 the playout shows the picture due now (timelines,
// docs/protocol.md §3.7): it wakes the renderer, and the mirror, while pictures are to come. A
// held pointer moves the layers a frame binds to it (§3.8) at the next draw, before the server's
// frame for that move arrives.
const stats = new ViewerStats();
const bindings = options.wire === 'v1' ? null : new PointerBindings({
  wake: () => renderer.invalidate(),
  jumped: (points) => stats.reconcileJump(points),
});
const model = options.wire === 'v1' ? new DisplayList() : new Playout({
  wake: () => {
    renderer.invalidate();
    mirror?.invalidate();
  },
  bindings,
});
const drawTrace = new DrawTrace();
/** The replay being shown (`?replay=NAME`), whose frame the renderer draws instead of the model's. */
let timeline = null;
const renderer = new Renderer(canvas, (now) => (timeline ?? model).nodes(now), (now, drawn) => {
  stats.drawn(now, drawn, timeline ? undefined : model.input);
  drawTrace.drawn(now, drawn);
});
const compactWindow = matchMedia(`(max-width: ${COMPACT_WIDTH}px)`);
let layout = null;
/** The session's app and viewport, once the server has said (null before). */
let app = options.app;
let sessionViewport = null;
/** The device a controller chose in the picker, else the address's (null: the app's own). */
let chosenDevice = options.device;

/** Whether this window decides the session's viewport (a watcher only shows it). */
function controlling() {
  return (connection?.role ?? options.role) === 'control';
}

/** This window's own viewport: its device's, or its size with `fit`. */
function ownViewport() {
  return { width: layout.width, height: layout.height, scale: window.devicePixelRatio || 1, safeArea: layout.safeArea };
}

/**
 * The viewport `hello` announces: a controller's own once it knows its device; before that
 * (neither the address nor a welcome named the app) none, so that the server keeps the
 * session's, or gives a new one its app's.
 */
function helloViewport() {
  return controlling() && (chosenDevice || app) ? ownViewport() : null;
}

/** Sizes the device frame and canvas to the stage: a controller's device, or the session's viewport. */
function applyLayout() {
  const space = [stage.clientWidth, stage.clientHeight, { compact: compactWindow.matches }];
  layout = controlling() || !sessionViewport
    ? layoutDevice(deviceFor({ device: chosenDevice }, app), ...space)
    : layoutViewport(sessionViewport, ...space);
  device.className = `device device-${layout.family} device-${layout.name}${compactWindow.matches ? ' device-compact' : ''}`;
  device.style.setProperty('--scale', String(layout.scale));
  device.style.setProperty('--bezel', `${layout.bezel}px`);
  device.style.padding = `${layout.bezel}px`;
  device.style.borderRadius = `${layout.outerRadius}px`;
  screen.style.borderRadius = `${layout.screenRadius}px`;
  renderer.resize(layout.width * layout.scale, layout.height * layout.scale, layout);
  mirror?.invalidate();
}

/** A controller whose own viewport is not the session's tells the server. */
function sendViewportIfChanged() {
  if (!controlling() || !connection?.connected) return;
  const own = ownViewport();
  if (sameViewport(own, sessionViewport)) return;
  const { width, height, scale, safeArea } = own;
  if (connection.send({ type: 'resize', width, height, scale, safeArea })) sessionViewport = own;
}

/** The device picker: a controller's choice, or the session's device for a watcher. */
function showDevice() {
  if (controlling()) controls.device(layout.name, null, true);
  else if (sessionViewport) controls.device(deviceForViewport(sessionViewport), sessionViewport, false);
}

function toViewport(clientX, clientY) {
  return clientToViewport(canvas.getBoundingClientRect(), layout, clientX, clientY);
}

let connection = null;
let mirror = null;
let controls = null;
applyLayout();

// The stage changes size with the window, and when the inspector's panel opens or closes.
let resizeTimer = null;
new ResizeObserver(() => {
  applyLayout();
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(sendViewportIfChanged, RESIZE_SETTLE_MS);
}).observe(stage);

if (options.replay !== null) startReplay();
else startLive();

/** Plays recording `options.replay` (empty when the address named an invalid one). */
function startReplay() {
  const status = $('status');
  screenMessage.textContent = 'Loading the replay…';
  // A replay has no session to drive, watch or inspect: only the replay bar acts.
  for (const id of ['app-picker', 'device-picker', 'slow-motion', 'busy-policy', 'watch-link', 'hud-toggle', 'inspector-toggle']) {
    const control = $(id);
    (control.closest('label') ?? control).hidden = true;
  }
  const shown = (message) => {
    status.textContent = message;
    status.title = message;
  };
  if (!options.replay) {
    screenMessage.textContent = 'Not a recording name: letters, digits, - and _ only.';
    return shown(screenMessage.textContent);
  }
  shown(`Replay ${options.replay}`);
  window.stackcast = { replay: null };
  setupReplay({
    name: options.replay,
    token: options.token,
    onShow: (shownTimeline) => {
      timeline = shownTimeline;
      screenMessage.hidden = true;
      renderer.invalidate();
    },
    onError: (message) => {
      screenMessage.textContent = message;
      shown(message);
    },
  }).then((loaded) => {
    /** For tests and tools: the replay's frames and the one shown. */
    window.stackcast.replay = loaded && {
      get frames() { return loaded.frames.map(({ seq, t, hash, matches }) => ({ seq, t, hash, matches })); },
      get index() { return loaded.index; },
      nodes: () => structuredClone(loaded.nodes()),
    };
  });
}

/** Connects to a live session. */
function startLive() {
  connection = new Connection({
    // On the binary wire only control messages are text, so compression would cost the server
    // its zlib state for nothing: the browser offers it anyway, so the URL declines it.
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${options.wire === 'binary' ? '?deflate=0' : ''}`,
    app: options.app,
    role: options.role,
    session: options.session,
    viewport: helloViewport,
    model,
    storage: sessionStorage,
    wire: options.wire,
  });

  const hud = new Hud($('hud'), () => ({
    ...stats.snapshot(performance.now()), seq: model.seq, nodes: model.order.length,
  }));
  const inspector = new Inspector({
    canvas, renderer, panel: $('inspector-panel'), tip: $('inspector-tip'), model, toViewport,
    command: (op, fields) => connection.command(op, fields),
  });
  const banner = new Banner($('banner'), {
    onAction(what) {
      if (what === 'retry' || what === 'takeControl') return connection.restart();
      // Another app or a new session: this tab's token must not resume the old one.
      sessionStorage.removeItem(SESSION_KEY);
      if (what === 'newSession') location.assign(withParams(location.href, { session: null, role: null }));
    },
    appUrl: (name) => switchAppUrl(location.href, name, app),
  });
  const notice = (text) => banner.set('notice', { text, tone: 'error', actions: [] }, NOTICE_MS);
  controls = setupControls({
    options, connection, hud, inspector, notice,
    onDevice(name) {
      chosenDevice = name;
      history.replaceState(null, '', withParams(location.href, { device: name }));
      applyLayout();
      sendViewportIfChanged();
    },
  });
  showDevice();

  /**
   * Sends a controller's input: numbered when the session echoes numbers (§3.8), timed for the
   * HUD, and told to the pointer bindings.
   * @returns {boolean} whether it was sent.
   */
  const sendInput = (message) => {
    if (connection.role !== 'control') return false;
    const sent = connection.sendInput(message);
    if (!sent) return false;
    stats.inputSent(performance.now(), sent.input ?? null);
    bindings?.sent(sent);
    return true;
  };

  // The mirror shows the session's viewport, whatever this window's own device.
  mirror = new AccessibilityMirror({
    root: $('a11y'),
    nodes: () => model.nodes(),
    layout: () => ({ width: layout.width, height: layout.height, scale: layout.scale }),
    controlling,
    tap(x, y) {
      const t = Math.round(performance.now() * 100) / 100;
      return sendInput({ type: 'pointer', phase: 'down', id: KEYBOARD_POINTER, x, y, t }) &&
        sendInput({ type: 'pointer', phase: 'up', id: KEYBOARD_POINTER, x, y, t });
    },
  });

  if (options.role === 'control') {
    new PointerInput(canvas, sendInput, toViewport, (id, x, y) => bindings?.moved(id, x, y));
  }

  connection.addEventListener('frame', ({ detail }) => {
    stats.frameReceived(performance.now(), detail.bytes, detail.result.skipped);
    renderer.invalidate();
    mirror.invalidate();
    inspector.frameApplied(detail.result);
  });
  connection.addEventListener('pong', ({ detail }) => stats.pong(detail.ms));
  connection.addEventListener('welcome', ({ detail: { welcome } }) => {
    // A new connection numbers its input from 1: nothing sent before is waited for or bound.
    bindings?.reset();
    stats.inputReset();
    app = welcome.app;
    sessionViewport = welcome.viewport;
    if (welcome.migrated) banner.set('session', SESSION_MOVED_BANNER, SESSION_GONE_MS);
    if (welcome.apps) controls.apps(welcome.apps, welcome.app);
    if (welcome.settings) controls.settings(welcome.settings, controlling());
    // A controller whose device follows the app learns the app only now (a URL without `app`).
    applyLayout();
    sendViewportIfChanged();
    showDevice();
    inspector.connected();
  });
  connection.addEventListener('viewport', ({ detail }) => {
    sessionViewport = detail.viewport;
    if (controlling()) return;
    applyLayout();
    showDevice();
  });
  connection.addEventListener('event', ({ detail }) => inspector.event(detail.event));
  connection.addEventListener('settings', ({ detail }) => controls.settings(detail.settings, controlling()));
  connection.addEventListener('error', ({ detail }) => notice(detail.message));
  connection.addEventListener('sessionGone', () => banner.set('session', SESSION_GONE_BANNER, SESSION_GONE_MS));

  let countdown = null;
  connection.addEventListener('status', ({ detail }) => {
    controls.status(detail.state);
    if (detail.state === 'stopped' && detail.cause === 'refused' && Array.isArray(detail.error?.apps)) {
      controls.apps(detail.error.apps, options.app);
    }
    // The last picture stays, dimmed, while the connection is away.
    const away = detail.state !== 'connected';
    screen.classList.toggle('away', away && model.seq !== null);
    screenMessage.hidden = !away;
    screenMessage.textContent = detail.state === 'stopped' ? STATUS_WORDS.stopped
      : detail.cause === 'busy' && model.seq === null ? 'Waiting for the server…'
        : model.seq !== null || detail.state === 'reconnecting' ? 'Reconnecting…' : 'Connecting…';
    // Between two attempts the banner keeps counting down instead of blinking off and on.
    if (detail.state === 'connecting') return;
    clearInterval(countdown);
    const show = () => banner.set('connection', statusBanner(detail, performance.now(), options));
    show();
    if (detail.state === 'reconnecting') countdown = setInterval(show, COUNTDOWN_MS);
  });

  /** For tests and tools: the same session, its display list and coordinate mapping. */
  window.stackcast = {
    get session() { return connection.session; },
    get role() { return connection.role; },
    /** The frame format in use: `binary`, `json` (both protocol v2) or `v1`. */
    get wire() { return connection.wire; },
    get lastSeq() { return model.seq; },
    get connected() { return connection.connected; },
    /** The session's viewport as the server last said, and the one this window shows. */
    get sessionViewport() { return structuredClone(sessionViewport); },
    get layout() { return structuredClone(layout); },
    /**
     * The viewer's figures (stats.js): `inputToFrameMs` (to the picture that shows the input when
     * the session echoes input numbers), `reconcileJumpPt` (the largest recent jump of a bound
     * layer when a frame replaced the picture the pointer moved), and the rest the HUD shows.
     */
    get stats() { return stats.snapshot(performance.now()); },
    /** Input numbers (§3.8): the last one sent, and the last one the picture drawn shows. */
    get input() { return { sent: connection.inputNumber, shown: model.input ?? null }; },
    /** The layer templates the binary stream has sent this viewer (feature `templates`). */
    get templates() { return connection.decoder.templates.filter(Boolean).length; },
    /** Whether the viewer ever had to start again from a full frame (a frame it could not place). */
    get resynced() { return connection.lastResyncAt > -Infinity; },
    /** The display list in paint order (copies, so callers cannot change the picture). */
    nodes: () => structuredClone(model.nodes()),
    /** Page (client) coordinates of a viewport point, e.g. to click on a node. */
    viewToCanvas: (x, y) => viewportToClient(canvas.getBoundingClientRect(), layout, x, y),
    /** Starts (or with `false` stops) recording each draw's time and pages; see draw-trace.js. */
    traceDraws: (on = true) => drawTrace.start(on),
    /** The draws recorded since the last call, oldest first; clears them. */
    drawTrace: () => drawTrace.take(),
  };

  connection.start();
}
