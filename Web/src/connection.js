// The transport: one WebSocket to `/ws` (subprotocol `stackcast.v1`), `hello` and resume,
// frames into the model, pings for the round trip, commands with their answers, and
// reconnection with backoff. It knows nothing about drawing or pointers.
//
// Frames come in one of three formats (`wire`, from `?wire=`): protocol v2 as binary messages
// (the default: binary.js decodes them, tree.js holds the layer tree), v2 as JSON text (same
// tree), or v1 (delta.js's flat list). Everything else is JSON text in all three. On v2 a model
// that plays frames on the viewer's clock (playout.js) asks for timelines (§3.7): the pictures of
// a motion in one message, each applied on arrival and drawn when due. When the server accepts
// that feature the viewer also numbers its input (§3.8), from 1 on each connection, and frames say
// which input they show.

import { FrameDecoder } from './binary.js';

/** The subprotocol (the WebSocket one; it names the protocol family, not the frame version). */
const SUBPROTOCOL = 'stackcast.v1';
/** Where a controlling viewer keeps its session token (per tab, survives a reload). */
export const SESSION_KEY = 'stackcast.session';

const PING_INTERVAL_MS = 2000;
/** A ping unanswered this long means the connection is dead even if the socket has not noticed. */
const PING_TIMEOUT_MS = 6000;
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;
/** Our own close codes (4000-4999 are the application's). */
const CLOSE_RESYNC = 4000;
/** Service Restart: the server is draining; reconnect at once with the same token. */
const CLOSE_RESTART = 1012;
const CLOSE_NO_PONG = 4001;
/** Resyncs closer together than this count as a streak and back off like a failing server. */
const RESYNC_STREAK_MS = 5000;

/**
 * How often frames are acknowledged (PROTOCOL §2 ack, which is cumulative): after every
 * `ACK_EVERY` frame messages, once `ACK_BYTES` have come since the last ack (a quarter of what the
 * server sends unacknowledged, so large frames never fill its window first), at once for a full
 * frame, and otherwise `ACK_DELAY_MS` after a frame when no more come. Each ack is a message the
 * server must wake up for and read, so a loaded server reads a quarter as many as it sends frames.
 */
const ACK_EVERY = 4;
const ACK_BYTES = 12 * 1024;
const ACK_DELAY_MS = 50;

/**
 * Frames the server may send before we acknowledge them (`hello.window`): a quarter second at
 * 60 fps in flight, above any round trip we expect, and the frames not yet acknowledged. A tab
 * that stops reading (hidden, busy) then holds a few frames, and gets one delta to the present
 * when it reads again.
 */
const FLOW_WINDOW = 16 + ACK_EVERY;

/** Close codes that reconnecting cannot cure: the same hello would be refused again. */
const FATAL_CLOSE_CODES = new Set([1003, 1007, 1008, 1009]);
/** What the server says when another connection took control (docs/protocol.md §2). */
const TAKEOVER_REASON = 'took control';
/** The protocol extension that tells this viewer the session's viewport and settings. */
const SESSION_UPDATES = 'sessionUpdates';
/**
 * The extension that lets binary frames write a re-pushed page like layers the viewer dropped
 * (docs/protocol.md §3.6 "Templates"). Binary v2 only: other wires are not asked for it.
 */
const TEMPLATES = 'templates';
/**
 * The extension that sends the pictures of a motion at once, each due at its time (docs/protocol.md
 * §3.7). Protocol v2 only, and only for a model that can hold them until then (playout.js).
 */
const TIMELINES = 'timelines';

const CLOSE_WORDS = {
  1000: 'The server closed the connection.',
  1001: 'The server went away (it is restarting or shutting down).',
  1003: 'The server refused data it cannot read (this viewer sent something that is not text).',
  1006: 'The connection was lost.',
  1007: 'The server refused a message that was not valid UTF-8 text.',
  1008: 'The server refused this connection (not allowed from here, or for this session).',
  1009: 'A message was too large for the server.',
  1011: 'The server ran into an internal error.',
  [CLOSE_RESTART]: 'The server is restarting; reconnecting.',
  [CLOSE_NO_PONG]: 'The server stopped answering.',
  [CLOSE_RESYNC]: 'The picture went out of step with the server; fetching a whole frame.',
};

