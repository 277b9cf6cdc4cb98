// `cli report models` on a recorded demo history (`cli record` against the simulator at the demo's pace, an hour on
// manual clocks): the scoreboard as one JSON object and as a CSV table; the figures are those a plain recount gets
// from the exported settlements and the stored closes through the trading module (fairPrices, settleSide: the
// definitions, not the scoreboard's fast kernel); the filters; a missing file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCOREBOARD_CSV_COLUMNS } from '../../src/cli/report';
import { openStore } from '../../src/core/store';
import { DEVIG_MODELS, formatServiceTime, type DevigModel } from '../../src/shared/api';
import type { PriceSide } from '../../src/shared/domain';
import type { ModelScoreboard } from '../../src/shared/scoreboard';
import { fairPrices, marketKind, sameLine, settleSide } from '../../src/shared/trading';
import { recordDemoHistory } from '../support/demoHistory';
import { runCli } from './cliHarness';

let db: string;
let board: ModelScoreboard;

async function report(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const run = runCli(['report', 'models', ...args]);
  const code = await run.exited;
  return { code, out: run.stdout(), err: run.stderr() };
}

beforeAll(async () => {
  db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-report-')), 'demo.db');
  await recordDemoHistory({ db });
  const r = await report(['--db', db]);
  expect(r.code, r.err).toBe(0);
  board = JSON.parse(r.out) as ModelScoreboard;
}, 300_000); // a simulated hour: 20 s on a quiet machine, two minutes on a busy shared one

/** The recount: every settled line with a close, the long way round. */
function recount(model: DevigModel): { lines: number; weight: number; logLoss: number; brier: number } {
  const store = openStore({ path: db });
  let lines = 0;
  let weight = 0;
  let logLoss = 0;
  let brier = 0;
  try {
    for (const ev of store.settlements.exportSettlements()) {
      if (ev.status !== 'ended') continue;
      const closes = new Map(store.bets.lineCloses(ev.event_id).map((c) => [c.lineId, c]));
      for (const l of ev.settlement) {
        const close = closes.get(l.line_id);
        if (!close?.closing || marketKind(l.market) === 'other' || !sameLine(close.line, l.line, l.market)) continue;
        const fair = DEVIG_MODELS.map((m) => fairPrices(close.closing, m));
        if (fair.some((f) => f === null)) continue;
        const sides = Object.keys(fair[0]!) as PriceSide[];
        const won = new Map<PriceSide, number>();
        let readable = true;
        for (const side of sides) {
          const s = settleSide(l, side, { home: ev.score_home, away: ev.score_away });
          if (s.kind !== 'settled') readable = false;
          else won.set(side, s.result === 'win' ? 1 : s.result === 'half_win' ? 0.5 : 0);
        }
        const w = [...won.values()].reduce((a, b) => a + b, 0);
        if (!readable || w === 0) continue;
        const p = fair[DEVIG_MODELS.indexOf(model)]!;
        lines++;
        weight += w;
        logLoss += w * sides.reduce((a, s) => a - (won.get(s)! / w) * Math.log(1 / p[s]!), 0);
        brier += w * sides.reduce((a, s) => a + (1 / p[s]! - won.get(s)! / w) ** 2, 0);
      }
    }
  } finally {
    store.close();
  }
  return { lines, weight, logLoss: logLoss / weight, brier: brier / weight };
}

describe('cli report models', () => {
  it('prints the scoreboard of a recorded demo history as one JSON object, with the figures a plain recount gets', () => {
    expect(board.all.lines).toBeGreaterThan(50);
    expect(board.all.matches).toBeGreaterThan(10);
    // A demo hour meets pushes and void matches; each is left out and counted.
    expect(board.excluded.push + board.excluded.void).toBeGreaterThan(0);
    for (const model of DEVIG_MODELS) {
      const r = recount(model);
      const m = board.all.models.find((x) => x.model === model)!;
      expect(board.all.lines, model).toBe(r.lines);
      expect(board.all.weight, model).toBeCloseTo(r.weight, 9);
      expect(m.logLoss.mean!, model).toBeCloseTo(r.logLoss, 8);
      expect(m.brier.mean!, model).toBeCloseTo(r.brier, 8);
      expect(m.logLoss.low!).toBeLessThan(m.logLoss.mean!);
      expect(m.logLoss.high!).toBeGreaterThan(m.logLoss.mean!);
    }
    // The breakdowns share out the same lines.
    expect(board.bySport.reduce((a, g) => a + g.lines, 0)).toBe(board.all.lines);
    expect(board.byMarket.reduce((a, g) => a + g.lines, 0)).toBe(board.all.lines);
    expect(board.sentence).toMatch(
      /^(LOG|EM|MPTO|SHIN|OR)\b.* calls? this book's closes best: .* over [\d,]+ lines from [\d,]+ matches\. The lead is (not )?significant/,
    );
    expect(board.reliability.map((r) => r.model)).toEqual([...DEVIG_MODELS]);
  });

  it('prints it as a CSV table: a row per group and model, a row per reliability bin, the sentence on stderr', async () => {
    const r = await report(['--db', db, '--format', 'csv']);
    expect(r.code, r.err).toBe(0);
    const rows = r.out
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(','));
    expect(rows[0]).toEqual([...SCOREBOARD_CSV_COLUMNS]);
    const col = (name: (typeof SCOREBOARD_CSV_COLUMNS)[number]) => SCOREBOARD_CSV_COLUMNS.indexOf(name);
    const all = rows.filter((x) => x[col('section')] === 'all');
    expect(all.map((x) => x[col('model')])).toEqual([...DEVIG_MODELS]);
    for (const x of all) {
      const m = board.all.models.find((y) => y.model === x[col('model')])!;
      expect(Number(x[col('lines')])).toBe(board.all.lines);
      expect(Number(x[col('log_loss')])).toBe(m.logLoss.mean);
      expect(Number(x[col('brier_high')])).toBe(m.brier.high);
    }
    expect(rows.filter((x) => x[col('section')] === 'sport')).toHaveLength(board.bySport.length * DEVIG_MODELS.length);
    const bins = rows.filter((x) => x[col('section')] === 'reliability');
    expect(bins).toHaveLength(board.reliability.reduce((a, m) => a + m.bins.length, 0));
    expect(r.err.trim()).toBe(board.sentence);
  });

  it('filters by sport and by kick-off time', async () => {
    const sport = board.bySport[0]!;
    const one = await report(['--db', db, '--sport', sport.key]);
    expect(one.code, one.err).toBe(0);
    const only = JSON.parse(one.out) as ModelScoreboard;
    expect(only.filter.sportId).toBe(Number(sport.key));
    expect(only.all.lines).toBe(sport.lines);
    expect(only.all.models.map((m) => m.logLoss.mean)).toEqual(sport.models.map((m) => m.logLoss.mean));

    const later = await report(['--db', db, '--since', formatServiceTime(Date.UTC(2100, 0, 1))]);
    const none = JSON.parse(later.out) as ModelScoreboard;
    expect(none.all.lines).toBe(0);
    expect(none.sentence).toMatch(/^No settled line with a stored close yet/);
  });

  it('says so, and exits 2, when the file is not there or the report is not one it knows', async () => {
    const missing = await report(['--db', path.join(tmpdir(), 'no-such-oddsdesk.db')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('report: no database at');
    const run = runCli(['report', 'bets', '--db', db]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain("value 'bets' is invalid for argument 'what'. Allowed choices are models");
  });
});
