// The bet log's money figures, table-driven (docs/trading.md, "Money" and "The close and CLV"): each bet's P/L per
// result, one rounding rule (to the cent, halves away from zero), the totals' ROI (P/L over settled stake) and
// average CLV (a model that cannot price a close is left out, not counted as 0), and the bets CSV row by row. Every
// expected figure is worked out by hand in the comment beside it, never by the code under test.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BET_CSV_HEADER, betCsvRows, writeBetsCsv } from '../../src/core/export/csv';
import type { DevigModel } from '../../src/shared/api';
import type { BetResult, BetView } from '../../src/shared/domain';
import { betPnl, betTotals, formatMoney, roundMoney, type BetTotalsInput } from '../../src/shared/trading';

describe('P/L of one bet', () => {
  it.each<[BetResult, number, number, number, string]>([
    // result, price, stake, P/L, worked by hand
    ['win', 1.9, 100, 90, '100 x (1.90 - 1) = 90.00'],
    ['win', 2.05, 50, 52.5, '50 x 1.05 = 52.50'],
    ['win', 1.333, 10, 3.33, '10 x 0.333 = 3.33'],
    ['win', 4.2, 12.5, 40, '12.50 x 3.2 = 40.00'],
    ['win', 2.5, 33.33, 50, '33.33 x 1.5 = 49.995, a half: away from zero, 50.00'],
    ['win', 1.5, 0.01, 0.01, '0.01 x 0.5 = 0.005, a half: 0.01'],
    ['win', 1.001, 1, 0, '1 x 0.001 = 0.001: 0.00'],
    ['win', 101, 250, 25000, '250 x 100 = 25,000.00'],
    ['half_win', 1.9, 100, 45, 'half the stake (50) x 0.90 = 45.00'],
    ['half_win', 1.95, 10, 4.75, '5 x 0.95 = 4.75'],
    ['half_win', 2.01, 1, 0.51, '0.50 x 1.01 = 0.505, a half: 0.51 (2.01 - 1 is 1.00999... in binary)'],
    ['half_win', 3, 0.03, 0.03, '0.015 x 2 = 0.03'],
    ['push', 1.9, 100, 0, 'stake back: 0'],
    ['push', 7.5, 12.34, 0, 'stake back at any price: 0'],
    ['half_loss', 1.9, 100, -50, 'half the stake lost: -50.00'],
    ['half_loss', 2.2, 25.55, -12.78, '-25.55 / 2 = -12.775, a half: away from zero, -12.78'],
    ['half_loss', 1.5, 0.01, -0.01, '-0.005, a half: -0.01'],
    ['half_loss', 1.8, 3, -1.5, '-3 / 2 = -1.50, whatever the price'],
    ['loss', 1.9, 100, -100, 'the whole stake: -100.00'],
    ['loss', 11, 12.34, -12.34, 'the whole stake at any price: -12.34'],
  ])('%s at %s for %s: %s (%s)', (result, price, stake, pnl) => {
    const got = betPnl(result, price, stake);
    expect(got).toBe(pnl);
    // Never a negative zero: a figure of 0 reads 0.00, not -0.00.
    expect(Object.is(got, -0)).toBe(false);
  });
});