const ERROR_WORDS = {
  bad_json: 'The server could not read a message from this viewer.',
  bad_message: 'The server refused a message from this viewer.',
  unknown_op: 'The server does not know that command.',
  not_ready: 'The server was not ready for that yet.',
  not_found: 'Not found.',
  invalid_state: 'That is not possible right now.',
  busy: 'The app is busy with a transition; try again.',
  too_large: 'A message was too large.',
  rate_limited: 'Too many messages; slow down.',
  forbidden: 'Not allowed: this viewer only watches.',
  unsupported: 'The server does not support that.',
};

/**
 * A close code in plain words.
 * @param {number} code WebSocket close code.
 * @param {string} [reason] the server's reason text, added when it says more.
 */
export function describeClose(code, reason = '') {
  const words = CLOSE_WORDS[code] ?? `The connection closed (code ${code}).`;
  return reason ? `${words} (${reason})` : words;
}

/**
 * A protocol `error` message in plain words, keeping the server's own message for detail.
 * @param {{code?:string, message?:string}} error
 */
export function describeError(error) {
  const words = ERROR_WORDS[error.code] ?? `Error ${error.code ?? 'unknown'}.`;
  return error.message ? `${words} ${error.message}` : words;
}

/**
 * Delay before reconnect attempt `attempt` (0-based): 250 ms doubling up to 5 s, scaled by a
 * random 50-100 % so many viewers dropped together do not all come back at the same instant.
 * @param {number} attempt
 * @param {() => number} [random] returns [0, 1).
 */
export function backoffDelay(attempt, random = Math.random) {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** attempt);
  return Math.round(ceiling * (0.5 + random() / 2));
}

/**
 * The viewer's connection to one session. Events (CustomEvent `detail`):
 * `status` {state: 'connecting'|'connected'|'reconnecting'|'stopped', message, cause, …}:
 *   `cause` says why it is not connected: `reconnecting` has `unreachable` (the server did not
 *   answer), `lost` (a live connection dropped) or `busy` (the server took no new session: its
 *   words in `serverMessage`) with `retryAt` (performance.now() time of the next attempt); `stopped` has `takenOver` (another window took control), `gone` (the watched
 *   session ended), `refused` (the server refused the hello; with `error`, its `error` message)
 *   or `failed`;
 * `welcome` {welcome}, `frame` {frame, result, bytes, timeline} (one per frame, a timeline's too:
 *   `timeline` its place in it or null, `bytes` its size, a JSON timeline's shared evenly),
 * `pong` {ms}, `error` {error, message},
 * `viewport` {viewport} and `settings` {settings} (the session's, when they change),
 * `sessionGone` {} (the session to resume had ended: a new one is being started),
 * `event` {event} (a session event the connection subscribed to, docs/protocol.md §7).
 */
