// The page's session with its host (src/shared/ipc/bridgeSession.ts, the code the page runs), here over Node's `ws`
// against the real bridge server: it trusts only a host that proves it holds the token, comes back by itself after a
// drop, and stops for good, saying why, when its host is gone, refuses its token, or is replaced by an impostor.
// Backoff and timeouts are shortened and run on a manual clock (the session's injected timers): "no more attempts"
// is shown by moving that clock an hour on and finding no timer left and no socket more, never by a real wait.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startBridge, type BridgeServer } from '../src/core/bridge/server';
import {
  BRIDGE_END_MESSAGES,
  createBridgeSession,
  newBridgeNonce,
  type BridgeEnd,
  type BridgeSession,
  type OpenBridgeSocket,
} from '../src/shared/ipc/bridgeSession';
import type { CoreHandlers, PushListener } from '../src/shared/ipc/contract';
import { advanceUntil, createManualClock } from './support/manualClock';

const handlers = {
  'app:info': () => ({
    version: 't',
    demo: true,
    host: 'browser',
    baseUrl: 'http://upstream',
    historyPath: ':memory:',
  }),
} as Partial<CoreHandlers> as CoreHandlers;

const staticDir = mkdtempSync(path.join(tmpdir(), 'bridge-trust-'));
writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const listeners = new Set<PushListener>();
async function host(port = 0, token?: string): Promise<BridgeServer> {
  const b = await startBridge({
    handlers,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    staticDir,
    port,
    ...(token ? { token } : {}),
  });
  cleanup.push(() => b.close());
  return b;
}

/** The page on `port` holding `token`: its session, the sockets it opened, the pushes it accepted, its end. */
function page(port: number, token: string, extra: { maxFailedAttempts?: number; proofTimeoutMs?: number } = {}) {
  let attempts = 0;
  const origin = `http://127.0.0.1:${port}`;
  // What the browser does: a WebSocket from the page's own origin.
  const openSocket: OpenBridgeSocket = (url, on) => {
    attempts++;
    const ws = new WebSocket(url, { origin });
    ws.on('error', () => undefined);
    ws.on('message', (d) => on.message(d.toString()));
    ws.on('close', (code) => on.close(code));
    return { send: (text) => ws.send(text), close: () => ws.terminate() };
  };
  const pushes: unknown[] = [];
  const connected: boolean[] = [];
  let end: BridgeEnd | null = null;
  const clock = createManualClock();
  const session: BridgeSession = createBridgeSession({
    url: `ws://127.0.0.1:${port}/bridge`,
    token,
    openSocket,
    retryFirstMs: 10,
    retryMaxMs: 40,
    maxFailedAttempts: extra.maxFailedAttempts ?? 4,
    proofTimeoutMs: extra.proofTimeoutMs ?? 2000,
    onEnd: (e) => (end = e),
    timers: clock,
  });
  session.on('onWatchlist', (p) => pushes.push(p));
  session.on('onBridge', ({ connected: c }) => connected.push(c));
  cleanup.push(() => session.close());
  return {
    session,
    pushes,
    connected,
    attempts: () => attempts,
    end: () => end,
    /** Waits for `cond`, moving the page's clock (its backoff and proof timeout) while its sockets do their I/O. */
    until: (what: string, cond: () => boolean) => advanceUntil(clock, cond, what),
    /** Stopped for good: an hour on, not a timer left and not one socket more. */
    async expectNoMoreAttempts() {
      const made = attempts;
      await clock.advance(3_600_000);
      expect(clock.pendingTimers(), 'timers left after the end').toBe(0);
      expect(attempts, 'sockets opened after the end').toBe(made);
    },
  };
}

/** Waits for real I/O alone (the page's clock stands still). */
const until = async (what: string, cond: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const push = (payload: unknown) => {
  for (const l of listeners) l('onWatchlist', payload as never);
};

/** Something else that binds the host's port after it has gone: a WebSocket server that does not know the token. */
async function impostor(port: number, behave: (ws: WebSocket) => void) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => wss.once('listening', resolve).once('error', reject));
  const seen: string[] = [];
  let connections = 0;
  wss.on('connection', (ws) => {
    connections++;
    ws.on('message', (d) => seen.push(d.toString()));
    behave(ws);
  });
  cleanup.push(() => new Promise((r) => wss.close(r)));
  return { seen, connections: () => connections };
}

