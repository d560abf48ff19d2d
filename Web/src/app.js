// Wires the viewer: options from the address, the device layout, the connection and its model,
// the renderer, input (controlling viewers only), HUD, inspector and toolbar; or, for
// `?replay=NAME`, a recording's frames with the replay bar (replay.js) and no connection. No
// navigation logic lives here or anywhere in the viewer: the server decides, the viewer draws.

import { Connection } from './connection.js';
import { setupControls } from './controls.js';
import { DisplayList } from './delta.js';
import { Hud } from './hud.js';
import { PointerInput } from './input.js';
import { Inspector } from './inspector.js';
import { readOptions } from './options.js';
import { Renderer } from './renderer.js';
import { setupReplay } from './replay.js';
import { ViewerStats } from './stats.js';
import { LayerTree } from './tree.js';
import { clientToViewport, layoutDevice, viewportToClient } from './viewport.js';

/** A `fit` viewer tells the server its new size once the window has stopped moving this long. */
const RESIZE_SETTLE_MS = 120;

const $ = (id) => document.getElementById(id);
const options = readOptions(location.search);
const stage = $('stage');
const device = $('device');
const screen = $('screen');
const canvas = $('display');
const screenMessage = $('screen-message');

// The v2 wires bring a layer tree, v1 a flat list; both models hand the renderer, the inspector
// and the HUD the same display items.
const model = options.wire === 'v1' ? new DisplayList() : new LayerTree();
const stats = new ViewerStats();
/** The replay being shown (`?replay=NAME`), whose frame the renderer draws instead of the model's. */
let timeline = null;
const renderer = new Renderer(canvas, () => (timeline ?? model).nodes(), (now) => stats.drawn(now));
let layout = null;

/** The viewport as `hello` announces it. */
function viewport() {
  return { width: layout.width, height: layout.height, scale: window.devicePixelRatio || 1, safeArea: layout.safeArea };
}

/** Sizes the device frame and canvas to the stage; returns whether the viewport changed. */
function applyLayout() {
  const previous = layout;
  layout = layoutDevice(options.device, stage.clientWidth, stage.clientHeight);
  device.className = `device device-${layout.family} device-${layout.name}`;
  device.style.setProperty('--scale', String(layout.scale));
  device.style.setProperty('--bezel', `${layout.bezel}px`);
  device.style.padding = `${layout.bezel}px`;
  device.style.borderRadius = `${layout.outerRadius}px`;
  screen.style.borderRadius = `${layout.screenRadius}px`;
  renderer.resize(layout.width * layout.scale, layout.height * layout.scale, layout);
  return !previous || previous.width !== layout.width || previous.height !== layout.height;
}

function toViewport(clientX, clientY) {
  return clientToViewport(canvas.getBoundingClientRect(), layout, clientX, clientY);
}

applyLayout();

if (options.replay !== null) startReplay();
else startLive();

/** Plays recording `options.replay` (empty when the address named an invalid one). */
function startReplay() {
  const status = $('status');
  screenMessage.textContent = 'Loading the replay…';
  // A replay has no session to drive, watch or inspect: only the replay bar acts.
  for (const id of ['app-picker', 'device-picker', 'slow-motion', 'watch-link', 'hud-toggle', 'inspector-toggle']) {
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
  const connection = new Connection({
    // On the binary wire only control messages are text, so compression would cost the server
    // its zlib state for nothing: the browser offers it anyway, so the URL declines it.
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${options.wire === 'binary' ? '?deflate=0' : ''}`,
    app: options.app,
    role: options.role,
    session: options.session,
    viewport,
    model,
    storage: sessionStorage,
    wire: options.wire,
  });

  const hud = new Hud($('hud'), () => ({
    ...stats.snapshot(performance.now()), seq: model.seq, nodes: model.order.length,
  }));
  const inspector = new Inspector({
    canvas, renderer, panel: $('inspector-panel'), tip: $('inspector-tip'),
    nodes: () => model.nodes(), toViewport,
    queryState: () => connection.command('query', { what: 'state' }),
  });
  const controls = setupControls({ options, connection, hud, inspector });

  if (options.role === 'control') {
    new PointerInput(canvas, (message) => {
      // Time from this input to the next frame is the HUD's input-to-frame latency.
      if (connection.role === 'control' && connection.send(message)) stats.inputSent(performance.now());
    }, toViewport);
  }

  connection.addEventListener('frame', ({ detail }) => {
    stats.frameReceived(performance.now(), detail.bytes, detail.result.skipped);
    renderer.invalidate();
    inspector.frameApplied(detail.result);
  });
  connection.addEventListener('pong', ({ detail }) => stats.pong(detail.ms));
  connection.addEventListener('welcome', () => inspector.refresh());
  connection.addEventListener('error', ({ detail }) => controls.notice(detail.message));
  connection.addEventListener('status', ({ detail }) => {
    controls.status(detail.state, detail.message);
    // The last picture stays, dimmed, while the connection is away.
    const away = detail.state !== 'connected';
    screen.classList.toggle('away', away && model.seq !== null);
    screenMessage.hidden = !away;
    screenMessage.textContent = detail.state === 'stopped' ? detail.message
      : model.seq !== null || detail.state === 'reconnecting' ? 'Reconnecting…' : 'Connecting…';
  });

  let resizeTimer = null;
  window.addEventListener('resize', () => {
    if (!applyLayout() || layout.name !== 'fit') return;
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const { width, height, scale } = viewport();
      connection.send({ type: 'resize', width, height, scale });
    }, RESIZE_SETTLE_MS);
  });

  /** For tests and tools: the same session, its display list and coordinate mapping. */
  window.stackcast = {
    get session() { return connection.session; },
    get role() { return connection.role; },
    /** The frame format in use: `binary`, `json` (both protocol v2) or `v1`. */
    get wire() { return connection.wire; },
    get lastSeq() { return model.seq; },
    get connected() { return connection.connected; },
    get stats() { return stats.snapshot(performance.now()); },
    /** The display list in paint order (copies, so callers cannot change the picture). */
    nodes: () => structuredClone(model.nodes()),
    /** Page (client) coordinates of a viewport point, e.g. to click on a node. */
    viewToCanvas: (x, y) => viewportToClient(canvas.getBoundingClientRect(), layout, x, y),
  };

  connection.start();
}