export class Connection extends EventTarget {
  /**
   * @param {object} options
   * @param {string} options.url the WebSocket address.
   * @param {string|null} options.app the app to start (null: the server's own).
   * @param {'control'|'view'} options.role
   * @param {string|null} options.session a token from the address, or null.
   * @param {() => object|null} options.viewport the viewport to announce in `hello`; null: the
   *   session's (a new one gets its app's).
   * @param {import('./playout.js').Playout|import('./tree.js').LayerTree|import('./delta.js').DisplayList} options.model
   *   where frames are applied: a Playout (or a bare LayerTree, which draws every frame at once)
   *   for the v2 wires, a DisplayList for `v1`.
   * @param {Storage} options.storage keeps a controlling viewer's token across reloads.
   * @param {'binary'|'json'|'v1'} [options.wire] the frame format to ask for (options.js).
   */
  constructor({ url, app, role, session, viewport, model, storage, wire = 'binary' }) {
    super();
    this.url = url;
    this.app = app;
    this.role = role;
    this.storage = storage;
    // A watcher's token comes from its address only: storing it would make this tab take
    // control of the watched session after a reload without `?session=`.
    this.session = session ?? (role === 'control' ? storage.getItem(SESSION_KEY) : null);
    this.viewport = viewport;
    this.model = model;
    this.wire = wire;
    // The binary string and template tables belong with the model, not with one socket: the
    // server's tables are the session's and a resumed delta continues them (binary.js). Reset
    // together with the model.
    this.decoder = new FrameDecoder();
    this.socket = null;
    /** Whether the current socket opened: a close before that means the server is unreachable. */
    this.opened = false;
    this.welcomed = false;
    this.stopped = false;
    this.attempt = 0;
    this.reconnectTimer = null;
    this.pingTimer = null;
    this.pingId = 0;
    this.unansweredPingSince = null;
    this.commandId = 0;
    this.pending = new Map();
    // Cleared when a delta does not fit our picture: the next hello then omits lastSeq, so the
    // server starts again from a full frame instead of another delta we cannot place.
    this.resumeFromLastSeq = true;
    this.resyncStreak = 0;
    this.lastResyncAt = -Infinity;
    /** Whether input messages carry `input` numbers: the welcome accepted `timelines` (§3.8). */
    this.numbersInput = false;
    /** The number of the last input message sent on this connection (0 before any). */
    this.inputNumber = 0;
    /** Frame messages and bytes applied since the last ack on this socket (`acknowledgeLater`). */
    this.unacked = { messages: 0, bytes: 0, full: false, timer: null };
  }

  /**
   * The picture frames apply to and binary frames decode against: a playout's newest received
   * (the one drawn may be an earlier one), or the model itself.
   */
  get held() {
    return this.model.received ?? this.model;
  }

  /** Whether the model plays timelines: it holds pictures until they are due (playout.js). */
  get playsTimelines() {
    return this.wire !== 'v1' && typeof this.model.picture === 'function';
  }

  /** True while the session is live (welcome received, socket open). */
  get connected() {
    return this.welcomed && this.socket?.readyState === WebSocket.OPEN;
  }

  /**
   * The address to open: a resume carries its token in the URL too (`/ws?session=TOKEN`), where
   * a load balancer in front of several servers can see it and route to the session's server.
   */
  socketURL() {
    const url = new URL(this.url);
    if (this.session) url.searchParams.set('session', this.session);
    else url.searchParams.delete('session');
    return url.toString();
  }

