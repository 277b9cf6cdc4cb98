// The main window and its security: every option here is a decision about what a compromised renderer could do.
// Kept free of module-level Electron state so the factory's rules can be checked without an Electron binary.
import type { BrowserWindowConstructorOptions, WebContents } from 'electron';

/** The packaged renderer is served from app://oddsdesk/ (see protocol.ts), never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'oddsdesk';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * The CSP for every page we load, sent as a header by protocol.ts (the renderer's meta tag adds the browser-mode
 * WebSocket to connect-src; both apply, so the stricter wins).
 */
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

/**
 * Only for `npm run dev` (unpackaged, with the Vite dev server): the React refresh preamble is an inline script and
 * hot reload talks over a WebSocket to the dev server. A packaged app never uses this policy.
 */
export function devContentSecurityPolicy(devServerUrl: string): string {
  const origin = new URL(devServerUrl).origin;
  const ws = origin.replace(/^http/, 'ws');
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
    "connect-src 'self'",
    `connect-src 'self' ${origin} ${ws}`,
  );
}

export interface WindowExtras {
  /** Only in development: a packaged app has no developer tools to open. */
  devTools?: boolean;
  icon?: BrowserWindowConstructorOptions['icon'];
}

export function windowOptions(
  preloadPath: string,
  bounds?: Partial<Electron.Rectangle>,
  extras: WindowExtras = {},
): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? 1440,
    height: bounds?.height ?? 900,
    ...(bounds?.x !== undefined && bounds?.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: 960,
    minHeight: 600,
    show: false,
    backgroundColor: '#0f1216',
    title: 'Oddsdesk',
    ...(extras.icon ? { icon: extras.icon } : {}),
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
      devTools: extras.devTools ?? false,
    },
  };
}

/** Is this URL one of our own renderer pages (app://oddsdesk/, or the dev server in development)? */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  try {
    const u = new URL(url);
    if (devServerUrl) {
      const dev = new URL(devServerUrl);
      if (u.origin === dev.origin) return true;
    }
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/** The frame an IPC message came from, as Electron's WebFrameMain describes it. */
export interface SenderFrame {
  url: string;
  /** null for the top frame. */
  parent: unknown;
}

/**
 * May this frame call the core? Only the top frame of our own page: a frame that navigated elsewhere, or any
 * sub-frame, gets nothing.
 */
export function isTrustedSender(frame: SenderFrame | null | undefined, devServerUrl?: string): boolean {
  return !!frame && frame.parent === null && isAppUrl(frame.url, devServerUrl);
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

/**
 * Web permissions the renderer may have. None: in Electron the main process shows notifications natively (the
 * renderer's Web Notifications path is for browser mode and stays quiet here), and nothing else is needed, so a
 * compromised page gets no camera, clipboard, location or device access either.
 */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set<string>();

export function isPermissionAllowed(permission: string): boolean {
  return ALLOWED_PERMISSIONS.has(permission);
}
