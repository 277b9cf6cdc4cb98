// Electron's composition root: builds the core with what only the desktop can give it (the OS keychain, native
// notifications, a database under userData, better-sqlite3's Electron binding, Chromium's network stack with the OS
// proxy and certificate store), wires the IPC contract to the core's handlers with every sender checked, pushes the
// core's events to the renderer, and owns the windows, menu, tray, log file and updates.
// It lives all day: closing the main window keeps it watching from the tray; quitting (tray, menu, OS shutdown) hides
// the windows, refuses IPC, flushes and closes the database, then exits (the rules are in lifecycle.ts).
// Besides the main window, a view can have a window of its own (desktop:openWindow: a second monitor), made with the
// same preload and security; closing one just closes it, and the main window's closing takes them with it. Every
// one of our windows may call the core and gets every push.
// It composes the core with the host kit like the other hosts (src/core/host/kit.ts): the keychain wrapped so the
// log scrubber learns every key read or stored, the scrubbed logger for every engine, one bounded shutdown. The
// API key passes through here only on its way to settings:setApiKey; nothing here logs arguments or results.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  net,
  Notification,
  powerMonitor,
  protocol,
  screen,
  session,
  shell,
  Tray,
  type IpcMainInvokeEvent,
  type NativeImage,
} from 'electron';
import log from 'electron-log/main';
import { createCore, type Core } from '../core/core';
import { restrictFileModes } from '../core/fileModes';
import { createHostKit, logLevelFrom } from '../core/host/kit';
import { createScrubber } from '../core/log/scrub';
import { createKeytarSecretStore } from '../core/secrets/keytar';
import { AppErrorException, toAppError } from '../shared/errors';
import { sameWindowTarget, windowHash, windowTitle, type WindowTarget } from '../shared/ipc/windowRoute';
import { createOddsFlow, createPushBatcher } from '../shared/ipc/pushFrames';
import {
  DESKTOP_CHANNELS,
  dispatch,
  dispatchDesktop,
  ODDS_ACK_CHANNEL,
  PUSH_CHANNEL,
  REQUEST_CHANNELS,
  type DesktopHandlers,
  type DesktopView,
  type PushEventName,
  type PushPayloads,
  type StatusView,
} from '../shared/ipc/contract';
import { startDemo } from '../sim/demo';
import { loadDesktopSettings, saveDesktopSettings, type DesktopSettings } from './desktopSettings';
import { diagnosticsSummary } from './diagnostics';
import { appIconPng, trayIconPng, type TrayState } from './icons';
import { createCrashPolicy, createLifecycle, SHUTTING_DOWN } from './lifecycle';
import { configureLog } from './log';
import { menuTemplate } from './menu';
import { createNetFetch } from './netFetch';
import { findElectronSqliteBinding, missingBindingMessage } from './native';
import { createElectronNotifier } from './notifier';
import { trayView } from './tray';
import { appProtocolHandler } from './protocol';
import { createUpdates, linuxSignatureCheck, updateFeedConfigured, type Updates, type UpdaterLike } from './updates';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  CONTENT_SECURITY_POLICY,
  devContentSecurityPolicy,
  hardenWebContents,
  isPermissionAllowed,
  isTrustedSender,
  windowOptions,
} from './window';
import { loadWindowState, saveWindowState } from './windowState';

// First thing, before the log file, the settings or a database exists: owner-only files and folders
// (src/core/fileModes.ts).
restrictFileModes();

const APP_NAME = 'Oddsdesk';
const APP_ID = 'desk.odds.app';
const here = path.dirname(fileURLToPath(import.meta.url));
const isDev = !app.isPackaged;
// A packaged app never trusts a dev-server URL from its environment: anyone who can set it could serve the
// "app" page from elsewhere and be handed the IPC contract.
const devServerUrl = isDev ? process.env['ELECTRON_RENDERER_URL'] : undefined;
// A separate profile (tests, a second desk): must be set before the single-instance lock, which is per userData.
// Development builds only: in a packaged app it would let anything that can set the environment point the app at a
// database and settings of its choosing.
const userDataOverride = isDev ? process.env['ODDSDESK_USER_DATA'] : undefined;
if (userDataOverride) app.setPath('userData', path.resolve(userDataOverride));
const userData = app.getPath('userData');

