// The window factory's security decisions, checked without Electron: no Electron binary can run on this machine,
// so hardenWebContents is driven through a small EventEmitter stand-in for WebContents that implements only the
// two members it uses (`on` and `setWindowOpenHandler`). Everything checked here is plain data or a plain function.
import { EventEmitter } from 'node:events';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appProtocolHandler, resolveAppFile } from '../../src/main/protocol';
import {
  devContentSecurityPolicy,
  APP_ENTRY_URL,
  CONTENT_SECURITY_POLICY,
  hardenWebContents,
  isAppUrl,
  isPermissionAllowed,
  isTrustedSender,
  windowOptions,
} from '../../src/main/window';

const root = path.resolve(__dirname, '../..');

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** What Electron passes as the event of will-navigate and friends: only preventDefault matters here. */
function navEvent() {
  let prevented = false;
  return {
    preventDefault: () => void (prevented = true),
    get prevented() {
      return prevented;
    },
  };
}

class FakeWebContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  /** Emits like Electron does and reports whether some listener vetoed it. */
  attempt(event: string, url: string): boolean {
    const e = navEvent();
    this.emit(event, e, url);
    return e.prevented;
  }
}

function hardened(devServerUrl?: string): FakeWebContents {
  const contents = new FakeWebContents();
  hardenWebContents(contents as never, devServerUrl);
  return contents;
}

describe('window options', () => {
  const options = windowOptions('/app/out/preload/index.cjs');
  const web = options.webPreferences!;

  it('isolates and sandboxes the renderer, with no Node in it', () => {
    expect(web.contextIsolation).toBe(true);
    expect(web.sandbox).toBe(true);
    expect(web.nodeIntegration).toBe(false);
    expect(web.nodeIntegrationInWorker).toBe(false);
    expect(web.nodeIntegrationInSubFrames).toBe(false);
    expect(web.preload).toBe('/app/out/preload/index.cjs');
  });

  it('keeps web security on and allows no webview, insecure content or experimental features', () => {
    expect(web.webSecurity).toBe(true);
    expect(web.webviewTag).toBe(false);
    expect(web.allowRunningInsecureContent).toBe(false);
    expect(web.experimentalFeatures).toBe(false);
  });

  it('has developer tools only when asked (development)', () => {
    expect(web.devTools).toBe(false);
    expect(windowOptions('/p', undefined, { devTools: true }).webPreferences!.devTools).toBe(true);
  });

  it('opens hidden (shown when ready) at remembered bounds when given', () => {
    expect(options.show).toBe(false);
    const placed = windowOptions('/p', { x: 10, y: 20, width: 1200, height: 800 });
    expect(placed).toMatchObject({ x: 10, y: 20, width: 1200, height: 800 });
    expect(windowOptions('/p', { width: 1000, height: 700 })).not.toHaveProperty('x');
  });
});