  /** Opens the connection (again). */
  start() {
    clearTimeout(this.reconnectTimer);
    this.status('connecting', this.session ? 'Resuming the session…' : 'Connecting…');
    const socket = new WebSocket(this.socketURL(), SUBPROTOCOL);
    // Binary frames as ArrayBuffers: decoded at once, a Blob would need an asynchronous read
    // and frames could then be applied out of order.
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    this.opened = false;
    this.forgetUnacked();
    socket.onopen = () => {
      this.opened = true;
      this.sendHello();
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => this.closed(event.code, event.reason);
    // A failed socket always closes too: the close handler reports it.
    socket.onerror = () => {};
  }

  /**
   * Sends one message if the session is live.
   * @returns {boolean} whether it was sent.
   */
  send(message) {
    if (!this.connected) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /**
   * Sends one input message (`pointer`, `scroll` or `key`), numbered when the session echoes input
   * numbers (§3.8): each one more than the last sent on this connection.
   * @param {object} message
   * @returns {object|null} the message as sent (with its `input` when numbered), or null when the
   *   session is not live.
   */
  sendInput(message) {
    const sent = this.numbersInput ? { ...message, input: this.inputNumber + 1 } : message;
    if (!this.send(sent)) return null;
    if (this.numbersInput) this.inputNumber += 1;
    return sent;
  }

  /**
   * Sends a command and waits for its `result` (resolves with `value`) or `error` (rejects with
   * an Error carrying `code`). Rejects at once when not connected, or when the connection drops.
   * @param {string} op
   * @param {object} [fields]
   * @returns {Promise<any>}
   */
  command(op, fields = {}) {
    const id = `c${++this.commandId}`;
    if (!this.send({ type: 'command', id, op, ...fields })) {
      return Promise.reject(new Error('not connected'));
    }
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  /**
   * Connects again at once: after a stop (to take control back, or to retry a refused hello) or
   * instead of waiting for the next attempt.
   */
  restart() {
    if (this.socket) return; // already connecting or connected
    this.stopped = false;
    this.attempt = 0;
    this.start();
  }

  sendHello() {
    const features = this.wire === 'binary' ? [SESSION_UPDATES, TEMPLATES] : [SESSION_UPDATES];
    if (this.playsTimelines) features.push(TIMELINES);
    const hello = { type: 'hello', role: this.role, features, window: FLOW_WINDOW };
    if (this.app) hello.app = this.app;
    const viewport = this.viewport();
    if (viewport) hello.viewport = viewport;
    // v1 is what a hello without `protocol` gets.
    if (this.wire !== 'v1') Object.assign(hello, { protocol: 2, encoding: this.wire });
    if (this.session) hello.session = this.session;
    if (this.session && this.resumeFromLastSeq && this.held.seq !== null) hello.lastSeq = this.held.seq;
    this.socket.send(JSON.stringify(hello));
  }

  receive(data) {
    if (typeof data !== 'string') return this.binaryFrame(data);
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return this.report({ code: 'bad_json', message: 'unreadable message from the server' });
    }
    switch (message.type) {
      case 'welcome': return this.welcome(message);
      case 'frame': return this.frame(message, utf8Length(data));
      case 'timeline': return this.timeline(message, utf8Length(data));
      case 'pong': return this.pong(message);
      case 'result': return this.settle(message.id, (entry) => entry.resolve(message.value));
      case 'error': return this.error(message);
      case 'viewport': return this.emit('viewport', { viewport: message.viewport });
      case 'settings': return this.emit('settings', { settings: message.settings });
      case 'event': return this.emit('event', { event: message });
      default: return undefined; // Fields and types may be added (docs/protocol.md): ignore the unknown.
    }
  }

  welcome(message) {
    const asked = this.wire === 'v1' ? 1 : 2;
    const answered = message.protocol ?? 1;
    if (answered !== asked) {
      // Its frames would not fit our model, and asking again would get the same answer.
      this.stop(`The server answered with protocol v${answered}, not v${asked}.` +
        (asked === 2 ? ' Open the viewer with ?wire=v1 for this server.' : ''));
      return;
    }
    this.welcomed = true;
    this.attempt = 0;
    // Frames carry templates only if the server accepted them: one that did not (an older build)
    // sends frames without the part, which must still decode.
    this.decoder.withTemplates = Array.isArray(message.features) && message.features.includes(TEMPLATES);
    // Input numbers are this connection's: they start again at 1, and the pictures held show
    // none of them yet.
    this.numbersInput = this.playsTimelines && Array.isArray(message.features) && message.features.includes(TIMELINES);
    this.inputNumber = 0;
    this.model.forgetInput?.();
    this.decoder.forgetInput();
    this.session = message.session;
    this.role = message.role ?? this.role;
    if (this.role === 'control') this.storage.setItem(SESSION_KEY, message.session);
    this.startPinging();
    this.status('connected', this.role === 'view' ? 'Watching' : 'Connected');
    this.emit('welcome', { welcome: message });
  }

  /**
   * A binary message: a v2 frame (§3.6) or a timeline of them (§3.7), each decoded into what its
   * JSON form parses to. A timeline's frames are decoded one at a time, each against the picture
   * the one before it left.
   */
  binaryFrame(data) {
    if (this.wire !== 'binary') return this.report({ code: 'bad_message', message: 'binary data from the server' });
    const frames = this.decoder.read(data, (id) => this.held.layer(id), (seq) => this.model.picture?.(seq));
    const arrival = performance.now();
    let inTimeline = false;
    try {
      for (const { frame, bytes, timeline } of frames) {
        if (!this.take(frame, bytes, timeline, arrival)) return undefined;
        inTimeline ||= Boolean(timeline);
      }
    } catch (error) {
      // Cut short, unknown fields or strings, a string table out of step: the spec's answer is
      // the same as for a wrong base.
      return this.resync(`undecodable binary frame: ${error.message}`);
    }
    return this.acknowledgeLater(data.byteLength, inTimeline);
  }

  /** A JSON timeline (§3.7): its frames in order, then one ack for them all, at once. */
  timeline(message, bytes) {
    const frames = wholeFrames(message.frames);
    if (!frames) return this.resync('a timeline without frames');
    const arrival = performance.now();
    const share = bytes / frames.length;
    for (const [index, frame] of frames.entries()) {
      if (!this.take(frame, share, { index, count: frames.length }, arrival)) return undefined;
    }
    return this.acknowledge();
  }

  /** A JSON frame of `bytes` bytes (as it travelled), then its ack when one is due. */
  frame(message, bytes) {
    if (this.take(message, bytes, null, performance.now())) this.acknowledgeLater(bytes);
  }

  /**
   * Applies one frame (`timeline`: its place in a timeline, or null); one that does not fit
   * means resync.
   * @returns {boolean} whether it applied.
   */
  take(message, bytes, timeline, arrival) {
    const result = this.model.apply(message, { arrival, timeline });
    if (!result.ok) {
      this.resync(result.reason);
      return false;
    }
    if (result.full) {
      this.resumeFromLastSeq = true;
      this.unacked.full = true;
    }
    this.emit('frame', { frame: message, result, bytes, timeline });
    return true;
  }

  /**
   * Flow control: a frame message of `bytes` bytes was applied. Acks it with those before it
   * when one is due (`ACK_EVERY`; `atOnce` for a timeline, a whole transition in one message),
   * else soon after unless more come.
   */
  acknowledgeLater(bytes, atOnce = false) {
    const unacked = this.unacked;
    unacked.messages += 1;
    unacked.bytes += bytes;
    if (atOnce || unacked.full || unacked.messages >= ACK_EVERY || unacked.bytes >= ACK_BYTES) return this.acknowledge();
    if (unacked.timer === null) unacked.timer = setTimeout(() => this.acknowledge(), ACK_DELAY_MS);
    return undefined;
  }

  /**
   * Acknowledges the newest frame decoded, and every one before it. Spelled exactly so, the
   * server reads it with a scan instead of a JSON parse.
   */
  acknowledge() {
    this.forgetUnacked();
    this.socket?.send(`{"type":"ack","seq":${this.held.seq}}`);
  }

  /** Nothing is waiting to be acknowledged (an ack went, or the socket is another). */
  forgetUnacked() {
    const unacked = this.unacked;
    clearTimeout(unacked.timer);
    Object.assign(unacked, { messages: 0, bytes: 0, full: false, timer: null });
  }

  /**
   * Our picture is not the server's: start again from a full frame (a hello without `lastSeq`
   * on a new socket). At once the first time; a server that keeps sending frames we cannot
   * place is not hammered with reconnects.
   */
  resync(reason) {
    const now = performance.now();
    this.resyncStreak = now - this.lastResyncAt < RESYNC_STREAK_MS ? this.resyncStreak + 1 : 0;
    this.lastResyncAt = now;
    this.resumeFromLastSeq = false;
    // The full frame brings a whole new string table; nothing of the old one may be used.
    this.decoder.reset();
    this.drop(CLOSE_RESYNC, reason, this.resyncStreak ? backoffDelay(this.resyncStreak - 1) : 0);
  }

  pong(message) {
    this.unansweredPingSince = null;
    if (typeof message.t === 'number') this.emit('pong', { ms: performance.now() - message.t });
  }

  error(message) {
    if (message.id != null && this.pending.has(message.id)) {
      this.settle(message.id, (entry) => entry.reject(Object.assign(new Error(describeError(message)), { code: message.code })));
      return;
    }
    if (!this.welcomed && this.session && message.code === 'not_found') {
      // The session we asked for has ended (expired or the server restarted).
      if (this.role === 'view') {
        this.stop('The session you were watching has ended.', { cause: 'gone' });
        return;
      }
      this.storage.removeItem(SESSION_KEY);
      this.session = null;
      this.model.reset();
      this.decoder.reset();
      this.emit('sessionGone', {});
      this.drop(1000, 'starting a new session', 0);
      return;
    }
    // A server that takes no new session now (at capacity, draining, full) may take one soon,
    // or a balancer may send the next attempt elsewhere: try again after the backoff.
    if (!this.welcomed && message.id == null && message.code === 'busy') {
      this.drop(1000, 'the server is busy', backoffDelay(this.attempt++), { cause: 'busy', serverMessage: message.message });
      return;
    }
    // Refused before any welcome (an unknown app): the same hello would be refused again, so
    // the viewer says why and waits for the person.
    if (!this.welcomed && message.id == null) {
      this.stop(describeError(message), { cause: 'refused', error: message });
      return;
    }
    this.report(message);
  }

  report(error) {
    this.emit('error', { error, message: describeError(error) });
  }

  settle(id, action) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    action(entry);
  }

  startPinging() {
    clearInterval(this.pingTimer);
    this.unansweredPingSince = null;
    const ping = () => {
      const now = performance.now();
      if (this.unansweredPingSince !== null && now - this.unansweredPingSince > PING_TIMEOUT_MS) {
        this.drop(CLOSE_NO_PONG, '');
        return;
      }
      this.unansweredPingSince ??= now;
      this.send({ type: 'ping', id: ++this.pingId, t: now });
    };
    ping();
    this.pingTimer = setInterval(ping, PING_INTERVAL_MS);
  }

  /**
   * Leaves the current socket without waiting for its closing handshake (a dead connection can
   * take a long time to report its close), then handles the close as if it had happened.
   */
  drop(code, reason, delay, why) {
    const socket = this.socket;
    socket.onopen = socket.onmessage = socket.onclose = null;
    socket.close(code);
    this.closed(code, reason, delay, why);
  }

  /**
   * The socket is gone: reconnect after `delay` ms, by default after the backoff delay; at once
   * after a server's restart (1012), unless that keeps happening without a welcome.
   */
  closed(code, reason, delay = code === CLOSE_RESTART && this.attempt === 0 ? (this.attempt++, 0) : backoffDelay(this.attempt++), why = null) {
    clearInterval(this.pingTimer);
    this.welcomed = false;
    this.socket = null;
    for (const [id, entry] of this.pending) entry.reject(Object.assign(new Error('connection lost'), { id }));
    this.pending.clear();
    if (this.stopped) return;
    const words = describeClose(code, reason);
    if (code === 1008 && reason.includes(TAKEOVER_REASON)) {
      this.stop('Another window took control of this session.', { cause: 'takenOver' });
      return;
    }
    if (FATAL_CLOSE_CODES.has(code)) {
      this.stop(words);
      return;
    }
    const cause = this.opened ? 'lost' : 'unreachable';
    this.status('reconnecting', words, { cause, ...why, retryAt: performance.now() + delay });
    this.reconnectTimer = setTimeout(() => this.start(), delay);
  }

  /**
   * Stops for good (until `restart`): `message` says why in words, `details` for the status
   * event (`cause`, by default `failed`).
   */
  stop(message, details = {}) {
    this.stopped = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.reconnectTimer);
    if (this.socket) {
      this.socket.onopen = this.socket.onmessage = this.socket.onclose = null;
      this.socket.close();
      this.socket = null;
    }
    this.welcomed = false;
    this.status('stopped', message, { cause: 'failed', ...details });
  }

  status(state, message, details = {}) {
    this.emit('status', { state, message, ...details });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

/** The size of a text frame as it travelled: its UTF-8 bytes. */
export function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00) { bytes += 4; i++; } // a surrogate pair
    else bytes += 3;
  }
  return bytes;
}

/**
 * A JSON timeline's frames as whole §3.5 frames, or null when it holds none. Each after the first
 * leaves out `type`, `seq` and `base` (§3.7): they are "frame", the seq after the frame before's,
 * and that frame (a full frame has no base).
 * @param {unknown} frames the timeline's `frames`.
 * @returns {object[]|null}
 */
export function wholeFrames(frames) {
  const isObject = (frame) => frame !== null && typeof frame === 'object' && !Array.isArray(frame);
  if (!Array.isArray(frames) || frames[0]?.type !== 'frame' || !frames.every(isObject)) return null;
  let seq = frames[0].seq;
  return frames.map((frame, index) => {
    if (index === 0) return frame;
    seq += 1;
    return frame.full ? { ...frame, type: 'frame', seq } : { ...frame, type: 'frame', seq, base: seq - 1 };
  });
}
