// The core's fetch in the desktop app: a `fetch`-shaped function over Electron's `net.request`, so the core's REST
// calls and live streams go through Chromium's network stack (the OS proxy settings and certificate store) with the
// core's own session, and still see what Node's fetch shows the core for `redirect: 'manual'`: the 3xx itself, with
// its Location. Electron's `net.fetch` / `session.fetch` cannot: with `redirect: 'manual'` they reject ("Redirect was
// cancelled"), because their ClientRequest cancels a redirect nobody follows in its 'redirect' event; every redirect,
// same-origin ones included, then looked like a network fault, and the core's plain "redirected to another address"
// refusal was never shown. Here the 'redirect' event becomes the answer (the request is then aborted, nothing followed).
// What else it keeps of fetch: headers and status pass through; the body is a streaming ReadableStream with
// backpressure, except a live stream's (Accept: text/event-stream, 2xx), which comes as a raw body (core/net/rawBody.ts); an abort signal cancels the request before or after the answer,
// and so does cancelling the body; network faults reject with a TypeError whose cause has Chromium's code
// (ERR_CONNECTION_REFUSED), as Node's fetch rejects with one whose cause has a code.
// Written against the documented parts of ClientRequest and IncomingMessage only, so it runs under plain Node with
// the Electron stand-in (test/shell/electron/standIn.ts) and is tested there.
import type { ClientRequestConstructorOptions } from 'electron';
import { attachRawBody, rawBodyFromReadable, type ReadableLike } from '../core/net/rawBody';

/** The parts of Electron's IncomingMessage used here (it implements Node's Readable interface). */
export interface NetResponse {
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string | string[]>;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'aborted', listener: () => void): unknown;
  pause?(): unknown;
  resume?(): unknown;
}

/** The parts of Electron's ClientRequest used here. */
export interface NetRequest {
  on(event: 'response', listener: (response: NetResponse) => void): unknown;
  on(
    event: 'redirect',
    listener: (
      statusCode: number,
      method: string,
      redirectUrl: string,
      responseHeaders: Record<string, string[]>,
    ) => void,
  ): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  setHeader(name: string, value: string): void;
  abort(): void;
  end(chunk?: Buffer): unknown;
}

/** `(options) => net.request({ ...options, session })` in the app. */
export type NetRequestFn = (options: ClientRequestConstructorOptions) => NetRequest;

/** Headers Chromium does not let an app set (Electron's ClientRequest.setHeader documents them); fetch drops them too. */
const RESTRICTED_HEADERS: ReadonlySet<string> = new Set([
  'content-length',
  'host',
  'trailer',
  'te',
  'upgrade',
  'cookie2',
  'keep-alive',
  'transfer-encoding',
  'connection',
]);
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);
/** Bytes held in the body stream before the socket is paused. */
const BODY_HIGH_WATER_BYTES = 64 * 1024;

/** Chromium's error code from a net error message ("net::ERR_CONNECTION_REFUSED"), as a Node error's `code`. */
function networkFailure(error: Error): TypeError {
  const code = /net::(ERR_[A-Z0-9_]+)/.exec(error.message)?.[1];
  const cause = code ? Object.assign(new Error(error.message), { code }) : error;
  return new TypeError('fetch failed', { cause });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      try {
        headers.append(name, v);
      } catch {
        // A header value fetch would refuse (a stray control character): left out, as fetch cannot carry it.
      }
    }
  }
  return headers;
}

/** A Response whose `url` and `redirected` say where it came from, as fetch's do. */
function withOrigin(response: Response, url: string, redirected: boolean): Response {
  Object.defineProperty(response, 'url', { value: url });
  Object.defineProperty(response, 'redirected', { value: redirected });
  return response;
}

/**
 * A live stream's body: the chunks Chromium hands over, to the stream client (core/net/rawBody.ts) with no web stream
 * between, since the stream reads it for hours, thousands of chunks a minute. A broken transfer ('aborted') is an
 * error like any other; cancelling calls `stop`, which stops the request.
 */
function liveStreamBody(res: NetResponse, stop: () => void) {
  const source = {
    on(event: string, listener: (arg: never) => void) {
      const l = listener as (arg?: unknown) => void;
      res.on(event as 'data', l as (chunk: Buffer) => void);
      if (event === 'error') res.on('aborted', () => l(networkFailure(new Error('net::ERR_ABORTED'))));
      return undefined;
    },
  } as ReadableLike;
  return rawBodyFromReadable(source, stop);
}

