// The rule lab reads the desk's money rules as every other consumer does (issue 35): a handicap moved under its line
// id is another line, never a drop from the old value's price; an alert on a line the service voided (a match not
// ended) is scored neither for CLV nor for P/L; a close with a side quoted at 1.0 is no two-way close.
import { describe, expect, it } from 'vitest';
import type { LabRule } from '../../shared/ruleLab';
import { replayEvent, type LabEvent, type LabLine } from './replay';

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 1, 12);
const KICK = T0 + 60 * MIN;
const rule: LabRule = { dropPct: 5, dropWindowMinutes: 15, minProbPts: 1, phase: 'both', sports: [], markets: [] };

const tick = (minute: number, line: number | null, prices: LabLine['ticks'][number]['prices']) => ({
  at: T0 + minute * MIN,
  line,
  prices,
  byBar: false,
});

const spread = (over: Partial<LabLine> = {}): LabLine => ({
  lineId: 7,
  period: 0,
  market: 'spread',
  team: null,
  ticks: [tick(0, -0.5, { home: 1.95, away: 1.95 }), tick(10, -0.25, { home: 1.72, away: 2.2 })],
  close: null,
  settled: null,
  ...over,
});

const event = (lines: LabLine[], over: Partial<LabEvent> = {}): LabEvent => ({
  eventId: 1,
  sportId: 1,
  liveFrom: KICK,
  score: null,
  status: null,
  lines,
  ...over,
});

describe('rule lab: the money rules of issue 35', () => {
  it('a handicap moved under its line id (-0.5 at 1.95/1.95, then -0.25 at 1.72/2.20) is no drop; a real drop on another line is', () => {
    const total: LabLine = {
      lineId: 8,
      period: 0,
      market: 'totals',
      team: null,
      ticks: [tick(0, 2.5, { over: 1.95, under: 1.95 }), tick(10, 2.5, { over: 1.72, under: 2.2 })],
      close: null,
      settled: null,
    };
    const [alerts] = replayEvent(event([spread(), total]), [rule], 'EM');
    expect(alerts!.map((a) => [a.lineId, a.side])).toEqual([[8, 'over']]);
    // Both ways of replaying say so (the fast one skips ticks by the same key).
    expect(replayEvent(event([spread(), total]), [rule], 'EM', { plain: true })[0]).toEqual(alerts);
  });

  it('a handicap that moves back to its old value goes on from that value’s own prices', () => {
    const line = spread({
      ticks: [
        tick(0, -0.5, { home: 1.95, away: 1.95 }),
        tick(10, -0.25, { home: 1.72, away: 2.2 }),
        tick(20, -0.5, { home: 1.72, away: 2.2 }),
      ],
    });
    const [alerts] = replayEvent(event([line]), [rule], 'EM');
    // -0.5 fell from 2.000 to 1.782: a drop, of -0.5's own open.
    expect(alerts!.map((a) => [a.lineId, a.side, a.at])).toEqual([[7, 'home', T0 + 20 * MIN]]);
  });

  const settledQuarter = {
    period: 0,
    market: 'spread',
    line: -0.25,
    outcome_home: 'push',
    outcome_draw: '',
    outcome_away: 'push',
  };
  const dropOnQuarter = (status: string, score = { home: 0, away: 0 }) =>
    event(
      [
        {
          lineId: 9,
          period: 0,
          market: 'spread',
          team: null,
          ticks: [tick(0, -0.25, { home: 1.95, away: 1.95 }), tick(10, -0.25, { home: 1.72, away: 2.2 })],
          close: { line: -0.25, prices: { home: 1.6, away: 2.4 }, at: KICK },
          settled: settledQuarter,
        },
      ],
      { status, score },
    );

  it('an alert on a quarter line of an abandoned match the service pushes is scored neither for CLV nor for P/L', () => {
    const [alerts] = replayEvent(dropOnQuarter('abandoned'), [rule], 'EM');
    expect(alerts).toHaveLength(1);
    expect(alerts![0]).toMatchObject({ side: 'home', price: 1.72, clv: null, pnl: null });
  });

  it('the same alert on a match that ended is scored (the control)', () => {
    const ended = dropOnQuarter('ended', { home: 1, away: 1 });
    ended.lines[0]!.settled = { ...settledQuarter, outcome_home: 'loss', outcome_away: 'win' };
    const [alerts] = replayEvent(ended, [rule], 'EM');
    // EM: the close 1.60/2.40 is fair 1.667 for Home.
    expect(alerts![0]!.clv).toBeCloseTo((1.72 / (1.6 * (1 / 1.6 + 1 / 2.4)) - 1) * 100, 6);
    // Home -0.25 at 1-1: half pushes, half loses: -50 per 100.
    expect(alerts![0]!.pnl).toBe(-50);
  });

  it('a close listed with a side at 1.0 gives no CLV (never a two-way close)', () => {
    const ml: LabLine = {
      lineId: 10,
      period: 0,
      market: 'moneyline',
      team: null,
      ticks: [tick(0, null, { home: 2.5, draw: 3.4, away: 2.9 }), tick(10, null, { home: 2.2, draw: 3.6, away: 3.3 })],
      close: { line: null, prices: { home: 2.5, draw: 1.0, away: 2.9 }, at: KICK },
      settled: null,
    };
    const [alerts] = replayEvent(event([ml]), [rule], 'EM');
    expect(alerts).toHaveLength(1);
    expect(alerts![0]!.clv).toBeNull();
  });
});
