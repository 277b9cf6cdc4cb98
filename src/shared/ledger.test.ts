// The ledger report worked by hand (docs/trading.md, "The ledger report"): seven bets a trader could have placed over
// three days, their P/L and CLV written out, and every figure the Report tab shows for them computed on paper first.
import { describe, expect, it } from 'vitest';
import type { DevigModel } from './api';
import { betTotals } from './trading';
import {
  clvHistogram,
  clvState,
  ledgerCsv,
  ledgerReport,
  ledgerSeriesCsv,
  oddsBandLabel,
  oddsBandOf,
  ODDS_BANDS,
  LEDGER_CSV_HEADER,
  type LedgerBet,
  type LedgerGroup,
} from './ledger';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 2, 10); // Monday 10:00 UTC
const HOUR = 3_600_000;

/** CLV (percent) under every model: `mpto` under LOG, MPTO, SHIN and OR; EM its own (default the same). */
const clv = (mpto: number | null, em: number | null = mpto): Record<DevigModel, number | null> => ({
  LOG: mpto ?? em,
  EM: em,
  MPTO: mpto,
  SHIN: mpto ?? em,
  OR: mpto ?? em,
});

const soccer = { sportId: 29, sport: 'Soccer', leagueId: 1980, league: 'England - Premier League' };
const tennis = { sportId: 33, sport: 'Tennis', leagueId: 7000, league: 'ATP Doha' };
const closed = { closedAt: T0 + 5 * DAY, closeLine: null, drawClose: null };

/**
 * The seven bets, as the bet log reads them (newest first). P/L by the trading rules: a win pays stake x (price - 1).
 *  1  Mon 10:00 Soccer ML home     2.10 x 100  won    +110   CLV +5.0            EV +5.00
 *  2  Mon 11:00 Soccer spread away 1.90 x 50   lost    -50   CLV -2.0            EV -1.00
 *  3  Tue 10:00 Tennis ML away     3.00 x 20   lost    -20   CLV +10 on a STALE close: not counted
 *  4  Tue 11:00 Soccer total over  1.40 x 100  push      0   CLV +1.5            EV +1.50
 *  5  Wed 10:00 Tennis ML home    12.00 x 10   open      —   CLV +20             EV +2.00
 *  6  Wed 11:00 Soccer spread home 2.00 x 40   lost    -40   the line moved from -0.5 to -1 under its id: no CLV
 *  7  Wed 12:00 Soccer ML draw    15.00 x 10   lost    -10   MPTO cannot price the close (n/a); EM -3.0
 */
const BETS: LedgerBet[] = [
  {
    id: 7,
    placedAt: T0 + 2 * DAY + 2 * HOUR,
    price: 15,
    stake: 10,
    side: 'draw',
    market: 'moneyline',
    line: null,
    pnl: -10,
    clvByModel: clv(null, -3),
    closeStale: false,
    ...soccer,
    ...closed,
  },
  {
    id: 6,
    placedAt: T0 + 2 * DAY + HOUR,
    price: 2,
    stake: 40,
    side: 'home',
    market: 'spread',
    line: -0.5,
    pnl: -40,
    clvByModel: null,
    closeStale: false,
    ...soccer,
    closedAt: T0 + 5 * DAY,
    closeLine: -1,
    drawClose: null,
  },
  {
    id: 5,
    placedAt: T0 + 2 * DAY,
    price: 12,
    stake: 10,
    side: 'home',
    market: 'moneyline',
    line: null,
    pnl: null,
    clvByModel: clv(20),
    closeStale: false,
    ...tennis,
    ...closed,
  },
  {
    id: 4,
    placedAt: T0 + DAY + HOUR,
    price: 1.4,
    stake: 100,
    side: 'over',
    market: 'totals',
    line: 2.5,
    pnl: 0,
    clvByModel: clv(1.5),
    closeStale: false,
    ...soccer,
    ...closed,
  },
  {
    id: 3,
    placedAt: T0 + DAY,
    price: 3,
    stake: 20,
    side: 'away',
    market: 'moneyline',
    line: null,
    pnl: -20,
    clvByModel: clv(10),
    closeStale: true,
    ...tennis,
    ...closed,
  },
  {
    id: 2,
    placedAt: T0 + HOUR,
    price: 1.9,
    stake: 50,
    side: 'away',
    market: 'spread',
    line: -0.5,
    pnl: -50,
    clvByModel: clv(-2),
    closeStale: false,
    ...soccer,
    closedAt: T0 + 5 * DAY,
    closeLine: -0.5,
    drawClose: null,
  },
  {
    id: 1,
    placedAt: T0,
    price: 2.1,
    stake: 100,
    side: 'home',
    market: 'moneyline',
    line: null,
    pnl: 110,
    clvByModel: clv(5),
    closeStale: false,
    ...soccer,
    ...closed,
  },
];

