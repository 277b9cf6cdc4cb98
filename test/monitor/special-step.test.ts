// Issue 33, item 4: one step of a special's limit (the service re-prices all its contestants at once) is ONE alert for
// the special, naming its contestants, and one notification, not one per contestant (twenty rows for one step of a
// first-goalscorer market). Through the whole core, against an upstream scripted from docs/service/assumptions.md: a watched
// event's first-scorer special with twenty contestants. The core runs on the manual clock.
import type http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/core';
import type { UserNotification } from '../../src/core/notifier';
import { createMemorySecretStore } from '../../src/core/secrets/memory';
import { formatServiceTime, type SpecialTick } from '../../src/shared/api';
import type { AlertRecord } from '../../src/shared/domain';
import type { Channel, RequestArgs, ResponseMap } from '../../src/shared/ipc/contract';
import { listenLocal } from '../support/localServer';
import { createManualClock, type ManualClock } from '../support/manualClock';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const EVENT = 9100;
const KEY = 'scripted-special-step-key';
/** The monitor's specials round (core/settingsService.ts). */
const SPECIALS_EVERY_S = 300;

const market = (maxWin: number, at: number) => ({
  line_id: 1,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices: { home: 1.8, away: 2.1 },
  max_win: maxWin,
  updated_at: formatServiceTime(at),
});

const snapshot = {
  event_id: EVENT,
  sport_id: 1,
  league_id: 11,
  league_name: 'Harbour League',
  runner_home: 'Harbour',
  runner_away: 'Portton',
  starts: '2026-11-23T12:00:00',
  live_status: 0,
  score_home: null,
  score_away: null,
  markets: [market(1000, T0 - 60_000)],
};

const CONTESTANTS = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `Player ${i + 1}` }));

const specialTick = (maxWin: number, at: number, withTrue = false, c = CONTESTANTS[0]!): SpecialTick => ({
  event_id: EVENT,
  special_id: 70,
  special_name: 'First scorer',
  contestant_id: c.id,
  contestant_name: c.name,
  handicap: 0,
  odds: 4.5,
  todds: 4.8,
  period: 0,
  max_win: maxWin,
  cutoff: '2026-11-23T12:00:00',
  timestamp: formatServiceTime(at),
  ...(withTrue ? { true_odds_by_model: { LOG: 4.8, EM: 4.8, MPTO: 4.8, SHIN: 4.8, OR: 4.8 } } : {}),
});

interface Upstream {
  url: string;
  stream: http.ServerResponse | null;
  /** The special's ticks as /api/specials/history gives them (the first is the opening record). */
  history: SpecialTick[];
  close(): Promise<void>;
}

