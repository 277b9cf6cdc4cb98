// The desktop wiring under test (issue 24, item 3): src/main/index.ts, Electron's composition root, loaded once for
// this whole file under plain Node with the Electron stand-in (./electron/standIn.ts) as the `electron` module, and
// driven the way Electron and the trader drive it: the app becomes ready, the window loads, the page invokes
// channels through ipcMain, the trader closes the window, clicks the tray, quits. Everything else is real: the core,
// SQLite, the log file, the simulator behind a real HTTP front that can redirect, the keychain where one runs.
// Substituted, because it cannot run under Node, and only that:
//  - `electron` → the stand-in;
//  - `electron-log/main` → electron-log's Node entry (the same logger, without Electron's IPC);
//  - the Electron-ABI build of better-sqlite3 that src/main/native.ts looks for → Node's own build, placed where the
//    lookup rule expects it for the stand-in's Electron version (the lookup itself runs unchanged);
//  - the keychain service name: the real keytar store under a service of this run's own (see test/contract/keychain.ts:
//    "Forget all keys" must not touch other tests' or a developer's keys); with no Secret Service here, the in-memory
//    store, and the test prints why.
// electron-updater stays out by itself: it is only imported when a packaged build has a feed.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PATHS } from '../../src/shared/api';
import type * as Keytar from '../../src/core/secrets/keytar';
import type * as Native from '../../src/main/native';
import type { Result } from '../../src/shared/errors';
import { ODDS_ACK_CHANNEL } from '../../src/shared/ipc/channels';
import {
  DESKTOP_CHANNELS,
  PUSH_CHANNEL,
  REQUEST_CHANNELS,
  type AppInfo,
  type OddsBatch,
  type OddsdeskApi,
} from '../../src/shared/ipc/contract';
import { unpackPushes } from '../../src/shared/ipc/pushFrames';
import { KEYRING, NO_KEYRING, keychainForTests } from '../contract/keychain';
import { startService, type Service } from '../contract/service';
import { contractSuite } from '../contract/suite';
import {
  electronStandIn,
  StandInEvent,
  type StandInBrowserWindow,
  type StandInMenu,
  type StandInSession,
} from './electron/standIn';

const hoisted = vi.hoisted(() => ({ keychainService: `oddsdesk-desktop-wiring-${process.pid}-${Date.now()}` }));

vi.mock('electron', async () => (await import('./electron/standIn')).electronStandIn().electron);
vi.mock('electron-log/main', async () => await import('electron-log/node'));
vi.mock('../../src/main/native', async (importOriginal) => {
  const real = await importOriginal<typeof Native>();
  const { STAND_IN_ELECTRON } = await import('./electron/version');
  return {
    ...real,
    findElectronSqliteBinding: (lookup: Parameters<typeof real.findElectronSqliteBinding>[0]) =>
      real.findElectronSqliteBinding({ ...lookup, electronVersion: lookup.electronVersion ?? STAND_IN_ELECTRON }),
  };
});
vi.mock('../../src/core/secrets/keytar', async (importOriginal) => {
  const real = await importOriginal<typeof Keytar>();
  const { keychainForTests } = await import('../contract/keychain');
  return {
    ...real,
    createKeytarSecretStore: () => keychainForTests(hoisted.keychainService, real.createKeytarSecretStore),
  };
});

const root = path.resolve(__dirname, '../..');
const standIn = electronStandIn();
const userData = path.join(standIn.base, 'profile');
const scratch = path.join(standIn.base, 'scratch');
const umask = process.umask();
let service: Service;
let win: StandInBrowserWindow;
/** Every push the page received, in order. */
const pushes: Array<{ event: string; payload: unknown }> = [];

const page = () => standIn.page(win);
const invoke = (channel: string, ...args: unknown[]) => page().invoke(channel, ...args) as Promise<Result<unknown>>;
async function value<T>(channel: string, ...args: unknown[]): Promise<T> {
  const r = await invoke(channel, ...args);
  expect(r.ok, `${channel}: ${JSON.stringify(r).slice(0, 400)}`).toBe(true);
  return (r as { ok: true; value: T }).value;
}
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const trayMenu = (): StandInMenu => standIn.trays.at(-1)!.contextMenu!;

