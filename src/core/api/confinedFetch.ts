// The key's confinement on the wire: every request goes out with `redirect: 'manual'`, and a redirect is followed
// only within the origin the request started at (fetch's own following would carry X-API-Key to whatever origin a
// Location names; it drops only Authorization and cookies). And the cap on what is read of an answer: a declared
// Content-Length over the cap is refused before a byte is read, and an undeclared body is cut the moment it passes
// it, so a hostile or broken service cannot fill memory.
import { API_KEY_HEADER, type ApiPath } from '../../shared/api';
import { AppErrorException, type AppError } from '../../shared/errors';
import { pathLabel, responseTooLarge } from './errors';
import type { Logger } from './types';

/** The fetch a client sends with, and where it logs what it followed. */
export interface Transport {
  fetch: typeof fetch;
  log: Logger;
}

/** A body longer than this gives the event loop turns while it is parsed and before it is validated. */
export const YIELD_AFTER_BYTES = 256 * 1024;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Same-origin hops one request may take; a service that needs more is misconfigured or looping. */
export const MAX_REDIRECTS = 5;

/**
 * An origin as a trader can read it in a message; bounded, because a hostile Location can be anything. The URL
 * parser lower-cases host names, so a Location that reflects the key into a host name would slip past the
 * case-sensitive scrub of known keys: the key is removed here whatever its case.
 */
function originText(u: URL, key: string | null): string {
  let o = u.origin === 'null' ? `${u.protocol}…` : u.origin;
  if (key !== null && key.length >= 4) {
    const lower = key.toLowerCase();
    for (let i = o.toLowerCase().indexOf(lower); i >= 0; i = o.toLowerCase().indexOf(lower)) {
      o = `${o.slice(0, i)}[redacted key]${o.slice(i + key.length)}`;
    }
  }
  return o.length > 120 ? `${o.slice(0, 117)}…` : o;
}

function redirectedAway(path: ApiPath, from: string, to: URL, status: number, key: string | null): AppError {
  return {
    kind: 'validation',
    status,
    message:
      `${pathLabel(path)}: the service at ${from} redirected (${status}) to another address, ${originText(to, key)}. ` +
      'The API key is only ever sent to the configured service address, so the request was stopped. ' +
      'If the service has moved, enter its new address in Settings.',
  };
}

function redirectProblem(path: ApiPath, status: number, what: string): AppError {
  return {
    kind: 'validation',
    status,
    message: `${pathLabel(path)}: the service answered ${status} with ${what}, so the request was stopped.`,
  };
}

/**
 * Reads a body as text, at most `maxBytes` of it: a Content-Length over the cap is refused before a byte is read, and a
 * body without one is counted as it arrives and cut (the connection dropped) the moment it passes the cap. Over the
 * cap it throws an AppErrorException, which the governor returns as is, without a retry.
 */
export async function readBodyCapped(path: ApiPath, res: Response, maxBytes: number): Promise<string> {
  const declared = res.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new AppErrorException(responseTooLarge(path, maxBytes));
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let nextTurn = YIELD_AFTER_BYTES;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    // Chunks already buffered resolve without a turn of the event loop: a large body gives it one now and then.
    if (bytes > nextTurn) {
      nextTurn = bytes + YIELD_AFTER_BYTES;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AppErrorException(responseTooLarge(path, maxBytes));
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function withKey(init: RequestInit, key: string | null): Headers {
  const headers = new Headers(init.headers);
  if (key !== null) headers.set(API_KEY_HEADER, key);
  return headers;
}

/**
 * Sends one request, the key attached, and follows redirects only while they stay on the origin the request
 * started at (scheme, host and port: http vs https, or 127.0.0.1 vs localhost, are other origins). A redirect
 * anywhere else throws an AppErrorException, which the governor returns as is, without a retry.
 */
export async function sendConfined(
  transport: Transport,
  path: ApiPath,
  target: string,
  init: RequestInit,
  key: string | null,
  signal: AbortSignal,
): Promise<Response> {
  let current = new URL(target);
  const origin = current.origin;
  for (let hop = 0; ; hop++) {
    const res = await transport.fetch(current.href, {
      ...init,
      headers: withKey(init, key),
      redirect: 'manual',
      signal,
    });
    // An injected fetch that ignored `redirect: 'manual'` has already followed; at least nothing it got is used.
    if (res.redirected && res.url && new URL(res.url).origin !== origin) {
      await res.body?.cancel().catch(() => undefined);
      throw new AppErrorException(redirectedAway(path, origin, new URL(res.url), res.status, key));
    }
    if (!REDIRECT_STATUSES.has(res.status)) return res;
    const location = res.headers.get('location');
    if (location === null) return res;
    await res.body?.cancel().catch(() => undefined);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new AppErrorException(redirectProblem(path, res.status, 'a redirect to an address that is not a URL'));
    }
    if (next.origin !== origin) throw new AppErrorException(redirectedAway(path, origin, next, res.status, key));
    if (hop >= MAX_REDIRECTS)
      throw new AppErrorException(redirectProblem(path, res.status, `more than ${MAX_REDIRECTS} redirects in a row`));
    transport.log('debug', `${pathLabel(path)}: the service redirected (${res.status}) within ${origin}`);
    current = next;
  }
}
