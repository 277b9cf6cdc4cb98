// The desktop app's network path for the core (src/main/netFetch.ts: fetch over Electron's net.request), run under
// plain Node against the Electron stand-in, whose net.request is backed by Node's real http. First what Electron does
// that made the adapter necessary (session.fetch with `redirect: 'manual'` rejects instead of returning the 3xx), then
// the adapter: redirects handed over as 3xx with their Location, status and headers passed through, bodies streamed,
// aborts that reach the server, and the core's API and stream clients working through it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { createStreamClient } from '../../src/core/stream';
import { rawBodyOf } from '../../src/core/net/rawBody';
import { createNetFetch } from '../../src/main/netFetch';
import { PATHS } from '../../src/shared/api';
import { startService, type Service } from '../contract/service';
import { listenLocal, type LocalServer } from '../support/localServer';
import { createElectronStandIn, type StandInClientRequest, type StandInSession } from './electron/standIn';

const standIn = createElectronStandIn();
type Net = { request(o: object): StandInClientRequest; fetch(input: string, init?: RequestInit): Promise<Response> };
const net = standIn.electron['net'] as Net;
let coreSession: StandInSession;
let netFetch: typeof fetch;

/** What the scripted server saw: each request, and whether its connection closed before the answer ended. */
interface Hit {
  path: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
  closedEarly: boolean;
}
const hits: Hit[] = [];
/** Releases the held streaming answers. */
const holds: Array<() => void> = [];
let server: LocalServer;

function route(req: IncomingMessage, res: ServerResponse, hit: Hit): void {
  const url = new URL(req.url ?? '/', 'http://x');
  switch (url.pathname) {
    case '/plain':
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.writeHead(201, 'Made It', { 'Content-Type': 'text/plain', 'X-Odds': 'yes' });
      res.end(`hello ${hit.method} ${hit.body}`);
      return;
    case '/to-plain':
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { Location: '/plain' });
      res.end('moved');
      return;
    case '/away':
      res.writeHead(301, { Location: 'http://127.0.0.2:9/elsewhere' });
      res.end();
      return;
    case '/empty':
      res.writeHead(204);
      res.end();
      return;
    case '/stream':
      // The first part at once, the rest only when the test releases it.
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('first\n');
      holds.push(() => res.end('second\n'));
      return;
    case '/slow-headers':
      holds.push(() => {
        res.writeHead(200);
        res.end('late');
      });
      return;
    case '/cut':
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('only part');
      setTimeout(() => res.destroy(), 20);
      return;
    default:
      res.writeHead(404);
      res.end();
  }
}

const lastHit = (path: string) => [...hits].reverse().find((h) => h.path.startsWith(path));
const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

beforeAll(async () => {
  await standIn.app.whenReady();
  coreSession = (standIn.electron['session'] as { fromPartition(p: string): StandInSession }).fromPartition(
    'oddsdesk-core-net',
  );
  netFetch = createNetFetch((options) => net.request({ ...options, session: coreSession }));
  server = await listenLocal((req, res) => {
    const hit: Hit = {
      path: req.url ?? '/',
      method: req.method ?? '',
      headers: req.headers,
      body: '',
      closedEarly: false,
    };
    hits.push(hit);
    res.on('close', () => (hit.closedEarly = !res.writableFinished));
    req.setEncoding('utf8');
    req.on('data', (d: string) => (hit.body += d));
    req.on('end', () => route(req, res, hit));
  });
});
afterAll(async () => {
  for (const release of holds.splice(0)) release();
  await server.close();
});