const report = ledgerReport(BETS, 'MPTO');
const group = (dimension: string, key: string): LedgerGroup =>
  report.breakdowns.find((d) => d.dimension === dimension)!.groups.find((g) => g.key === key)!;

describe('the ledger report, worked by hand', () => {
  it('totals: stake 330, P/L -10 over a settled stake of 320 (ROI -3.125%), the Bets view’s own totals', () => {
    expect(report.total).toMatchObject({ bets: 7, settled: 6, stake: 330, settledStake: 320, pnl: -10 });
    expect(report.total.roi).toBeCloseTo(-3.125, 10);
    const t = betTotals(BETS, 'MPTO');
    expect([report.total.stake, report.total.pnl, report.total.roi]).toEqual([t.stake, t.pnl, t.roi]);
  });

  it('CLV counts only a real close of the bet’s own line: 4 bets, mean +6.125%, 3 of 4 beat the close, EV +7.50', () => {
    // (5 - 2 + 1.5 + 20) / 4 = 6.125; stake x CLV: 5.00 - 1.00 + 1.50 + 2.00 = 7.50.
    expect(report.total).toMatchObject({ clvBets: 4, beatClose: 3, beatRate: 75, ev: 7.5 });
    expect(report.total.averageClv).toBeCloseTo(6.125, 10);
    // The stale close (bet 3, +10%) would lift the mean to 6.9: it is left out, and counted as such.
    expect(report.clvStates).toEqual({
      counted: 4,
      stale: 1,
      lineMoved: 1,
      afterClose: 0,
      notClosed: 0,
      noCloseRecorded: 0,
      noClosePrice: 0,
      unpriced: 1,
      void: 0,
    });
    // The Bets view's average takes the stale close: (5 - 2 + 10 + 1.5 + 20) / 5.
    expect(betTotals(BETS, 'MPTO').averageClv).toBeCloseTo(6.9, 10);
  });

  it('each bet’s state: stale, line moved, not closed yet, no close recorded, placed after the close, n/a under one model only', () => {
    const byId = new Map(BETS.map((b) => [b.id, b]));
    expect(clvState(byId.get(3)!, 'MPTO')).toBe('stale');
    expect(clvState(byId.get(6)!, 'MPTO')).toBe('lineMoved');
    expect(clvState(byId.get(7)!, 'MPTO')).toBe('unpriced');
    expect(clvState(byId.get(7)!, 'EM')).toBe('counted');
    const open = { ...byId.get(1)!, clvByModel: null, closedAt: null, pnl: null };
    expect(clvState(open, 'MPTO')).toBe('notClosed');
    // Settled from the service's result (an in-play bet on a line the app was not following at kick-off): its close
    // was never recorded, not "not closed yet". Settled by hand, the match may be still to play.
    expect(clvState({ ...open, pnl: 25, resultBy: 'service' }, 'MPTO')).toBe('noCloseRecorded');
    expect(clvState({ ...open, pnl: 25, resultBy: 'hand' }, 'MPTO')).toBe('notClosed');
    expect(clvState({ ...open, closedAt: T0 - HOUR }, 'MPTO')).toBe('afterClose');
    expect(clvState({ ...open, closedAt: T0 + HOUR }, 'MPTO')).toBe('noClosePrice');
  });

  it('cumulative P/L and EV over the settled bets in the order placed: the open bet is not on the chart, uncounted CLVs add nothing', () => {
    expect(report.series.betId).toEqual([1, 2, 3, 4, 6, 7]);
    expect(report.series.placedAt).toEqual([
      T0,
      T0 + HOUR,
      T0 + DAY,
      T0 + DAY + HOUR,
      T0 + 2 * DAY + HOUR,
      T0 + 2 * DAY + 2 * HOUR,
    ]);
    expect(report.series.pnl).toEqual([110, -50, -20, 0, -40, -10]);
    expect(report.series.ev).toEqual([5, -1, null, 1.5, null, null]);
    expect(report.series.cumPnl).toEqual([110, 60, 40, 40, 0, -10]);
    expect(report.series.cumEv).toEqual([5, 4, 4, 5.5, 5.5, 5.5]);
    // The chart ends on the total's P/L; its EV is the settled bets' share of the total's (bet 5's +2.00 is open).
    expect(report.series.cumPnl.at(-1)).toBe(report.total.pnl);
    expect(report.series.cumEv.at(-1)).toBe(report.total.ev - 2);
  });

  it('by sport: Soccer +10 on 300 (ROI +3.33%, CLV +1.5% on 3 bets), Tennis -20 on 20 settled (ROI -100%, CLV +20% on 1)', () => {
    const s = group('sport', '29');
    expect(s).toMatchObject({
      label: 'Soccer',
      bets: 5,
      stake: 300,
      settledStake: 300,
      pnl: 10,
      clvBets: 3,
      beatClose: 2,
      ev: 5.5,
    });
    expect(s.roi).toBeCloseTo(3.3333, 4);
    expect(s.averageClv).toBeCloseTo(1.5, 10);
    expect(s.beatRate).toBeCloseTo(66.6667, 4);
    expect(group('sport', '33')).toMatchObject({
      label: 'Tennis',
      bets: 2,
      settled: 1,
      stake: 30,
      settledStake: 20,
      pnl: -20,
      roi: -100,
      clvBets: 1,
      averageClv: 20,
      beatRate: 100,
      ev: 2,
    });
    expect(report.breakdowns.find((d) => d.dimension === 'sport')!.groups.map((g) => g.label)).toEqual([
      'Soccer',
      'Tennis',
    ]);
    expect(group('league', '1980')).toMatchObject({ label: 'England - Premier League', bets: 5, pnl: 10 });
  });

  it('by market and side, in the order a screen lists them', () => {
    const markets = report.breakdowns.find((d) => d.dimension === 'market')!.groups;
    expect(markets.map((g) => [g.label, g.bets, g.pnl])).toEqual([
      ['Moneyline', 4, 80], // 110 - 20 - 10, bet 5 open
      ['Spread', 2, -90],
      ['Total', 1, 0],
    ]);
    const sides = report.breakdowns.find((d) => d.dimension === 'side')!.groups;
    expect(sides.map((g) => [g.label, g.bets, g.pnl])).toEqual([
      ['Home', 3, 70],
      ['Draw', 1, -10],
      ['Away', 2, -70],
      ['Over', 1, 0],
    ]);
  });

  it('odds bands by the price taken, a bound belonging to the band above it: 2.00 is in "2.000 to 2.500"', () => {
    expect(oddsBandOf(2)).toBe(2);
    expect(oddsBandOf(1.999)).toBe(1);
    expect(oddsBandOf(10)).toBe(6);
    const bands = report.breakdowns.find((d) => d.dimension === 'oddsBand')!.groups;
    expect(bands.map((g) => [g.label, g.bets, g.stake, g.pnl, g.roi, g.clvBets, g.ev])).toEqual([
      ['shorter than 1.500', 1, 100, 0, 0, 1, 1.5], // bet 4
      ['1.500 to 2.000', 1, 50, -50, -100, 1, -1], // bet 2
      ['2.000 to 2.500', 2, 140, 70, 50, 1, 5], // bets 1 and 6 (the moved line counts in P/L, not in CLV)
      ['2.500 to 3.500', 1, 20, -20, -100, 0, 0], // bet 3, stale
      ['10.000 or longer', 2, 20, -10, -100, 1, 2], // bets 5 (open) and 7 (MPTO n/a)
    ]);
    expect(bands[2]!.band).toEqual({ from: 2, to: 2.5 });
    expect(oddsBandLabel(ODDS_BANDS[0]!, 'american')).toBe('shorter than -200');
    expect(oddsBandLabel(ODDS_BANDS[2]!, 'american')).toBe('+100 to +150');
    expect(oddsBandLabel(ODDS_BANDS[6]!, 'fractional')).toBe('9/1 or longer');
  });

  it('by model: the same P/L under each, the CLV each model gives (EM counts bet 7, which MPTO cannot price)', () => {
    const models = report.breakdowns.find((d) => d.dimension === 'model')!.groups;
    expect(models.map((g) => g.key)).toEqual(['LOG', 'EM', 'MPTO', 'SHIN', 'OR']);
    for (const g of models) expect([g.bets, g.stake, g.pnl, g.model]).toEqual([7, 330, -10, g.key]);
    const em = models[1]!;
    // (5 - 2 + 1.5 + 20 - 3) / 5 = 4.3; 3 of 5 beat; EV 7.50 - 0.30 = 7.20.
    expect(em).toMatchObject({ clvBets: 5, beatClose: 3, beatRate: 60, ev: 7.2 });
    expect(em.averageClv).toBeCloseTo(4.3, 10);
    expect(models[2]).toMatchObject({ clvBets: 4, beatRate: 75, ev: 7.5 });
  });

  it('the CLV histogram: whole-point bins from -2 to +21 for CLVs of -2, +1.5, +5 and +20', () => {
    const h = report.histogram;
    expect(h.width).toBe(1);
    expect(h.bins[0]).toEqual({ from: -2, to: -1, count: 1 });
    expect(h.bins.at(-1)).toEqual({ from: 20, to: 21, count: 1 });
    expect(h.bins.filter((b) => b.count > 0).map((b) => b.from)).toEqual([-2, 1, 5, 20]);
    expect(h.bins.reduce((n, b) => n + b.count, 0)).toBe(report.total.clvBets);
    // A narrow spread gets half-point bins; far tails stay outside the bins and are counted.
    expect(clvHistogram([0.2, 0.7, -0.3]).width).toBe(0.5);
    expect(clvHistogram([-80, 1, 2, 90])).toMatchObject({ below: 1, above: 1, width: 0.5 });
  });

  it('the CSV: the total, every group, odds bands in the trader’s format beside their decimal bounds, and the bets without a counted CLV', () => {
    const lines = ledgerCsv(report, 'american').trimEnd().split('\r\n');
    expect(lines[0]).toBe(LEDGER_CSV_HEADER.join(','));
    expect(lines[1]).toBe('all,All bets,7,6,330,320,-10,-3.125,MPTO,4,6.125,3,75,7.5,,,,,');
    expect(lines).toContain("oddsBand,'+100 to +150,2,2,140,140,70,50,MPTO,1,5,1,100,5,2,2.5,american,100,150");
    expect(lines).toContain('sport,Tennis,2,1,30,20,-20,-100,MPTO,1,20,1,100,2,,,,,');
    expect(lines).toContain('model,EM,7,6,330,320,-10,-3.125,EM,5,4.3,3,60,7.2,,,,,');
    expect(lines.slice(-3)).toEqual([
      'clv_not_counted,"stale close (not followed to kick-off, or the line left the book)",1',
      'clv_not_counted,the line moved under its id before the close,1',
      'clv_not_counted,the model cannot price the close,1',
    ]);
    const series = ledgerSeriesCsv(report).trimEnd().split('\r\n');
    expect(series[0]).toBe('bet_id,placed_at_utc,pnl,cum_pnl,clv_model,clv_pct,ev,cum_ev,ev_push_source,ev_push_share');
    expect(series[1]).toBe('1,2026-03-02T10:00:00,110,110,MPTO,5,5,5,none,0');
    expect(series[3]).toBe('3,2026-03-03T10:00:00,-20,40,MPTO,,,4,,');
    expect(series).toHaveLength(7);
  });

  it('no bets: zeros and no CLV, an empty chart', () => {
    const r = ledgerReport([], 'MPTO');
    expect(r.total).toMatchObject({ bets: 0, stake: 0, pnl: 0, roi: null, averageClv: null, beatRate: null, ev: 0 });
    expect(r.series.betId).toEqual([]);
    expect(r.histogram.bins).toEqual([]);
    expect(r.breakdowns.find((d) => d.dimension === 'model')!.groups).toHaveLength(5);
  });
});

