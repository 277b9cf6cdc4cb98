// The desktop pieces around the window, each checked without Electron: remembered bounds, the menu, the tray's
// wording, the notification click path, where the Electron build of better-sqlite3 is found, and the icons.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import type { MenuItemConstructorOptions, NotificationConstructorOptions } from 'electron';
import { afterAll, describe, expect, it } from 'vitest';
import { appIconPng, trayIconPng } from '../../src/main/icons';
import { menuTemplate } from '../../src/main/menu';
import {
  electronSqliteBindingPath,
  findElectronSqliteBinding,
  missingBindingMessage,
  packagedSqliteBindingPath,
} from '../../src/main/native';
import {
  createElectronNotifier,
  NOTIFICATION_BODY_MAX,
  NOTIFICATION_TITLE_MAX,
  notificationText,
  type NotificationLike,
} from '../../src/main/notifier';
import { trayView } from '../../src/main/tray';
import {
  fitToDisplays,
  loadWindowState,
  parseWindowState,
  saveWindowState,
  WINDOW_STATE_FILE,
} from '../../src/main/windowState';
import type { StatusView } from '../../src/shared/ipc/contract';
import { quotaView } from '../../src/core/status';

const tmp = mkdtempSync(path.join(tmpdir(), 'oddsdesk-shell-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('remembered window bounds', () => {
  const primary = { x: 0, y: 0, width: 1920, height: 1040 };
  const right = { x: 1920, y: 0, width: 2560, height: 1400 };

  it('round-trips through the file', () => {
    const dir = path.join(tmp, 'roundtrip');
    saveWindowState(dir, { x: 100, y: 50, width: 1300, height: 850, maximized: true });
    expect(loadWindowState(dir, [primary])).toEqual({ x: 100, y: 50, width: 1300, height: 850, maximized: true });
  });

  it('ignores a missing, corrupt or ill-typed file instead of failing to start', () => {
    const dir = path.join(tmp, 'bad');
    expect(loadWindowState(dir, [primary])).toBeNull();
    saveWindowState(dir, { width: 1000, height: 700, maximized: false });
    writeFileSync(path.join(dir, WINDOW_STATE_FILE), '{"width": 1000, "heig');
    expect(loadWindowState(dir, [primary])).toBeNull();
    for (const raw of [
      null,
      'x',
      [],
      { width: '1000', height: 700 },
      { width: 1e9, height: 700 },
      { width: 1.5, height: 700 },
      { width: -5, height: 700 },
    ]) {
      expect(parseWindowState(raw), JSON.stringify(raw)).toBeNull();
    }
    // A bad position alone drops only the position.
    expect(parseWindowState({ width: 1000, height: 700, x: 'left', y: 3 })).toEqual({
      width: 1000,
      height: 700,
      maximized: false,
    });
  });

  it('keeps a window that is on a display where it was', () => {
    expect(fitToDisplays({ x: 2000, y: 100, width: 1400, height: 900, maximized: false }, [primary, right])).toEqual({
      x: 2000,
      y: 100,
      width: 1400,
      height: 900,
      maximized: false,
    });
  });

  it('drops the position of a window last seen on a display that is gone', () => {
    const fitted = fitToDisplays({ x: 2000, y: 100, width: 1400, height: 900, maximized: false }, [primary]);
    expect(fitted).toEqual({ width: 1400, height: 900, maximized: false });
  });

  it('pulls a window hanging off an edge fully onto its display, shrinking it to fit', () => {
    expect(fitToDisplays({ x: 1500, y: -50, width: 1000, height: 700, maximized: false }, [primary])).toEqual({
      x: 920,
      y: 0,
      width: 1000,
      height: 700,
      maximized: false,
    });
    expect(fitToDisplays({ x: 0, y: 0, width: 3000, height: 2000, maximized: false }, [primary])).toEqual({
      x: 0,
      y: 0,
      width: 1920,
      height: 1040,
      maximized: false,
    });
  });

  it('never restores smaller than the minimum size the window allows', () => {
    expect(fitToDisplays({ width: 400, height: 300, maximized: false }, [primary])).toEqual({
      width: 960,
      height: 600,
      maximized: false,
    });
  });
});