// The log first, so everything after it (start-up failures included) lands in the file, scrubbed.
const scrubber = createScrubber();
const appLog = configureLog(log, { dir: path.join(userData, 'logs'), scrubber, catchErrors: true });
Object.assign(console, log.functions);
// The same scrubber behind the file log and the kit's logger, which every engine gets.
const kit = createHostKit({ sink: (level, line) => log[level](line), scrubber, level: logLevelFrom(process.env) });

let desktopSettings: DesktopSettings = loadDesktopSettings(userData);
function saveDesktop(patch: Partial<DesktopSettings>): void {
  desktopSettings = { ...desktopSettings, ...patch };
  try {
    saveDesktopSettings(userData, desktopSettings);
  } catch (e) {
    console.warn(`Could not save the desktop settings: ${toAppError(e).message}`);
  }
}

let mainWindow: BrowserWindow | null = null;
/** The windows of one view or event each (desktop:openWindow), with what they show. */
const viewWindows = new Map<BrowserWindow, WindowTarget>();
/** More would only be a page gone wrong opening windows in a loop; a trader has a few monitors. */
const MAX_VIEW_WINDOWS = 8;
const preloadPath = path.join(here, '../preload/index.cjs');
let tray: Tray | null = null;
let corePromise: Promise<Core> | null = null;
let appIcon: NativeImage | null = null;
let lastStatus: StatusView | null = null;
let updates: Updates = createUpdates(app.getVersion(), null);
/** Windows that have been ready to show at least once: showing one earlier flashes an empty frame. */
const readyWindows = new WeakSet<BrowserWindow>();

const lifecycle = createLifecycle({
  closeToTray: () => desktopSettings.closeToTray,
  trayAvailable: () => tray !== null,
  noticeShown: () => desktopSettings.closeNoticeShown,
  markNoticeShown: () => saveDesktop({ closeNoticeShown: true }),
  isMac: process.platform === 'darwin',
});
const crashPolicy = createCrashPolicy(() => Date.now());

/** Our windows that are still there: the main one and the views' own. */
function ourWindows(): BrowserWindow[] {
  return [mainWindow, ...viewWindows.keys()].filter((w): w is BrowserWindow => w !== null && !w.isDestroyed());
}

function sendTo<E extends PushEventName>(win: BrowserWindow, event: E, payload: PushPayloads[E]): void {
  if (!win.isDestroyed()) win.webContents.send(PUSH_CHANNEL, { event, payload });
}

/**
 * Every window gets every push, so a second monitor stays in step with the first; the pushes of one turn of the
 * event loop go as one message (src/shared/ipc/pushFrames.ts): one IPC task per window per turn, not one per alert.
 * Each window has its own batcher and odds flow: a window that has not taken in the odds already on their way to it
 * (a busy or hidden one) gets the next ones folded to the newest prices once it has, and holds no other back.
 */
const windowPushes = new Map<
  number,
  { batcher: ReturnType<typeof createPushBatcher>; flow: ReturnType<typeof createOddsFlow> }