export function createNetFetch(request: NetRequestFn): typeof fetch {
  return async function netFetch(input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
    // Request does fetch's own normalising (method, headers, body, redirect mode, a signal that follows init's).
    const req = new Request(input instanceof URL ? input.href : input, init);
    const signal = req.signal;
    if (signal.aborted) throw abortReason(signal);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    if (signal.aborted) throw abortReason(signal);

    return new Promise<Response>((resolve, reject) => {
      const mode = req.redirect;
      const r = request({ method: req.method, url: req.url, redirect: mode });
      let url = req.url;
      let redirected = false;
      let settled = false;
      /** While the body streams: the stream's controller, to end it on abort or failure. */
      let streaming: ReadableStreamDefaultController<Uint8Array> | null = null;
      let done = false;

      const finish = () => {
        done = true;
        signal.removeEventListener('abort', onAbort);
      };
      const fail = (error: unknown) => {
        if (done) return;
        finish();
        if (!settled) {
          settled = true;
          reject(error);
        } else {
          streaming?.error(error);
        }
      };
      function onAbort() {
        fail(abortReason(signal));
        r.abort();
      }
      signal.addEventListener('abort', onAbort, { once: true });

      r.on('redirect', (statusCode, _method, redirectUrl, headers) => {
        if (mode !== 'manual') {
          // 'follow': Chromium follows by itself; 'error': it fails the request. Either way, note where it went.
          url = redirectUrl;
          redirected = true;
          return;
        }
        // The redirect itself is the answer, as Node's fetch gives it (status and Location; no body, which Chromium
        // never hands over for a redirect). Not followed: aborting now also keeps ClientRequest from reporting the
        // redirect it cancels as an error.
        const h = responseHeaders(headers);
        if (!h.has('location')) h.set('location', redirectUrl);
        settled = true;
        finish();
        r.abort();
        resolve(withOrigin(new Response(null, { status: statusCode, headers: h }), url, redirected));
      });

      r.on('response', (res) => {
        if (done) return;
        try {
          answer(res);
        } catch (e) {
          // A status or header fetch cannot represent (a 1xx): a fault of the answer, like a broken connection.
          fail(networkFailure(e instanceof Error ? e : new Error(String(e))));
          r.abort();
        }
      });

      function answer(res: NetResponse) {
        const nullBody = NULL_BODY_STATUSES.has(res.statusCode) || req.method === 'HEAD';
        const headers = responseHeaders(res.headers);
        if (
          !nullBody &&
          res.statusCode >= 200 &&
          res.statusCode < 300 &&
          (req.headers.get('accept') ?? '').includes('text/event-stream')
        ) {
          const raw = liveStreamBody(res, () => {
            finish();
            r.abort();
          });
          settled = true;
          resolve(
            withOrigin(
              attachRawBody(
                new Response(null, { status: res.statusCode, statusText: res.statusMessage, headers }),
                raw,
              ),
              url,
              redirected,
            ),
          );
          return;
        }
        let stream: ReadableStream<Uint8Array> | null = null;
        if (nullBody) {
          finish();
        } else {
          stream = new ReadableStream<Uint8Array>(
            {
              start(controller) {
                streaming = controller;
                res.on('data', (chunk: Buffer) => {
                  if (done) return;
                  controller.enqueue(new Uint8Array(chunk));
                  if ((controller.desiredSize ?? 1) <= 0) res.pause?.();
                });
                res.on('end', () => {
                  if (done) return;
                  finish();
                  controller.close();
                });
                res.on('error', (e: Error) => fail(networkFailure(e)));
                res.on('aborted', () => fail(networkFailure(new Error('net::ERR_ABORTED'))));
              },
              pull() {
                res.resume?.();
              },
              cancel() {
                // The reader is done with it (the SSE stream closed, an over-long body refused): stop the transfer.
                finish();
                r.abort();
              },
            },
            { highWaterMark: BODY_HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
          );
        }
        const response = new Response(stream, { status: res.statusCode, statusText: res.statusMessage, headers });
        settled = true;
        resolve(withOrigin(response, url, redirected));
      }

      r.on('error', (e: Error) => fail(networkFailure(e)));

      for (const [name, value] of req.headers) {
        if (!RESTRICTED_HEADERS.has(name)) r.setHeader(name, value);
      }
      r.end(body);
    });
  };
}
