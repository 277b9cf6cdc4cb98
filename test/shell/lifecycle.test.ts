// A monitor that lives all day, checked without Electron: closing the window keeps it running in the tray (and says
// so once), quitting is one-way (no IPC, no window reopened), a stuck database close cannot hold the OS shutdown,
// a crashed page reloads but never in a loop, the desktop settings survive a bad file, the diagnostics carry no
// key, and updates stay off without a feed.
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/core/log/scrub';
import { DESKTOP_SETTINGS_FILE, loadDesktopSettings, saveDesktopSettings } from '../../src/main/desktopSettings';
import { diagnosticsSummary } from '../../src/main/diagnostics';
import { closeWithin } from '../../src/core/host/kit';
import { createCrashPolicy, createLifecycle } from '../../src/main/lifecycle';
import { createUpdates, updateFeedConfigured, type UpdaterLike } from '../../src/main/updates';
import { dispatchDesktop, type DesktopHandlers, type StatusView } from '../../src/shared/ipc/contract';
import { quotaView } from '../../src/core/status';

const tmp = mkdtempSync(path.join(tmpdir(), 'oddsdesk-lifecycle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function lifecycle(over: { closeToTray?: boolean; tray?: boolean; isMac?: boolean } = {}) {
  let noticeShown = false;
  const l = createLifecycle({
    closeToTray: () => over.closeToTray ?? true,
    trayAvailable: () => over.tray ?? true,
    noticeShown: () => noticeShown,
    markNoticeShown: () => void (noticeShown = true),
    isMac: over.isMac ?? false,
  });
  return l;
}

describe('closing the window', () => {
  it('hides it to the tray on Windows and Linux too, saying so on the first close only', () => {
    const l = lifecycle();
    expect(l.onWindowClose()).toEqual({ action: 'hide', notice: true });
    expect(l.onWindowClose()).toEqual({ action: 'hide', notice: false });
    expect(l.quitWhenAllClosed()).toBe(true); // only reached when the setting is off
    expect(l.acceptsRequests()).toBe(true);
  });

  it('really closes when the trader turned the setting off, or when the desktop has no tray to come back from', () => {
    expect(lifecycle({ closeToTray: false }).onWindowClose().action).toBe('close');
    expect(lifecycle({ tray: false }).onWindowClose().action).toBe('close');
    // macOS keeps the dock icon: hiding is still safe there.
    expect(lifecycle({ tray: false, isMac: true }).onWindowClose().action).toBe('hide');
    expect(lifecycle({ isMac: true, closeToTray: false }).quitWhenAllClosed()).toBe(false);
  });
});

describe('quitting', () => {
  it('is one-way: requests refused, no window shown again, windows close for real', () => {
    const l = lifecycle();
    expect(l.beginQuit()).toBe(true);
    expect(l.beginQuit()).toBe(false);
    expect(l.acceptsRequests()).toBe(false);
    expect(l.canShowWindow()).toBe(false);
    expect(l.onWindowClose()).toEqual({ action: 'close', notice: false });
    expect(l.phase()).toBe('quitting');
    l.finishQuit();
    expect(l.phase()).toBe('done');
    expect(l.quitWhenAllClosed()).toBe(true);
  });

  it('waits for the database to close, but never past the limit', async () => {
    expect(await closeWithin(() => Promise.resolve(), 5000)).toBe('closed');
    expect(await closeWithin(() => Promise.reject(new Error('busy')), 5000)).toBe('failed');
    let fire!: () => void;
    const stuck = closeWithin(
      () => new Promise<void>(() => undefined),
      5000,
      (fn) => (fire = fn),
    );
    fire();
    expect(await stuck).toBe('timeout');
  });
});

describe('a crashed page', () => {
  it('reloads, but gives up after three crashes in a minute and ignores a clean exit', () => {
    let now = 0;
    const p = createCrashPolicy(() => now);
    expect(p.onGone('clean-exit')).toBe('ignore');
    expect([p.onGone('crashed'), p.onGone('oom'), p.onGone('crashed')]).toEqual(['reload', 'reload', 'reload']);
    expect(p.onGone('crashed')).toBe('give-up');
    now += 61_000;
    expect(p.onGone('crashed')).toBe('reload');
  });
});

describe('desktop settings', () => {
  it('default to close-to-tray, round-trip, and survive a corrupt or ill-typed file', () => {
    const dir = path.join(tmp, 'settings');
    expect(loadDesktopSettings(dir)).toEqual({ closeToTray: true, closeNoticeShown: false });
    saveDesktopSettings(dir, { closeToTray: false, closeNoticeShown: true });
    expect(loadDesktopSettings(dir)).toEqual({ closeToTray: false, closeNoticeShown: true });
    writeFileSync(path.join(dir, DESKTOP_SETTINGS_FILE), '{"closeToTray": "no", "closeNot');
    expect(loadDesktopSettings(dir)).toEqual({ closeToTray: true, closeNoticeShown: false });
    writeFileSync(path.join(dir, DESKTOP_SETTINGS_FILE), '{"closeToTray": "no"}');
    expect(loadDesktopSettings(dir).closeToTray).toBe(true);
  });

  it('are validated at the contract: unknown fields and wrong types are refused before any handler runs', async () => {
    let updated = 0;
    const handlers = { 'desktop:update': () => void updated++ } as unknown as DesktopHandlers;
    expect(await dispatchDesktop(handlers, 'desktop:update', [{ closeToTray: 'yes' }])).toMatchObject({
      ok: false,
      error: { kind: 'validation' },
    });
    expect(await dispatchDesktop(handlers, 'desktop:update', [{ closeToTray: true, dbPath: '/x' }])).toMatchObject({
      ok: false,
    });
    expect(await dispatchDesktop(handlers, 'settings:get', [])).toMatchObject({
      ok: false,
      error: { kind: 'validation' },
    });
    expect(updated).toBe(0);
    expect(await dispatchDesktop(handlers, 'desktop:update', [{ closeToTray: false }])).toMatchObject({ ok: true });
    expect(updated).toBe(1);
  });
});

describe('diagnostics summary', () => {
  it('says what a support person needs and carries no key, even one that reached the log before it was known', () => {
    const key = 'diag-key-5b1e9c0a7d3f';
    const scrubber = createScrubber();
    const earlyLine = `[2026-11-23 09:00:00.000] [warn] retrying with ${key}`;
    scrubber.addSecret(key);
    const status: StatusView = {
      connection: 'offline',
      demo: false,
      auth: 'ok',
      plan: 'enterprise',
      restricted: [],
      quota: { ...quotaView(undefined), used: 12, remaining: 988, limit: 1000 },
      streams: [
        { eventId: 1, state: 'live', lastMessageAt: 1 },
        { eventId: 2, state: 'reconnecting', lastMessageAt: null },
      ],
      lastSettledSync: null,
      lastError: { kind: 'network', message: `Cannot reach https://odds.example/api?key=${key}` },
    };
    const text = diagnosticsSummary(
      {
        appVersion: '0.1.0',
        packaged: true,
        versions: { electron: '39.8.10', chrome: '142', node: '22' },
        os: { platform: 'win32', release: '10.0.22631', arch: 'x64' },
        status,
        update: { state: 'off', currentVersion: '0.1.0', version: null, percent: null, message: null },
        logFile: 'C:\\Users\\t\\AppData\\Roaming\\Oddsdesk\\logs\\main.log',
        recentLogLines: [earlyLine],
        now: new Date(Date.UTC(2026, 10, 23, 9, 30)),
      },
      scrubber,
    );
    expect(text).toContain('Oddsdesk 0.1.0 — diagnostics 2026-11-23T09:30:00.000Z');
    expect(text).toContain('OS win32 10.0.22631 x64');
    expect(text).toContain('Connection offline · key ok · plan enterprise · quota used 12/1000');
    expect(text).toContain('Streams 2: 1 live, 1 reconnecting');
    expect(text).toContain('Last error (network): Cannot reach');
    expect(text).toContain('main.log');
    expect(text).not.toContain(key);
  });
});

describe('updates', () => {
  it('are off without a feed: only a packaged build with app-update.yml has one', () => {
    expect(updateFeedConfigured(false, '/r', () => true)).toBe(false);
    expect(updateFeedConfigured(true, '/r', () => false)).toBe(false);
    const https = 'provider: generic\nurl: https://updates.example/oddsdesk\nupdaterCacheDirName: oddsdesk-updater\n';
    expect(
      updateFeedConfigured(
        true,
        '/r',
        (f) => f === path.join('/r', 'app-update.yml'),
        () => https,
      ),
    ).toBe(true);
    const off = createUpdates('0.1.0', null);
    expect(off.view()).toMatchObject({ state: 'off', currentVersion: '0.1.0' });
  });

  it('stay off, with a log line, when the feed is not https (anyone on the path could serve an "update")', () => {
    const logged: string[] = [];
    const feed = (text: string | null) =>
      updateFeedConfigured(
        true,
        '/r',
        () => true,
        () => text,
        (l) => logged.push(l),
      );
    expect(feed('provider: generic\nurl: http://updates.example/oddsdesk\n')).toBe(false);
    expect(logged).toEqual(["Updates off: the update feed's url is http, not https."]);
    expect(feed("provider: generic\nurl: 'HTTP://updates.example'\n")).toBe(false);
    expect(feed('provider: s3\nbucket: b\nendpoint: http://minio.local:9000\n')).toBe(false);
    expect(feed('provider: generic\n')).toBe(false);
    expect(feed('provider: generic\nurl: not a url\n')).toBe(false);
    expect(feed(null)).toBe(false);
    expect(logged).toHaveLength(6);
    expect(feed('provider: generic\nurl: "https://updates.example/oddsdesk"\n')).toBe(true);
    expect(feed('provider: github\nowner: o\nrepo: r\n')).toBe(true);
    expect(logged).toHaveLength(6);
  });

  it('offer what the feed has, download only when asked, close the app cleanly before installing', async () => {
    const calls: string[] = [];
    class FakeUpdater extends EventEmitter {
      autoDownload = true;
      autoInstallOnAppQuit = true;
      async checkForUpdates() {
        calls.push('check');
        this.emit('checking-for-update');
        this.emit('update-available', { version: '0.2.0' });
      }
      async downloadUpdate() {
        calls.push('download');
        this.emit('download-progress', { percent: 50.4 });
        this.emit('update-downloaded', { version: '0.2.0' });
      }
      quitAndInstall() {
        calls.push('install');
      }
    }
    const updater = new FakeUpdater();
    const u = createUpdates('0.1.0', updater as unknown as UpdaterLike);
    expect(updater.autoDownload).toBe(false);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(await u.check()).toMatchObject({ state: 'available', version: '0.2.0' });
    expect(calls).toEqual(['check']);
    await u.install(async () => void calls.push('shutdown'));
    expect(calls).toEqual(['check', 'download', 'shutdown', 'install']);
    updater.emit('error', new Error('feed https://u:tok3n-secret-value@updates.example failed\nstack'));
    expect(u.view().state).toBe('error');
  });
});