>();
function pushesOf(win: BrowserWindow) {
  const id = win.webContents.id;
  let p = windowPushes.get(id);
  if (!p) {
    const flow = createOddsFlow();
    const batcher = createPushBatcher(
      (message) => {
        if (win.isDestroyed()) return;
        flow.sent(message);
        win.webContents.send(PUSH_CHANNEL, message);
      },
      (flush) => setImmediate(flush),
      { congested: () => flow.held(), retry: (flush) => void setTimeout(flush, 250).unref() },
    );
    windowPushes.set(id, (p = { batcher, flow }));
    win.once('closed', () => windowPushes.delete(id));
  }
  return p;
}
ipcMain.on(ODDS_ACK_CHANNEL, (event) => {
  const p = windowPushes.get(event.sender.id);
  if (!p) return;
  p.flow.ack();
  p.batcher.flush();
});
function send<E extends PushEventName>(event: E, payload: PushPayloads[E]): void {
  for (const win of ourWindows()) pushesOf(win).batcher.push(event, payload);
}

/** The app's page: the packaged app:// entry or the dev server, with the view a window of its own shows. */
function pageUrl(target?: WindowTarget): string {
  const url = new URL(devServerUrl ?? APP_ENTRY_URL);
  if (target) url.hash = windowHash(target);
  return url.toString();
}

/** What every window of ours gets: the hardened web contents, our title, shown once ready, a crash reloads it. */
function prepareWindow(win: BrowserWindow, url: string, crashes: ReturnType<typeof createCrashPolicy>): void {
  hardenWebContents(win.webContents, devServerUrl);
  // The title is ours (it carries DEMO), not the page's.
  win.on('page-title-updated', (e) => e.preventDefault());
  win.setTitle(titleOf(win));
  win.once('ready-to-show', () => {
    readyWindows.add(win);
    if (lifecycle.canShowWindow()) win.show();
  });
  // A crashed page reloads instead of leaving a blank window until restart (but never in a loop).
  win.webContents.on('render-process-gone', (_e, details) => {
    if (!lifecycle.acceptsRequests() || win.isDestroyed()) return;
    const what = crashes.onGone(details.reason);
    if (what === 'ignore') return;
    console.error(
      `The window's page ended (${details.reason}, exit code ${details.exitCode}); ${what === 'reload' ? 'reloading it' : 'not reloading again'}`,
    );
    if (what === 'reload') void loadPage(win, url);
    else
      void dialog.showMessageBox(win, {
        type: 'error',
        title: APP_NAME,
        message: 'The window keeps crashing.',
        detail:
          'Monitoring goes on in the background. Copy the diagnostics from Settings after a restart, or quit from the tray.',
      });
  });
  win.webContents.on('unresponsive', () => console.warn('The window stopped responding'));
  void loadPage(win, url);
}