describe("the stand-in is Electron's net", () => {
  it('session.fetch with redirect: manual rejects ("Redirect was cancelled") instead of returning the 3xx: the bug the adapter fixes', async () => {
    await expect(coreSession.fetch(`${server.url}/to-plain`, { redirect: 'manual' })).rejects.toThrow(
      'Redirect was cancelled',
    );
    await expect(net.fetch(`${server.url}/to-plain`, { redirect: 'manual' })).rejects.toThrow('Redirect was cancelled');
    // The default (follow) ends on the target.
    const followed = await coreSession.fetch(`${server.url}/to-plain`);
    expect([followed.status, await followed.text()]).toEqual([201, 'hello GET ']);
  });

  it("net.request with redirect: manual emits 'redirect' (status, method, URL, headers) and is cancelled unless followRedirect() is called in it", async () => {
    const seen: unknown[] = [];
    const cancelled = await new Promise<string>((resolve) => {
      const r = net.request({ url: `${server.url}/to-plain?status=307`, redirect: 'manual' });
      r.on('redirect', (...args: unknown[]) => seen.push(args));
      r.on('error', (e: Error) => resolve(e.message));
      r.end();
    });
    expect(cancelled).toBe('Redirect was cancelled');
    expect(seen).toEqual([[307, 'GET', `${server.url}/plain`, expect.objectContaining({ location: ['/plain'] })]]);

    const followed = await new Promise<number>((resolve, reject) => {
      const r = net.request({ url: `${server.url}/to-plain?status=303`, method: 'POST', redirect: 'manual' });
      r.on('redirect', (_status: number, method: string) => {
        expect(method).toBe('GET'); // a 303 turns a POST into a GET
        r.followRedirect();
      });
      r.on('response', (res: { statusCode: number }) => resolve(res.statusCode));
      r.on('error', reject);
      r.end('payload');
    });
    expect(followed).toBe(201);
    expect(lastHit('/plain')?.method).toBe('GET');
  });
});

