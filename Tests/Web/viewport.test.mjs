// Device layout and the mapping between page and viewport coordinates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clientToViewport, defaultDevice, deviceForViewport, DEVICES, layoutDevice, layoutViewport, sameViewport, viewportToClient,
} from '../../Web/src/viewport.js';
import { deviceFor, readOptions, switchAppUrl, watchUrl } from '../../Web/src/options.js';

test('an iPhone grows to the height the window has, keeping its viewport and safe area', () => {
  const layout = layoutDevice('iphone', 1200, 1000);
  assert.equal(layout.width, 390);
  assert.equal(layout.height, 844);
  assert.equal(layout.scale, (1000 - 24) / (844 + 28), 'bezel and a 12 px margin all round');
  assert.deepEqual(layout.safeArea, { top: 47, left: 0, bottom: 34, right: 0 });
  // A 1600 × 900 window (860 px under the toolbar): the height is what limits it.
  assert.equal(layoutDevice('iphone', 1600, 860).scale, (860 - 24) / 872);
});

test('a device shrinks to fit a short window, whole', () => {
  const small = layoutDevice('iphone', 1200, 600);
  assert.ok(small.scale < 1);
  assert.ok((844 + 2 * 14) * small.scale <= 600 - 24 + 1e-9, 'bezel and margin fit');
  assert.equal(small.width, 390, 'the viewport the server lays out does not change');
  assert.equal(layoutDevice('ipad', 4000, 4000).scale, (4000 - 24) / (1024 + 64), 'the width limits a landscape iPad');
});

test('in a phone-narrow window the screen goes edge to edge, without bezel or margin', () => {
  const compact = layoutDevice('iphone', 390, 803, { compact: true });
  assert.deepEqual([compact.bezel, compact.outerRadius, compact.screenRadius], [0, 0, 0]);
  assert.equal(compact.scale, 803 / 844, 'the full height of the stage');
  assert.equal(layoutDevice('iphone', 390, 900, { compact: true }).scale, 1, 'the full width');
  const ipad = layoutDevice('ipad', 390, 803, { compact: true });
  assert.equal(ipad.scale, 390 / 1024);
});

test('a watcher shows the session\'s viewport in its own window: letterboxed, never cropped or stretched', () => {
  // A phone session in a wide window: the iPhone's frame, as tall as fits.
  const phone = layoutViewport({ width: 390, height: 844, scale: 3, safeArea: { top: 47, bottom: 34 } }, 1400, 900);
  assert.equal(phone.family, 'iphone');
  assert.deepEqual([phone.width, phone.height], [390, 844]);
  assert.deepEqual(phone.safeArea, { top: 47, left: 0, bottom: 34, right: 0 });
  assert.equal(phone.scale, (900 - 24) / 872);
  // A controller's `fit` window of any size: no frame, the whole picture, one scale for both axes.
  for (const [width, height, spaceWidth, spaceHeight] of [[1187, 911, 500, 700], [600, 1200, 1400, 900], [5000, 100, 800, 800]]) {
    const shown = layoutViewport({ width, height }, spaceWidth, spaceHeight);
    assert.equal(shown.family, 'fit');
    assert.equal(shown.name, 'session');
    assert.deepEqual([shown.width, shown.height, shown.bezel], [width, height, 0]);
    assert.ok(width * shown.scale <= spaceWidth + 1e-9 && height * shown.scale <= spaceHeight + 1e-9, 'not cropped');
    assert.ok(Math.abs(width * shown.scale - spaceWidth) < 1e-9 || Math.abs(height * shown.scale - spaceHeight) < 1e-9,
      'as large as the space allows');
  }
  assert.equal(layoutViewport({ width: 1366, height: 1024 }, 1400, 900).name, 'ipad-pro');
});

test('a session viewport names the device of its size, if there is one', () => {
  assert.equal(deviceForViewport({ width: 390, height: 844 }), 'iphone');
  assert.equal(deviceForViewport({ width: 1024, height: 768 }), 'ipad');
  assert.equal(deviceForViewport({ width: 1366, height: 1024 }), 'ipad-pro');
  assert.equal(deviceForViewport({ width: 844, height: 390 }), null);
});

