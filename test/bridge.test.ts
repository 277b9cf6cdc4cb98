// The browser bridge: only the page it served, holding the per-launch token, may reach the core.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridge, type BridgeServer } from '../src/core/bridge/server';
import type { CoreHandlers } from '../src/shared/ipc/contract';

const handlers = {
  'app:info': () => ({ version: 't', demo: true, host: 'browser', baseUrl: 'http://upstream', historyPath: ':memory:' }),
  'coverage:get': () => ({ sports: [{ sport: 'Tennis', events: 3 }], fetchedAt: 1, raw: { standard: { Tennis: 3 } } }),
} as Partial<CoreHandlers> as CoreHandlers; // the bridge only routes: two channels are enough to prove it


let bridge: BridgeServer;
beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bridge-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  bridge = await startBridge({ handlers, subscribe: () => () => undefined, staticDir: dir, port: 0 });
});
afterAll(() => bridge.close());

/** Resolves with the HTTP status of a refused upgrade, or 101 when the socket opened. */
function connect(query: string, origin: string | undefined): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge${query}`, origin ? { origin } : {});
    ws.on('open', () => resolve({ status: 101, ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => undefined);
  });
}

const ownOrigin = () => `http://127.0.0.1:${bridge.port}`;

describe('browser bridge', () => {
  it('refuses a connection without the token', async () => {
    expect((await connect('', ownOrigin())).status).toBe(401);
    expect((await connect('?token=wrong', ownOrigin())).status).toBe(401);
  });

  it('refuses a connection from a foreign Origin, even with the token', async () => {
    expect((await connect(`?token=${bridge.token}`, 'http://evil.example')).status).toBe(403);
    expect((await connect(`?token=${bridge.token}`, undefined)).status).toBe(403);
  });

  it('serves the contract to its own page holding the token, and validates arguments', async () => {
    const { status, ws } = await connect(`?token=${bridge.token}`, ownOrigin());
    expect(status).toBe(101);
    const ask = (msg: object) =>
      new Promise<unknown>((resolve) => {
        ws!.once('message', (d) => resolve(JSON.parse(d.toString())));
        ws!.send(JSON.stringify(msg));
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
    ws!.close();
  });

  it('rejects a foreign Host header on plain HTTP (DNS rebinding)', async () => {
    const http = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      http.get({ host: '127.0.0.1', port: bridge.port, path: '/', headers: { host: `evil.example:${bridge.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
    });
    expect(status).toBe(421);
  });
});

describe('browser bridge pushes', () => {
  it('sends every page the same push text, the JSON of {type, event, payload}, serialised once per push', async () => {
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
      const pages = await Promise.all(
        [0, 1].map(
          () =>
            new Promise<WebSocket>((resolve, reject) => {
              const ws = new WebSocket(`ws://127.0.0.1:${own.port}/bridge?token=${own.token}`, { origin: `http://127.0.0.1:${own.port}` });
              ws.on('open', () => resolve(ws));
              ws.on('error', reject);
            }),
        ),
      );
      const received = pages.map((ws) => {
        const texts: string[] = [];
        ws.on('message', (d) => texts.push(d.toString()));
        return texts;
      });
      while (listeners.size < 2) await new Promise((r) => setTimeout(r, 5));
      // A payload that counts its own serialisations, so sharing the text is observable.
      const payload = { events: [{ eventId: 7, markets: [], score: { liveStatus: 1, scoreHome: 2, scoreAway: 0 } }], at: 1, toJSON: undefined as unknown };
      payload.toJSON = () => {
        serialised++;
        return { events: payload.events, at: payload.at };
      };
      for (const l of listeners) l('onOdds', payload);
      for (const l of listeners) l('onStatus', null);
      while (received.some((t) => t.length < 2)) await new Promise((r) => setTimeout(r, 5));
      const expected = JSON.stringify({ type: 'push', event: 'onOdds', payload: { events: payload.events, at: 1 } });
      expect(received.map((t) => t[0])).toEqual([expected, expected]);
      expect(received.map((t) => t[1])).toEqual([JSON.stringify({ type: 'push', event: 'onStatus', payload: null }), JSON.stringify({ type: 'push', event: 'onStatus', payload: null })]);
      expect(serialised).toBe(1);
      for (const ws of pages) ws.close();
    } finally {
      await own.close();
    }
  });
});
