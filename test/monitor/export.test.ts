// `cli export` on a database the recorder wrote: JSON lines in the spec's shapes, CSV with a header, filters. The
// recorder talks to a service that is not our simulator in one respect: its /api/periods descriptions differ from
// any built-in guess, and the labels must be the service's. The recording is `cli record` in process on manual
// clocks (the simulator's and the recorder's, moved together): its simulated hour never waits for real time.
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRecord } from '../../src/cli/record';
import { openStore } from '../../src/core/store';
import {
  formatServiceTime,
  parseRecords,
  parseServiceTime,
  SettledEventSchema,
  type Fixture,
} from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { createManualClock } from '../support/manualClock';
import { startRewritingProxy, type RewritingProxy } from '../support/rewritingProxy';
import { runCli } from './cliHarness';

const KEY = 'export-test-key';
let sim: Simulator;
let proxy: RewritingProxy;
let db: string;

/** Descriptions no guess of ours produces; code 6 is a tennis game code, which the spec's game rule labels. */
const SERVICE_PERIODS = [
  { period: 0, description: 'Entire Contest (svc)' },
  { period: 1, description: 'Segment One (svc)' },
  { period: 2, description: 'Segment Two (svc)' },
  { period: 3, description: 'Segment Three (svc)' },
  { period: 4, description: 'Segment Four (svc)' },
  { period: 5, description: 'Segment Five (svc)' },
  { period: 6, description: 'Overtime (svc)' },
];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 31, clock: 'manual', keys: [{ key: KEY, plan: 'enterprise' }] });
  proxy = await startRewritingProxy(sim.url, { '/api/periods': () => SERVICE_PERIODS });
  const fixtures = (await (
    await fetch(new URL('/api/fixtures', sim.url), { headers: { 'X-API-Key': KEY } })
  ).json()) as Fixture[];
  // The soonest matches: their limits climb towards kick-off within the recorded (simulated) hour.
  const upcoming = fixtures.filter((f) => parseServiceTime(f.starts)! > sim.now());
  const soonest = [...upcoming].sort((a, b) => a.starts.localeCompare(b.starts)).slice(0, 4);
  db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-export-')), 'rec.db');
  // A simulated hour, the settled walk every 20 simulated minutes (what `--duration 6 --settled-every 2` was on a
  // service running 600 times faster than real time).
  const clock = createManualClock(sim.now());
  let err = '';
  let stop!: (why: string) => void;
  const run = runRecord(
    { baseUrl: proxy.url, db, watch: soonest.map((f) => f.event_id), durationS: 3600, settledEveryS: 1200 },
    // The simulator pings in real time while this clock runs far ahead: keep the watchdog out of it.
    {
      clock,
      key: KEY,
      stop: new Promise<string>((r) => (stop = r)),
      pingIntervalMs: 3_600_000,
      fetch: globalThis.fetch.bind(globalThis),
      stdout: () => undefined,
      stderr: (t) => void (err += t),
    },
  );
  let finished = false;
  void run.finally(() => (finished = true));
  // A few simulated seconds at a time, so the I/O each step starts lands before the next; past the hour the
  // duration's timer is due and the last walk and the flush need no more time.
  for (let t = 0; t < 3600 + 60 && !finished; t += 10) {
    await sim.advance(10);
    await clock.advance(10_000);
  }
  expect(await run, err).toBe(0);
  stop('unused');
}, 60_000);
afterAll(async () => {
  await proxy.close();
  await sim.close();
});