test('viewports compare by size, safe area and scale', () => {
  const a = { width: 390, height: 844, scale: 1, safeArea: { top: 47, left: 0, bottom: 34, right: 0 } };
  assert.ok(sameViewport(a, { ...a, safeArea: { top: 47, bottom: 34 } }), 'missing edges are 0');
  assert.ok(!sameViewport(a, { ...a, scale: 2 }));
  assert.ok(!sameViewport(a, { ...a, width: 391 }));
  assert.ok(!sameViewport(a, { ...a, safeArea: { top: 20, bottom: 34 } }));
  assert.ok(!sameViewport(a, null) && sameViewport(null, null));
});

test('iPad and fit viewports', () => {
  const ipad = layoutDevice('ipad', 1200, 1000);
  assert.deepEqual([ipad.width, ipad.height, ipad.safeArea.top, ipad.safeArea.bottom], [1024, 768, 24, 0]);
  assert.equal(ipad.family, 'ipad');
  const pro = layoutDevice('ipad-pro', 1366, 955);
  assert.deepEqual([pro.width, pro.height, pro.safeArea.top, pro.family], [1366, 1024, 24, 'ipad']);
  assert.ok(pro.scale < 1, 'a 1366 × 1024 iPad shrinks into a 1366-pixel window');
  assert.ok((1366 + 2 * DEVICES['ipad-pro'].bezel) * pro.scale <= 1366 - 40 + 1e-9);
  const fit = layoutDevice('fit', 1187.6, 911.2);
  assert.deepEqual([fit.width, fit.height, fit.scale, fit.bezel], [1187, 911, 1, 0]);
  assert.deepEqual(fit.safeArea, { top: 0, left: 0, bottom: 0, right: 0 });
});

test('the iPads are landscape, with a bezel of one width all round that scales with them', () => {
  for (const name of ['ipad', 'ipad-pro']) {
    const device = DEVICES[name];
    assert.ok(device.width > device.height, `${name} is landscape`);
    assert.ok(device.outerRadius > device.screenRadius && device.screenRadius > 0, name);
    const small = layoutDevice(name, 700, 600);
    assert.ok(small.scale < 1);
    assert.equal(small.bezel, device.bezel * small.scale);
    assert.equal(small.screenRadius, device.screenRadius * small.scale);
  }
  assert.equal(layoutDevice('iphone', 1200, 1000).family, 'iphone');
  assert.equal(layoutDevice('fit', 800, 600).family, 'fit');
  assert.ok(Object.values(DEVICES).every((device) => typeof device.label === 'string' && device.label));
});

test('an unknown device is the default iPhone', () => {
  assert.equal(layoutDevice('toaster', 1200, 1000).name, 'iphone');
  assert.equal(layoutDevice('toString', 1200, 1000).name, 'iphone');
});

test('page coordinates map to viewport points through the shown size', () => {
  const viewport = { width: 390, height: 844 };
  const rect = { left: 400, top: 60, width: 195, height: 422 }; // shown at half size
  assert.deepEqual(clientToViewport(rect, viewport, 400, 60), [0, 0]);
  assert.deepEqual(clientToViewport(rect, viewport, 410, 100), [20, 80]);
  assert.deepEqual(clientToViewport(rect, viewport, 595, 482), [390, 844]);
  assert.deepEqual(clientToViewport(rect, viewport, 400.3333, 60), [0.67, 0], 'rounded to 1/100');
});

test('viewportToClient is the inverse of clientToViewport', () => {
  const viewport = { width: 390, height: 844 };
  const rect = { left: 412.5, top: 77, width: 363.2, height: 786 };
  for (const [x, y] of [[0, 0], [20, 422], [195, 100.5], [389, 843]]) {
    const page = viewportToClient(rect, viewport, x, y);
    const back = clientToViewport(rect, viewport, page.x, page.y);
    assert.ok(Math.abs(back[0] - x) < 0.01 && Math.abs(back[1] - y) < 0.01, `${x},${y} -> ${back}`);
  }
});

