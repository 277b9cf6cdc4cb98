// Latest price wins across the bridge (issue 33): a page that acknowledges the odds frames it takes in has at most
// BRIDGE_ODDS_IN_FLIGHT of them on their way; what the host makes meanwhile waits folded, and goes as one frame of
// the newest prices as soon as the page says it has taken one in. A page that never acknowledges is not held back.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_ODDS_IN_FLIGHT } from '../src/core/bridge/protocol';
import { startBridge, type BridgeServer } from '../src/core/bridge/server';
import type { CoreHandlers, OddsBatch } from '../src/shared/ipc/contract';
import { openBridgeSocket } from './support/bridgeSocket';

const handlers = {
  'app:info': () => ({
    version: 't',
    demo: true,
    host: 'browser',
    baseUrl: 'http://upstream',
    historyPath: ':memory:',
  }),
} as Partial<CoreHandlers> as CoreHandlers;

const batch = (n: number): OddsBatch => ({
  at: n,
  events: [
    {
      eventId: 7,
      markets: [
        {
          lineId: n % 3,
          period: 0,
          market: 'moneyline',
          side: null,
          line: null,
          prices: { home: 2 + n / 1000, away: 2 },
          maxWin: 100,
          updatedAt: null,
          seenAt: n,
        },
      ],
    },
  ],
});
/** The odds in the frames a page got: each frame's lines with their home price. */
const oddsFrames = (texts: readonly string[]) =>
  texts
    .map(
      (t) =>
        JSON.parse(t) as {
          type: string;
          event?: string;
          payload?: OddsBatch;
          pushes?: Array<{ event: string; payload: OddsBatch }>;
        },
    )
    .map((m) =>
      (m.type === 'pushes' ? (m.pushes ?? []) : [{ event: m.event!, payload: m.payload! }])
        .filter((p) => p.event === 'onOdds')
        .map((p) => p.payload),
    )
    .filter((b) => b.length)
    .map((b) =>
      b.flatMap((x) => x.events.flatMap((e) => e.markets.map((m) => `${m.lineId}=${m.prices?.home}`))).sort(),
    );

const turn = () => new Promise((r) => setImmediate(r));
const until = async (what: () => boolean) => {
  for (let i = 0; i < 400 && !what(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(what()).toBe(true);
};

let bridge: BridgeServer | undefined;
afterEach(async () => bridge?.close());

async function start() {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const dir = mkdtempSync(path.join(tmpdir(), 'bridge-flow-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  bridge = await startBridge({
    handlers,
    subscribe: (l) => {
      listeners.add(l as (event: string, payload: unknown) => void);
      return () => listeners.delete(l as (event: string, payload: unknown) => void);
    },
    staticDir: dir,
    port: 0,
  });
  const ws = await openBridgeSocket(bridge.port, bridge.token);
  const got: string[] = [];
  ws.on('message', (d) => got.push(d.toString()));
  while (listeners.size < 1) await turn();
  const push = async (n: number) => {
    for (const l of listeners) l('onOdds', batch(n));
    await turn(); // one turn of the host's loop each: one frame each, were nothing held
    await turn();
  };
  return { ws, got, push };
}

describe('bridge odds flow', () => {
  it('a page that acknowledges gets at most a couple of odds frames it has not taken in, then one frame of the newest prices', async () => {
    const { ws, got, push } = await start();
    // The page says it takes odds in (its first ack), then stops reading: its main thread is busy.
    await push(1);
    await until(() => oddsFrames(got).length === 1);
    ws.send('{"type":"ack"}');
    for (let n = 2; n <= 300; n++) await push(n);
    // Nothing piles up: the frames on their way are capped, whatever the host made meanwhile. A result never
    // overtakes a push made before it, so once the answer to a request is in, so is every frame sent before it.
    ws.send('{"type":"invoke","id":1,"channel":"app:info","args":[]}');
    await until(() => got.some((t) => t.startsWith('{"type":"result","id":1,')));
    expect(oddsFrames(got).length).toBeLessThanOrEqual(1 + BRIDGE_ODDS_IN_FLIGHT);
    const before = oddsFrames(got).length;
    // The page takes one in: the held odds come as one frame with each line's newest price (298, 299, 300 were the
    // last moves of lines 1, 2 and 0).
    ws.send('{"type":"ack"}');
    await until(() => oddsFrames(got).length === before + 1);
    expect(oddsFrames(got).at(-1)).toEqual(['0=2.3', '1=2.298', '2=2.299']);
    ws.close();
  });

  it('a page that never acknowledges gets every frame, as before', async () => {
    const { ws, got, push } = await start();
    for (let n = 1; n <= 20; n++) await push(n);
    await until(() => oddsFrames(got).length === 20);
    ws.close();
  });
});
