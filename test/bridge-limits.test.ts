// The bridge's HTTP server under connection floods: idle sockets cannot lock out the page, WebSockets that never
// prove the token (any local process can forge a loopback Origin) hold a small cap of their own and give way first,
// and a client that trickles its headers is cut when the (here shortened) headers timeout runs out.
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_MAX_UNPROVEN, startBridge, type BridgeOptions, type BridgeServer } from '../src/core/bridge/server';
import type { CoreHandlers } from '../src/shared/ipc/contract';
import { openBridgeSocket } from './support/bridgeSocket';

const handlers = { 'app:info': () => ({ version: 't' }) } as Partial<CoreHandlers> as CoreHandlers;

const opened: net.Socket[] = [];
let bridge: BridgeServer | null = null;
afterEach(async () => {
  for (const s of opened.splice(0)) s.destroy();
  for (const ws of flooding.splice(0)) ws.terminate();
  await bridge?.close();
  bridge = null;
});

async function start(extra: Partial<BridgeOptions> = {}): Promise<BridgeServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bridge-limits-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  bridge = await startBridge({ handlers, subscribe: () => () => undefined, staticDir: dir, port: 0, ...extra });
  return bridge;
}

/** A raw TCP socket to the bridge, resolved once connected; it sends nothing unless told to. */
function rawSocket(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
    opened.push(s);
  });
}

/** The page's own GET, as the browser sends it when the trader opens the printed URL. */
function getPage(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/', agent: false, headers: { 'sec-fetch-site': 'none' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
  });
}

/** A WebSocket of a local process that forges the page's Origin and never proves the token; resolved once open. */
function unprovenSocket(port: number): Promise<WebSocket> {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, { origin: `http://127.0.0.1:${port}` });
    ws.on('open', () => resolve(ws));
    ws.on('error', reject);
    ws.on('close', () => reject(new Error('closed before it opened')));
    flooding.push(ws);
  });
}
const flooding: WebSocket[] = [];

/** The page asks a channel and waits for its answer (pushes in between are skipped). */
function invoke(ws: WebSocket, id: number, channel: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (d: WebSocket.RawData) => {
      const m = JSON.parse(d.toString()) as { type?: string; id?: number };
      if (m.type === 'result' && m.id === id) {
        ws.off('message', onMessage);
        resolve(m);
      }
    };
    ws.on('message', onMessage);
    ws.once('close', (code) => reject(new Error(`the page's socket closed (${code})`)));
    ws.send(JSON.stringify({ type: 'invoke', id, channel, args: [] }));
  });
}

const closed = (s: net.Socket) =>
  new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));

describe('bridge connection limits', () => {
  it('serves the page while 300 idle raw sockets are open (idle sockets make room; they do not count against it)', async () => {
    const { port } = await start();
    const idle: net.Socket[] = [];
    for (let i = 0; i < 300; i++) idle.push(await rawSocket(port));
    const res = await getPage(port);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>t</title>');
    // The oldest idle sockets gave up their places (at most 256 stay open, the page's included).
    await Promise.all(idle.slice(0, 300 - 256 + 1).map(closed));
  });

  it('refuses a new socket only when every place is busy (here: two WebSockets of the page)', async () => {
    const b = await start({ maxConnections: 2 });
    const open = () => openBridgeSocket(b.port, b.token);
    const pages = [await open(), await open()];
    const extra = await rawSocket(b.port);
    await closed(extra);
    pages[0]!.close();
    await new Promise((r) => pages[0]!.once('close', r));
    expect((await getPage(b.port)).status).toBe(200);
    pages[1]!.close();
  });

  it('gives back the places of WebSockets that never prove the token, at the (here 300 ms) handshake timeout', async () => {
    const b = await start({ maxConnections: 2, handshakeTimeout: 300 });
    const unproven = await Promise.all([0, 1].map(() => unprovenSocket(b.port)));
    const codes = await Promise.all(unproven.map((ws) => new Promise<number>((r) => ws.once('close', r))));
    expect(codes).toEqual([4408, 4408]);
    expect((await getPage(b.port)).status).toBe(200);
  });

  it('a new socket takes the place of the oldest unproven WebSocket when every place is taken', async () => {
    const b = await start({ maxConnections: 2 });
    const [older, newer] = [await unprovenSocket(b.port), await unprovenSocket(b.port)];
    const olderGone = new Promise<void>((r) => older.once('close', () => r()));
    const page = await openBridgeSocket(b.port, b.token);
    await olderGone;
    expect(newer.readyState).toBe(WebSocket.OPEN);
    expect(await invoke(page, 1, 'app:info')).toMatchObject({
      type: 'result',
      id: 1,
      result: { ok: true, value: { version: 't' } },
    });
    page.close();
    newer.terminate();
  });

  it('300 WebSockets with a forged loopback Origin that never send the hello do not lock the page out: it connects and works', async () => {
    const b = await start();
    const flood = await Promise.all(Array.from({ length: 300 }, () => unprovenSocket(b.port).catch(() => null)));
    for (let round = 0; round < 3; round++) {
      const page = await openBridgeSocket(b.port, b.token);
      expect(await invoke(page, round, 'app:info')).toMatchObject({
        type: 'result',
        id: round,
        result: { ok: true, value: { version: 't' } },
      });
      page.close();
    }
    // What stays open of them is the small cap of their own, not the 256 places.
    expect(flood.filter((ws) => ws?.readyState === WebSocket.OPEN).length).toBeLessThanOrEqual(BRIDGE_MAX_UNPROVEN);
    // A refill (as the probe did every 10 s) does not keep it out either.
    await Promise.all(Array.from({ length: 300 }, () => unprovenSocket(b.port).catch(() => null)));
    const page = await openBridgeSocket(b.port, b.token);
    expect(await invoke(page, 9, 'app:info')).toMatchObject({ type: 'result', id: 9, result: { ok: true } });
    page.close();
  }, 30_000);

  it('cuts a client that sends part of a request line and nothing more, once the headers timeout runs out', async () => {
    const { port } = await start({ headersTimeout: 300 });
    const slow = await rawSocket(port);
    let answer = '';
    slow.on('data', (d: Buffer) => (answer += d.toString()));
    const t0 = Date.now();
    slow.write('GET / HT');
    await closed(slow);
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
