// What the screen needs from the core, against an upstream scripted from docs/service/assumptions.md (not our simulator): an
// event watched by its id alone gets its teams, league and score from the stream's snapshot header without a reload;
// the stream's `end` reaches the renderer with its reason (in the odds batches and the stream's status); and the
// status says since when the service has been unreachable; a line's history asked for right after a tick reached the
// screen has that tick. The core runs on the manual clock.
import type http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import type { Channel, OddsBatch, RequestArgs, ResponseMap, StatusView } from '../../src/shared/ipc/contract';
import { listenLocal } from '../support/localServer';
import { createManualClock, type ManualClock } from '../support/manualClock';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const EVENT = 9001;
const KEY = 'scripted-screen-key';

const snapshot = {
  event_id: EVENT,
  sport_id: 3,
  league_id: 301,
  league_name: 'Harbour Basketball League',
  runner_home: 'Harbour Lions',
  runner_away: 'Portton Kings',
  starts: '2026-11-22T11:00:00',
  live_status: 1,
  score_home: 102,
  score_away: 99,
  markets: [
    {
      line_id: 1,
      period: 0,
      market: 'moneyline',
      side: null,
      line: null,
      prices: { home: 1.4, away: 3.1 },
      max_win: 5000,
      updated_at: '2026-11-22T11:59:00',
    },
  ],
};

interface Upstream {
  url: string;
  /** The open stream of EVENT, once the client connected. */
  stream: http.ServerResponse | null;
  close(): Promise<void>;
}

async function scriptedUpstream(): Promise<Upstream> {
  const up: Partial<Upstream> & { stream: http.ServerResponse | null } = { stream: null };
  const server = await listenLocal((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/api/stream/event' && Number(url.searchParams.get('event_id')) === EVENT) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`id: 1\nevent: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`);
      up.stream = res;
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/api/settled') {
      const since = Number(url.searchParams.get('since') ?? Math.floor(T0 / 1000) - 86_400);
      res.end(JSON.stringify({ last: since, since, count: 0, events: [] }));
      return;
    }
    // Everything else this service does not offer here.
    res.statusCode = 404;
    res.end(JSON.stringify({ detail: 'Not found' }));
  });
  up.url = server.url;
  up.close = server.close;
  return up as Upstream;
}

let core: Core | null = null;
let upstream: Upstream | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  await upstream?.close().catch(() => undefined);
  upstream = null;
});