test('URL options: defaults, watch mode and the watch link', () => {
  assert.deepEqual(readOptions(''), { app: null, device: null, role: 'control', session: null, wire: 'binary', replay: null, token: null },
    'no app: the server\'s own (serve --app), and its device');
  assert.deepEqual(readOptions('?app=tablet&device=fit&session=abc&role=view&wire=json'),
    { app: 'tablet', device: 'fit', role: 'view', session: 'abc', wire: 'json', replay: null, token: null });
  assert.equal(readOptions('?wire=v1').wire, 'v1');
  assert.equal(readOptions('?wire=morse').wire, 'binary', 'an unknown wire is the default');
  assert.equal(new URL(watchUrl('http://h:1/?wire=v1', 'T0K')).searchParams.get('wire'), 'v1',
    'a watcher opened from the link speaks what its controller speaks');
  assert.equal(readOptions('?role=admin').role, 'control');
  assert.equal(readOptions('?device=ipad-pro').device, 'ipad-pro');
  const link = new URL(watchUrl('http://h:1/?app=phone&device=ipad', 'T0K'));
  assert.equal(link.searchParams.get('session'), 'T0K');
  assert.equal(link.searchParams.get('role'), 'view');
  assert.equal(link.searchParams.get('device'), 'ipad');
});

test('each app has its own device when the address names none', () => {
  assert.equal(defaultDevice('tablet'), 'ipad');
  assert.equal(defaultDevice('phone'), 'iphone');
  assert.equal(defaultDevice('stack'), 'iphone');
  assert.equal(defaultDevice('toString'), 'iphone', 'not an inherited property');
  const device = (search, app) => { const options = readOptions(search); return deviceFor(options, app ?? options.app); };
  assert.equal(device('?app=tablet'), 'ipad');
  assert.equal(device('?app=tablet&device='), 'ipad');
  assert.equal(device('?app=tablet&device=toaster'), 'ipad', 'an unknown device is the app\'s');
  assert.equal(device('?app=phone'), 'iphone');
  assert.equal(device('?app=stack'), 'iphone');
  // Without `app` the server's app decides, once its welcome names it.
  assert.equal(device('', 'tablet'), 'ipad');
  assert.equal(device('', 'phone'), 'iphone');
  assert.equal(device(''), 'iphone', 'before the welcome');
  // A device named in the address wins.
  assert.equal(device('?app=tablet&device=iphone'), 'iphone');
  assert.equal(device('?app=tablet&device=fit'), 'fit');
  assert.equal(device('?app=phone&device=ipad-pro'), 'ipad-pro');
  assert.equal(device('?device=iphone', 'tablet'), 'iphone');
  // The watch link of a tablet session keeps the address's (absent) device: the iPad too.
  assert.equal(device(new URL(watchUrl('http://h:1/?app=tablet', 'T')).search), 'ipad');
});

test('switching apps starts a new session; the device follows the app unless one was chosen', () => {
  const params = (href) => Object.fromEntries(new URL(href).searchParams);
  assert.deepEqual(params(switchAppUrl('http://h:1/?app=phone&session=S&role=view', 'tablet')), { app: 'tablet' });
  assert.deepEqual(params(switchAppUrl('http://h:1/', 'tablet')), { app: 'tablet' });
  // The app's own device, named in the address, is dropped so that the next app's applies...
  assert.deepEqual(params(switchAppUrl('http://h:1/?app=phone&device=iphone', 'tablet')), { app: 'tablet' });
  assert.deepEqual(params(switchAppUrl('http://h:1/?app=tablet&device=ipad', 'phone')), { app: 'phone' });
  assert.equal(readOptions(new URL(switchAppUrl('http://h:1/?app=tablet&device=ipad', 'phone')).search).device, null);
  // Without `app` in the address, the app shown (the server's) is the one whose device may be dropped.
  assert.deepEqual(params(switchAppUrl('http://h:1/?device=ipad', 'phone', 'tablet')), { app: 'phone' });
  assert.deepEqual(params(switchAppUrl('http://h:1/?device=ipad', 'tablet', 'phone')), { app: 'tablet', device: 'ipad' });
  // ...another device was a choice, and stays.
  assert.deepEqual(params(switchAppUrl('http://h:1/?app=phone&device=ipad-pro', 'tablet')),
    { app: 'tablet', device: 'ipad-pro' });
  assert.deepEqual(params(switchAppUrl('http://h:1/?app=tablet&device=fit', 'phone')), { app: 'phone', device: 'fit' });
  assert.deepEqual(params(switchAppUrl('http://h:1/?app=tablet&device=iphone', 'stack')),
    { app: 'stack', device: 'iphone' });
});
