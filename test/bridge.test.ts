// The browser bridge: only the page it served, holding the per-launch token, may reach the core; and the host proves
// it holds the token too, before the page trusts anything it says.
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridge, type BridgeServer } from '../src/core/bridge/server';
import type { CoreHandlers, PushListener } from '../src/shared/ipc/contract';
import { openBridgeSocket } from './support/bridgeSocket';

const handlers = {
  'app:info': () => ({
    version: 't',
    demo: true,
    host: 'browser',
    baseUrl: 'http://upstream',
    historyPath: ':memory:',
  }),
  'coverage:get': () => ({ sports: [{ sport: 'Tennis', events: 3 }], fetchedAt: 1, raw: { standard: { Tennis: 3 } } }),
} as Partial<CoreHandlers> as CoreHandlers; // the bridge only routes: two channels are enough to prove it

// Pushes the host would send every page: the test fires them while sockets are half-way through the handshake.
const listeners = new Set<PushListener>();
const pushAll = () => {
  for (const l of listeners) l('onWatchlist', []);
};

let bridge: BridgeServer;
beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bridge-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  bridge = await startBridge({
    handlers,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    staticDir: dir,
    port: 0,
    handshakeTimeout: 300,
  });
});
afterAll(() => bridge.close());

/** Resolves with the HTTP status of a refused upgrade, or 101 and the socket (and every frame it gets) when it opened. */
function connect(
  origin: string | undefined,
  query = '',
): Promise<{ status: number; ws?: WebSocket; frames: Array<Record<string, string>> }> {
  return new Promise((resolve) => {
    const frames: Array<Record<string, string>> = [];
    const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge${query}`, origin ? { origin } : {});
    ws.on('message', (d) => frames.push(JSON.parse(d.toString()) as Record<string, string>));
    ws.on('open', () => resolve({ status: 101, ws, frames }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0, frames }));
    ws.on('error', () => undefined);
  });
}

const ownOrigin = () => `http://127.0.0.1:${bridge.port}`;
const closeCode = (ws: WebSocket) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');
const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
};

describe('browser bridge', () => {
  it('challenges every socket of its own page, and closes one that cannot prove it holds the token (4401) with nothing else said', async () => {
    const nonce = 'a'.repeat(64);
    const attempts = [
      // a guessed proof
      (challenge: string) =>
        JSON.stringify({
          type: 'hello',
          nonce,
          proof: hmac('wrong-token', `oddsdesk-bridge page ${challenge} ${nonce}`),
        }),
      // the host's own proof sent back (the role word differs)
      (challenge: string) =>
        JSON.stringify({
          type: 'hello',
          nonce,
          proof: hmac(bridge.token, `oddsdesk-bridge host ${challenge} ${nonce}`),
        }),
      // the token itself, as the first version of the page sent it
      () => JSON.stringify({ type: 'hello', nonce, proof: bridge.token }),
      // straight to a request
      () => JSON.stringify({ type: 'invoke', id: 1, channel: 'coverage:get', args: [] }),
      () => 'not json',
    ];
    for (const hello of attempts) {
      const { status, ws, frames } = await connect(ownOrigin(), `?token=${bridge.token}`); // a token in the URL counts for nothing
      expect(status).toBe(101);
      await until(() => frames.length > 0);
      const challenge = frames[0]!['nonce']!;
      expect(frames[0]).toEqual({ type: 'challenge', nonce: expect.stringMatching(/^[0-9a-f]{64}$/) });
      pushAll();
      const closed = closeCode(ws!);
      ws!.send(hello(challenge));
      pushAll();
      expect(await closed).toBe(4401);
      expect(frames, 'no push, result or proof reached it').toHaveLength(1);
    }
  });

  it('closes a socket that says nothing within the handshake timeout (4408)', async () => {
    const { ws, frames } = await connect(ownOrigin());
    const t0 = Date.now();
    pushAll();
    expect(await closeCode(ws!)).toBe(4408);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(frames.map((f) => f['type'])).toEqual(['challenge']);
  });

  it("proves it holds the token: its welcome is HMAC-SHA256(token, 'oddsdesk-bridge host <challenge> <nonce>')", async () => {
    const challenges: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { ws, frames } = await connect(ownOrigin());
      await until(() => frames.length > 0);
      const challenge = frames[0]!['nonce']!;
      const nonce = (i ? 'b' : 'c').repeat(64);
      ws!.send(
        JSON.stringify({
          type: 'hello',
          nonce,
          proof: hmac(bridge.token, `oddsdesk-bridge page ${challenge} ${nonce}`),
        }),
      );
      await until(() => frames.length > 1);
      expect(frames[1]).toEqual({
        type: 'welcome',
        proof: hmac(bridge.token, `oddsdesk-bridge host ${challenge} ${nonce}`),
      });
      challenges.push(challenge);
      ws!.close();
    }
    // Each socket gets a challenge of its own, so no welcome can be replayed to another page.
    expect(challenges[0]).not.toBe(challenges[1]);
  });

  it('refuses a connection from a foreign Origin', async () => {
    expect((await connect('http://evil.example')).status).toBe(403);
    expect((await connect(undefined)).status).toBe(403);
  });

  it('serves the contract to its own page once both proofs are made, and validates arguments', async () => {
    const ws = await openBridgeSocket(bridge.port, bridge.token);
    const ask = (msg: object) =>
      new Promise<unknown>((resolve) => {
        ws.once('message', (d) => resolve(JSON.parse(d.toString())));
        ws.send(JSON.stringify(msg));
      });
    expect(await ask({ type: 'invoke', id: 1, channel: 'coverage:get', args: [] })).toMatchObject({
      type: 'result',
      id: 1,
      result: { ok: true, value: { sports: [{ sport: 'Tennis', events: 3 }] } },
    });
    expect(await ask({ type: 'invoke', id: 2, channel: 'nope:do', args: [] })).toMatchObject({
      id: 2,
      result: { ok: false, error: { kind: 'validation' } },
    });
    expect(await ask({ type: 'invoke', id: 3, channel: 'coverage:get', args: ['extra'] })).toMatchObject({
      id: 3,
      result: { ok: false, error: { kind: 'validation' } },
    });
    ws.close();
  });

  it('rejects a foreign Host header on plain HTTP (DNS rebinding)', async () => {
    const http = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      http.get(
        { host: '127.0.0.1', port: bridge.port, path: '/', headers: { host: `evil.example:${bridge.port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
    });
    expect(status).toBe(421);
  });

  it('refuses `localhost` as Host and as Origin: it listens on 127.0.0.1 only, and [::1]:P may be another account', async () => {
    const http = await import('node:http');
    const get = (host: string) =>
      new Promise<number>((resolve) => {
        http.get(
          {
            host: '127.0.0.1',
            port: bridge.port,
            path: '/',
            agent: false,
            headers: { host, 'sec-fetch-site': 'none' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
      });
    expect(await get(`127.0.0.1:${bridge.port}`)).toBe(200);
    expect(await get(`localhost:${bridge.port}`)).toBe(421);
    // The page at http://localhost:P (whoever served it) may not open the bridge...
    expect((await connect(`http://localhost:${bridge.port}`)).status).toBe(403);
    // ...nor may a socket that names localhost as its Host, whatever Origin it claims.
    const viaLocalhost = (origin: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge`, {
          origin,
          headers: { host: `localhost:${bridge.port}` },
        });
        ws.on('open', () => {
          ws.terminate();
          resolve(101);
        });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', () => undefined);
      });
    expect(await viaLocalhost(`http://localhost:${bridge.port}`)).toBe(421);
    expect(await viaLocalhost(ownOrigin())).toBe(421);
    // The one origin it prints is still the page's.
    const ok = await connect(ownOrigin());
    expect(ok.status).toBe(101);
    ok.ws!.terminate();
    expect(new URL(bridge.url).hostname).toBe('127.0.0.1');
  });
});

describe('browser bridge pushes', () => {
  it('sends every page the same text, serialised once per push: the pushes of one turn in one frame, a lone push as {type, event, payload}', async () => {
    const listeners = new Set<(event: string, payload: unknown) => void>();
    const dir = mkdtempSync(path.join(tmpdir(), 'bridge-push-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
    let serialised = 0;
    const own = await startBridge({
      handlers,
      subscribe: (l) => {
        listeners.add(l as (event: string, payload: unknown) => void);
        return () => listeners.delete(l as (event: string, payload: unknown) => void);
      },
      staticDir: dir,
      port: 0,
    });
    try {
      const pages = await Promise.all([0, 1].map(() => openBridgeSocket(own.port, own.token)));
      const received = pages.map((ws) => {
        const texts: string[] = [];
        ws.on('message', (d) => texts.push(d.toString()));
        return texts;
      });
      while (listeners.size < 2) await new Promise((r) => setTimeout(r, 5));
      // A payload that counts its own serialisations, so sharing the text is observable.
      const payload = {
        events: [{ eventId: 7, markets: [], score: { liveStatus: 1, scoreHome: 2, scoreAway: 0 } }],
        at: 1,
        toJSON: undefined as unknown,
      };
      payload.toJSON = () => {
        serialised++;
        return { events: payload.events, at: payload.at };
      };
      // Two pushes in one turn of the host's loop: one frame with both, in their order.
      for (const l of listeners) l('onOdds', payload);
      for (const l of listeners) l('onStatus', null);
      while (received.some((t) => t.length < 1)) await new Promise((r) => setTimeout(r, 5));
      const both = JSON.stringify({
        type: 'pushes',
        pushes: [
          { event: 'onOdds', payload: { events: payload.events, at: 1 } },
          { event: 'onStatus', payload: null },
        ],
      });
      expect(received.map((t) => t[0])).toEqual([both, both]);
      // A push alone in its turn goes as a push of its own.
      for (const l of listeners) l('onStatus', null);
      while (received.some((t) => t.length < 2)) await new Promise((r) => setTimeout(r, 5));
      const alone = JSON.stringify({ type: 'push', event: 'onStatus', payload: null });
      expect(received.map((t) => t[1])).toEqual([alone, alone]);
      expect(serialised).toBe(1);
      for (const ws of pages) ws.close();
    } finally {
      await own.close();
    }
  });
});
