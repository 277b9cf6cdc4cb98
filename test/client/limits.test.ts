// Issue 24, smaller attack surface: a hostile or broken upstream cannot fill the client's memory with one answer. A
// body over the cap (MAX_RESPONSE_BYTES, 32 MiB) is refused before it is read when its Content-Length says so, and cut
// the moment it passes the cap when it says nothing; either way the caller gets one plain error, the request is not
// retried, and the client goes on working. The upstream is a real HTTP server on 127.0.0.1 that plays each case.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/core/api';
import { createStreamClient } from '../../src/core/stream';
import { MAX_RESPONSE_BYTES, PATHS } from '../../src/shared/api';
import { listenLocal, writeEndless, type LocalServer } from '../support/localServer';
import { until } from './helpers';

type Mode = 'normal' | 'declared' | 'endless';

const FIXTURE = {
  event_id: 101,
  sport_id: 1,
  sport_name: 'Soccer',
  league_id: 5,
  league_name: 'League',
  runner_home: 'Home',
  runner_away: 'Away',
  starts: '2026-11-22T13:00:00',
  live_status: 0,
};

/** What the server did with each oversized answer: bytes written, and whether the client dropped the connection. */
interface Played {
  path: string;
  written: number;
  closed: boolean;
}

let server: LocalServer;
let mode: Mode = 'normal';
const requests: string[] = [];
const played: Played[] = [];
const clients: ApiClient[] = [];

beforeAll(async () => {
  server = await listenLocal((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (path === PATHS.stream) {
      // A refusal with an endless body: the governor would read it to classify the refusal.
      const p: Played = { path, written: 0, closed: false };
      played.push(p);
      res.writeHead(503, { 'Content-Type': 'application/json' });
      return void writeEndless(res, '{"detail": "', 'busy ', p);
    }
    if (path === PATHS.fixtures && mode !== 'normal') {
      const p: Played = { path, written: 0, closed: false };
      played.push(p);
      if (mode === 'declared') {
        // Says 64 MiB are coming, sends a byte and waits: a client that began reading would wait until its timeout.
        res.on('close', () => (p.closed = true));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(2 * MAX_RESPONSE_BYTES) });
        res.write('[');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }); // chunked: no length given
      return void writeEndless(res, '[', `${JSON.stringify(FIXTURE)},`, p);
    }
    const body = path === PATHS.sports ? [{ sport_id: 1, name: 'Soccer' }] : path === PATHS.fixtures ? [FIXTURE] : null;
    if (body === null) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return res.end('{"detail": "Not Found"}');
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
});
afterAll(() => server.close());
afterEach(() => {
  for (const c of clients.splice(0)) c.dispose();
  requests.length = 0;
  played.length = 0;
  mode = 'normal';
});

function client(): ApiClient {
  const api = createApiClient({
    baseUrl: server.url,
    keyProvider: () => 'limits-test-key-0001',
    // Retries would show: three attempts are allowed for a transient fault.
    governor: { retry: { maxAttempts: 3, baseMs: 20, maxMs: 100 }, timeoutMs: 10_000 },
    probe: false,
  });
  clients.push(api);
  return api;
}

const TOO_LARGE = `The service sent a response larger than 32 MiB for ${PATHS.fixtures}; it was not read.`;

describe('response bodies over the cap', () => {
  it('a Content-Length over the cap is refused before the body is read, once, and the client keeps working', async () => {
    const api = client();
    mode = 'declared';
    const started = Date.now();
    const r = await api.fixtures();
    expect(r).toEqual({ ok: false, error: { kind: 'bad_payload', message: TOO_LARGE } });
    // Not read: the server sent one byte of the 64 MiB it announced, and the client did not wait for the rest.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await until(() => played[0]!.closed, 2_000)).toBe(true);
    // Not retried: asking again would only fetch the same body.
    expect(requests.filter((p) => p === PATHS.fixtures)).toHaveLength(1);

    mode = 'normal';
    const again = await api.fixtures();
    expect(again.ok && again.value.map((f) => f.event_id)).toEqual([101]);
    const sports = await api.sports();
    expect(sports.ok && sports.value).toEqual([{ sport_id: 1, name: 'Soccer' }]);
  });

  it('a body without a length is cut as soon as it passes the cap, once, and the client keeps working', async () => {
    const api = client();
    mode = 'endless';
    const r = await api.fixtures();
    expect(r).toEqual({ ok: false, error: { kind: 'bad_payload', message: TOO_LARGE } });
    // The client dropped the connection while the server was still writing, past the cap but not endlessly.
    expect(await until(() => played[0]!.closed, 2_000)).toBe(true);
    expect(played[0]!.written).toBeGreaterThan(MAX_RESPONSE_BYTES);
    expect(requests.filter((p) => p === PATHS.fixtures)).toHaveLength(1);
    expect(api.governor.state().requests.session.total).toBe(1);

    mode = 'normal';
    const again = await api.fixtures();
    expect(again.ok && again.value.map((f) => f.event_id)).toEqual([101]);
  });

  it("a stream open refused with an endless body fails with the same error in the stream's state and plans a reconnect", async () => {
    const api = client();
    const streams = createStreamClient({ api, backoff: { baseMs: 60_000, maxMs: 60_000 }, random: () => 1 });
    try {
      streams.watch(7);
      expect(await until(() => streams.state(7)?.status === 'reconnecting', 10_000)).toBe(true);
      expect(streams.state(7)!.error).toEqual({
        kind: 'bad_payload',
        message: `The service sent a response larger than 32 MiB for ${PATHS.stream}; it was not read.`,
      });
      expect(streams.state(7)!.retryAt).toBeGreaterThan(Date.now());
      expect(await until(() => played[0]!.closed, 2_000)).toBe(true);
      expect(requests.filter((p) => p === PATHS.stream)).toHaveLength(1);
    } finally {
      streams.close();
    }
  });
});