function createWindow(): BrowserWindow {
  const saved = loadWindowState(
    userData,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow(
    windowOptions(preloadPath, saved ?? undefined, { devTools: isDev, ...(appIcon ? { icon: appIcon } : {}) }),
  );
  if (saved?.maximized) win.maximize();
  rememberBounds(win, userData);
  win.on('close', (e) => {
    const decision = lifecycle.onWindowClose();
    if (decision.action === 'close') {
      // The views' own windows belong to this one: they go with it (and the app then quits as the rules say).
      for (const view of viewWindows.keys()) view.close();
      return;
    }
    e.preventDefault();
    win.hide();
    if (decision.notice) tellStillRunning();
  });
  // Windows log-off or shutdown: no before-quit comes, so start closing the database now.
  win.on('session-end', () => void shutdown('Windows session end'));
  prepareWindow(win, pageUrl(), crashPolicy);
  return win;
}

/**
 * A window of its own for one view or event (a second monitor): the main window's options, preload, hardening and
 * page, with the view in the address's fragment. The one already open for the same thing comes forward instead.
 * Nothing of it is remembered: closing it just closes it.
 */
function openViewWindow(target: WindowTarget): void {
  if (!lifecycle.canShowWindow()) throw new AppErrorException(SHUTTING_DOWN);
  for (const [open, shows] of viewWindows) {
    if (open.isDestroyed() || !sameWindowTarget(shows, target)) continue;
    if (open.isMinimized()) open.restore();
    open.show();
    open.focus();
    return;
  }
  if (viewWindows.size >= MAX_VIEW_WINDOWS) {
    throw new AppErrorException({
      kind: 'validation',
      message: `${MAX_VIEW_WINDOWS} windows of their own are open already: close one first.`,
    });
  }
  const win = new BrowserWindow(
    windowOptions(
      preloadPath,
      { width: 1100, height: 760 },
      { devTools: isDev, ...(appIcon ? { icon: appIcon } : {}) },
    ),
  );
  viewWindows.set(win, target);
  win.on('closed', () => viewWindows.delete(win));
  prepareWindow(
    win,
    pageUrl(target),
    createCrashPolicy(() => Date.now()),
  );
}

/** A window's title: ours, with what a view's own window shows, and DEMO in demo mode. */
function titleOf(win: BrowserWindow): string {
  const target = viewWindows.get(win);
  return [APP_NAME, ...(target ? [windowTitle(target)] : []), ...(lastStatus?.demo ? ['DEMO'] : [])].join(' — ');
}

function loadPage(win: BrowserWindow, url: string): Promise<void> {
  return win
    .loadURL(url)
    .catch((e: unknown) => console.error(`Could not load the window's page: ${toAppError(e).message}`));
}

/** The first close to the tray says so, once: otherwise a trader thinks the app quit and stops trusting alerts. */
function tellStillRunning(): void {
  const title = `${APP_NAME} is still running`;
  const body =
    'It keeps watching and notifying from the tray. Quit from the tray menu or the app menu; Settings can make closing the window quit.';
  if (Notification.isSupported())
    new Notification({ title, body, silent: true, ...(appIcon ? { icon: appIcon } : {}) }).show();
  else tray?.displayBalloon?.({ title, content: body });
}

/** Saves size and position shortly after the trader stops moving the window, and once more as it closes. */
function rememberBounds(win: BrowserWindow, dir: string): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    clearTimeout(timer);
    if (win.isDestroyed()) return;
    try {
      // Normal bounds, so a maximised window comes back maximised over its old size rather than as a huge one.
      saveWindowState(dir, { ...win.getNormalBounds(), maximized: win.isMaximized() });
    } catch (e) {
      console.warn(`Could not save the window position: ${toAppError(e).message}`);
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', later);
  win.on('unmaximize', later);
  win.on('close', save);
}

/** Shows (or re-creates) the main window; null while shutting down, when no window may appear. */
function showWindow(): BrowserWindow | null {
  if (!app.isReady() || !lifecycle.canShowWindow()) return null;
  if (!mainWindow || mainWindow.isDestroyed()) {
    // Shows itself on ready-to-show.
    mainWindow = createWindow();
    return mainWindow;
  }
  if (!readyWindows.has(mainWindow)) return mainWindow;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
  return mainWindow;
}

/** Shows the window and tells the renderer which event to show, once the page can hear it. */
function focusEvent(eventId: number, kind: 'event' | 'settlement' = 'event', lineId: number | null = null): void {
  const win = showWindow();
  if (!win) return;
  // The main window only: the views' own windows keep showing what they show.
  const deliver = () => lifecycle.canShowWindow() && sendTo(win, 'onFocusEvent', { eventId, kind, lineId });
  if (win.webContents.isLoading() || !readyWindows.has(win)) win.webContents.once('did-finish-load', deliver);
  else deliver();
}

const trayImages = new Map<TrayState, NativeImage>();
let lastTrayView = '';

function trayImage(state: TrayState): NativeImage {
  let image = trayImages.get(state);
  if (!image) {
    image = nativeImage.createFromBuffer(trayIconPng(state, 32), { scaleFactor: 2 });
    trayImages.set(state, image);
  }
  return image;
}

function updateTray(status: StatusView | null): void {
  const view = trayView(status, APP_NAME);
  const key = JSON.stringify(view);
  // onStatus can arrive many times a minute: rebuild the tray only when what it says changes.
  if (!tray || key === lastTrayView) return;
  lastTrayView = key;
  tray.setImage(trayImage(view.state));
  tray.setToolTip(view.tooltip);
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: view.label, enabled: false },
      { type: 'separator' },
      { label: `Show ${APP_NAME}`, click: () => void showWindow() },
      { label: `Quit ${APP_NAME}`, click: () => app.quit() },
    ]),
  );
}