describe('the adapter (fetch over net.request)', () => {
  it('passes status, status text, headers and body through, and sends the request headers and body', async () => {
    const res = await netFetch(`${server.url}/plain`, {
      method: 'POST',
      headers: { 'X-API-Key': 'k-123', Accept: 'text/plain' },
      body: 'stake=10',
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made It');
    expect(res.headers.get('x-odds')).toBe('yes');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(res.redirected).toBe(false);
    expect(res.url).toBe(`${server.url}/plain`);
    expect(await res.text()).toBe('hello POST stake=10');
    const hit = lastHit('/plain')!;
    expect(hit.headers['x-api-key']).toBe('k-123');
    expect(hit.headers['accept']).toBe('text/plain');
  });

  it("redirect: 'manual' hands over the 3xx with its Location (as Node's fetch does) and follows nothing", async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const before = hits.length;
      const res = await netFetch(`${server.url}/to-plain?status=${status}`, { redirect: 'manual' });
      expect(res.status).toBe(status);
      expect(res.headers.get('location')).toBe('/plain');
      expect(res.body).toBeNull();
      expect(hits.slice(before).map((h) => h.path)).toEqual([`/to-plain?status=${status}`]);
    }
    const away = await netFetch(`${server.url}/away`, { redirect: 'manual' });
    expect([away.status, away.headers.get('location')]).toEqual([301, 'http://127.0.0.2:9/elsewhere']);
  });

  it("redirect: 'follow' ends on the target and says it was redirected; 'error' fails", async () => {
    const res = await netFetch(`${server.url}/to-plain`);
    expect([res.status, res.redirected, res.url]).toEqual([201, true, `${server.url}/plain`]);
    await expect(netFetch(`${server.url}/to-plain`, { redirect: 'error' })).rejects.toThrow(TypeError);
  });

  it('streams the body: the first part is readable while the server still holds the rest', async () => {
    const res = await netFetch(`${server.url}/stream`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('first\n');
    expect(lastHit('/stream')!.closedEarly).toBe(false);
    holds.shift()!();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe('second\n');
  });

  it('an abort signal cancels the request: before the answer (the call rejects) and while the body streams (the read fails); the server sees the connection go', async () => {
    const early = new AbortController();
    const pending = netFetch(`${server.url}/slow-headers`, { signal: early.signal });
    await until(() => lastHit('/slow-headers') !== undefined);
    early.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => lastHit('/slow-headers')!.closedEarly);
    holds.shift();

    const late = new AbortController();
    const res = await netFetch(`${server.url}/stream`, { signal: late.signal });
    const reader = res.body!.getReader();
    await reader.read();
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => lastHit('/stream')!.closedEarly);
    holds.shift();
  });

  it('cancelling the body (the reader is done with it) cancels the request', async () => {
    const res = await netFetch(`${server.url}/stream`);
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    await until(() => lastHit('/stream')!.closedEarly);
    holds.shift();
  });

  it("a live stream's body (Accept: text/event-stream) comes as the chunks Chromium hands over, no web stream; cancelling it cancels the request", async () => {
    const res = await netFetch(`${server.url}/stream`, { headers: { Accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    const raw = rawBodyOf(res)!;
    const chunks: string[] = [];
    let ended = false;
    raw.start({
      data: (c) => chunks.push(new TextDecoder().decode(c)),
      end: () => (ended = true),
      error: () => undefined,
    });
    await until(() => chunks.join('') === 'first\n');
    expect(lastHit('/stream')!.closedEarly).toBe(false);
    holds.shift()!();
    await until(() => ended);
    expect(chunks.join('')).toBe('first\nsecond\n');

    const again = rawBodyOf(await netFetch(`${server.url}/stream`, { headers: { Accept: 'text/event-stream' } }))!;
    const got: string[] = [];
    again.start({ data: (c) => got.push(new TextDecoder().decode(c)), end: () => undefined, error: () => undefined });
    await until(() => got.length > 0);
    again.cancel();
    await until(() => lastHit('/stream')!.closedEarly);
    holds.shift();
  });

  it("a network fault rejects like Node's fetch, with Chromium's code as the cause's; a body cut short fails its read", async () => {
    const closed = await listenLocal(() => undefined);
    const gone = closed.url;
    await closed.close();
    const error = await netFetch(`${gone}/x`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError & { cause: { code: string } }).cause.code).toBe('ERR_CONNECTION_REFUSED');

    const res = await netFetch(`${server.url}/cut`);
    await expect(res.text()).rejects.toThrow();
  });

  it('a 204 has no body', async () => {
    const res = await netFetch(`${server.url}/empty`);
    expect([res.status, res.body]).toEqual([204, null]);
  });
});

describe("the core's clients through the adapter", () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  const client = (f: typeof fetch) =>
    createApiClient({
      baseUrl: service.front.url,
      keyProvider: () => service.key,
      fetch: f,
      governor: { retry: { maxAttempts: 2, baseMs: 1, maxMs: 1 }, timeoutMs: 5_000 },
      probe: false,
    });

  it('a same-origin redirect is followed by the client, key re-attached; the same redirect through session.fetch was a network fault', async () => {
    service.front.redirect = (path) =>
      path.startsWith(PATHS.coverage) ? { status: 307, location: `/moved${path}` } : null;
    try {
      const before = service.front.seen.length;
      const r = await client(netFetch).coverage();
      expect(r.ok).toBe(true);
      expect(service.front.seen.slice(before).map((s) => [s.path, s.key])).toEqual([
        [PATHS.coverage, service.key],
        [`/moved${PATHS.coverage}`, service.key],
      ]);

      // The wiring before the adapter: Electron's session.fetch.
      const old = await client(((input: string, init?: RequestInit) =>
        coreSession.fetch(input, init)) as typeof fetch).coverage();
      expect(!old.ok && old.error.kind).toBe('network');
    } finally {
      service.front.redirect = null;
    }
  });

  it('a cross-origin redirect is refused with the plain message, and the other origin receives nothing', async () => {
    service.front.redirect = (path) => ({ status: 302, location: service.other.url + path });
    try {
      const r = await client(netFetch).coverage();
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.kind).toBe('validation');
      expect(r.error.message).toContain(`redirected (302) to another address, ${service.other.url}`);
      expect(r.error.message).not.toContain(service.key);
      expect(service.other.seen).toEqual([]);
    } finally {
      service.front.redirect = null;
    }
  });

  it('the live stream goes live through it and its close cancels the request', async () => {
    const api = client(netFetch);
    const streams = createStreamClient({ api, pingIntervalMs: 60_000 });
    try {
      streams.watch(service.eventId);
      await until(() => streams.state(service.eventId)?.status === 'live' && streams.odds(service.eventId) !== null);
      expect(streams.odds(service.eventId)?.markets.find((m) => m.line_id === service.lineId)?.prices).toMatchObject({
        home: 2.0,
        away: 1.9,
      });
      service.sim.script.setMarket(service.eventId, service.lineId, { home: 1.95, away: 1.9 });
      await until(
        () => streams.odds(service.eventId)?.markets.find((m) => m.line_id === service.lineId)?.prices?.home === 1.95,
      );
      expect(service.sim.openStreams()).toBe(1);
    } finally {
      streams.close();
      api.dispose();
    }
    await until(() => service.sim.openStreams() === 0);
  });
});