beforeAll(async () => {
  if (!KEYRING) console.log(`desktop wiring: ${NO_KEYRING}`);
  service = await startService();
  mkdirSync(scratch, { recursive: true });
  // Where src/main/native.ts looks for the Electron build of better-sqlite3 in an unpackaged app: Node's build here.
  const { STAND_IN_ELECTRON } = await import('./electron/version');
  const bindingDir = path.join(
    standIn.app.getAppPath(),
    '.native',
    `electron-${STAND_IN_ELECTRON}-${process.platform}-${process.arch}`,
  );
  mkdirSync(bindingDir, { recursive: true });
  symlinkSync(
    path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
    path.join(bindingDir, 'better_sqlite3.node'),
  );
  process.env['ODDSDESK_USER_DATA'] = userData;
  // Each steam of the notifications test is a drop episode of its own: this host runs on the real clock and cannot
  // wait out the 10 s quiet gap (docs/trading.md, "Drop episodes"; src/core/monitor/dropEpisodes.test.ts has the gap).
  process.env['ODDSDESK_TEST_DROP_EPISODE_QUIET_MS'] = '1';
  delete process.env['ELECTRON_RENDERER_URL'];
  delete process.env['ODDSDESK_API_KEY'];
  // The same logger index.ts gets: its file stays complete; its console copy only says what went wrong.
  const log = (await import('electron-log/node')).default;
  log.transports.console.level = 'warn';

  await import('../../src/main/index');
  await until(() => standIn.windows().length === 1 && standIn.windows()[0]!.isVisible(), 'the main window to show');
  win = standIn.windows()[0]!;
  // As the preload reads them: one push, or the pushes of one turn in one message.
  page().on(PUSH_CHANNEL, (message) => pushes.push(...unpackPushes(message)));
}, 60_000);

afterAll(async () => {
  // Whatever a failed test left running: quit as the tray would, then wait for the app to get there.
  if (!standIn.app.quitEmitted) {
    standIn.app.quit();
    await until(() => standIn.app.quitEmitted, 'the app to quit', 10_000).catch(() => undefined);
  }
  await service?.close();
  if (KEYRING) {
    const real = await vi.importActual<typeof Keytar>('../../src/core/secrets/keytar');
    await keychainForTests(hoisted.keychainService, real.createKeytarSecretStore)
      .deleteAll()
      .catch(() => 0);
  }
  process.umask(umask);
  delete process.env['ODDSDESK_USER_DATA'];
  delete process.env['ODDSDESK_TEST_DROP_EPISODE_QUIET_MS'];
  rmSync(standIn.base, { recursive: true, force: true });
});

describe('start-up', () => {
  it('composes like the desktop app: sandbox and app:// set before ready, every channel handled, a hardened window shown once loaded, a tray and a menu', async () => {
    expect(standIn.app.sandboxed).toBe(true);
    expect(standIn.privilegedSchemes).toContainEqual({
      scheme: 'app',
      privileges: expect.objectContaining({ standard: true, secure: true }),
    });
    expect(standIn.protocolHandlers.has('app')).toBe(true);
    expect([...standIn.ipcMain.handlers.keys()].sort()).toEqual([...REQUEST_CHANNELS, ...DESKTOP_CHANNELS].sort());
    expect(win.webContents.getURL()).toBe('app://oddsdesk/index.html');
    expect(win.options['webPreferences']).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(win.options['show']).toBe(false);
    // No new windows and no navigation away from the app, for every web contents.
    expect(win.webContents.requestNewWindow('https://evil.example/')).toBe('deny');
    expect(win.webContents.navigate('https://evil.example/')).toBe(false);
    expect(win.webContents.getURL()).toBe('app://oddsdesk/index.html');
    const session = (standIn.electron['session'] as { defaultSession: StandInSession }).defaultSession;
    expect(session.permissionCheckHandler?.(win.webContents, 'notifications')).toBe(false);
    let csp: Record<string, string[]> | undefined;
    session.onHeadersReceived?.({ responseHeaders: {} }, (r) => (csp = r.responseHeaders));
    expect(csp?.['Content-Security-Policy']?.[0]).toContain("default-src 'self'");
    expect(standIn.trays).toHaveLength(1);
    expect(trayMenu().find('Quit Oddsdesk')).not.toBeNull();
    // A fresh profile comes up in the demo (the built-in simulator starts in the background), and the window's title
    // says so.
    await until(async () => (await value<AppInfo>('app:info')).demo, 'the demo to start');
    expect(await value<AppInfo>('app:info')).toMatchObject({ host: 'electron', demo: true });
    await until(() => win.getTitle() === 'Oddsdesk — DEMO', 'the DEMO title');
    expect(existsSync(path.join(userData, 'logs', 'main.log'))).toBe(true);
  });
});

