// `cli report rules` on a recorded demo history (`cli record` against the simulator at the demo's pace, an hour on
// manual clocks): the rule lab's figures as one JSON object and as a CSV table, recounted here the long way round:
// the history through the store's own readers (exportLineHistory, latestMarkets, lineCloses, exportSettlements), each
// rule's alerts through the live rule code (stepLine, dropInScope, the drop episodes), CLV through clvByModel and
// P/L through settleBet and betPnl: nothing of the lab's reader or sums. Then the filters and a missing file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES_CSV_COLUMNS } from '../../src/cli/reportRules';
import { createDropEpisodes, EPISODE_RULES, type EpisodeData } from '../../src/core/monitor/dropEpisodes';
import { stepLine, type LineState } from '../../src/core/monitor/priceRules';
import { dropInScope } from '../../src/core/monitor/priceWatch';
import { openStore } from '../../src/core/store';
import { formatServiceTime, type Prices } from '../../src/shared/api';
import type { PriceSide } from '../../src/shared/domain';
import type { LabRule, RuleLabResult } from '../../src/shared/ruleLab';
import { betPnl, clvByModel, lineKey, settleBet } from '../../src/shared/trading';
import { recordDemoHistory } from '../support/demoHistory';
import { runCli } from './cliHarness';

let db: string;
let lab: RuleLabResult;

async function report(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const run = runCli(['report', 'rules', ...args]);
  const code = await run.exited;
  return { code, out: run.stdout(), err: run.stderr() };
}

beforeAll(async () => {
  db = path.join(mkdtempSync(path.join(tmpdir(), 'oddsdesk-rules-')), 'demo.db');
  await recordDemoHistory({ db });
  const r = await report(['--db', db, '--model', 'LOG']);
  expect(r.code, r.err).toBe(0);
  lab = JSON.parse(r.out) as RuleLabResult;
}, 300_000);

interface Tally {
  alerts: number;
  clvAlerts: number;
  clvSum: number;
  beats: number;
  settled: number;
  pnlSum: number;
}

/** One rule over the recorded history, the long way round; per part (by each match's kick-off). */
function recount(rule: LabRule, splitAt: number): { earlier: Tally; later: Tally } {
  const store = openStore({ path: db });
  const zero = (): Tally => ({ alerts: 0, clvAlerts: 0, clvSum: 0, beats: 0, settled: 0, pnlSum: 0 });
  const out = { earlier: zero(), later: zero() };
  try {
    const points = new Map<number, Map<number, Array<{ at: number; line: number | null; prices: Prices | null }>>>();
    for (const p of store.history.exportLineHistory()) {
      expect(p.bar, 'a demo hour is all raw ticks').toBeUndefined();
      let ev = points.get(p.eventId);
      if (!ev) points.set(p.eventId, (ev = new Map()));
      let l = ev.get(p.lineId);
      if (!l) ev.set(p.lineId, (l = []));
      l.push({ at: p.at, line: p.line, prices: p.prices });
    }
    const settlements = new Map([...store.settlements.exportSettlements()].map((s) => [s.event_id, s]));
    for (const [eventId, lines] of points) {
      const view = store.history.eventView(eventId)!;
      const markets = new Map(store.history.latestMarkets(eventId).map((m) => [m.lineId, m]));
      const closes = new Map(store.bets.lineCloses(eventId).map((c) => [c.lineId, c]));
      const liveAt = store.history.liveStateHistory(eventId).find((s) => s.liveStatus === 1)?.at ?? view.starts ?? null;
      const settled = settlements.get(eventId);
      const ticks = [...lines].flatMap(([lineId, ps]) => ps.map((p) => ({ lineId, ...p })));
      ticks.sort((a, b) => a.at - b.at || a.lineId - b.lineId);
      const tally = (liveAt ?? Math.min(...ticks.map((t) => t.at))) < splitAt ? out.earlier : out.later;
      // A line's state by its id AND value, as live (a handicap moved under its id is another line).
      const states = new Map<string, LineState>();
      const now = new Map<number, (typeof ticks)[number]>();
      const episodes = createDropEpisodes(EPISODE_RULES);
      ticks.forEach((t, i) => {
        const m = markets.get(t.lineId)!;
        now.set(t.lineId, t);
        const r = stepLine(
          states.get(lineKey(t.lineId, t.line)),
          { eventId, lineId: t.lineId, label: '', at: t.at, prices: t.prices, market: m.market },
          { ...rule, hysteresisPct: 0, model: 'LOG', thresholds: [] },
        );
        states.set(lineKey(t.lineId, t.line), r.state);
        const live = liveAt !== null && t.at >= liveAt;
        for (const a of r.alerts) {
          if (!dropInScope(rule, { sportId: view.sportId, live })) continue;
          const d = a.data as { side: PriceSide; from: number; to: number; pct: number };
          episodes.add(
            eventId,
            '',
            { ...d, lineId: t.lineId, line: t.line, words: '', basis: 'open', model: 'LOG', message: '' },
            t.at,
          );
        }
        if (ticks[i + 1]?.at === t.at) return;
        for (const ep of episodes.take(t.at).opened) {
          const d = ep.alert.data as unknown as EpisodeData;
          const at = now.get(d.lineId)!;
          const line = markets.get(d.lineId)!;
          const price = at.prices?.[d.side];
          tally.alerts++;
          if (price === undefined) continue;
          const sl = settled?.settlement.find((l) => l.line_id === d.lineId);
          const s =
            settled && sl
              ? settleBet(
                  { market: line.market, line: at.line, side: d.side },
                  sl,
                  { home: settled.score_home, away: settled.score_away },
                  line.side,
                  settled.status,
                )
              : null;
          // A side the service voided (a match not ended) is scored neither for CLV nor for P/L.
          if (s?.kind === 'settled' && s.result === 'void') continue;
          const close = closes.get(d.lineId);
          if (close?.closing && close.closedAt !== null && t.at < close.closedAt && (close.line ?? null) === at.line) {
            const clv = clvByModel(price, d.side, close.closing)?.LOG;
            if (clv !== null && clv !== undefined) {
              tally.clvAlerts++;
              tally.clvSum += clv;
              if (clv > 0) tally.beats++;
            }
          }
          if (s?.kind === 'settled') {
            tally.settled++;
            tally.pnlSum += betPnl(s.result, price, 100);
          }
        }
      });
    }
  } finally {
    store.close();
  }
  return out;
}