describe('rounding to the cent, halves away from zero', () => {
  it.each<[number, number, string]>([
    [1.005, 1.01, '1.005 is 1.00499999... in binary: still a half, up'],
    [-1.005, -1.01, 'a negative half goes down, away from zero'],
    [2.675, 2.68, '2.675 is 2.67499999... in binary: up'],
    [-2.675, -2.68, 'and its negative down'],
    [0.125, 0.13, 'a half up'],
    [-0.125, -0.13, 'a half down'],
    [0.005, 0.01, 'half a cent is a cent'],
    [-0.005, -0.01, 'minus half a cent is minus a cent'],
    [1.0049, 1, 'under a half: down'],
    [-1.0049, -1, 'under a half: towards zero'],
    [12345.675, 12345.68, 'large figures too'],
    [0.1 + 0.2, 0.3, '0.30000000000000004 is 0.30'],
    [90, 90, 'whole figures stay'],
  ])('%s → %s (%s)', (n, rounded) => {
    expect(roundMoney(n)).toBe(rounded);
  });

  it('leaves what is not a finite number as it is', () => {
    expect(roundMoney(Number.NaN)).toBeNaN();
    expect(roundMoney(Infinity)).toBe(Infinity);
  });

  it.each<[number, string, boolean, string]>([
    // figure, unit, signed, text
    [1234.5, 'EUR', false, '1,234.50 EUR'],
    [-1234567.891, 'u', false, '-1,234,567.89 u'],
    [50, '', true, '+50.00'],
    [-50, '', true, '-50.00'],
    [0, '', true, '0.00'],
    [-0.004, '', false, '0.00'], // rounds to zero: no minus sign
    [-0.005, 'USD', false, '-0.01 USD'], // a half: away from zero
    [12.775, '', false, '12.78'],
  ])('formats %s %s (signed %s) as %s', (n, unit, sign, text) => {
    expect(formatMoney(n, unit, { sign })).toBe(text);
  });
});

const clv = (values: Partial<Record<DevigModel, number | null>>): Record<DevigModel, number | null> => ({
  LOG: null,
  EM: null,
  MPTO: null,
  SHIN: null,
  OR: null,
  ...values,
});