function createTray(): void {
  try {
    tray = new Tray(trayImage('unknown'));
    tray.on('click', () => void showWindow());
    updateTray(null);
  } catch (e) {
    // Some desktops have no tray; the window's status bar says the same.
    console.warn(`No tray icon: ${toAppError(e).message}`);
    tray = null;
  }
}

function onStatus(status: StatusView): void {
  lastStatus = status;
  updateTray(status);
  for (const win of ourWindows()) win.setTitle(titleOf(win));
}

function installSessionPolicy(): void {
  const ses = session.defaultSession;
  // The packaged page and its assets come from app://oddsdesk/ with the CSP as a header; the dev server's pages get
  // it from here.
  protocol.handle(APP_SCHEME, appProtocolHandler(path.join(here, '../renderer')));
  const policy = devServerUrl ? devContentSecurityPolicy(devServerUrl) : CONTENT_SECURITY_POLICY;
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
  ses.setPermissionRequestHandler((_wc, permission, callback) => callback(isPermissionAllowed(permission)));
  ses.setPermissionCheckHandler((_wc, permission) => isPermissionAllowed(permission));
  // Every web contents, including any we did not create ourselves: no new windows, no <webview>.
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** Why a request from this sender may not run, or null when it may. */
function refusal(event: IpcMainInvokeEvent) {
  if (!lifecycle.acceptsRequests()) return { ok: false, error: SHUTTING_DOWN } as const;
  // Only the top frame of our own page in one of our own windows may call the core.
  if (
    !ourWindows().some((w) => w.webContents.id === event.sender.id) ||
    !isTrustedSender(event.senderFrame, devServerUrl)
  ) {
    return { ok: false, error: { kind: 'validation', message: 'Request from an unknown page refused' } } as const;
  }
  return null;
}

function wireIpc(): void {
  for (const channel of REQUEST_CHANNELS) {
    ipcMain.handle(channel, async (event, args: unknown) => {
      const refused = refusal(event);
      if (refused) return refused;
      let core: Core;
      try {
        core = await corePromise!;
      } catch (e) {
        return { ok: false, error: toAppError(e) };
      }
      // The wait may have spanned the start of a shutdown: the database may be closing.
      if (!lifecycle.acceptsRequests()) return { ok: false, error: SHUTTING_DOWN };
      return dispatch(core.handlers, channel, args);
    });
  }
  for (const channel of DESKTOP_CHANNELS) {
    ipcMain.handle(
      channel,
      (event, args: unknown) => refusal(event) ?? dispatchDesktop(desktopHandlers, channel, args),
    );
  }
}

function desktopView(): DesktopView {
  return {
    closeToTray: desktopSettings.closeToTray,
    trayAvailable: tray !== null,
    logFolder: appLog.dir,
    update: updates.view(),
  };
}

const desktopHandlers: DesktopHandlers = {
  'desktop:get': () => desktopView(),
  'desktop:update': (patch) => {
    if (patch.closeToTray !== undefined) saveDesktop({ closeToTray: patch.closeToTray });
    return desktopView();
  },
  'desktop:openLogFolder': async () => {
    const failed = await shell.openPath(appLog.dir);
    if (failed)
      throw new AppErrorException({
        kind: 'internal',
        message: `Could not open the log folder ${appLog.dir}: ${failed}`,
      });
    return null;
  },
  'desktop:copyDiagnostics': () => {
    const text = diagnosticsSummary(
      {
        appVersion: app.getVersion(),
        packaged: app.isPackaged,
        versions: { electron: process.versions.electron, chrome: process.versions.chrome, node: process.versions.node },
        os: { platform: process.platform, release: os.release(), arch: process.arch },
        status: lastStatus,
        update: updates.view(),
        logFile: appLog.file,
        recentLogLines: appLog.recentLines(60),
        now: new Date(),
      },
      scrubber,
    );
    clipboard.writeText(text);
    return text;
  },
  'desktop:checkForUpdates': () => updates.check(),
  'desktop:installUpdate': () => updates.install(() => shutdown('installing an update')),
  'desktop:openWindow': (target) => {
    openViewWindow(target);
    return null;
  },
};

/** electron-updater, only when this build has a feed (it then never runs in development or default builds). */
async function startUpdates(): Promise<void> {
  if (!updateFeedConfigured(app.isPackaged, process.resourcesPath)) return;
  try {
    // CommonJS with getter exports: the named export may only be on the default one.
    const mod = (await import('electron-updater')) as unknown as {
      autoUpdater?: UpdaterLike & { logger: unknown };
      default?: { autoUpdater: UpdaterLike & { logger: unknown } };
    };
    const autoUpdater = mod.autoUpdater ?? mod.default?.autoUpdater;
    if (!autoUpdater) return;
    autoUpdater.logger = log;
    // Linux: install only a download whose signature (of the file and its version) verifies against the pinned release
    // key; a refused one points to the release page's origin only (package.json's releasePage, else the feed's).
    updates = createUpdates(
      app.getVersion(),
      autoUpdater,
      (t) => scrubber.text(t),
      linuxSignatureCheck(process.platform, process.resourcesPath, undefined, app.getAppPath()),
    );
  } catch (e) {
    console.warn(`Updates unavailable: ${toAppError(e).message}`);
  }
}

async function start(): Promise<void> {
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID); // Windows shows no notifications without it
  appIcon = nativeImage.createFromBuffer(appIconPng(256));
  installSessionPolicy();
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        appName: APP_NAME,
        isMac: process.platform === 'darwin',
        isDev,
        onAbout: () =>
          void dialog.showMessageBox({
            type: 'info',
            title: `About ${APP_NAME}`,
            message: `${APP_NAME} ${app.getVersion()}`,
            detail: 'Watched events, specials, max stake (limit) changes and settlements from your odds service.',
            ...(appIcon ? { icon: appIcon } : {}),
          }),
      }),
    ),
  );

  const nativeBinding = findElectronSqliteBinding({
    appRoot: app.getAppPath(),
    isPackaged: app.isPackaged,
    electronVersion: process.versions.electron,
    resourcesPath: process.resourcesPath,
  });
  // A hard stop: without it the database cannot open, and every screen would fail in its own way.
  if (!nativeBinding) throw new AppErrorException({ kind: 'internal', message: missingBindingMessage(app.isPackaged) });
  // The core's requests (REST and streams) go through Chromium's network stack: the OS proxy settings (PAC, WPAD,
  // authenticating proxies) and the OS certificate store, so a TLS-inspecting corporate proxy works where the
  // browser does. A session of its own, in memory: none of the renderer's state or hooks. Over net.request rather
  // than session.fetch, which rejects every redirect the core asks to see (`redirect: 'manual'`): see netFetch.ts.
  const coreNet = session.fromPartition('oddsdesk-core-net');
  const netFetch = createNetFetch((options) => net.request({ ...options, session: coreNet }));
  corePromise = createCore({
    host: 'electron',
    version: app.getVersion(),
    // settings.json and profiles/ (one history per service, demo.db apart) under the per-user data folder.
    dataDir: userData,
    nativeBinding,
    secrets: kit.secrets(createKeytarSecretStore()),
    logger: kit.log,
    notifier: createElectronNotifier({
      create: (options) => new Notification(options),
      isSupported: () => Notification.isSupported() && lifecycle.canShowWindow(),
      focusWindow: () => void showWindow(),
      focusEvent,
      ...(appIcon ? { icon: appIcon } : {}),
    }),
    startDemo: (o) => startDemo(o),
    fetch: netFetch,
    // "Export CSV" streams to the file the trader picks here.
    chooseSavePath: async (suggestedName) => {
      const options = {
        title: 'Export CSV',
        defaultPath: path.join(app.getPath('downloads'), suggestedName),
        filters: [{ name: 'CSV', extensions: ['csv'] }],
      };
      // Over the window the trader asked from (a view's own window, say), else the main one.
      const focused = BrowserWindow.getFocusedWindow();
      const parent =
        focused && ourWindows().includes(focused)
          ? focused
          : mainWindow && !mainWindow.isDestroyed()
            ? mainWindow
            : null;
      const r = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
      return r.canceled || !r.filePath ? null : r.filePath;
    },
  });
  const starting = corePromise;
  kit.onShutdown('the core', async () => (await starting.catch(() => null))?.close());
  // Handlers first, then the window: the renderer may ask before the core is ready, and then simply waits for it.
  wireIpc();
  createTray();
  mainWindow = createWindow();
  // Linux and macOS shutdown or log-off: hold it until the database is closed (the kit's deadline bounds the wait).
  // (Electron's typings omit the event its documentation gives the listener.)
  const onOsShutdown = (e?: Electron.Event) => {
    e?.preventDefault();
    void shutdown('OS shutdown').then(() => app.quit());
  };
  powerMonitor.on('shutdown', onOsShutdown as () => void);
  void startUpdates();

  const core = await corePromise;
  core.subscribe((event, payload) => {
    if (event === 'onStatus') onStatus(payload as StatusView);
    send(event, payload);
  });
}