describe('application menu', () => {
  const roles = (t: MenuItemConstructorOptions[]): string[] =>
    t.flatMap((i) => [...(i.role ? [String(i.role)] : []), ...(Array.isArray(i.submenu) ? roles(i.submenu) : [])]);
  const labels = (t: MenuItemConstructorOptions[]) => t.map((i) => i.label);
  const base = { appName: 'Oddsdesk', onAbout: () => undefined };

  it('has File, Edit, View, Window and Help, with Quit and the edit roles', () => {
    const t = menuTemplate({ ...base, isMac: false, isDev: false });
    expect(labels(t)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
    expect(roles(t)).toEqual(
      expect.arrayContaining(['quit', 'undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'minimize']),
    );
  });

  it('offers reload and developer tools only in development', () => {
    expect(roles(menuTemplate({ ...base, isMac: false, isDev: false }))).not.toEqual(
      expect.arrayContaining(['reload']),
    );
    expect(roles(menuTemplate({ ...base, isMac: false, isDev: false }))).not.toContain('toggleDevTools');
    expect(roles(menuTemplate({ ...base, isMac: false, isDev: true }))).toEqual(
      expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']),
    );
  });

  it('binds the standard shortcuts, each with a modifier or a function key: no single key (view keys belong to the renderer)', () => {
    // Electron's own accelerators of the roles the menu uses, off macOS (lib/browser/api/menu-item-roles.ts): a role
    // item binds its role's accelerator unless it names one of its own.
    const ROLE_ACCELERATORS: Record<string, string | null> = {
      quit: 'CommandOrControl+Q',
      close: 'CommandOrControl+W',
      minimize: 'CommandOrControl+M',
      undo: 'CommandOrControl+Z',
      redo: 'Shift+CommandOrControl+Z',
      cut: 'CommandOrControl+X',
      copy: 'CommandOrControl+C',
      paste: 'CommandOrControl+V',
      selectAll: 'CommandOrControl+A',
      reload: 'CmdOrCtrl+R',
      forceReload: 'Shift+CmdOrCtrl+R',
      toggleDevTools: 'Ctrl+Shift+I',
      resetZoom: 'CommandOrControl+0',
      zoomIn: 'CommandOrControl+Plus',
      zoomOut: 'CommandOrControl+-',
      togglefullscreen: 'F11',
      help: null,
    };
    const bound = (t: MenuItemConstructorOptions[]): Array<[string, string]> =>
      t.flatMap((i) => {
        if (i.role) expect(ROLE_ACCELERATORS, `role ${i.role}`).toHaveProperty(i.role);
        const a = i.accelerator ?? (i.role ? ROLE_ACCELERATORS[i.role] : null);
        return [
          ...(a ? [[String(i.role ?? i.label), String(a)] as [string, string]] : []),
          ...(Array.isArray(i.submenu) ? bound(i.submenu) : []),
        ];
      });
    const keys = bound(menuTemplate({ ...base, isMac: false, isDev: true }));
    expect(Object.fromEntries(keys)).toEqual(
      Object.fromEntries(Object.entries(ROLE_ACCELERATORS).filter(([, a]) => a !== null)),
    );
    for (const [what, a] of keys) expect(a, what).toMatch(/\+|^F\d{1,2}$/);
  });

  it('puts About in Help (or the app menu on macOS) and calls back', () => {
    let asked = 0;
    const t = menuTemplate({ appName: 'Oddsdesk', isMac: false, isDev: false, onAbout: () => void asked++ });
    const help = t.find((i) => i.label === '&Help')!.submenu as MenuItemConstructorOptions[];
    (help.find((i) => i.label === 'About Oddsdesk')!.click as () => void)();
    expect(asked).toBe(1);
    const mac = menuTemplate({ ...base, isMac: true, isDev: false });
    expect(mac[0]!.label).toBe('Oddsdesk');
    expect(roles([mac[0]!])).toContain('quit');
  });
});

describe('tray', () => {
  const status = (over: Partial<StatusView>): StatusView => ({
    connection: 'online',
    demo: false,
    auth: 'ok',
    plan: null,
    restricted: [],
    quota: quotaView(undefined),
    streams: [],
    lastSettledSync: null,
    lastError: null,
    ...over,
  });

  it('says starting before the first status', () => {
    expect(trayView(null)).toMatchObject({ state: 'unknown', tooltip: 'Oddsdesk — starting…' });
  });

  it('shows online with stream counts, and DEMO in demo mode', () => {
    const v = trayView(
      status({
        demo: true,
        streams: [
          { eventId: 1, state: 'live', lastMessageAt: 1 },
          { eventId: 2, state: 'reconnecting', lastMessageAt: null },
        ],
      }),
    );
    expect(v.state).toBe('online');
    expect(v.tooltip).toBe('Oddsdesk — DEMO · online · stream 1/2 live');
  });

  it('shows offline with the reason, and a rejected key above everything', () => {
    expect(
      trayView(
        status({ connection: 'offline', lastError: { kind: 'network', message: 'Cannot reach the odds service' } }),
      ),
    ).toMatchObject({
      state: 'offline',
      label: 'offline: Cannot reach the odds service',
    });
    const rejected = trayView(status({ connection: 'offline', auth: 'rejected' }));
    expect(rejected.state).toBe('attention');
    expect(rejected.label).toContain('the key was rejected (regenerated or revoked)');
  });

  it('keeps the tooltip within the 127 characters Windows shows', () => {
    const v = trayView(status({ connection: 'offline', lastError: { kind: 'network', message: 'x'.repeat(400) } }));
    expect(v.tooltip.length).toBeLessThanOrEqual(127);
  });
});

describe('notifications', () => {
  class FakeNotification implements NotificationLike {
    static made: FakeNotification[] = [];
    listeners = new Map<string, () => void>();
    shown = false;
    constructor(readonly options: NotificationConstructorOptions) {
      FakeNotification.made.push(this);
    }
    on(event: string, listener: () => void) {
      this.listeners.set(event, listener);
      return this;
    }
    show() {
      this.shown = true;
    }
  }

  it('shows the title, body and app icon, and a click shows the window on that event', () => {
    const calls: string[] = [];
    const notifier = createElectronNotifier({
      create: (o) => new FakeNotification(o),
      isSupported: () => true,
      focusWindow: () => calls.push('focus'),
      focusEvent: (id) => calls.push(`event ${id}`),
      icon: '/app/icon.png',
    });
    notifier.notify({ title: 'Settled: Home v Away 2–1', body: 'ML home W', eventId: 42, kind: 'settlement' });
    const n = FakeNotification.made.at(-1)!;
    expect(n.shown).toBe(true);
    // With the app icon: Linux notification daemons show none otherwise.
    expect(n.options).toMatchObject({ title: 'Settled: Home v Away 2–1', body: 'ML home W', icon: '/app/icon.png' });
    n.listeners.get('click')!();
    // One step: focusEvent shows the window itself and waits for the page before telling it.
    expect(calls).toEqual(['event 42']);
  });

  it('escapes markup in the title and the body on Linux (upstream names go in raw), drops control characters and caps both parts', () => {
    const deps = {
      create: (o: NotificationConstructorOptions) => new FakeNotification(o),
      isSupported: () => true,
      focusWindow: () => undefined,
      focusEvent: () => undefined,
    };
    const hostile = {
      title: 'Settled: <b>FC</b> v A&B\u0007 1–0',
      body: 'Away +0.5: won\n<a href="https://evil">click</a> & <img src=x>',
      kind: 'settlement' as const,
    };
    createElectronNotifier({ ...deps, platform: 'linux' }).notify(hostile);
    expect(FakeNotification.made.at(-1)!.options).toMatchObject({
      title: 'Settled: &lt;b&gt;FC&lt;/b&gt; v A&amp;B 1–0',
      body: 'Away +0.5: won\n&lt;a href="https://evil"&gt;click&lt;/a&gt; &amp; &lt;img src=x&gt;',
    });
    // Windows and macOS show text as text: only the control character goes.
    createElectronNotifier({ ...deps, platform: 'win32' }).notify(hostile);
    expect(FakeNotification.made.at(-1)!.options).toMatchObject({
      title: 'Settled: <b>FC</b> v A&B 1–0',
      body: hostile.body,
    });
    // The pure rule (issue 36): the title is escaped as the body is.
    expect(notificationText({ title: '<i>A</i> & <b>B</b>', body: '<u>x</u>' }, 'linux')).toEqual({
      title: '&lt;i&gt;A&lt;/i&gt; &amp; &lt;b&gt;B&lt;/b&gt;',
      body: '&lt;u&gt;x&lt;/u&gt;',
    });
    expect(notificationText({ title: '<i>A</i>', body: '<u>x</u>' }, 'darwin')).toEqual({
      title: '<i>A</i>',
      body: '<u>x</u>',
    });
    createElectronNotifier({ ...deps, platform: 'linux' }).notify({
      title: 'x'.repeat(500),
      body: 'y'.repeat(5000),
      kind: 'max_win',
    });
    const long = FakeNotification.made.at(-1)!.options as { title: string; body: string };
    expect([long.title.length, long.body.length, long.body.endsWith('…')]).toEqual([
      NOTIFICATION_TITLE_MAX,
      NOTIFICATION_BODY_MAX,
      true,
    ]);
  });

  it('only focuses the window when the notification names no event, and shows nothing where unsupported', () => {
    const calls: string[] = [];
    const deps = {
      create: (o: NotificationConstructorOptions) => new FakeNotification(o),
      focusWindow: () => calls.push('focus'),
      focusEvent: () => calls.push('event'),
    };
    createElectronNotifier({ ...deps, isSupported: () => true }).notify({ title: 't', body: 'b', kind: 'max_win' });
    FakeNotification.made.at(-1)!.listeners.get('click')!();
    expect(calls).toEqual(['focus']);
    const before = FakeNotification.made.length;
    createElectronNotifier({ ...deps, isSupported: () => false }).notify({ title: 't', body: 'b', kind: 'max_win' });
    expect(FakeNotification.made.length).toBe(before);
  });
});

describe('better-sqlite3 Electron binding', () => {
  it('mirrors scripts/electron-native.mjs', async () => {
    // @ts-expect-error: a plain .mjs script without types
    const script = (await import('../../scripts/electron-native.mjs')) as {
      electronBindingPath: (v: string, p?: string, a?: string) => string;
    };
    const root = path.resolve(__dirname, '../..');
    expect(electronSqliteBindingPath(root, '39.8.10', 'linux', 'x64')).toBe(
      script.electronBindingPath('39.8.10', 'linux', 'x64'),
    );
  });

  it('is used only when built for this Electron; a packaged app uses the copy shipped in its resources', () => {
    const want = electronSqliteBindingPath('/app', '39.8.10', 'linux', 'x64');
    const lookup = { appRoot: '/app', electronVersion: '39.8.10', platform: 'linux', arch: 'x64' };
    expect(findElectronSqliteBinding({ ...lookup, isPackaged: false, exists: (f) => f === want })).toBe(want);
    expect(findElectronSqliteBinding({ ...lookup, isPackaged: false, exists: () => false })).toBeUndefined();
    expect(
      findElectronSqliteBinding({ ...lookup, electronVersion: undefined, isPackaged: false, exists: () => true }),
    ).toBeUndefined();
    const shipped = packagedSqliteBindingPath('/opt/Oddsdesk/resources');
    expect(shipped).toBe(path.join('/opt/Oddsdesk/resources', 'native', 'better_sqlite3.node'));
    expect(
      findElectronSqliteBinding({
        ...lookup,
        isPackaged: true,
        resourcesPath: '/opt/Oddsdesk/resources',
        exists: (f) => f === shipped,
      }),
    ).toBe(shipped);
    // Never the development build from a packaged app, and nothing when the package lacks its own.
    expect(
      findElectronSqliteBinding({
        ...lookup,
        isPackaged: true,
        resourcesPath: '/opt/Oddsdesk/resources',
        exists: (f) => f === want,
      }),
    ).toBeUndefined();
    expect(missingBindingMessage(true)).toMatch(/Reinstall/);
    expect(missingBindingMessage(false)).toContain('electron-native.mjs');
  });
});

describe('icons', () => {
  /** Decodes the IHDR and the pixels of one of our unfiltered RGBA PNGs. */
  function decode(png: Buffer) {
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    const idatLength = png.readUInt32BE(33);
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    const pixel = (x: number, y: number) => [
      ...raw.subarray(y * (width * 4 + 1) + 1 + x * 4, y * (width * 4 + 1) + 1 + x * 4 + 4),
    ];
    return { width, height, pixel };
  }

  it('draws a 512 px app icon, opaque inside and transparent at the corner', () => {
    const icon = decode(appIconPng(512));
    expect([icon.width, icon.height]).toEqual([512, 512]);
    expect(icon.pixel(0, 0)[3]).toBe(0);
    expect(icon.pixel(256, 256)[3]).toBe(255);
  });

  it('colours the tray icon by connection state', () => {
    const centre = (s: 'online' | 'offline') => decode(trayIconPng(s, 32)).pixel(16, 20);
    expect(centre('online')).toEqual([63, 185, 80, 255]);
    expect(centre('offline')).toEqual([248, 81, 73, 255]);
  });
});