describe('the totals: stake, P/L, ROI over settled stake, average CLV', () => {
  // Four bets: a win, a loss, an open bet and a push.
  const mixed: BetTotalsInput[] = [
    { stake: 100, pnl: 90, clvByModel: clv({ LOG: 2, EM: 1.5, MPTO: null, SHIN: 2.5, OR: 1 }) }, // won at 1.90
    { stake: 50, pnl: -50, clvByModel: clv({ LOG: -1, EM: -1.5, MPTO: 3, SHIN: -0.5, OR: -1 }) }, // lost
    { stake: 200, pnl: null, clvByModel: null }, // open, its line not closed yet
    { stake: 40, pnl: 0, clvByModel: clv({ LOG: 4, EM: 3, MPTO: null, SHIN: 3.5, OR: 2.5 }) }, // pushed
  ];

  it.each<
    [
      string,
      BetTotalsInput[],
      DevigModel,
      {
        count: number;
        stake: number;
        settledStake: number;
        pnl: number;
        roi: number | null;
        averageClv: number | null;
      },
    ]
  >([
    [
      // stake 100 + 50 + 200 + 40 = 390; settled 100 + 50 + 40 = 190 (the open bet's 200 is not);
      // P/L 90 - 50 + 0 = 40; ROI 40 / 190 = 21.0526...%; CLV under LOG (2 - 1 + 4) / 3 = 1.6667%.
      'win, loss, open, push under LOG',
      mixed,
      'LOG',
      { count: 4, stake: 390, settledStake: 190, pnl: 40, roi: (40 / 190) * 100, averageClv: 5 / 3 },
    ],
    [
      // MPTO could price only the lost bet's close: the average is that one CLV, 3%, not (0 + 3 + 0) / 3 = 1%.
      'the same under MPTO, n/a closes left out',
      mixed,
      'MPTO',
      { count: 4, stake: 390, settledStake: 190, pnl: 40, roi: (40 / 190) * 100, averageClv: 3 },
    ],
    [
      // (1 - 1 + 2.5) / 3 = 0.8333%.
      'the same under OR',
      mixed,
      'OR',
      { count: 4, stake: 390, settledStake: 190, pnl: 40, roi: (40 / 190) * 100, averageClv: 2.5 / 3 },
    ],
    [
      // Nothing settled: P/L 0, settled stake 0, no ROI (not 0%, not NaN); no close known: no average CLV.
      'only open bets',
      [
        { stake: 25, pnl: null, clvByModel: null },
        { stake: 75.5, pnl: null, clvByModel: null },
      ],
      'EM',
      { count: 2, stake: 100.5, settledStake: 0, pnl: 0, roi: null, averageClv: null },
    ],
    [
      // Half results: +50 (half of 100 won at 2.00), -50 (half of 100 lost), +60 (30 won at 3.00); P/L 60 over
      // settled stake 230: ROI 26.0870%. Closes known but none priced under SHIN: no average.
      'half results and a win',
      [
        { stake: 100, pnl: 50, clvByModel: clv({ EM: 1 }) },
        { stake: 100, pnl: -50, clvByModel: clv({ EM: -2 }) },
        { stake: 30, pnl: 60, clvByModel: clv({ EM: 4 }) },
      ],
      'SHIN',
      { count: 3, stake: 230, settledStake: 230, pnl: 60, roi: (60 / 230) * 100, averageClv: null },
    ],
    [
      // Binary fractions add up to 0.30000000000000004; the totals are rounded to the cent: 0.30, and ROI
      // 0.30 / 0.30 = 100%. A CLV of exactly 0 counts as a CLV (the price matched the close).
      'cents that do not add up in binary',
      [
        { stake: 0.1, pnl: 0.1, clvByModel: clv({ LOG: 0 }) },
        { stake: 0.2, pnl: 0.2, clvByModel: clv({ LOG: 1 }) },
      ],
      'LOG',
      { count: 2, stake: 0.3, settledStake: 0.3, pnl: 0.3, roi: 100, averageClv: 0.5 },
    ],
    [
      // Losing everything: -10 - 20 = -30 over 30 settled: ROI -100%.
      'all lost',
      [
        { stake: 10, pnl: -10, clvByModel: clv({ EM: -3 }) },
        { stake: 20, pnl: -20, clvByModel: clv({ EM: -1 }) },
      ],
      'EM',
      { count: 2, stake: 30, settledStake: 30, pnl: -30, roi: -100, averageClv: -2 },
    ],
    ['no bets', [], 'LOG', { count: 0, stake: 0, settledStake: 0, pnl: 0, roi: null, averageClv: null }],
  ])('%s', (_what, bets, model, want) => {
    const t = betTotals(bets, model);
    expect({ count: t.count, stake: t.stake, settledStake: t.settledStake, pnl: t.pnl }).toEqual({
      count: want.count,
      stake: want.stake,
      settledStake: want.settledStake,
      pnl: want.pnl,
    });
    if (want.roi === null) expect(t.roi).toBeNull();
    else expect(t.roi).toBeCloseTo(want.roi, 10);
    if (want.averageClv === null) expect(t.averageClv).toBeNull();
    else expect(t.averageClv).toBeCloseTo(want.averageClv, 10);
  });

  it('takes each bet P/L as betPnl gives it: three half losses of 25.55 are -38.34, not -38.325 rounded once', () => {
    // Each -12.775 rounds to -12.78 on its own bet (the rule applies to each bet's P/L), then -12.78 x 3 = -38.34.
    const pnl = betPnl('half_loss', 2, 25.55);
    expect(pnl).toBe(-12.78);
    const t = betTotals(
      [0, 1, 2].map(() => ({ stake: 25.55, pnl, clvByModel: null })),
      'LOG',
    );
    expect(t.pnl).toBe(-38.34);
    expect(t.settledStake).toBe(76.65);
    // ROI -38.34 / 76.65 = -50.0196%.
    expect(t.roi).toBeCloseTo((-38.34 / 76.65) * 100, 10);
  });
});