describe('cli report rules', { timeout: 120_000 }, () => {
  it('prints the rule lab of a recorded demo history as one JSON object, with the figures a plain recount gets', () => {
    // Ten sizes in two windows; the current rule (5% in 15 min) is one of them.
    expect(lab.rulesTried).toBe(20);
    expect(lab.current).toBe('5%/15m/1pt/both/all/all');
    const at = (pct: number) => lab.rules.findIndex((r) => r.dropPct === pct && r.dropWindowMinutes === 15);
    const [two, current] = [at(2), at(5)];
    let alerts = 0;
    for (const i of [two, current]) {
      const rc = recount(lab.rules[i]!, lab.splitAt);
      for (const part of ['earlier', 'later'] as const) {
        const s = lab[part].rules[i]!;
        const t = rc[part];
        const where = `${s.key} ${part}`;
        expect(s.alerts, where).toBe(t.alerts);
        expect(s.byBars, where).toBe(0);
        expect(s.clvAlerts, where).toBe(t.clvAlerts);
        expect(s.settledAlerts, where).toBe(t.settled);
        if (t.clvAlerts) {
          expect(s.clv.mean!, where).toBeCloseTo(t.clvSum / t.clvAlerts, 9);
          expect(s.beatRate.mean!, where).toBeCloseTo(t.beats / t.clvAlerts, 9);
        } else expect(s.clv.mean, where).toBeNull();
        if (t.settled) expect(s.roi.mean!, where).toBeCloseTo(t.pnlSum / t.settled, 9);
        expect(s.perDay, where).toBeCloseTo(t.alerts / lab[part].days, 9);
        alerts += t.alerts;
      }
    }
    // The demo's drops do alert, and both parts have matches: the figures above are of something.
    expect(alerts).toBeGreaterThan(10);
    expect(lab.earlier.events).toBeGreaterThan(5);
    expect(lab.later.events).toBeGreaterThan(5);
    expect(lab.sentence).toMatch(/rules tried/);
  });

  it('prints it as a CSV table: a row per part and rule, the sentence on stderr', async () => {
    const r = await report(['--db', db, '--model', 'LOG', '--format', 'csv']);
    expect(r.code, r.err).toBe(0);
    const rows = r.out
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(','));
    expect(rows[0]).toEqual([...RULES_CSV_COLUMNS]);
    expect(rows).toHaveLength(1 + 2 * lab.rulesTried);
    const col = (name: (typeof RULES_CSV_COLUMNS)[number]) => RULES_CSV_COLUMNS.indexOf(name);
    for (const x of rows.slice(1)) {
      const s = lab[x[col('part')] as 'earlier' | 'later'].rules.find((y) => y.key === x[col('rule')])!;
      expect(Number(x[col('alerts')])).toBe(s.alerts);
      expect(x[col('clv')] === '' ? null : Number(x[col('clv')])).toBe(s.clv.mean);
    }
    expect(r.err.trim()).toBe(lab.sentence);
  });

  it('filters by kick-off time and takes the current rule from its options', async () => {
    const later = await report(['--db', db, '--since', formatServiceTime(Date.UTC(2100, 0, 1))]);
    expect(later.code, later.err).toBe(0);
    const none = JSON.parse(later.out) as RuleLabResult;
    expect(none.earlier.events + none.later.events).toBe(0);
    expect(none.chosen).toBeNull();
    const other = JSON.parse((await report(['--db', db, '--drop-pct', '9', '--window', '7'])).out) as RuleLabResult;
    expect(other.current).toBe('9%/7m/1pt/both/all/all');
  });

  it('says so, and exits 2, when the file is not there', async () => {
    const r = await report(['--db', path.join(tmpdir(), 'no-such-oddsdesk.db')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no database at/);
  });
});
