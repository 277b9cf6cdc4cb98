// Issue 36, item 7: a settlement sent again with other scores is a re-settlement, not a silent overwrite. A scripted
// upstream settles a match 2-3, then sends it again 99-99, then once more unchanged; the settlement follower stores
// each page as the app does (with its alerts and notifications), and `cli export` (a real child process on the file)
// shows the current result, the bet re-settled from what to what, and nothing changed by the unchanged replay.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { createSettlementFollower } from '../../src/core/monitor/settlementFollower';
import type { UserNotification } from '../../src/core/notifier';
import { DEFAULT_MONITOR_SETTINGS } from '../../src/core/settingsService';
import { openStore } from '../../src/core/store';
import { formatServiceTime, type SettledEvent } from '../../src/shared/api';
import { BET_CSV_HEADER } from '../../src/core/export/csv';
import { parseCsv } from '../support/csv';
import { createManualClock } from '../support/manualClock';
import { runCli } from './cliHarness';
import { scriptedService, settled, T0, type Scripted } from './scriptedSettled';

const ID = 501;
const ML = ID * 10;

let service: Scripted | null = null;
let dir: string | null = null;
afterEach(async () => {
  await service?.close();
  service = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** The match settled at `second` with this score; the moneyline's words follow the score. */
function settledAs(home: number, away: number, second: number): SettledEvent {
  const word = (won: boolean) => (won ? 'win' : 'loss');
  return {
    ...settled(ID, second),
    runner_home: 'Lions',
    runner_away: 'Tigers',
    score_home: home,
    score_away: away,
    settlement: [
      {
        line_id: ML,
        period: 0,
        market: 'moneyline',
        line: null,
        outcome_home: word(home > away),
        outcome_draw: word(home === away),
        outcome_away: word(away > home),
      },
    ],
  };
}

async function exportOf(db: string, args: string[]): Promise<string> {
  const run = runCli(['export', ...args, '--db', db]);
  expect(await run.exited, run.stderr()).toBe(0);
  return run.stdout();
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a re-settlement through the CLI export', () => {
  it('2-3 sent again as 99-99: kept with its history, the bet re-settled from lost to won, one alert and one notification; sent again unchanged: nothing', async () => {
    service = await scriptedService([settledAs(2, 3, 10)]);
    dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-resettle-'));
    const db = path.join(dir, 'resettle.db');
    const clock = createManualClock(T0 + 60_000);
    const store = openStore({ path: db, clock: () => clock.now() });
    // The trader's bet: the draw at 3.40 for 10 on the match's moneyline, as the stream showed it before kick-off.
    store.odds.recordSnapshot(
      {
        event_id: ID,
        sport_id: 1,
        league_id: 11,
        league_name: 'League 1',
        runner_home: 'Lions',
        runner_away: 'Tigers',
        starts: formatServiceTime(T0 - 7_200_000),
        live_status: 0,
        score_home: null,
        score_away: null,
        markets: [
          {
            line_id: ML,
            period: 0,
            market: 'moneyline',
            side: null,
            line: null,
            prices: { home: 2.1, draw: 3.4, away: 3.0 },
            max_win: 500,
            updated_at: formatServiceTime(T0 - 8_000_000),
          },
        ],
      },
      T0 - 8_000_000,
    );
    const bet = store.bets.addBet({ eventId: ID, lineId: ML, side: 'draw', price: 3.4, stake: 10 }, T0 - 7_900_000);

    const notified: UserNotification[] = [];
    const follower = createSettlementFollower({
      client: createApiClient({
        baseUrl: service.url,
        keyProvider: () => 'resettle-key',
        governor: { retry: { baseMs: 1, maxMs: 2 } },
      }),
      store,
      clock,
      notifier: { notify: (n) => void notified.push(n) },
      isWatched: (id) => id === ID,
      settings: () => ({ ...DEFAULT_MONITOR_SETTINGS, maxWinThresholdPct: 0, mutedEvents: new Set<number>() }),
      spareQuota: () => 0,
      emit: () => undefined,
      reportProblems: () => undefined,
      reportError: () => undefined,
    });

    // Settled 2-3: the draw lost.
    expect((await follower.sync()).added).toBe(1);
    expect(store.bets.listBets()[0]).toMatchObject({ id: bet.id, result: 'loss', pnl: -10, resettled: null });
    // Sent again 99-99 (a later second, so the walk from the cursor reads it): a re-settlement, not a new settlement.
    service.events[0] = settledAs(99, 99, 20);
    expect((await follower.sync()).added).toBe(0);
    const kinds = () =>
      store.alerts
        .listAlerts()
        .map((a) => a.kind)
        .reverse();
    expect(kinds()).toEqual(['settled', 'resettled']);
    const [resettledAlert] = store.alerts.listAlerts();
    expect(resettledAlert!.message.split('\n')[0]).toBe('Re-settled: Lions v Tigers: 2–3 → 99–99');
    expect(resettledAlert).toMatchObject({
      eventId: ID,
      data: { from: { score_home: 2, score_away: 3, status: 'ended' }, score_home: 99, score_away: 99 },
    });
    expect(notified.map((n) => [n.kind, n.title])).toEqual([
      ['settlement', 'Settled: Lions v Tigers 2–3'],
      ['settlement', 'Re-settled: Lions v Tigers: 2–3 → 99–99'],
    ]);
    // The same 99-99 again (the inclusive cursor replays its second, and a later walk too): nothing changes, nothing alerts.
    expect((await follower.sync()).added).toBe(0);
    expect((await follower.sync()).added).toBe(0);
    expect(kinds()).toEqual(['settled', 'resettled']);
    expect(notified).toHaveLength(2);
    store.close();

    // Settlements: the current result, once.
    const settlements = jsonLines(await exportOf(db, ['settlements']));
    expect(settlements.map((s) => [s['event_id'], s['score_home'], s['score_away']])).toEqual([[ID, 99, 99]]);
    const settlementsCsv = parseCsv(await exportOf(db, ['settlements', '--format', 'csv']));
    expect(settlementsCsv[0]).toEqual([
      'event_id',
      'sport_id',
      'league_id',
      'league_name',
      'runner_home',
      'runner_away',
      'starts',
      'score_home',
      'score_away',
      'status',
      'settled_at',
      'line_id',
      'period',
      'market',
      'line',
      'outcome_home',
      'outcome_draw',
      'outcome_away',
    ]);
    expect(settlementsCsv.slice(1).map((r) => [r[7], r[8], r[15], r[16], r[17]])).toEqual([
      ['99', '99', 'loss', 'win', 'loss'],
    ]);

    // Bets, JSON: the bet as the Bets view shows it, its new result and from what it was re-settled.
    const [betLine] = jsonLines(await exportOf(db, ['bets']));
    expect(betLine).toMatchObject({
      id: bet.id,
      result: 'win',
      pnl: 24,
      resettled: { fromResult: 'loss', fromScore: { home: 2, away: 3 }, toScore: { home: 99, away: 99 } },
    });
    // Bets, CSV: the columns before keep their meaning (result and pnl are the current ones); the change is in columns of its own.
    const [header, row] = parseCsv(await exportOf(db, ['bets', '--format', 'csv']));
    expect(header).toEqual([...BET_CSV_HEADER]);
    const cell = Object.fromEntries(header!.map((h, i) => [h, row![i]]));
    expect(cell).toMatchObject({
      result: 'win',
      pnl: '24',
      resettled_from_result: 'loss',
      resettled_from_score_home: '2',
      resettled_from_score_away: '3',
    });
    expect(cell['resettled_at_utc']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });
});
