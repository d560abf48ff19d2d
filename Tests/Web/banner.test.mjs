// The banner's words for each state a person can meet, its countdown, which message wins, that
// a message does not repeat, and the HUD's idle line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BannerState, retryText, SESSION_GONE_BANNER, statusBanner } from '../../Web/src/banner.js';
import { hudRows } from '../../Web/src/hud.js';

const options = { app: 'nope' };

test('connected and connecting show no banner', () => {
  assert.equal(statusBanner({ state: 'connected', message: 'Connected' }, 0, options), null);
  assert.equal(statusBanner({ state: 'connecting', message: 'Connecting…' }, 0, options), null);
});

test('an unreachable or lost server counts down to the next try, with a way to try now', () => {
  const unreachable = statusBanner({ state: 'reconnecting', cause: 'unreachable', message: '', retryAt: 4200 }, 1000, options);
  assert.equal(unreachable.text, 'Can’t reach the server. Trying again in 4 s…');
  assert.deepEqual(unreachable.actions, [{ label: 'Retry now', do: 'retry' }]);
  const lost = statusBanner({ state: 'reconnecting', cause: 'lost', message: '', retryAt: 1100 }, 1000, options);
  assert.equal(lost.text, 'Lost the connection to the server. Trying again in 1 s…');
  assert.equal(retryText(1000, 1000), 'Trying again…');
  assert.equal(retryText(5000, 0), 'Trying again in 5 s…');
  assert.equal(retryText(5000, 1), 'Trying again in 5 s…', 'rounded up: never "0 s"');
});

test('an unknown app lists the apps there are, as links', () => {
  const banner = statusBanner({
    state: 'stopped', cause: 'refused', message: 'Not found. no app named nope',
    error: { code: 'not_found', message: 'no app named nope', apps: ['phone', 'tablet', 'stack'] },
  }, 0, options);
  assert.equal(banner.text, 'There is no app named “nope”. Open one of these:');
  assert.deepEqual(banner.actions, [{ label: 'phone', app: 'phone' }, { label: 'tablet', app: 'tablet' }, { label: 'stack', app: 'stack' }]);
  assert.equal(banner.tone, 'error');
  // Another refusal (a hello the server cannot read) says the server's words and offers to try again.
  const refused = statusBanner({ state: 'stopped', cause: 'refused', message: 'The server refused a message.', error: { code: 'bad_message' } }, 0, options);
  assert.deepEqual([refused.text, refused.actions], ['The server refused a message.', [{ label: 'Try again', do: 'retry' }]]);
});

test('a server that takes no new session counts down to the next try', () => {
  const busy = statusBanner({ state: 'reconnecting', cause: 'busy', message: '', serverMessage: 'this server is at capacity', retryAt: 2500 }, 1000, options);
  assert.equal(busy.text, 'The server takes no new session right now. Trying again in 2 s…');
  assert.equal(busy.tone, 'warn');
  assert.deepEqual(busy.actions, [{ label: 'Retry now', do: 'retry' }]);
});

test('a takeover offers to take control back; a watched session that ended offers a new one', () => {
  const takenOver = statusBanner({ state: 'stopped', cause: 'takenOver', message: 'Another window took control of this session.' }, 0, options);
  assert.equal(takenOver.text, 'Another window took control of this session.');
  assert.deepEqual(takenOver.actions, [{ label: 'Take back control', do: 'takeControl' }]);
  const gone = statusBanner({ state: 'stopped', cause: 'gone', message: 'The session you were watching has ended.' }, 0, options);
  assert.deepEqual(gone.actions, [{ label: 'Start a new session', do: 'newSession' }]);
});

test('one message at a time, the connection’s first; the same message again changes nothing', () => {
  const state = new BannerState();
  assert.equal(state.current(), null);
  assert.equal(state.set('notice', { text: 'Slow motion: not connected', tone: 'error', actions: [] }), true);
  assert.equal(state.set('session', SESSION_GONE_BANNER), true);
  assert.equal(state.current().kind, 'session', 'the session message wins over a notice');
  const lost = { text: 'Lost the connection to the server. Trying again in 2 s…', tone: 'warn', actions: [] };
  state.set('connection', lost);
  assert.equal(state.current().text, lost.text);
  assert.equal(state.set('connection', { ...lost }), false, 'not shown again');
  assert.equal(state.set('connection', { ...lost, text: 'Lost the connection to the server. Trying again in 1 s…' }), true);
  state.set('connection', null);
  assert.equal(state.current().kind, 'session', 'the next one comes back');
  assert.equal(state.set('connection', null), false);
});

test('the HUD says idle when nothing was drawn in the last second', () => {
  const figures = { fps: 0, roundTripMs: 1.5, inputToFrameMs: null, bytesPerFrame: null, frames: 3, framesSkipped: 0, seq: 3, nodes: 40 };
  assert.deepEqual(hudRows(figures)[0], ['drawing', 'idle']);
  assert.deepEqual(hudRows({ ...figures, fps: 58 })[0], ['fps drawn', '58']);
  assert.deepEqual(hudRows(figures)[1], ['round trip', '1.5 ms']);
});
