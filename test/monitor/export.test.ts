// `cli export` on a database the recorder wrote: JSON lines in the spec's shapes, CSV with a header, filters.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/core/store';
import { parseRecords, parseServiceTime, SettledEventSchema, type Fixture } from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { runCli } from './cliHarness';

const KEY = 'export-test-key';
let sim: Simulator;
let db: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 31, clock: 'real', speed: 600, keys: [{ key: KEY, plan: 'enterprise' }] });
  const fixtures = (await (await fetch(new URL('/api/fixtures', sim.url), { headers: { 'X-API-Key': KEY } })).json()) as Fixture[];
  const watch = fixtures.slice(0, 4).flatMap((f) => ['--watch', String(f.event_id)]);
  db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-export-')), 'rec.db');
  const run = runCli(['record', '--base-url', sim.url, '--db', db, '--duration', '6', '--settled-every', '2', ...watch], { ODDSDESK_API_KEY: KEY });
  expect(await run.exited, run.stderr()).toBe(0);
}, 60_000);
afterAll(() => sim.close());

async function exportOf(args: string[]): Promise<string> {
  const run = runCli(['export', ...args, '--db', db]);
  expect(await run.exited, run.stderr()).toBe(0);
  return run.stdout();
}

const jsonLines = (text: string) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('cli export', () => {
  it('writes settlements as SettledEvent JSON lines, and as CSV with one row per settled line', async () => {
    const store = openStore({ path: db });
    const stored = [...store.exportSettlements()];
    store.close();
    expect(stored.length).toBeGreaterThan(3);
    const records = jsonLines(await exportOf(['settlements']));
    expect(parseRecords(SettledEventSchema, records).problems).toEqual([]);
    expect(records.map((r) => r['event_id'])).toEqual(stored.map((s) => s.event_id));

    const csv = (await exportOf(['settlements', '--format', 'csv'])).trimEnd().split('\r\n');
    expect(csv[0]).toBe('event_id,sport_id,league_id,league_name,runner_home,runner_away,starts,score_home,score_away,status,settled_at,line_id,period,market,line,outcome_home,outcome_draw,outcome_away');
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
    expect(results.some((r) => r['period'] === 0 && r['period_label'] === 'Full match')).toBe(true);
    const resultsCsv = (await exportOf(['results', '--format', 'csv'])).trimEnd().split('\r\n');
    expect(resultsCsv[0]).toBe('event_id,sport_id,period,period_label,status,score_home,score_away,sets_home,sets_away,settlement_id,cancellation_reason,timestamp');
    expect(resultsCsv.length - 1).toBe(results.length);

    const points = jsonLines(await exportOf(['max-win']));
    expect(points.length).toBeGreaterThan(0);
    for (const p of points) {
      expect(Object.keys(p)).toEqual(['event_id', 'sport_id', 'special_id', 'special_name', 'contestant_id', 'contestant_name', 'line_id', 'from', 'to', 'at', 'odds', 'todds']);
      expect(parseServiceTime(p['at'] as string)).not.toBeNull();
    }
    const pointsCsv = (await exportOf(['max-win', '--format', 'csv'])).trimEnd().split('\r\n');
    expect(pointsCsv.length - 1).toBe(points.length);
  });
});