contractSuite('the desktop wiring (ipcMain, Electron stand-in)', () => ({
  host: 'electron',
  invoke: (channel, ...args) => invoke(channel, ...args),
  service,
  saveDialog: (answer) => standIn.answerSaveDialog(() => answer),
  scratch,
}));

describe("the preload (src/preload/index.ts, its real source) in the main window's page", () => {
  it('exposes only the contract API: an invoke round-trips to the core, a push reaches its listeners once by name, odds are acknowledged, and the key never reaches the page', async () => {
    standIn.preloadIn(win);
    await import('../../src/preload/index');
    expect(Object.keys(standIn.mainWorld)).toEqual(['oddsdesk']);
    const api = standIn.mainWorld['oddsdesk'] as OddsdeskApi & { desktop: NonNullable<OddsdeskApi['desktop']> };
    expect(Object.keys(api).sort()).toEqual(['desktop', 'invoke', 'on']);
    expect(Object.keys(api.desktop)).toEqual(['invoke']);
    /** Everything the page got through the preload: answers and pushes. */
    const got: unknown[] = [];
    const call = async (r: Promise<unknown>) => {
      const v = await r;
      got.push(v);
      return v;
    };

    // An invoke goes to the core and its answer comes back; a channel outside the contract never leaves the page.
    expect(await call(api.invoke('app:info'))).toMatchObject({
      ok: true,
      value: { host: 'electron', demo: false, baseUrl: service.front.url },
    });
    expect(await call(api.invoke('settings:get'))).toMatchObject({ ok: true, value: { hasKey: true } });
    const asked = vi.spyOn(standIn.ipcMain, 'invoke');
    const unknownChannel = api.invoke as (channel: string) => Promise<unknown>;
    expect(await unknownChannel('nope:nothing')).toEqual({
      ok: false,
      error: { kind: 'validation', message: 'Unknown channel nope:nothing' },
    });
    expect(await (api.desktop.invoke as (channel: string) => Promise<unknown>)('settings:get')).toEqual({
      ok: false,
      error: { kind: 'validation', message: 'Unknown channel settings:get' },
    });
    expect(asked).not.toHaveBeenCalled();
    asked.mockRestore();

    // A push reaches the listeners of its name, each once; an unsubscribed one no more; others not at all.
    const settings: Array<[string, unknown]> = [];
    const focus: unknown[] = [];
    const odds: unknown[] = [];
    let acks = 0;
    const ack = () => void acks++;
    standIn.ipcMain.on(ODDS_ACK_CHANNEL, ack);
    const offFirst = api.on('onSettings', (p) => settings.push(['first', p]));
    api.on('onSettings', (p) => settings.push(['second', p]));
    api.on('onFocusEvent', (p) => focus.push(p));
    api.on('onOdds', (p) => odds.push(p));
    const updated = (await call(api.invoke('settings:update', { dropAlertPct: 6 }))) as {
      ok: true;
      value: { dropAlertPct: number };
    };
    await until(() => settings.length >= 2, 'the onSettings push');
    await call(api.invoke('app:info')); // one more round trip: a second copy of the push would be here by now
    expect(settings).toEqual([
      ['first', updated.value],
      ['second', updated.value],
    ]);
    offFirst();
    await call(api.invoke('settings:update', { dropAlertPct: 5 }));
    await until(() => settings.length >= 3, 'the second onSettings push');
    await call(api.invoke('app:info'));
    expect(settings.map(([who]) => who)).toEqual(['first', 'second', 'second']);
    expect(focus).toEqual([]);

    // Odds taken in are acknowledged, so the window gets the next ones (the handicap's home shortens, nothing drops).
    const acksBefore = acks;
    service.sim.script.setMarket(service.eventId, service.spreadLineId, { home: 1.9, away: 1.9 });
    await until(
      () => (odds as OddsBatch[]).some((b) => JSON.stringify(b).includes(`"lineId":${service.spreadLineId}`)),
      'the odds of the moved line',
    );
    await until(() => acks > acksBefore, 'the odds acknowledged');
    standIn.ipcMain.off(ODDS_ACK_CHANNEL, ack);

    got.push(settings, odds);
    expect(JSON.stringify(got)).not.toContain(service.key);
    expect(JSON.stringify(standIn.mainWorld)).not.toContain(service.key);
  });
});