describe("the page's bridge session", () => {
  it('trusts its host once it has proven itself: requests answered, pushes delivered', async () => {
    const b = await host();
    const p = page(b.port, b.token);
    expect(await p.session.invoke('app:info')).toMatchObject({ ok: true, value: { version: 't' } });
    push([{ eventId: 1 }]);
    await until('the push', () => p.pushes.length === 1);
    expect(p.connected).toEqual([true]);
  });

  it('comes back by itself after a brief drop, and requests work again', async () => {
    const b = await host();
    const p = page(b.port, b.token);
    await until('connected', () => p.connected.includes(true));
    // The socket is cut and the host answers again a moment later (a host restarted with the same token stands in
    // for it here; a real restart prints a new token, see the next tests).
    await b.close();
    await until('the drop noticed', () => p.connected.at(-1) === false);
    const again = await host(b.port, b.token);
    await p.until('connected again', () => p.connected.at(-1) === true);
    expect(p.end()).toBeNull();
    expect(await p.session.invoke('app:info')).toMatchObject({ ok: true });
    push(['after']);
    await until('the push after the drop', () => p.pushes.some((x) => JSON.stringify(x) === '["after"]'));
    expect(again.port).toBe(b.port);
  });

  it("keeps its host when one of the page's push listeners throws: the others still get the push", async () => {
    const b = await host();
    const p = page(b.port, b.token);
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    cleanup.push(() => reported.mockRestore());
    // A view's listener that fails on this payload, subscribed before another view's.
    const stop = p.session.on('onWatchlist', () => {
      throw new Error('a view failed');
    });
    const seen: unknown[] = [];
    p.session.on('onWatchlist', (x) => seen.push(x));
    expect(await p.session.invoke('app:info')).toMatchObject({ ok: true });
    push(['first']);
    await until('the push at the later listener', () => seen.length === 1);
    expect(reported).toHaveBeenCalledWith(expect.stringContaining('a view failed'));
    // Still trusted and connected: no end, requests answered, later pushes delivered.
    stop();
    push(['second']);
    await until('the next push', () => seen.length === 2);
    expect(p.end()).toBeNull();
    expect(p.connected).toEqual([true]);
    expect(await p.session.invoke('app:info')).toMatchObject({ ok: true });
  });

  it('stops after a bounded number of attempts once its host is gone, and says so', async () => {
    const b = await host();
    const p = page(b.port, b.token, { maxFailedAttempts: 4 });
    await until('connected', () => p.connected.includes(true));
    await b.close();
    await p.until('the end', () => p.end() !== null);
    expect(p.end()).toEqual({ reason: 'gone', message: BRIDGE_END_MESSAGES.gone });
    expect(p.end()!.message).toContain('Restart `npm run web` and open the new address it prints');
    // One socket while connected, then the four that found nobody; no more after that.
    expect(p.attempts()).toBe(5);
    await p.expectNoMoreAttempts();
    expect(await p.session.invoke('app:info')).toEqual({
      ok: false,
      error: { kind: 'network', message: BRIDGE_END_MESSAGES.gone },
    });
    expect(p.connected.at(-1)).toBe(false);
  });

  it('stops at once when the host refuses its token (4401): a host started again on the same port has a new one', async () => {
    const b = await host();
    const p = page(b.port, b.token);
    await until('connected', () => p.connected.includes(true));
    await b.close();
    await host(b.port); // a new launch: same port, new token
    await p.until('the end', () => p.end() !== null);
    expect(p.end()!.reason).toBe('refused');
    expect(p.attempts()).toBeLessThanOrEqual(1 + 3); // the refusal ends it; earlier attempts may have found no one yet
    await p.expectNoMoreAttempts();
  });

  it('a page opened with a wrong token is refused on its first attempt and never retries', async () => {
    const b = await host();
    const p = page(b.port, 'f'.repeat(48));
    await until('the end', () => p.end() !== null);
    expect(p.end()!.reason).toBe('refused');
    expect(p.end()!.message).toMatch(/does not accept this page's address.*restart `npm run web` and open the new one/);
    expect(p.attempts()).toBe(1);
    await p.expectNoMoreAttempts();
    expect(p.connected).not.toContain(true);
  });

  it('takes nothing from an impostor on its port that answers with a forged proof, sends it no request, and stops', async () => {
    const b = await host();
    const p = page(b.port, b.token);
    await until('connected', () => p.connected.includes(true));
    await b.close();
    const fake = await impostor(b.port, (ws) => {
      ws.send(JSON.stringify({ type: 'challenge', nonce: newBridgeNonce() }));
      ws.once('message', () => {
        ws.send(JSON.stringify({ type: 'welcome', proof: 'a'.repeat(64) }));
        ws.send(JSON.stringify({ type: 'push', event: 'onWatchlist', payload: ['IMPOSTOR'] }));
        ws.send(JSON.stringify({ type: 'result', id: 1, result: { ok: true, value: 'IMPOSTOR' } }));
      });
    });
    const pending = p.session.invoke('app:info'); // made while the page is reconnecting
    await p.until('the end', () => p.end() !== null);
    expect(p.end()!.reason).toBe('unproven');
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(p.pushes).toEqual([]);
    await p.expectNoMoreAttempts();
    expect(fake.connections()).toBe(1);
    // It heard the page's hello (a proof bound to its own challenge, useless anywhere else) and nothing more.
    expect(fake.seen).toHaveLength(1);
    expect(JSON.parse(fake.seen[0]!)).toEqual({
      type: 'hello',
      nonce: expect.stringMatching(/^[0-9a-f]{64}$/),
      proof: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(fake.seen[0]).not.toContain(b.token);
    expect(p.connected.filter((c) => c)).toHaveLength(1);
  });

  it('takes nothing from an impostor that pushes without any handshake (as the first bridge did)', async () => {
    const b = await host();
    const p = page(b.port, b.token);
    await until('connected', () => p.connected.includes(true));
    await b.close();
    const fake = await impostor(b.port, (ws) =>
      ws.send(JSON.stringify({ type: 'push', event: 'onWatchlist', payload: ['IMPOSTOR'] })),
    );
    await p.until('the end', () => p.end() !== null);
    expect(p.end()!.reason).toBe('unproven');
    expect(p.pushes).toEqual([]);
    await p.expectNoMoreAttempts();
    expect(fake.connections()).toBe(1);
    expect(fake.seen).toEqual([]);
  });

  it('counts a server that takes the socket and says nothing as a failed attempt, and gives up on it', async () => {
    const b = await host();
    const p = page(b.port, b.token, { maxFailedAttempts: 3, proofTimeoutMs: 100 });
    await until('connected', () => p.connected.includes(true));
    await b.close();
    const fake = await impostor(b.port, () => undefined);
    await p.until('the end', () => p.end() !== null);
    expect(p.end()!.reason).toBe('gone');
    await p.expectNoMoreAttempts();
    expect(p.attempts()).toBe(1 + 3);
    expect(fake.connections()).toBeLessThanOrEqual(3);
    expect(fake.seen).toEqual([]);
  });
});