async function exportOf(args: string[], file = db): Promise<string> {
  const run = runCli(['export', ...args, '--db', file]);
  expect(await run.exited, run.stderr()).toBe(0);
  return run.stdout();
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('cli export', () => {
  it('writes settlements as SettledEvent JSON lines, and as CSV with one row per settled line', async () => {
    const store = openStore({ path: db });
    const stored = [...store.settlements.exportSettlements()];
    store.close();
    expect(stored.length).toBeGreaterThan(3);
    const records = jsonLines(await exportOf(['settlements']));
    expect(parseRecords(SettledEventSchema, records).problems).toEqual([]);
    expect(records.map((r) => r['event_id'])).toEqual(stored.map((s) => s.event_id));

    const csv = (await exportOf(['settlements', '--format', 'csv'])).trimEnd().split('\r\n');
    expect(csv[0]).toBe(
      'event_id,sport_id,league_id,league_name,runner_home,runner_away,starts,score_home,score_away,status,settled_at,line_id,period,market,line,outcome_home,outcome_draw,outcome_away',
    );
    expect(csv.length - 1).toBe(stored.reduce((n, s) => n + Math.max(1, s.settlement.length), 0));
  });

  it('filters by --since and --sport', async () => {
    const all = jsonLines(await exportOf(['settlements']));
    const times = all.map((r) => parseServiceTime(r['settled_at'] as string)!).sort((a, b) => a - b);
    const middle = times[Math.floor(times.length / 2)]!;
    const since = new Date(middle).toISOString().slice(0, 19);
    const later = jsonLines(await exportOf(['settlements', '--since', since]));
    expect(later.length).toBe(times.filter((t) => t >= middle).length);
    const sport = all[0]!['sport_id'] as number;
    const ofSport = jsonLines(await exportOf(['settlements', '--sport', String(sport)]));
    expect(ofSport.length).toBe(all.filter((r) => r['sport_id'] === sport).length);
  });

  it('writes period results with labels and max_win change points with from/to, in JSON and CSV', async () => {
    const results = jsonLines(await exportOf(['results']));
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(typeof r['period_label']).toBe('string');
    expect(results.some((r) => r['period'] === 0 && r['period_label'] === 'Entire Contest (svc)')).toBe(true);
    const resultsCsv = (await exportOf(['results', '--format', 'csv'])).trimEnd().split('\r\n');
    expect(resultsCsv[0]).toBe(
      'event_id,sport_id,period,period_label,status,score_home,score_away,sets_home,sets_away,settlement_id,cancellation_reason,timestamp',
    );
    expect(resultsCsv.length - 1).toBe(results.length);

    const points = jsonLines(await exportOf(['max-win']));
    expect(points.length).toBeGreaterThan(0);
    for (const p of points) {
      expect(Object.keys(p)).toEqual([
        'event_id',
        'sport_id',
        'special_id',
        'special_name',
        'contestant_id',
        'contestant_name',
        'line_id',
        'period',
        'period_label',
        'market',
        'line',
        'from',
        'to',
        'at',
        'odds',
        'todds',
      ]);
      expect(parseServiceTime(p['at'] as string)).not.toBeNull();
    }
    const pointsCsv = (await exportOf(['max-win', '--format', 'csv'])).trimEnd().split('\r\n');
    expect(pointsCsv.length - 1).toBe(points.length);
  });
});

describe('labels from the service (must-show 1)', () => {
  it("labels periods with the service's /api/periods descriptions, asked once, and tennis games (tennis only) by the spec's rule", async () => {
    expect(proxy.rewritten.get('/api/periods')).toBe(1);
    const results = jsonLines(await exportOf(['results']));
    const byCode = new Map(SERVICE_PERIODS.map((p) => [p.period, p.description]));
    const sets = results.filter((r) => (r['period'] as number) >= 1 && (r['period'] as number) <= 5);
    // Codes from 6 up are games in tennis only (sport 4); table tennis' sixth and seventh sets (sport 6, best of 7)
    // read the service's own word (issue 22).
    const games = results.filter((r) => (r['period'] as number) >= 6 && r['sport_id'] === 4);
    const otherSixes = results.filter((r) => r['period'] === 6 && r['sport_id'] !== 4);
    expect(sets.length).toBeGreaterThan(0);
    expect(games.length).toBeGreaterThan(0);
    expect(otherSixes.length).toBeGreaterThan(0);
    for (const r of otherSixes) expect(r['period_label']).toBe('Overtime (svc)');
    for (const r of [...results.filter((x) => x['period'] === 0), ...sets])
      expect(r['period_label']).toBe(byCode.get(r['period'] as number));
    for (const r of games) {
      const n = (r['period'] as number) - 6;
      expect(r['period_label']).toBe(`Set ${Math.floor(n / 13) + 1} Game ${(n % 13) + 1}`);
    }
    // The CSV says the same.
    const csv = await exportOf(['results', '--format', 'csv']);
    expect(csv).toContain('Segment One (svc)');
    expect(csv).not.toMatch(/1st Half|1st Set/);
  });
});

describe('market-line limits kept (must-show 2)', () => {
  type Row = Record<string, unknown>;
  const lineRows = (rows: Row[]) => rows.filter((r) => r['line_id'] !== null);
  const key = (r: Row) => `${r['event_id']}/${r['line_id']}@${r['at']}:${r['from']}->${r['to']}`;

  it('lists every change point of a watched market line with line_id set, as the recorded ticks show them', async () => {
    const rows = jsonLines(await exportOf(['max-win']));
    const lines = lineRows(rows);
    expect(lines.length).toBeGreaterThan(0);
    for (const r of lines) {
      expect(r['special_id']).toBeNull();
      expect(r['contestant_id']).toBeNull();
      expect(typeof r['period_label']).toBe('string');
      expect(typeof r['market']).toBe('string');
    }
    // The truth: the limit changes visible in the recorded ticks, line by line (the first tick is the baseline).
    const store = openStore({ path: db });
    const expected: string[] = [];
    try {
      const byLine = new Map<string, { at: number; maxWin: number | null }[]>();
      for (const p of store.history.exportLineHistory()) {
        if (p.bar) continue;
        const k = `${p.eventId}/${p.lineId}`;
        const list = byLine.get(k) ?? [];
        // Two ticks in one millisecond: the later one is the state after that instant.
        if (list.length && list[list.length - 1]!.at === p.at) list.pop();
        list.push({ at: p.at, maxWin: p.maxWin });
        byLine.set(k, list);
      }
      for (const [k, list] of byLine) {
        let prev: number | null | undefined;
        for (const t of list) {
          if (prev === undefined || prev !== t.maxWin)
            expected.push(`${k}@${formatServiceTime(t.at)}:${prev ?? null}->${t.maxWin}`);
          prev = t.maxWin;
        }
      }
    } finally {
      store.close();
    }
    expect(new Set(lines.map(key))).toEqual(new Set(expected));
    expect(
      lines.some((r) => r['from'] !== null),
      'a limit moved during the recorded hour',
    ).toBe(true);
  });

  it('still lists them once tick retention has removed every tick and bar', async () => {
    const before = lineRows(jsonLines(await exportOf(['max-win'])));
    const copy = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-export-pruned-')), 'pruned.db');
    copyFileSync(db, copy);
    if (existsSync(`${db}-wal`)) copyFileSync(`${db}-wal`, `${copy}-wal`);
    const later = Date.now() + 400 * 86_400_000;
    const store = openStore({ path: copy, clock: () => later, retentionDays: 1 });
    try {
      const report = store.maintenance.maintain();
      expect(report.oddsTicksDeleted).toBeGreaterThan(0);
      expect([...store.history.exportLineHistory()]).toEqual([]);
    } finally {
      store.close();
    }
    const after = lineRows(jsonLines(await exportOf(['max-win'], copy)));
    expect(after).toEqual(before);
  });
});
