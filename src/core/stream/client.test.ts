// The stream client's message rules against a scripted SSE server: a replayed id is not applied twice, unknown
// event names are counted and ignored, prices null marks a market offline, and `end` closes for good.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../api';
import { createStreamClient } from './client';

const market = (lineId: number, home: number | null) => ({
  line_id: lineId,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices: home === null ? null : { home, away: 2.1 },
  max_win: 500,
  updated_at: '2026-11-22T12:00:00',
});
const snapshot = {
  event_id: 7,
  sport_id: 1,
  league_id: 2,
  league_name: 'L',
  runner_home: 'A',
  runner_away: 'B',
  starts: '2026-11-22T13:00:00',
  live_status: 0,
  score_home: null,
  score_away: null,
  markets: [market(1, 1.9), market(2, 1.8)],
};
const msg = (id: number, event: string, data: unknown) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

async function scriptedServer(script: (n: number, req: IncomingMessage, res: ServerResponse) => void) {
  let n = 0;
  const seen: Array<{ key: string | undefined; lastEventId: string | undefined }> = [];
  const srv = createServer((req, res) => {
    seen.push({ key: req.headers['x-api-key'] as string | undefined, lastEventId: req.headers['last-event-id'] as string | undefined });
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    script(++n, req, res);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closers.push(() => {
    srv.closeAllConnections();
    srv.close();
  });
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, seen };
}

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return check();
};

describe('stream client message rules', () => {
  it('applies each id once, ignores unknown events, keeps offline markets, and stops at end', async () => {
    const { url, seen } = await scriptedServer((n, _req, res) => {
      if (n === 1) {
        res.end(
          msg(5, 'snapshot', snapshot) +
            msg(6, 'odds', { event_id: 7, ts: '2026-11-22T12:00:01', markets: [market(1, 2.0)] }) +
            msg(7, 'mystery', { hello: 1 }),
        );
      } else {
        res.end(
          // A replay that overlaps what was applied: id 6 must not be applied again.
          msg(6, 'odds', { event_id: 7, ts: '2026-11-22T12:00:01', markets: [market(1, 9.9)] }) +
            msg(8, 'odds', { event_id: 7, ts: '2026-11-22T12:00:02', markets: [market(2, null)] }) +
            msg(9, 'score', { event_id: 7, ts: '2026-11-22T12:00:03', live_status: 1, score_home: 1, score_away: 0 }) +
            msg(10, 'end', { event_id: 7, reason: 'settled' }),
        );
      }
    });
    const api = createApiClient({ baseUrl: url, keyProvider: () => 'unit-test-key-1' });
    const streams = createStreamClient({ api, pingIntervalMs: 1000, backoff: { baseMs: 10, maxMs: 50 } });
    const ends: string[] = [];
    streams.onEnd((_id, e) => ends.push(e.reason));
    streams.watch(7);
    expect(await until(() => streams.state(7)?.status === 'ended')).toBe(true);
    await new Promise((r) => setTimeout(r, 100));

    const odds = streams.odds(7)!;
    expect(odds.markets.find((m) => m.line_id === 1)!.prices).toEqual({ home: 2.0, away: 2.1 });
    expect(odds.markets.find((m) => m.line_id === 2)!.prices).toBeNull();
    expect(odds).toMatchObject({ live_status: 1, score_home: 1, score_away: 0 });
    expect(streams.stats(7)).toMatchObject({ duplicates: 1, unknownEvents: 1, connections: 2, applied: 5 });
    expect(streams.state(7)).toMatchObject({ lastEventId: 10, endReason: 'settled' });
    expect(ends).toEqual(['settled']);
    expect(seen.map((s) => s.lastEventId)).toEqual([undefined, '6']);
    expect(seen.every((s) => s.key === 'unit-test-key-1')).toBe(true);
    streams.close();
    api.dispose();
  });
});