describe('content security policy', () => {
  const csp = directives(CONTENT_SECURITY_POLICY);

  it('runs only our own scripts, never eval or inline script', () => {
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('default-src')).toEqual(["'self'"]);
  });

  it('allows no plugins, no framing, no base rewriting, no form posts, no remote connections', () => {
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
  });

  it("is also enforced by the renderer page's own meta tag, which is no looser on scripts", () => {
    const html = readFileSync(path.join(root, 'src/renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta, 'index.html has a CSP meta tag').toBeTruthy();
    const m = directives(meta!);
    expect(meta).not.toContain('unsafe-eval');
    expect(m.get('script-src')).toEqual(["'self'"]);
    expect(m.get('object-src')).toEqual(["'none'"]);
  });
});

describe('development policy', () => {
  it('relaxes only what the Vite dev server needs, and only for its own origin', () => {
    const dev = devContentSecurityPolicy('http://localhost:5173/');
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' http://localhost:5173 ws://localhost:5173");
    expect(dev).not.toContain('unsafe-eval');
    for (const strict of ["object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "default-src 'self'"])
      expect(dev).toContain(strict);
    // The packaged policy stays strict.
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self';");
  });
});

describe('navigation and new windows', () => {
  it('refuses navigation and redirects to any foreign URL, and allows the app page', () => {
    const contents = hardened();
    for (const url of [
      'https://evil.example/',
      'file:///etc/passwd',
      'http://127.0.0.1:5185/',
      'app://other/index.html',
      'javascript:alert(1)',
    ]) {
      expect(contents.attempt('will-navigate', url), url).toBe(true);
      expect(contents.attempt('will-redirect', url), url).toBe(true);
    }
    expect(contents.attempt('will-navigate', APP_ENTRY_URL)).toBe(false);
    expect(contents.attempt('will-navigate', 'app://oddsdesk/index.html#/settings')).toBe(false);
  });

  it('allows the dev server only when one is configured', () => {
    expect(hardened('http://localhost:5173/').attempt('will-navigate', 'http://localhost:5173/#x')).toBe(false);
    expect(hardened().attempt('will-navigate', 'http://localhost:5173/#x')).toBe(true);
  });

  it('denies every window.open, whatever the URL', () => {
    const contents = hardened();
    expect(contents.openHandler).not.toBeNull();
    for (const url of ['https://evil.example/', APP_ENTRY_URL, 'about:blank']) {
      expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
    }
  });

  it('refuses to attach a webview', () => {
    expect(hardened().attempt('will-attach-webview', APP_ENTRY_URL)).toBe(true);
  });
});

describe('IPC sender check', () => {
  it('trusts only the top frame of the app page', () => {
    expect(isTrustedSender({ url: APP_ENTRY_URL, parent: null })).toBe(true);
    expect(isTrustedSender({ url: APP_ENTRY_URL, parent: {} }), 'a sub-frame').toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/', parent: null })).toBe(false);
    expect(isTrustedSender({ url: 'file:///tmp/out/renderer/index.html', parent: null }), 'file:// is not ours').toBe(
      false,
    );
    expect(isTrustedSender(null), 'a destroyed frame').toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});

describe('permissions', () => {
  it('grants nothing: notifications come from the main process, and the page needs no other permission', () => {
    for (const p of [
      'notifications',
      'media',
      'geolocation',
      'clipboard-read',
      'clipboard-sanitized-write',
      'openExternal',
      'midi',
      'hid',
      'serial',
      'usb',
      'fullscreen',
      'pointerLock',
      'display-capture',
      'unknown',
    ]) {
      expect(isPermissionAllowed(p), p).toBe(false);
    }
  });
});

describe('app:// protocol', () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'oddsdesk-protocol-'));
  const dir = path.join(parent, 'renderer');
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(dir, 'assets', 'main.js'), 'export {};');
  writeFileSync(path.join(dir, '..', 'oddsdesk-secret.txt'), 'outside');
  const handle = appProtocolHandler(dir);

  it('serves renderer files with the CSP header and the right type', async () => {
    const res = await handle(new Request(APP_ENTRY_URL));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const js = await handle(new Request('app://oddsdesk/assets/main.js'));
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await js.text()).toBe('export {};');
  });

  it('serves nothing outside the renderer folder or for another host', async () => {
    // The URL parser already folds `..` and `%2e%2e`: what is left names a (missing) file inside the folder.
    for (const dots of ['..', '%2e%2e']) {
      expect(resolveAppFile(`app://oddsdesk/${dots}/oddsdesk-secret.txt`, dir)).toBe(
        path.join(dir, 'oddsdesk-secret.txt'),
      );
      expect((await handle(new Request(`app://oddsdesk/${dots}/oddsdesk-secret.txt`))).status).toBe(404);
    }
    // An encoded slash survives the parser and would climb out once decoded: caught here.
    expect(resolveAppFile('app://oddsdesk/..%2Foddsdesk-secret.txt', dir)).toBeNull();
    expect(resolveAppFile('app://oddsdesk/..%2F..%2F..%2Fetc%2Fpasswd', dir)).toBeNull();
    expect(resolveAppFile('app://other/index.html', dir)).toBeNull();
    expect(resolveAppFile('file:///etc/passwd', dir)).toBeNull();
    expect((await handle(new Request('app://oddsdesk/%2e%2e/oddsdesk-secret.txt'))).status).toBe(404);
    expect((await handle(new Request('app://oddsdesk/missing.js'))).status).toBe(404);
  });
});