/**
 * Shuts down once, however it was asked (quit, OS shutdown, session end, update): windows hidden at once, IPC
 * refused, no window reopened, then the kit's one bounded shutdown (the core flushes its ticks and closes the
 * database; at most SHUTDOWN_DEADLINE_MS).
 */
let shutdownDone: Promise<void> | null = null;
function shutdown(reason: string): Promise<void> {
  if (!lifecycle.beginQuit()) return shutdownDone ?? Promise.resolve();
  for (const w of BrowserWindow.getAllWindows()) if (!w.isDestroyed()) w.hide();
  tray?.destroy();
  tray = null;
  shutdownDone = kit.shutdown(reason).then(() => lifecycle.finishQuit());
  return shutdownDone;
}

function onBeforeQuit(e: Electron.Event): void {
  if (lifecycle.phase() === 'done') return;
  e.preventDefault();
  void shutdown('quit').then(() => app.quit());
}

app.enableSandbox();
// Must precede 'ready': a standard, secure scheme gets a real origin (so 'self' and module scripts work) and the
// secure-context APIs a file:// page would not.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);
if (!app.requestSingleInstanceLock()) {
  lifecycle.beginQuit();
  lifecycle.finishQuit();
  app.quit();
} else {
  console.info(
    `${APP_NAME} ${app.getVersion()} starting (${isDev ? 'development' : 'packaged'}, Electron ${process.versions.electron})`,
  );
  // Both can arrive before the app is ready, when no window may be made yet, and during a shutdown, when none may.
  app.on('second-instance', () => void showWindow());
  app.on('activate', () => void showWindow());
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      // Only the message: an AppError never carries the key, and a raw object might carry anything.
      const message = toAppError(e).message;
      console.error(`Oddsdesk failed to start: ${message}`);
      dialog.showErrorBox(`${APP_NAME} could not start`, message);
      lifecycle.beginQuit();
      lifecycle.finishQuit();
      app.quit();
    });
  app.on('window-all-closed', () => {
    if (lifecycle.quitWhenAllClosed()) app.quit();
  });
  app.on('before-quit', onBeforeQuit);
}