async function until<T>(clock: ManualClock, probe: () => T | undefined | null | false, what: string): Promise<T> {
  const end = Date.now() + 15_000;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await clock.advance(10);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The core as browser mode composes it, on the manual clock, for the scripted service: its pushes and its handlers. */
async function startCore(up: Upstream, clock: ManualClock) {
  core = await createCore({
    host: 'browser',
    version: 'test',
    dataDir: mkdtempSync(path.join(tmpdir(), 'oddsdesk-screen-')),
    secrets: createMemorySecretStore(),
    logger: () => undefined,
    notifier: { notify: () => undefined },
    envService: { baseUrl: up.url, key: KEY },
    clock,
  });
  await core.ready;
  const odds: OddsBatch[] = [];
  const statuses: StatusView[] = [];
  core.subscribe((event, payload) => {
    if (event === 'onOdds') odds.push(payload as OddsBatch);
    if (event === 'onStatus') statuses.push(payload as StatusView);
  });
  const call = async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> =>
    (core!.handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args);
  return { odds, statuses, call };
}

async function settleOn<T>(
  clock: ManualClock,
  p: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let done: { ok: true; value: T } | { ok: false; error: unknown } | null = null;
  p.then(
    (value) => (done = { ok: true, value }),
    (error: unknown) => (done = { ok: false, error }),
  );
  return until(clock, () => done, 'the request to settle');
}

describe('pushes the screen relies on', () => {
  it('an event watched by id gets its header from the snapshot; `end` arrives with its reason; offline says since when', async () => {
    upstream = await scriptedUpstream();
    const clock = createManualClock(T0);
    const { odds, statuses, call } = await startCore(upstream, clock);

    // Typed in by id: nothing is known of it yet.
    const added = await call('watch:add', EVENT);
    expect(added.runnerHome).toBeNull();

    const entries = () => odds.flatMap((b) => b.events).filter((e) => e.eventId === EVENT);
    const withHeader = await until(clock, () => entries().find((e) => e.event), 'the snapshot with its header');
    expect(withHeader.replace).toBe(true);
    expect(withHeader.event).toMatchObject({
      eventId: EVENT,
      runnerHome: 'Harbour Lions',
      runnerAway: 'Portton Kings',
      leagueName: 'Harbour Basketball League',
      liveStatus: 1,
      scoreHome: 102,
      scoreAway: 99,
    });
    expect(withHeader.markets.map((m) => m.prices)).toEqual([{ home: 1.4, away: 3.1 }]);

    // A last price, a score and the end in one read of the socket: one pacing stage hands them on together, as one
    // entry for the event that the page applies in the order the row needs (the price, then the score, then the end:
    // nothing overtakes what came before it).
    const ts = '2026-11-22T12:00:00';
    const lastPrice = { ...snapshot.markets[0]!, prices: { home: 1.25, away: 3.9 }, updated_at: ts };
    upstream.stream!.end(
      `id: 2\nevent: odds\ndata: ${JSON.stringify({ event_id: EVENT, ts, markets: [lastPrice] })}\n\n` +
        `id: 3\nevent: score\ndata: ${JSON.stringify({ event_id: EVENT, ts, live_status: 1, score_home: 104, score_away: 99 })}\n\n` +
        // The service removes the event: the screen hears it, with the reason, and the stream's status keeps it.
        `id: 4\nevent: end\ndata: ${JSON.stringify({ event_id: EVENT, reason: 'removed' })}\n\n`,
    );
    const endBatch = await until(
      clock,
      () => odds.find((b) => b.events.some((e) => e.eventId === EVENT && e.ended)),
      'the end',
    );
    const inBatch = endBatch.events.filter((e) => e.eventId === EVENT);
    expect(inBatch).toHaveLength(1);
    const [last] = inBatch;
    expect([
      `price ${last!.markets[0]?.prices?.home}`,
      `score ${last!.score?.scoreHome}-${last!.score?.scoreAway}`,
      `end ${last!.ended}`,
    ]).toEqual(['price 1.25', 'score 104-99', 'end removed']);
    const ended = entries().find((e) => e.ended)!;
    expect(ended.ended).toBe('removed');
    const status = await until(
      clock,
      () => statuses.find((s) => s.streams.some((x) => x.eventId === EVENT && x.state === 'ended')),
      'the ended stream',
    );
    expect(status.streams.find((x) => x.eventId === EVENT)?.endReason).toBe('removed');
    // An end is never followed by a reconnect, so nothing un-ends the row.
    await clock.advance(120_000);
    expect(entries().filter((e) => e.replace).length).toBe(1);

    // The service goes away: offline, since the moment a request first failed, and that moment stays put.
    expect((await call('status:get')).connection).toBe('online');
    await upstream.close();
    const wentAt = clock.now();
    // The client retries a refused connection on its clock: the manual clock moves until it gives up.
    const failed = await settleOn(clock, call('fixtures:list', {}));
    expect(failed.ok).toBe(false);
    const failedAt = clock.now();
    const offline = await call('status:get');
    expect(offline.connection).toBe('offline');
    const since = offline.connectionSince!;
    expect(since).toBeGreaterThanOrEqual(wentAt);
    expect(since).toBeLessThanOrEqual(failedAt);
    await clock.advance(60_000);
    await settleOn(clock, call('fixtures:list', {}));
    expect((await call('status:get')).connectionSince).toBe(since);
  });

  it("a line's history, asked for right after a tick reached the screen, has that tick", async () => {
    // The stream's writes go through the store's writer (a thread in every host) every 250 ms; a chart opened in
    // between used to lack the tick the grid already showed, and a history is fetched once per line.
    upstream = await scriptedUpstream();
    const clock = createManualClock(T0);
    const { odds, call } = await startCore(upstream, clock);
    await call('watch:add', EVENT);
    const live = () => odds.flatMap((b) => b.events).filter((e) => e.eventId === EVENT);
    await until(clock, () => live().find((e) => e.replace), 'the snapshot');
    await until(clock, () => upstream!.stream, 'the stream');
    // Time stands still from here: the tick's 250 ms write is not due when the history is asked for.
    const ts = '2026-11-22T12:00:30';
    upstream.stream!.write(
      `id: 2\nevent: odds\ndata: ${JSON.stringify({ event_id: EVENT, ts, markets: [{ ...snapshot.markets[0]!, prices: { home: 1.3, away: 3.5 }, updated_at: ts }] })}\n\n`,
    );
    const sent = Date.now() + 15_000;
    while (!live().some((e) => e.markets[0]?.prices?.home === 1.3)) {
      if (Date.now() > sent) throw new Error('the tick never reached the screen');
      await clock.advance(1);
      await new Promise((r) => setTimeout(r, 5));
    }
    const history = await call('event:lineHistory', EVENT, 1);
    expect(history.map((p) => p.prices?.home)).toEqual([1.4, 1.3]);
  });
});