describe('expected value on lines that can push (issue 35, class 3)', () => {
  // A close without margin: every model's fair draw is 1/0.27 = 3.704, a 27% chance of a draw.
  const drawClose = { home: 1 / 0.4, draw: 1 / 0.27, away: 1 / 0.33 };
  const bet = (id: number, o: Partial<LedgerBet>): LedgerBet => ({
    id,
    placedAt: T0 + id,
    price: 2.1,
    stake: 100,
    side: 'home',
    market: 'spread',
    line: 0,
    pnl: 110,
    clvByModel: clv(5),
    closeStale: false,
    ...soccer,
    ...closed,
    drawClose,
    ...o,
  });

  it('draw no bet at 2.10 against a fair close of 2.00 with a 27% draw: +3.65 per 100, not +5.00', () => {
    const r = ledgerReport([bet(1, {})], 'EM');
    expect(r.total.ev).toBe(3.65);
    expect(r.series.ev).toEqual([3.65]);
    expect(r.pushSources).toEqual({ none: 0, draw: 1, unknown: 0 });
  });

  it('home -0.25: half the stake is on line 0, so 13.5% of it pushes (stake x CLV is 15.6% too high)', () => {
    const r = ledgerReport([bet(1, { line: -0.25 })], 'EM');
    expect(r.total.ev).toBe(4.33); // 100 x (1 - 0.135) x 5% = 4.325
    // Away +0.25 (the same line, the other side) too.
    expect(ledgerReport([bet(1, { line: -0.25, side: 'away' })], 'EM').total.ev).toBe(4.33);
  });

  it('a line that can push with no close to give the share is left out of the expected value and counted, never stake x CLV', () => {
    const r = ledgerReport(
      [
        bet(1, { line: -1, drawClose: null }),
        bet(2, { line: 0, drawClose: null }),
        bet(3, { line: -0.5, drawClose: null }),
      ],
      'EM',
    );
    // Only the half line's +5.00 is an expected value; the other two are counted apart.
    expect(r.total).toMatchObject({ clvBets: 3, ev: 5, evUnknown: 2 });
    expect(r.pushSources).toEqual({ none: 1, draw: 0, unknown: 2 });
    expect(r.series.ev).toEqual([null, null, 5]);
    expect(ledgerCsv(r, 'decimal')).toContain(
      'ev_push_share,a line that can push with no close to give the push share: left out of the expected value,2',
    );
    // Under every model alike.
    expect(r.breakdowns.find((d) => d.dimension === 'model')!.groups.map((g) => [g.ev, g.evUnknown])).toEqual(
      Array(5).fill([5, 2]),
    );
  });

  it('a whole total can push too: Over 3 has no close that gives its share', () => {
    expect(
      ledgerReport([bet(1, { market: 'totals', line: 3, side: 'over', drawClose: null })], 'EM').total,
    ).toMatchObject({ ev: 0, evUnknown: 1 });
  });
});
