// The main window and its security: every option here is a decision about what a compromised renderer could do.
// Kept free of module-level Electron state so the factory's rules can be checked without an Electron binary.
import type { BrowserWindowConstructorOptions, WebContents } from 'electron';

/** The CSP for every page we load; mirrors the meta tag in src/renderer/index.html. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

export function windowOptions(preloadPath: string, bounds?: Partial<Electron.Rectangle>): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? 1440,
    height: bounds?.height ?? 900,
    ...(bounds?.x !== undefined && bounds?.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: 960,
    minHeight: 600,
    show: false,
    backgroundColor: '#0f1216',
    title: 'Oddsdesk',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** Is this URL one of our own renderer pages (the packaged file, or the dev server in development)? */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  try {
    const u = new URL(url);
    if (devServerUrl) {
      const dev = new URL(devServerUrl);
      if (u.origin === dev.origin) return true;
    }
    return u.protocol === 'file:' && u.pathname.endsWith('/renderer/index.html');
  } catch {
    return false;
  }
}

type Hardenable = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/** Refuses navigation away from the app and every new window: links open nowhere inside the app. */
export function hardenWebContents(contents: Hardenable, devServerUrl?: string): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, devServerUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, devServerUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** No web permission is needed by Oddsdesk's renderer except notifications. */
export function isPermissionAllowed(permission: string): boolean {
  return permission === 'notifications';
}