describe('a window of its own for one view (a second monitor)', () => {
  let second: StandInBrowserWindow;
  /** Every push the second window's page received, in order. */
  const secondPushes: Array<{ event: string; payload: unknown }> = [];
  const pushed = (list: typeof pushes, event: string, test: (payload: unknown) => boolean) =>
    list.some((p) => p.event === event && test(p.payload));

  it("desktop:openWindow makes a second window with the main one's preload and security, on the view's address; the same view again brings it forward", async () => {
    expect(await value('desktop:openWindow', { view: 'movers' })).toBeNull();
    expect(standIn.windows()).toHaveLength(2);
    second = standIn.windows().find((w) => w !== win)!;
    standIn.page(second).on(PUSH_CHANNEL, (message) => secondPushes.push(...unpackPushes(message)));
    // The very options of the main window's page: the same preload, sandboxed, isolated, no Node.
    expect(second.options['webPreferences']).toEqual(win.options['webPreferences']);
    expect(second.options['webPreferences']).toMatchObject({
      preload: expect.stringMatching(/preload[\\/]index\.cjs$/),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(second.options['show']).toBe(false);
    await until(() => second.isVisible(), 'the second window to show once loaded');
    expect(second.webContents.getURL()).toBe('app://oddsdesk/index.html#view=movers');
    // Ours, naming the view, and saying DEMO when the main window does.
    expect(second.getTitle()).toBe(win.getTitle().replace('Oddsdesk', 'Oddsdesk — Top movers'));
    // Hardened like the main one: no new windows from the page, no navigation away.
    expect(second.webContents.requestNewWindow('https://evil.example/')).toBe('deny');
    expect(second.webContents.navigate('https://evil.example/')).toBe(false);

    // Asked again for the same view: that window comes forward, no third one.
    second.hide();
    expect(await value('desktop:openWindow', { view: 'movers' })).toBeNull();
    expect(standIn.windows()).toHaveLength(2);
    expect(second.isVisible()).toBe(true);

    // Nothing made up reaches a window: an unknown view or an event without its id is refused, and no window opens.
    for (const bad of [{ view: 'elsewhere' }, { view: 'event' }, { view: 'movers', url: 'https://evil.example/' }]) {
      const r = await invoke('desktop:openWindow', bad);
      expect(r.ok, JSON.stringify(bad)).toBe(false);
    }
    expect(standIn.windows()).toHaveLength(2);
  });

  it("the second window's top frame is answered, a frame inside it is not; what it changes is pushed to both windows", async () => {
    const watched = (await value<Array<{ eventId: number }>>('watch:list')).map((w) => w.eventId);
    const other = service.sim.truth.bookIds().find((id) => !watched.includes(id))!;
    const iframe = standIn.subFrame(second, 'app://oddsdesk/index.html');
    expect(await standIn.page(second, iframe).invoke('watch:add', other)).toEqual({
      ok: false,
      error: { kind: 'validation', message: 'Request from an unknown page refused' },
    });

    const r = (await standIn.page(second).invoke('watch:add', other)) as Result<{ eventId: number }>;
    expect(r.ok, JSON.stringify(r).slice(0, 300)).toBe(true);
    const watching = (payload: unknown) => (payload as Array<{ eventId: number }>).some((w) => w.eventId === other);
    await until(
      () => pushed(pushes, 'onWatchlist', watching) && pushed(secondPushes, 'onWatchlist', watching),
      'the new watch pushed to both windows',
    );
    expect((await value<Array<{ eventId: number }>>('watch:list')).map((w) => w.eventId)).toContain(other);

    // A setting changed in the main window shows in the second (and the other way round).
    await value('settings:update', { oddsFormat: 'american' });
    const format = (f: string) => (payload: unknown) => (payload as { oddsFormat: string }).oddsFormat === f;
    await until(
      () => pushed(secondPushes, 'onSettings', format('american')),
      "the main window's setting pushed to the second",
    );
    expect(await standIn.page(second).invoke('settings:update', { oddsFormat: 'decimal' })).toMatchObject({ ok: true });
    await until(
      () => pushed(pushes, 'onSettings', format('decimal')),
      "the second window's setting pushed to the main one",
    );
    // A mute (part of what Settings shows) too.
    expect(await standIn.page(second).invoke('alerts:mute', other, true)).toEqual({ ok: true, value: null });
    await until(
      () => pushed(pushes, 'onSettings', (p) => (p as { mutedEvents: number[] }).mutedEvents.includes(other)),
      'the mute pushed to the main window',
    );
    await value('alerts:mute', other, false);
    // The status goes to both as well.
    await until(() => pushed(secondPushes, 'onStatus', () => true), 'a status push in the second window');
    await value('watch:remove', other);
  });

  it('a window of one event opens on its address; closing a second window just closes it: the main one stays, the app runs on', async () => {
    expect(await value('desktop:openWindow', { view: 'event', eventId: service.eventId })).toBeNull();
    const event = standIn.windows().find((w) => w !== win && w !== second)!;
    await until(() => event.isVisible(), 'the event window to show');
    expect(event.webContents.getURL()).toBe(`app://oddsdesk/index.html#event=${service.eventId}`);
    expect(event.getTitle()).toBe(win.getTitle().replace('Oddsdesk', `Oddsdesk — Event ${service.eventId}`));

    const quits = standIn.app.quitCalls;
    const notices = standIn.notifications.filter((n) => n.title === 'Oddsdesk is still running').length;
    second.close();
    event.close();
    expect(second.isDestroyed()).toBe(true);
    expect(event.isDestroyed()).toBe(true);
    expect(standIn.windows()).toEqual([win]);
    expect(win.isVisible()).toBe(true);
    expect(standIn.app.quitCalls).toBe(quits);
    expect(standIn.notifications.filter((n) => n.title === 'Oddsdesk is still running')).toHaveLength(notices);
    expect(await value('status:get')).toMatchObject({ auth: 'ok' });
    // The pushes go on to the main window alone.
    const before = secondPushes.length;
    await value('settings:update', { oddsFormat: 'american' });
    await until(
      () => pushed(pushes, 'onSettings', (p) => (p as { oddsFormat: string }).oddsFormat === 'american'),
      'the push to the main window',
    );
    expect(secondPushes).toHaveLength(before);
    await value('settings:update', { oddsFormat: 'decimal' });
    // The same view can be opened again later.
    expect(await value('desktop:openWindow', { view: 'movers' })).toBeNull();
    const again = standIn.windows().find((w) => w !== win)!;
    expect(again).not.toBe(second);
    again.close();
    expect(standIn.windows()).toEqual([win]);
  });
});

describe('the desktop shell', () => {
  it('refuses a request from a sub-frame, from a top frame that navigated away, and from another web contents; the core never sees it', async () => {
    const other = service.sim.truth.bookIds().find((id) => id !== service.eventId)!;
    const refused = { ok: false, error: { kind: 'validation', message: 'Request from an unknown page refused' } };
    const iframe = standIn.subFrame(win, 'app://oddsdesk/index.html');
    expect(await standIn.page(win, iframe).invoke('watch:add', other)).toEqual(refused);
    const away = { url: 'https://evil.example/', parent: null, name: '' } as unknown as typeof iframe;
    away.top = away;
    expect(await standIn.page(win, away).invoke('watch:add', other)).toEqual(refused);
    const stray = standIn.strayWebContents('app://oddsdesk/index.html');
    await until(() => stray.getURL() !== '', 'the stray page to load');
    expect(await standIn.ipcMain.invoke(stray, stray.mainFrame, 'watch:add', [other])).toEqual(refused);
    // The desktop shell's own channels too.
    expect(await standIn.page(win, iframe).invoke('desktop:copyDiagnostics')).toEqual(refused);
    expect((await value<Array<{ eventId: number }>>('watch:list')).map((w) => w.eventId)).not.toContain(other);
  });

  it('"Export CSV" opens the save dialog over the window, in the Downloads folder with a dated name, and writes the CSV there', async () => {
    const file = path.join(scratch, 'chosen.csv');
    standIn.answerSaveDialog(() => file);
    const before = standIn.dialogs.length;
    const r = await value<{ path: string; rows: number }>('settlements:exportCsvToFile', {});
    expect(r.path).toBe(file);
    const [dialog] = standIn.dialogs.slice(before);
    expect(dialog?.kind).toBe('save');
    expect(dialog?.window).toBe(win);
    expect(dialog?.options).toMatchObject({ title: 'Export CSV', filters: [{ name: 'CSV', extensions: ['csv'] }] });
    expect(dialog?.options['defaultPath']).toMatch(
      new RegExp(`^${standIn.app.getPath('downloads')}/oddsdesk-settlements-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    expect(readFileSync(file, 'utf8')).toBe(await value<string>('settlements:exportCsv', {}));
  });

  it('a same-origin redirect passes through the net adapter to the core, which follows it with the key', async () => {
    service.front.redirect = (p) => (p.startsWith(PATHS.fixtures) ? { status: 307, location: `/moved${p}` } : null);
    try {
      const mark = service.front.seen.length;
      const fixtures = await value<Array<{ event_id: number }>>('fixtures:list', {});
      expect(fixtures.map((f) => f.event_id)).toContain(service.eventId);
      const hops = service.front.seen.slice(mark).filter((s) => s.path.includes(PATHS.fixtures));
      expect(hops.map((s) => [s.path.split('?')[0], s.key])).toEqual([
        [PATHS.fixtures, service.key],
        [`/moved${PATHS.fixtures}`, service.key],
      ]);
    } finally {
      service.front.redirect = null;
    }
  });

  it('a cross-origin redirect is refused with its plain message, the other origin gets nothing, and the app stays online', async () => {
    service.front.redirect = (p) =>
      p.startsWith(PATHS.fixtures) ? { status: 302, location: service.other.url + p } : null;
    try {
      const r = await invoke('fixtures:list', {});
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.kind).toBe('validation');
      expect(r.error.message).toContain(
        `the service at ${service.front.url} redirected (302) to another address, ${service.other.url}.`,
      );
      expect(r.error.message).not.toContain(service.key);
      expect(service.other.seen).toEqual([]);
      expect(await value<{ connection: string }>('status:get')).toMatchObject({ connection: 'online' });
    } finally {
      service.front.redirect = null;
    }
  });

  it('notifications: with "notify price alerts" off a drop alerts but shows no notification; on, the next drop shows one', async () => {
    const drops = () => standIn.notifications.filter((n) => /^Drop/.test(n.title));
    const dropAlerts = async () =>
      (await value<Array<{ kind: string; eventId: number }>>('alerts:list', {})).filter(
        (a) => a.kind === 'drop' && a.eventId === service.eventId,
      );
    await value('settings:update', { notifyPriceAlerts: false, dropAlertPct: 5, doNotDisturb: false });
    const shownBefore = drops().length;
    const alertsBefore = (await dropAlerts()).length;

    // Fair home (EM) 2.0526 at the open → 1.9231: −6.3%, past the 5% rule.
    service.sim.script.setMarket(service.eventId, service.lineId, { home: 1.8, away: 1.95 });
    await until(async () => (await dropAlerts()).length === alertsBefore + 1, 'the first drop alert');
    await until(
      () => pushes.some((p) => p.event === 'onAlert' && (p.payload as { kind: string }).kind === 'drop'),
      'the alert pushed to the window',
    );
    // Everything about that alert has been decided by now; a stray notification would have shown.
    await new Promise((r) => setTimeout(r, 300));
    expect(drops()).toHaveLength(shownBefore);

    await value('settings:update', { notifyPriceAlerts: true });
    // A further drop of the rule's size from the alerted price: 1.9231 → 1.7273 (−10%).
    service.sim.script.setMarket(service.eventId, service.lineId, { home: 1.6, away: 2.2 });
    await until(() => drops().length === shownBefore + 1, 'the drop notification');
    expect(await dropAlerts()).toHaveLength(alertsBefore + 2);
    const shown = drops().at(-1)!;
    expect(shown.body.length).toBeGreaterThan(0);
    expect(shown.silent).toBe(true);
    // Clicking it brings the window forward and tells the page which event to show, at the line that dropped.
    shown.click();
    await until(
      () =>
        pushes.some(
          (p) => p.event === 'onFocusEvent' && (p.payload as { eventId: number }).eventId === service.eventId,
        ),
      'onFocusEvent',
    );
    const focus = pushes.filter((p) => p.event === 'onFocusEvent').at(-1)!.payload as {
      eventId: number;
      kind?: string;
      lineId?: number | null;
    };
    expect(focus).toMatchObject({ eventId: service.eventId, kind: 'event', lineId: service.lineId });
  });

  it('closing the window hides it to the tray (not destroyed), says once that Oddsdesk still runs; the tray or a second start brings it back', async () => {
    expect(await value('desktop:get')).toMatchObject({ closeToTray: true, trayAvailable: true });
    const notices = () => standIn.notifications.filter((n) => n.title === 'Oddsdesk is still running');
    expect(notices()).toHaveLength(0);

    win.close();
    expect(win.isDestroyed()).toBe(false);
    expect(win.isVisible()).toBe(false);
    expect(notices()).toHaveLength(1);
    // Still monitoring: the core answers while the window is hidden.
    expect(await value('status:get')).toMatchObject({ auth: 'ok' });

    standIn.trays[0]!.click();
    expect(win.isVisible()).toBe(true);
    win.close();
    expect(win.isVisible()).toBe(false);
    expect(notices(), 'the notice is shown once').toHaveLength(1);
    expect(JSON.parse(readFileSync(path.join(userData, 'desktop-settings.json'), 'utf8'))).toMatchObject({
      closeNoticeShown: true,
    });
    // Starting Oddsdesk again while it runs brings this window back (the second instance itself quits).
    standIn.app.emit('second-instance', new StandInEvent(), ['oddsdesk'], root);
    expect(win.isVisible()).toBe(true);
    win.close();
    trayMenu().click('Show Oddsdesk');
    expect(win.isVisible()).toBe(true);
    expect(standIn.windows()).toEqual([win]);
  });

  it('quitting from the tray flushes and closes the database cleanly, then the app quits; requests meanwhile are refused', async () => {
    const info = await value<AppInfo>('app:info');
    const db = info.historyPath;
    expect(existsSync(db)).toBe(true);
    const quitsBefore = standIn.app.quitCalls;
    const drops = (await value<Array<{ kind: string; eventId: number }>>('alerts:list', { limit: 1000 })).filter(
      (a) => a.kind === 'drop' && a.eventId === service.eventId,
    );
    expect(drops.length).toBeGreaterThanOrEqual(2);
    // A view's own window open as well: quitting closes it too.
    expect(await value('desktop:openWindow', { view: 'alerts' })).toBeNull();
    const alerts = standIn.windows().find((w) => w !== win)!;
    await until(() => alerts.isVisible(), 'the alerts window to show');

    trayMenu().click('Quit Oddsdesk');
    // At once: the windows hidden, requests refused, the tray gone.
    expect(win.isVisible()).toBe(false);
    expect(alerts.isVisible()).toBe(false);
    expect(await invoke('status:get')).toEqual({
      ok: false,
      error: { kind: 'internal', message: 'Oddsdesk is shutting down' },
    });
    expect(standIn.trays[0]!.isDestroyed()).toBe(true);

    await until(() => standIn.app.quitEmitted, 'the app to quit');
    expect(standIn.app.quitCalls - quitsBefore).toBeGreaterThanOrEqual(2); // the first held for the flush, the second let through
    expect(standIn.windows()).toEqual([]);
    const log = readFileSync(path.join(userData, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('Shutting down: quit');
    expect(log).toContain('Closed cleanly (ticks flushed, database closed)');
    expect(log).not.toContain(service.key);
    // A cleanly closed SQLite database leaves no write-ahead log behind, and holds what the session wrote.
    expect(existsSync(`${db}-wal`)).toBe(false);
    const file = new Database(db, { readonly: true });
    try {
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(
        file
          .prepare('SELECT COUNT(*) AS n FROM alert_log WHERE event_id = ? AND kind = ?')
          .get(service.eventId, 'drop'),
      ).toEqual({ n: drops.length });
    } finally {
      file.close();
    }
  });
});
