// Issue 22: a limit (max_win, the maximum stake accepted) that slides in small steps alerts once the steps add up to
// the threshold since the value that last alerted, then measures from the alerted value. Through the whole core,
// against an upstream scripted from docs/service/assumptions.md: a watched event's market line on the stream and one special
// contestant's history, each cut 2% at a time (threshold 10%). The core runs on the manual clock.
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
const KEY = 'scripted-max-stake-key';
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

const specialTick = (maxWin: number, at: number, withTrue = false): SpecialTick => ({
  event_id: EVENT,
  special_id: 70,
  special_name: 'First scorer',
  contestant_id: 1,
  contestant_name: 'Nine',
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
    history: [specialTick(200, T0 - 3_600_000, true)],
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
        return body([
          {
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
            contestant_id: 1,
            contestant_name: 'Nine',
            timestamp: up.history[up.history.length - 1]!.timestamp,
          },
        ]);
      case '/api/specials/opening':
        return body(up.history.slice(0, 1));
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

describe('a limit that slides in small steps alerts (issue 22)', () => {
  it('a market line and a special contestant, each cut 2% at a time: one alert when the cut reaches 10% since the last alert', async () => {
    upstream = await scriptedUpstream();
    const clock = createManualClock(T0);
    const notifications: UserNotification[] = [];
    core = await createCore({
      host: 'browser',
      version: 'test',
      dataDir: mkdtempSync(path.join(tmpdir(), 'oddsdesk-max-stake-')),
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
    const raw: Array<{ from: number; to: number }> = [];
    core.onMonitorEvent((e) => {
      if (e.type === 'alert' && e.alert.kind === 'max_win') alerts.push(e.alert);
      if (e.type === 'max_win') raw.push({ from: e.from, to: e.to });
    });
    const call = async <C extends Channel>(channel: C, ...args: RequestArgs<C>): Promise<ResponseMap[C]> =>
      (core!.handlers[channel] as (...a: unknown[]) => ResponseMap[C] | Promise<ResponseMap[C]>)(...args);

    await call('watch:add', EVENT);
    const stream = await until(clock, () => upstream!.stream, 'the stream');
    // The first specials round stores the history (the opening, max stake 200): a first look, never an alert.
    let listed: ResponseMap['specials:list'] | null = null;
    void call('specials:list', EVENT).then((v) => (listed = v));
    await until(clock, () => listed?.specials.length === 1, 'the first specials round', 100);
    expect(alerts).toEqual([]);

    // The line: 1000 → 980 → 960 → 940 → 900 (-10.0% from 1000: alert) → 880 → 810 (-10.0% from 900: alert).
    let id = 2;
    const lineAlerts = () => alerts.filter((a) => a.specialId === null);
    const push = (maxWin: number) =>
      stream.write(
        `id: ${id++}\nevent: odds\ndata: ${JSON.stringify({ event_id: EVENT, ts: formatServiceTime(clock.now()), markets: [market(maxWin, clock.now())] })}\n\n`,
      );
    for (const v of [980, 960, 940]) {
      push(v);
      await until(clock, () => raw.some((r) => r.to === v), `the change to ${v}`);
    }
    expect(lineAlerts()).toEqual([]);
    push(900);
    await until(clock, () => lineAlerts().length === 1, 'the alert at 900');
    expect(lineAlerts()[0]).toMatchObject({
      message: 'Max stake 1,000 → 900 (-10.0%) on Moneyline · Full match',
      data: { lineId: 1, from: 1000, to: 900, pct: -10, previous: 940 },
    });
    push(880);
    await until(clock, () => raw.some((r) => r.to === 880), 'the change to 880');
    expect(lineAlerts()).toHaveLength(1);
    push(810);
    await until(clock, () => lineAlerts().length === 2, 'the alert at 810');
    expect(lineAlerts()[1]).toMatchObject({
      message: 'Max stake 900 → 810 (-10.0%) on Moneyline · Full match',
      data: { from: 900, to: 810, previous: 880 },
    });

    // The special: 200 → 196 → 192 → 188 (no alert) → 180 (-10.0% from 200: alert), each a new point of its history.
    const specialAlerts = () => alerts.filter((a) => a.specialId === 70);
    let at = T0 - 3_000_000;
    for (const v of [196, 192, 188]) upstream.history.push(specialTick(v, (at += 60_000)));
    await clock.advance(SPECIALS_EVERY_S * 1000);
    await until(clock, () => raw.some((r) => r.to === 188), 'the special round with 196, 192, 188', 100);
    expect(specialAlerts()).toEqual([]);
    upstream.history.push(specialTick(180, (at += 60_000)));
    await clock.advance(SPECIALS_EVERY_S * 1000);
    await until(clock, () => specialAlerts().length === 1, 'the special alert at 180', 100);
    expect(specialAlerts()[0]).toMatchObject({
      message: 'Max stake 200 → 180 (-10.0%) on First scorer: Nine',
      contestantId: 1,
      data: { from: 200, to: 180, previous: 188 },
    });

    // Notifications say the same words: Max stake, never max_win.
    const maxNotes = notifications.filter((n) => n.kind === 'max_win');
    expect(maxNotes.map((n) => n.title)).toEqual([
      'Max stake -10.0%: Moneyline · Full match',
      'Max stake -10.0%: Moneyline · Full match',
      'Max stake -10.0%: First scorer: Nine',
    ]);
    expect(maxNotes.every((n) => !/max_win|max win/i.test(`${n.title} ${n.body}`))).toBe(true);

    expect(
      (await call('alerts:list', {}))
        .filter((a) => a.kind === 'max_win')
        .map((a) => a.message)
        .sort(),
    ).toEqual(alerts.map((a) => a.message).sort());
  }, 60_000);
});
