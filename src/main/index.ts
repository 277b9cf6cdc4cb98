// Electron's composition root: builds the core with what only the desktop can give it (the OS keychain, native
// notifications, a database under userData, better-sqlite3's Electron binding), wires the IPC contract to the core's
// handlers with every sender checked, pushes the core's events to the renderer, and owns the window, menu and tray.
// The API key never passes through here: the renderer sends it once to settings:setApiKey, the core hands it to the
// keychain, and nothing here logs arguments or results.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  screen,
  session,
  Tray,
  type NativeImage,
} from 'electron';
import { createCore, type Core } from '../core/app';
import { createKeytarSecretStore } from '../core/secrets/keytar';
import { toAppError } from '../shared/errors';
import { dispatch, PUSH_CHANNEL, REQUEST_CHANNELS, type PushEventName, type PushPayloads, type StatusView } from '../shared/ipc/contract';
import { startDemo } from '../sim/demo';
import { appIconPng, trayIconPng, type TrayState } from './icons';
import { menuTemplate } from './menu';
import { findElectronSqliteBinding } from './native';
import { createElectronNotifier } from './notifier';
import { trayView } from './tray';
import { appProtocolHandler } from './protocol';
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

const APP_NAME = 'Oddsdesk';
const APP_ID = 'desk.odds.app';
const here = path.dirname(fileURLToPath(import.meta.url));
const isDev = !app.isPackaged;
// A packaged app never trusts a dev-server URL from its environment: anyone who can set it could serve the
// "app" page from elsewhere and be handed the IPC contract.
const devServerUrl = isDev ? process.env['ELECTRON_RENDERER_URL'] : undefined;
// A separate profile (tests, a second desk): must be set before the single-instance lock, which is per userData.
const userDataOverride = process.env['ODDSDESK_USER_DATA'];
if (userDataOverride) app.setPath('userData', path.resolve(userDataOverride));

let mainWindow: BrowserWindow | null = null;
let tray: Tray | null = null;
let corePromise: Promise<Core> | null = null;
let appIcon: NativeImage | null = null;

function send<E extends PushEventName>(event: E, payload: PushPayloads[E]): void {
  if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(PUSH_CHANNEL, { event, payload });
}

function createWindow(): BrowserWindow {
  const userData = app.getPath('userData');
  const saved = loadWindowState(userData, screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow(
    windowOptions(path.join(here, '../preload/index.cjs'), saved ?? undefined, { devTools: isDev, ...(appIcon ? { icon: appIcon } : {}) }),
  );
  if (saved?.maximized) win.maximize();
  hardenWebContents(win.webContents, devServerUrl);
  // The title is ours (it carries DEMO), not the page's.
  win.on('page-title-updated', (e) => e.preventDefault());
  win.once('ready-to-show', () => win.show());
  rememberBounds(win, userData);
  if (devServerUrl) void win.loadURL(devServerUrl);
  else void win.loadURL(APP_ENTRY_URL);
  return win;
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

function showWindow(): BrowserWindow {
  if (!mainWindow || mainWindow.isDestroyed()) {
    mainWindow = createWindow();
    return mainWindow;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
  return mainWindow;
}

/** Tells the renderer to show an event; waits for the page when the window was only just (re)created. */
function focusEvent(eventId: number): void {
  const win = showWindow();
  if (win.webContents.isLoading()) win.webContents.once('did-finish-load', () => send('onFocusEvent', { eventId }));
  else send('onFocusEvent', { eventId });
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
      { label: 'Quit', click: () => app.quit() },
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
  updateTray(status);
  if (mainWindow && !mainWindow.isDestroyed()) mainWindow.setTitle(status.demo ? `${APP_NAME} — DEMO` : APP_NAME);
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

function wireIpc(): void {
  const refused = { ok: false, error: { kind: 'validation', message: 'Request from an unknown page refused' } } as const;
  for (const channel of REQUEST_CHANNELS) {
    ipcMain.handle(channel, async (event, args: unknown) => {
      // Only the top frame of our own page in our own window may call the core.
      if (!mainWindow || mainWindow.isDestroyed() || event.sender.id !== mainWindow.webContents.id) return refused;
      if (!isTrustedSender(event.senderFrame, devServerUrl)) return refused;
      let core: Core;
      try {
        core = await corePromise!;
      } catch (e) {
        return { ok: false, error: toAppError(e) };
      }
      return dispatch(core.handlers, channel, args);
    });
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
            detail: 'Watched events, specials, max_win changes and settlements from your odds service.',
            ...(appIcon ? { icon: appIcon } : {}),
          }),
      }),
    ),
  );

  const nativeBinding = findElectronSqliteBinding({ appRoot: app.getAppPath(), isPackaged: app.isPackaged, electronVersion: process.versions.electron });
  if (isDev && !nativeBinding) {
    console.warn('No Electron build of better-sqlite3 in .native/: run `node scripts/electron-native.mjs` (npm start does it).');
  }
  corePromise = createCore({
    host: 'electron',
    version: app.getVersion(),
    // settings.json and profiles/ (one history per service, demo.db apart) under the per-user data folder.
    dataDir: app.getPath('userData'),
    ...(nativeBinding ? { nativeBinding } : {}),
    secrets: createKeytarSecretStore(),
    notifier: createElectronNotifier({
      create: (options) => new Notification(options),
      isSupported: () => Notification.isSupported(),
      focusWindow: () => void showWindow(),
      focusEvent,
    }),
    startDemo: () => startDemo(),
  });
  // Handlers first, then the window: the renderer may ask before the core is ready, and then simply waits for it.
  wireIpc();
  mainWindow = createWindow();
  createTray();

  const core = await corePromise;
  core.subscribe((event, payload) => {
    if (event === 'onStatus') onStatus(payload as StatusView);
    send(event, payload);
  });
}

/** Closes the core (flushing the database) before Electron exits; a stuck close cannot hold the quit for long. */
let shutdown: Promise<void> | null = null;
let shutDown = false;
function onBeforeQuit(e: Electron.Event): void {
  if (shutDown) return;
  e.preventDefault();
  shutdown ??= (async () => {
    tray?.destroy();
    tray = null;
    const closing = (corePromise ?? Promise.resolve(null)).then((core) => core?.close()).catch(() => undefined);
    await Promise.race([closing, new Promise((r) => setTimeout(r, 5000))]);
  })().finally(() => {
    shutDown = true;
    app.quit();
  });
}

app.enableSandbox();
// Must precede 'ready': a standard, secure scheme gets a real origin (so 'self' and module scripts work) and the
// secure-context APIs a file:// page would not.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Both can arrive before the app is ready, when no window may be made yet.
  app.on('second-instance', () => app.isReady() && void showWindow());
  app.on('activate', () => app.isReady() && void showWindow());
  app.whenReady().then(start).catch((e: unknown) => {
    // Only the message: an AppError never carries the key, and a raw object might carry anything.
    const message = toAppError(e).message;
    console.error(`Oddsdesk failed to start: ${message}`);
    dialog.showErrorBox(`${APP_NAME} could not start`, message);
    shutDown = true;
    app.quit();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', onBeforeQuit);
}