describe('the bets CSV, row by row', () => {
  const placed = Date.UTC(2026, 10, 22, 12, 30, 15);
  const base = {
    placedAt: placed,
    period: 0,
    closeStale: false,
    closeNote: null,
    settleByHand: null,
  } as const;
  const bets: BetView[] = [
    {
      // A quarter line settled from the score: half lost.
      ...base,
      id: 1,
      eventId: 1001,
      lineId: 5001,
      label: 'Arsenal v Chelsea',
      market: 'spread',
      line: -0.25,
      side: 'home',
      sideWords: 'Home -0.25',
      price: 1.9,
      stake: 100,
      closingPrice: 1.85,
      clvByModel: { LOG: 2.7027027027, EM: 1.23456789, MPTO: null, SHIN: -0.00004, OR: 3.33336 },
      result: 'half_loss',
      resultBy: 'score',
      pnl: -50,
    },
    {
      // Still open: no close, no result; a name that looks like a formula, a note with quotes, a stale close.
      ...base,
      id: 2,
      eventId: 1002,
      lineId: 5002,
      placedAt: placed + 60_000,
      label: '@Home, FC v -Away',
      market: 'totals',
      period: 1,
      line: 2.5,
      side: 'over',
      sideWords: 'Over 2.5',
      price: 2.05,
      stake: 12.5,
      closingPrice: null,
      clvByModel: null,
      closeStale: true,
      closeNote: 'the line vanished from a snapshot',
      result: null,
      resultBy: null,
      settleByHand: 'the service said "void"',
      pnl: null,
    },
    {
      // Won by the service's word.
      ...base,
      id: 3,
      eventId: 1003,
      lineId: 5003,
      label: 'Ajax v PSV',
      market: 'moneyline',
      line: null,
      side: 'draw',
      sideWords: 'Draw',
      price: 3.4,
      stake: 20,
      closingPrice: 3.1,
      clvByModel: { LOG: 5.5, EM: 5.25, MPTO: 4.99995, SHIN: 6, OR: -0.5 },
      result: 'win',
      resultBy: 'service',
      pnl: 48,
    },
  ];

  it('has the documented header, in order', () => {
    expect([...BET_CSV_HEADER]).toEqual([
      'id',
      'placed_at_utc',
      'event_id',
      'bet',
      'line_id',
      'market',
      'period',
      'line',
      'side',
      'price',
      'stake',
      'closing_price',
      'clv_LOG_pct',
      'clv_EM_pct',
      'clv_MPTO_pct',
      'clv_SHIN_pct',
      'clv_OR_pct',
      'result',
      'pnl',
      'selection',
      'close_stale',
      'close_note',
      'result_by',
      'settle_by_hand',
      'odds_format',
      'price_in_format',
      'closing_price_in_format',
      'resettled_at_utc',
      'resettled_from_result',
      'resettled_from_score_home',
      'resettled_from_score_away',
    ]);
  });

  it('gives each bet its cells: CLV to four places, empty where a model cannot price the close', () => {
    const rows = [...betCsvRows(bets)];
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.length === BET_CSV_HEADER.length)).toBe(true);
    const byColumn = rows.map((r) => Object.fromEntries(BET_CSV_HEADER.map((h, i) => [h, r[i]])));
    expect(byColumn[0]).toEqual({
      id: 1,
      placed_at_utc: '2026-11-22T12:30:15',
      event_id: 1001,
      bet: 'Arsenal v Chelsea',
      line_id: 5001,
      market: 'spread',
      period: 0,
      line: -0.25,
      side: 'home',
      price: 1.9,
      stake: 100,
      closing_price: 1.85,
      // 2.7027027 → 2.7027; 1.23456789 → 1.2346; MPTO n/a → null (empty); -0.00004 → 0 to four places; 3.33336 → 3.3334
      clv_LOG_pct: 2.7027,
      clv_EM_pct: 1.2346,
      clv_MPTO_pct: null,
      clv_SHIN_pct: -0,
      clv_OR_pct: 3.3334,
      result: 'half_loss',
      pnl: -50,
      selection: 'Home -0.25',
      close_stale: false,
      close_note: null,
      result_by: 'score',
      settle_by_hand: null,
      odds_format: 'decimal',
      price_in_format: 1.9,
      closing_price_in_format: 1.85,
      resettled_at_utc: null,
      resettled_from_result: null,
      resettled_from_score_home: null,
      resettled_from_score_away: null,
    });
    expect(byColumn[1]).toMatchObject({
      id: 2,
      placed_at_utc: '2026-11-22T12:31:15',
      closing_price: null,
      clv_LOG_pct: null,
      clv_EM_pct: null,
      clv_MPTO_pct: null,
      clv_SHIN_pct: null,
      clv_OR_pct: null,
      result: null,
      pnl: null,
      close_stale: true,
      result_by: null,
    });
    // 4.99995 → 49999.5 ten-thousandths → 5 (a half rounds up).
    expect(byColumn[2]).toMatchObject({
      clv_MPTO_pct: 5,
      clv_OR_pct: -0.5,
      result: 'win',
      pnl: 48,
      result_by: 'service',
    });
  });

  it('writes the file a spreadsheet reads: CRLF lines, text neutralised and quoted, numbers as numbers', async () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString('utf8');
        done();
      },
    });
    expect(await writeBetsCsv(bets, sink)).toBe(3);
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe(''); // the last line ends with CRLF too
    expect(lines.slice(0, -1)).toEqual([
      'id,placed_at_utc,event_id,bet,line_id,market,period,line,side,price,stake,closing_price,clv_LOG_pct,clv_EM_pct,clv_MPTO_pct,clv_SHIN_pct,clv_OR_pct,result,pnl,selection,close_stale,close_note,result_by,settle_by_hand,odds_format,price_in_format,closing_price_in_format,resettled_at_utc,resettled_from_result,resettled_from_score_home,resettled_from_score_away',
      // The half loss: -50 is a number (no apostrophe); the SHIN CLV that rounds to zero is written 0.
      '1,2026-11-22T12:30:15,1001,Arsenal v Chelsea,5001,spread,0,-0.25,home,1.9,100,1.85,2.7027,1.2346,,0,3.3334,half_loss,-50,Home -0.25,false,,score,,decimal,1.9,1.85,,,,',
      // The open bet: the name starting with @ gets an apostrophe and, holding a comma, quotes; empty close, CLV,
      // result and P/L; the quotes of the reason doubled.
      `2,2026-11-22T12:31:15,1002,"'@Home, FC v -Away",5002,totals,1,2.5,over,2.05,12.5,,,,,,,,,Over 2.5,true,the line vanished from a snapshot,,"the service said ""void""",decimal,2.05,,,,,`,
      // The draw won at 3.40 for 20: P/L 48.
      '3,2026-11-22T12:30:15,1003,Ajax v PSV,5003,moneyline,0,,draw,3.4,20,3.1,5.5,5.25,5,6,-0.5,win,48,Draw,false,,service,,decimal,3.4,3.1,,,,',
    ]);
  });

  it('adds the trader’s odds format beside the decimal price, which keeps its meaning', () => {
    const cells = (format: Parameters<typeof betCsvRows>[1]) =>
      [...betCsvRows(bets, format)]
        .map((r) => Object.fromEntries(BET_CSV_HEADER.map((h, i) => [h, r[i]])))
        .map((b) => [
          b['price'],
          b['odds_format'],
          b['price_in_format'],
          b['closing_price'],
          b['closing_price_in_format'],
        ]);
    // 1.90 -> -100/0.9 = -111.1 -> -111; 1.85 -> -100/0.85 = -117.6 -> -118; 2.05 -> +105 (no close yet);
    // 3.40 -> +240; 3.10 -> +210. Numbers, so a spreadsheet sums them and no cell starts with a formula sign.
    expect(cells('american')).toEqual([
      [1.9, 'american', -111, 1.85, -118],
      [2.05, 'american', 105, null, null],
      [3.4, 'american', 240, 3.1, 210],
    ]);
    // Fractional is text: a ladder fraction only where the price is it to two decimals, else exact (issue 35):
    // 1.90 -> 9/10 (10/11 is 1.909), 2.05 -> 21/20, 3.40 -> 12/5 (5/2 is 3.50).
    expect(cells('fractional').map((c) => c[2])).toEqual(['9/10', '21/20', '12/5']);
    // Malay: 1.90 -> +0.9; 2.05 -> -1/1.05 = -0.952; 3.40 -> -1/2.4 = -0.417.
    expect(cells('malay').map((c) => c[2])).toEqual([0.9, -0.952, -0.417]);
  });
});
