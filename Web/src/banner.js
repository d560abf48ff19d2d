// The banner under the toolbar: one short message at a time, laid over the top of the stage so
// that it never moves the device. What the connection's state means in words (pure, tested in
// node), which message wins when several are pending, and the element that shows it.

/** Kinds of message, most important first: only the first pending one is shown. */
export const BANNER_KINDS = Object.freeze(['connection', 'session', 'notice']);

/**
 * The banner for a connection status (connection.js `status` detail), or null for none.
 * @param {{state:string, message:string, cause?:string, retryAt?:number, error?:object}} status
 * @param {number} now performance.now(), for the retry countdown.
 * @param {{app:string|null}} options the address's options: the app asked for.
 * @returns {{text:string, tone:'warn'|'error', actions:object[], countdown?:boolean}|null}
 *   `actions`: `{label, do: 'retry'|'takeControl'|'newSession'}` buttons and `{label, app}`
 *   links to a new session of that app.
 */
export function statusBanner(status, now, options) {
  switch (status.state) {
    case 'connected':
      return null;
    case 'connecting':
      return null;
    case 'reconnecting': {
      const what = status.cause === 'unreachable' ? 'Can’t reach the server.'
        : status.cause === 'busy' ? 'The server takes no new session right now.'
          : 'Lost the connection to the server.';
      return {
        text: `${what} ${retryText(status.retryAt, now)}`, tone: 'warn', countdown: true,
        actions: [{ label: 'Retry now', do: 'retry' }],
      };
    }
    default:
      return stoppedBanner(status, options);
  }
}

function stoppedBanner(status, options) {
  switch (status.cause) {
    case 'takenOver':
      return { text: status.message, tone: 'warn', actions: [{ label: 'Take back control', do: 'takeControl' }] };
    case 'gone':
      return { text: status.message, tone: 'warn', actions: [{ label: 'Start a new session', do: 'newSession' }] };
    case 'refused': {
      const apps = status.error?.apps;
      if (status.error?.code === 'not_found' && Array.isArray(apps) && apps.length) {
        return {
          text: `There is no app named “${options.app}”. Open one of these:`, tone: 'error',
          actions: apps.map((app) => ({ label: app, app })),
        };
      }
      return { text: status.message, tone: 'error', actions: [{ label: 'Try again', do: 'retry' }] };
    }
    default:
      return { text: status.message, tone: 'error', actions: [{ label: 'Try again', do: 'retry' }] };
  }
}

/**
 * "Trying again in N s…" for an attempt due at `retryAt`, in whole seconds rounded up.
 * @param {number} retryAt performance.now() time of the attempt.
 * @param {number} now
 */
export function retryText(retryAt, now) {
  const seconds = Math.ceil((retryAt - now) / 1000);
  return seconds > 0 ? `Trying again in ${seconds} s…` : 'Trying again…';
}

/** The banner after the session to resume had ended and a new one was started in its place. */
export const SESSION_GONE_BANNER = Object.freeze({
  text: 'Your previous session has ended (it expired or the server restarted), so a new one was started.',
  tone: 'warn', actions: [],
});

/** The banner after a resume that another server rebuilt from the session's saved input. */
export const SESSION_MOVED_BANNER = Object.freeze({
  text: 'The server of this session went away; another one took it over where you were.',
  tone: 'warn', actions: [],
});

/**
 * The pending messages by kind; the first kind of BANNER_KINDS with one is the one shown.
 * Setting a kind's message to the same text again changes nothing (it is not shown twice).
 */
export class BannerState {
  constructor() {
    this.messages = new Map();
  }

  /**
   * Sets (or with null clears) the message of `kind`.
   * @returns {boolean} whether what is shown may have changed.
   */
  set(kind, message) {
    const previous = this.messages.get(kind) ?? null;
    if (sameMessage(previous, message)) return false;
    if (message) this.messages.set(kind, message);
    else this.messages.delete(kind);
    return true;
  }

  /** The message shown now, with its kind, or null. */
  current() {
    for (const kind of BANNER_KINDS) {
      if (this.messages.has(kind)) return { kind, ...this.messages.get(kind) };
    }
    return null;
  }
}

function sameMessage(a, b) {
  if (!a || !b) return a === b;
  return a.text === b.text && a.tone === b.tone && JSON.stringify(a.actions) === JSON.stringify(b.actions);
}

/**
 * The banner element: shows BannerState's current message, its buttons and links, and a close
 * button for the messages a person may dismiss (everything but the connection's).
 */
export class Banner {
  /**
   * @param {HTMLElement} element
   * @param {object} handlers
   * @param {(what: string) => void} handlers.onAction a button's `do`, or `leave` when a link
   *   to another app is followed.
   * @param {(app: string) => string} handlers.appUrl the address that opens `app`.
   */
  constructor(element, { onAction, appUrl }) {
    this.element = element;
    this.onAction = onAction;
    this.appUrl = appUrl;
    this.state = new BannerState();
    this.timers = new Map();
  }

  /**
   * Shows `message` as the message of `kind` (null clears it); with `ms`, it goes by itself
   * after that long (counted again when the same message comes again).
   */
  set(kind, message, ms = 0) {
    clearTimeout(this.timers.get(kind));
    if (message && ms) this.timers.set(kind, setTimeout(() => this.set(kind, null), ms));
    if (this.state.set(kind, message)) this.render();
  }

  render() {
    const current = this.state.current();
    this.element.hidden = !current;
    if (!current) return;
    this.element.dataset.tone = current.tone;
    this.element.dataset.kind = current.kind;
    const text = document.createElement('span');
    text.className = 'banner-text';
    text.textContent = current.text;
    const parts = [text, ...current.actions.map((action) => this.actionElement(action))];
    if (current.kind !== 'connection') {
      const close = document.createElement('button');
      close.type = 'button';
      close.className = 'banner-close';
      close.setAttribute('aria-label', 'Dismiss');
      close.textContent = '×';
      close.addEventListener('click', () => this.set(current.kind, null));
      parts.push(close);
    }
    this.element.replaceChildren(...parts);
  }

  actionElement(action) {
    if (action.do) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = action.label;
      button.addEventListener('click', () => this.onAction(action.do));
      return button;
    }
    const link = document.createElement('a');
    link.textContent = action.label;
    link.href = this.appUrl(action.app);
    link.addEventListener('click', () => this.onAction('leave'));
    return link;
  }
}
