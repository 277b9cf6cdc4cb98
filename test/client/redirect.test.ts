// Issue 12, must show 2: the API key stays with the configured origin. The configured service is a real HTTP front
// on 127.0.0.1 that answers redirects and otherwise passes requests to the simulator; "the other origin" is a second
// such front on another port, which would serve real data to whoever reached it, key included. Every request either
// front receives is recorded with its Host and X-API-Key, so "the other origin never sees the key" is checked on
// the wire, not inferred from the client's result.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REDIRECTS, createApiClient, type ApiClient } from '../../src/core/api';
import { createStreamClient, type StreamClient } from '../../src/core/stream';
import { PATHS, type EventOdds } from '../../src/shared/api';
import { AppErrorException } from '../../src/shared/errors';
import { createManualClock } from '../support/manualClock';
import { ENT, startTestSim, until, type Sim } from './helpers';

interface Seen {
  host: string;
  path: string;
  key: string | null;
}

type Rule = (path: string) => { status: number; location: string } | null;

interface Front {
  url: string;
  port: number;
  seen: Seen[];
  redirect: Rule | null;
  close(): Promise<void>;
}

/** A real HTTP server: answers by `redirect` when it matches, else proxies to the simulator (a /moved prefix dropped). */
async function startFront(sim: Sim): Promise<Front> {
  const front: Front = { url: '', port: 0, seen: [], redirect: null, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const key = req.headers['x-api-key'];
    front.seen.push({ host: req.headers.host ?? '', path, key: typeof key === 'string' ? key : null });
    const r = front.redirect?.(path) ?? null;
    if (r) {
      res.writeHead(r.status, { Location: r.location, 'Content-Type': 'text/plain' });
      res.end('moved');
      return;
    }
    const upstream = httpRequest(
      sim.url + path.replace(/^\/moved/, ''),
      { method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    upstream.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front.port = (server.address() as AddressInfo).port;
  front.url = `http://127.0.0.1:${front.port}`;
  front.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return front;
}

let sim: Sim;
let service: Front;
let other: Front;
const open: Array<{ api: ApiClient; streams?: StreamClient }> = [];

beforeAll(async () => {
  sim = await startTestSim({ events: 12 });
  service = await startFront(sim);
  other = await startFront(sim);
});
afterAll(async () => {
  await service.close();
  await other.close();
  await sim.close();
});
afterEach(() => {
  for (const o of open.splice(0)) {
    o.streams?.close();
    o.api.dispose();
  }
  service.redirect = null;
  service.seen.length = 0;
  other.seen.length = 0;
});

function client(baseUrl = service.url, key = ENT): ApiClient {
  const api = createApiClient({
    baseUrl,
    keyProvider: () => key,
    clock: createManualClock(Date.now()),
    governor: { retry: { maxAttempts: 3, baseMs: 1, maxMs: 1 }, timeoutMs: 5_000 },
  });
  open.push({ api });
  return api;
}

function streamsOf(api: ApiClient): StreamClient {
  const streams = createStreamClient({ api, clock: createManualClock(Date.now()), pingIntervalMs: 60_000 });
  open.push({ api, streams });
  return streams;
}

const sorted = (o: EventOdds | null) => o && { ...o, markets: [...o.markets].sort((a, b) => a.line_id - b.line_id) };
const pathOnly = (s: Seen) => s.path.split('?')[0];
const STATUSES = [301, 302, 307, 308] as const;

describe('REST: a redirect to another origin', () => {
  for (const status of STATUSES) {
    it(`${status} from /api/settled and /api/coverage: the other origin receives nothing, the caller a clear error`, async () => {
      service.redirect = (path) => ({ status, location: other.url + path });
      const api = client();
      for (const [label, call] of [
        ['Settled matches', () => api.settled()],
        ['Coverage', () => api.coverage()],
      ] as const) {
        const r = await call();
        expect(r.ok).toBe(false);
        if (r.ok) continue;
        expect(r.error.kind).toBe('validation');
        expect(r.error.message).toContain(
          `${label}: the service at ${service.url} redirected (${status}) to another address, ${other.url}.`,
        );
        expect(r.error.message).toMatch(/only ever sent to the configured service address/);
        expect(r.error.message).not.toContain(ENT);
      }
      expect(other.seen).toEqual([]);
      // The configured origin got each call once: a refused redirect is final, not retried.
      expect(service.seen.map((s) => [pathOnly(s), s.key])).toEqual([
        [PATHS.settled, ENT],
        [PATHS.coverage, ENT],
      ]);
    });
  }

  it('same host, other scheme or name: localhost, https and a protocol-relative Location are other origins too', async () => {
    const api = client();
    const targets = [
      `http://localhost:${service.port}`,
      `https://127.0.0.1:${service.port}`,
      `//127.0.0.1:${other.port}`,
      `http://127.0.0.1:${other.port}`.replace('127.0.0.1', '127.0.0.2'),
    ];
    for (const target of targets) {
      service.redirect = (path) => (path.startsWith('/api/') ? { status: 302, location: target + path } : null);
      const r = await api.coverage();
      expect(r.ok, target).toBe(false);
      if (!r.ok) expect(r.error.message).toContain('redirected (302) to another address');
    }
    expect(other.seen).toEqual([]);
    expect(
      service.seen.every((s) => s.host === `127.0.0.1:${service.port}` && s.path.startsWith('/api/coverage')),
    ).toBe(true);
    expect(service.seen).toHaveLength(targets.length);
  });

  it('a same-origin hop first, then away: the first hop keeps the key, the other origin still gets nothing', async () => {
    service.redirect = (path) =>
      path.startsWith('/api/') ? { status: 307, location: `/hop${path}` } : { status: 308, location: other.url + path };
    const r = await client().coverage();
    expect(!r.ok && r.error.message).toContain(`to another address, ${other.url}`);
    expect(service.seen.map((s) => [s.path, s.key])).toEqual([
      ['/api/coverage', ENT],
      ['/hop/api/coverage', ENT],
    ]);
    expect(other.seen).toEqual([]);
  });

  it('a Location that reflects the key into a host name: the error names the origin without the key, in any case', async () => {
    const key = 'MixedCase-Key-Zq7X';
    service.redirect = (path) => ({ status: 302, location: `http://${key}.evil.example:${other.port}${path}` });
    const logged: string[] = [];
    const api = createApiClient({
      baseUrl: service.url,
      keyProvider: () => key,
      logger: (_l, m) => void logged.push(m),
    });
    open.push({ api });
    const r = await api.coverage();
    expect(!r.ok && r.error.message).toContain('to another address, http://[redacted key].evil.example:');
    for (const text of [JSON.stringify(r), ...logged]) expect(text.toLowerCase()).not.toContain(key.toLowerCase());
    expect(service.seen.map((s) => s.key)).toEqual([key]);
  });

  it('a redirect loop within the origin stops after a bounded number of hops', async () => {
    service.redirect = (path) => ({ status: 302, location: path });
    const r = await client().coverage();
    expect(!r.ok && r.error.message).toContain(`more than ${MAX_REDIRECTS} redirects`);
    expect(service.seen).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('a Location that is not a URL is refused', async () => {
    service.redirect = () => ({ status: 301, location: 'http://[not-a-host' });
    const r = await client().periods();
    expect(!r.ok && r.error.message).toContain('a redirect to an address that is not a URL');
    expect(service.seen).toHaveLength(1);
  });
});

describe('REST: a redirect within the origin still works', () => {
  for (const status of STATUSES) {
    it(`${status}: the answer is the service's, and the key is re-attached on the same origin only`, async () => {
      const direct = client(sim.url);
      const [settledDirect, coverageDirect] = [await direct.settled(), await direct.coverage()];
      service.redirect = (path) => (path.startsWith('/api/') ? { status, location: `/moved${path}` } : null);
      const api = client();
      const settled = await api.settled();
      const coverage = await api.coverage();
      expect(settled).toEqual(settledDirect);
      expect(coverage).toEqual(coverageDirect);
      expect(settled.ok && settled.value.events.length).toBeGreaterThan(0);
      expect(service.seen.map((s) => [pathOnly(s), s.key])).toEqual([
        [PATHS.settled, ENT],
        [`/moved${PATHS.settled}`, ENT],
        [PATHS.coverage, ENT],
        [`/moved${PATHS.coverage}`, ENT],
      ]);
      expect(other.seen).toEqual([]);
    });
  }
});

describe('stream: a redirect of /api/stream/event', () => {
  for (const status of STATUSES) {
    it(`${status} to another origin: the stream fails with a clear error and the other origin receives nothing`, async () => {
      service.redirect = (path) => (path.startsWith(PATHS.stream) ? { status, location: other.url + path } : null);
      const streams = streamsOf(client());
      const eventId = sim.truth.bookIds()[0]!;
      streams.watch(eventId);
      expect(await until(() => streams.state(eventId)?.status === 'failed', 5_000)).toBe(true);
      const error = streams.state(eventId)!.error!;
      expect(error.message).toContain(
        `Live odds stream: the service at ${service.url} redirected (${status}) to another address, ${other.url}.`,
      );
      expect(error.message).not.toContain(ENT);
      expect(streams.odds(eventId)).toBeNull();
      expect(other.seen).toEqual([]);
      expect(service.seen.map((s) => [pathOnly(s), s.key])).toEqual([[PATHS.stream, ENT]]);
    });
  }

  it('within the origin: the stream goes live on the moved address and holds the service truth', async () => {
    service.redirect = (path) => (path.startsWith(PATHS.stream) ? { status: 307, location: `/moved${path}` } : null);
    const streams = streamsOf(client());
    const eventId = sim.truth.bookIds()[1]!;
    streams.watch(eventId);
    expect(await until(() => streams.state(eventId)?.status === 'live' && streams.odds(eventId) !== null, 5_000)).toBe(
      true,
    );
    expect(sorted(streams.odds(eventId))).toEqual(sorted(sim.truth.event(eventId)));
    expect(service.seen.map((s) => [pathOnly(s), s.key])).toEqual([
      [PATHS.stream, ENT],
      [`/moved${PATHS.stream}`, ENT],
    ]);
    expect(other.seen).toEqual([]);
  });
});

describe('the client refuses a base URL the key must not go to', () => {
  it('at construction: http:// to a non-loopback host, and other schemes', () => {
    for (const baseUrl of ['http://example.com', 'ftp://odds.example', 'https://user:pw@odds.example']) {
      let thrown: unknown = null;
      try {
        client(baseUrl);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, baseUrl).toBeInstanceOf(AppErrorException);
      expect((thrown as AppErrorException).error.kind).toBe('validation');
    }
    expect(() => client('http://example.com')).toThrow(/http:\/\/ is refused for example\.com/);
  });

  it('setBaseUrl keeps the old address when the new one is refused', () => {
    const api = client();
    expect(() => api.setBaseUrl('http://odds.example')).toThrow(AppErrorException);
    expect(api.baseUrl()).toBe(service.url);
    api.setBaseUrl(`${other.url}/`);
    expect(api.baseUrl()).toBe(other.url);
  });

  it('governedFetch sends nothing to a URL off the configured origin', async () => {
    const api = client();
    const r = await api.governedFetch(PATHS.stream, `${other.url}${PATHS.stream}?event_id=1`, {}, { maxAttempts: 1 });
    expect(r).toMatchObject({ ok: false, attempts: 0, error: { kind: 'validation' } });
    expect(other.seen).toEqual([]);
    expect(service.seen).toEqual([]);
  });
});
