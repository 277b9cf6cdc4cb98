// The bridge's static files: the built renderer, served over plain HTTP to our own page only (the host and origin
// rules are in ./server.ts's header). Nothing here knows about sockets or the token.
import { createReadStream, promises as fs } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self' ws://127.0.0.1:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The request target's path, percent-decoded; null when it is not a path we could ever serve. */
function decodedPath(target: string | undefined): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(target ?? '/', 'http://x').pathname);
  } catch {
    return null; // malformed percent-encoding (`/%E0%A4%A`) or an unparsable target
  }
  // NUL and other control characters name no file of ours; fs would throw on some of them.
  return /\p{Cc}/u.test(pathname) ? null : pathname;
}

/**
 * Browsers say where a request comes from. Only our own page (same-origin) and the trader opening the printed URL
 * (none) may load anything; an <img> or <script> on another site (cross-site, or same-site from another localhost
 * port) is refused before the path is even looked at. Non-browser clients send no such header.
 */
function fromOurPage(site: string | string[] | undefined): boolean {
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** A short plain-text answer; a response already under way is cut instead. */
export const reply = (res: http.ServerResponse, status: number, text = ''): void => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(text);
};

export interface StaticSite {
  /** The folder served, resolved. */
  root: string;
  /** The one Host header answered to (`127.0.0.1:PORT`). */
  host(): string;
}

/** Answers one HTTP request with a file of `site.root`, or with the status that says why not. */
export async function serveStatic(
  site: StaticSite,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  // A foreign Host header means DNS rebinding: a remote name pointed at 127.0.0.1.
  if ((req.headers.host ?? '') !== site.host()) return reply(res, 421, 'Misdirected request');
  if (!fromOurPage(req.headers['sec-fetch-site'])) return reply(res, 403, 'Forbidden');
  if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405);
  const urlPath = decodedPath(req.url);
  if (urlPath === null) return reply(res, 400, 'Bad request');
  const rel = urlPath === '/' ? 'index.html' : urlPath.slice(1);
  const file = path.resolve(site.root, rel);
  if (!file.startsWith(site.root + path.sep)) return reply(res, 403);
  let size: number;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    return reply(res, 404, 'Not found');
  }
  res.writeHead(200, {
    'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': size,
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  // A file removed or unreadable mid-way: cut the response short rather than leave it hanging.
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
