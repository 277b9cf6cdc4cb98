// Electron's composition root: it builds the core with what only the desktop can give it (windows, IPC), wires the
// IPC contract to the core's handlers, and pushes the core's events to the renderer.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, session } from 'electron';
import { createCore, type Core } from '../core/app';
import { dispatch, PUSH_CHANNEL, REQUEST_CHANNELS } from '../shared/ipc/contract';
import { startDemo, type Demo } from '../sim/demo';
import { CONTENT_SECURITY_POLICY, hardenWebContents, isAppUrl, isPermissionAllowed, windowOptions } from './window';

const here = path.dirname(fileURLToPath(import.meta.url));
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
let mainWindow: BrowserWindow | null = null;
let core: Core | null = null;
let demo: Demo | null = null;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow(windowOptions(path.join(here, '../preload/index.cjs')));
  hardenWebContents(win.webContents, devServerUrl);
  win.once('ready-to-show', () => win.show());
  if (devServerUrl) void win.loadURL(devServerUrl);
  else void win.loadFile(path.join(here, '../renderer/index.html'));
  return win;
}

async function start(): Promise<void> {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => callback(isPermissionAllowed(permission)));

  demo = await startDemo();
  core = createCore({
    baseUrl: demo.baseUrl,
    keyProvider: () => demo?.key ?? null,
    host: 'electron',
    demo: true,
    version: app.getVersion(),
  });
  const handlers = core.handlers;
  for (const channel of REQUEST_CHANNELS) {
    ipcMain.handle(channel, (event, args: unknown) => {
      // Only our own page may call the core: a frame that navigated elsewhere gets nothing.
      const senderUrl = event.senderFrame?.url ?? '';
      if (!isAppUrl(senderUrl, devServerUrl)) {
        return { ok: false, error: { kind: 'validation', message: 'Request from an unknown page refused' } };
      }
      return dispatch(handlers, channel, args);
    });
  }
  mainWindow = createWindow();
  core.subscribe((event, payload) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(PUSH_CHANNEL, { event, payload });
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  app.whenReady().then(start, (e: unknown) => {
    console.error('Oddsdesk failed to start:', e);
    app.quit();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    void core?.close();
    void demo?.close();
  });
}