async function scriptedUpstream(): Promise<Upstream> {
  const up: Partial<Upstream> & { stream: http.ServerResponse | null; history: SpecialTick[] } = {
    stream: null,
    history: CONTESTANTS.map((c) => specialTick(200, T0 - 3_600_000, true, c)),
  };
  const server = await listenLocal((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/api/stream/event' && Number(url.searchParams.get('event_id')) === EVENT) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`id: 1\nevent: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`);
      up.stream = res;
      return;
    }
    res.setHeader('content-type', 'application/json');
    const body = (b: unknown) => res.end(JSON.stringify(b));
    switch (url.pathname) {
      case '/api/settled': {
        const since = Number(url.searchParams.get('since') ?? Math.floor(T0 / 1000) - 86_400);
        return body({ last: since, since, count: 0, events: [] });
      }
      case '/api/specials/fixtures':
        return body(
          CONTESTANTS.map((c) => ({
            sport_id: 1,
            league_id: 11,
            special_id: 70,
            bet_type: 'MULTI_WAY_HEAD_TO_HEAD',
            special_name: 'First scorer',
            starts: '2026-11-23T12:00:00',
            cutoff: '2026-11-23T12:00:00',
            category: 'player props',
            units: 'Goals',
            event_id: EVENT,
            period: 0,
            runner_home: 'Harbour',
            runner_away: 'Portton',
            contestant_id: c.id,
            contestant_name: c.name,
            timestamp: up.history[up.history.length - 1]!.timestamp,
          })),
        );
      case '/api/specials/opening':
        return body(up.history.slice(0, CONTESTANTS.length));
      case '/api/specials/history':
        return body(up.history);
    }
    res.statusCode = 404;
    body({ detail: 'Not found' });
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

async function until<T>(
  clock: ManualClock,
  probe: () => T | undefined | null | false,
  what: string,
  stepMs = 10,
): Promise<T> {
  const end = Date.now() + 15_000;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await clock.advance(stepMs);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("a special's max stake step is one alert (issue 33)", () => {
  it('a step that cuts all twenty contestants of a first-scorer market is one alert and one notification, naming them', async () => {
    upstream = await scriptedUpstream();
    const clock = createManualClock(T0);
    const notifications: UserNotification[] = [];
    core = await createCore({
      host: 'browser',
      version: 'test',
      dataDir: mkdtempSync(path.join(tmpdir(), 'oddsdesk-special-step-')),
      secrets: createMemorySecretStore(),
      logger: () => undefined,
      notifier: { notify: (n) => notifications.push(n) },
      envService: { baseUrl: upstream.url, key: KEY },
      initialSettings: { maxWinThresholdPct: 10 },
      clock,
      pingIntervalMs: 3_600_000,
    });
    await core.ready;
    const alerts: AlertRecord[] = [];
    const raw: Array<{ contestantId: number | null; to: number }> = [];
    core.onMonitorEvent((e) => {
      if (e.type === 'alert' && e.alert.kind === 'max_win') alerts.push(e.alert);
      if (e.type === 'max_win') raw.push({ contestantId: e.contestantId, to: e.to });
    });
    const call = async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> =>
      (core!.handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args);

    await call('watch:add', EVENT);
    await until(clock, () => upstream!.stream, 'the stream');
    // The first round stores the opening (max stake 200 for everyone): a first look, never an alert.
    let listed: ResponseMap['specials:list'] | null = null;
    void call('specials:list', EVENT).then((v) => (listed = v));
    await until(clock, () => (listed?.specials.length ?? 0) > 0, 'the first specials round', 100);
    expect(alerts).toEqual([]);

    // One step: the special re-priced, every contestant's limit 200 → 150 at one time.
    const at = T0 - 3_000_000;
    for (const c of CONTESTANTS) upstream.history.push(specialTick(150, at, false, c));
    await clock.advance(SPECIALS_EVERY_S * 1000);
    await until(
      clock,
      () => raw.filter((r) => r.to === 150).length === CONTESTANTS.length,
      'the step of every contestant',
      100,
    );
    await until(clock, () => alerts.length > 0, 'the alert', 100);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      eventId: EVENT,
      specialId: 70,
      contestantId: null,
      message:
        'Max stake 200 → 150 (-25.0%) on First scorer: 20 contestants (Player 1, Player 2, Player 3, Player 4, Player 5 and 15 more)',
      data: { from: 200, to: 150, pct: -25, count: 20 },
    });
    const listedContestants = (
      alerts[0]!.data as { contestants: Array<{ contestantId: number; name: string; from: number; to: number }> }
    ).contestants;
    expect(listedContestants.map((c) => [c.contestantId, c.from, c.to])).toEqual(
      CONTESTANTS.map((c) => [c.id, 200, 150]),
    );
    const notes = notifications.filter((n) => n.kind === 'max_win');
    expect(notes.map((n) => n.title)).toEqual(['Max stake -25.0%: First scorer (20 contestants)']);
    expect((await call('alerts:list', {})).filter((a) => a.kind === 'max_win').map((a) => a.id)).toEqual([
      alerts[0]!.id,
    ]);

    // Each contestant's base moved with the step: a further 2% cut alerts nobody.
    for (const c of CONTESTANTS) upstream.history.push(specialTick(147, at + 60_000, false, c));
    await clock.advance(SPECIALS_EVERY_S * 1000);
    await until(clock, () => raw.filter((r) => r.to === 147).length === CONTESTANTS.length, 'the small step', 100);
    expect(alerts).toHaveLength(1);
  }, 60_000);
});
