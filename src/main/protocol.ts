// Serves the built renderer from the `app://oddsdesk/` scheme instead of file://. A file:// page has the weakest
// origin there is (every local file shares it, and Electron grants file:// extra privileges), and responses read
// from disk carry no headers, so the CSP header (with frame-ancestors, which a meta tag cannot set) would never
// reach it. Here every response carries the CSP, and only files inside the renderer folder are served.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_HOST, APP_SCHEME, CONTENT_SECURITY_POLICY } from './window';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

/** The file an app:// URL names inside `rendererDir`, or null for any other host, scheme or a path that escapes. */
export function resolveAppFile(url: string, rendererDir: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let rel: string;
  try {
    rel = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (rel.includes('\0')) return null;
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${rel === '/' ? '/index.html' : rel}`);
  return file.startsWith(root + path.sep) ? file : null;
}

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The handler for `protocol.handle(APP_SCHEME, …)`; uses only Fetch API types, so it runs (and is tested) in Node. */
export function appProtocolHandler(rendererDir: string, read: (file: string) => Promise<Uint8Array> = readFile) {
  return async (request: Request): Promise<Response> => {
    const file = resolveAppFile(request.url, rendererDir);
    if (!file) return new Response('Not found', { status: 404 });
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405 });
    let body: Uint8Array;
    try {
      body = await read(file);
    } catch {
      return new Response('Not found', { status: 404 });
    }
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: {
        'Content-Type': contentTypeOf(file),
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      },
    });
  };
}
