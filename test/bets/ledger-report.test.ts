// Issue 27, part 1: the Bets view's Report tab as the core answers it (`bets:report`), on a real store (SQLite in
// memory): bets recorded through the bet log, closes through the closing-line follower's operations, results through
// the settled walk's ingest. The figures themselves are worked by hand in src/shared/ledger.test.ts; here: the report
// reads the same bets, P/L and totals as the Bets view (`bets:list`), a stale close and a line that moved under its id
// carry no CLV, sports and leagues are named, the date range is the placed time's, and a large log reads whole (its
// time is measured by `npm run bench -- ledger`, not asserted here).
import { afterEach, describe, expect, it } from 'vitest';
import { DEVIG_MODELS } from '../../src/shared/api';
import { ledgerReport, type LedgerReport } from '../../src/shared/ledger';
import { openStore, type Store } from '../../src/core/store';
import { ledgerHandlers, market, settled, settlement, snapshot, T0, writeLedgerBets } from '../support/ledgerBets';
import { logSoak, soak } from '../support/soak';

const MATCHES = soak(100, 500);
const BETS = soak(2_000, 10_000);

const MIN = 60_000;
const HOUR = 60 * MIN;

let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

/** The handlers around the real store, with the trader's model. */
const handlers = ledgerHandlers;

describe('bets:report on the bet log', () => {
  it('reads the Bets view’s bets and totals; a stale close and a moved line carry no CLV and are counted apart; sports and leagues named; a date range', async () => {
    store = openStore({ path: ':memory:', clock: () => T0 });
    store.odds.recordSports([
      { sport_id: 29, name: 'Soccer' },
      { sport_id: 33, name: 'Tennis' },
    ]);
    const epl = snapshot(1, 29, 1980, 'England - Premier League', [
      market(10, {}),
      market(11, { market: 'spread', line: -0.5, prices: { home: 1.95, away: 1.9 } }),
    ]);
    const atp = snapshot(2, 33, 7000, 'ATP Doha', [market(20, { prices: { home: 1.8, away: 2.0 } })]);
    store.odds.recordSnapshot(epl, T0);
    store.odds.recordSnapshot(atp, T0);
    store.bets.applyLineCloseOps([
      { type: 'price', eventId: 1, market: epl.markets[0]!, at: T0 },
      { type: 'price', eventId: 1, market: epl.markets[1]!, at: T0 },
      { type: 'price', eventId: 2, market: atp.markets[0]!, at: T0 },
    ]);
    const h = handlers(store);
    const a = (await h['bets:add']({ eventId: 1, lineId: 10, side: 'home', price: 2.1, stake: 100 })).id;
    const b = (await h['bets:add']({ eventId: 1, lineId: 11, side: 'home', price: 1.95, stake: 50 })).id;
    const c = (await h['bets:add']({ eventId: 2, lineId: 20, side: 'away', price: 2.2, stake: 20 })).id;

    // Event 1 is followed to kick-off: the moneyline's last price is 2.00 / 3.50 / 3.80, and the spread has moved to
    // -1 under its id. Event 2 was last seen at T0 and kicks off an hour later unfollowed: a stale close.
    store.bets.applyLineCloseOps([
      {
        type: 'price',
        eventId: 1,
        market: market(10, { prices: { home: 2.0, draw: 3.5, away: 3.8 } }),
        at: T0 + 50 * MIN,
      },
      {
        type: 'price',
        eventId: 1,
        market: market(11, { market: 'spread', line: -1, prices: { home: 2.2, away: 1.7 } }),
        at: T0 + 50 * MIN,
      },
      { type: 'kickoff', eventId: 1, at: T0 + HOUR, reason: 'started', confirmed: true },
      { type: 'kickoff', eventId: 2, at: T0 + HOUR, reason: 'kickoff', confirmed: false },
    ]);
    // Event 1 ends 2-0 (home wins the moneyline); the spread's bet is on a line the settlement does not have, so the
    // trader settles it (won: 50 x 0.95 = 47.50). Event 2: away loses (-20).
    store.settlements.recordSettledPage(
      [
        settlement(
          epl,
          [settled(10, null, 'win', 'loss', 'loss'), settled(11, -1, 'win', 'loss', 'loss', 'spread')],
          [2, 0],
          T0 + 3 * HOUR,
        ),
        settlement(atp, [settled(20, null, 'win', 'loss', 'loss')], [2, 0], T0 + 3 * HOUR),
      ],
      Math.floor((T0 + 3 * HOUR) / 1000),
    );
    store.bets.settleBetByHand(b, 'win');

    const list = await h['bets:list']({});
    const r = (await h['bets:report']({})) as LedgerReport;
    // The Bets view's totals: stake 170, P/L 110 + 47.50 - 20 = 137.50 on 170 settled (ROI 80.88%).
    expect(list.totals).toMatchObject({ count: 3, stake: 170, pnl: 137.5, settledStake: 170 });
    expect(r.total).toMatchObject({
      bets: list.totals.count,
      stake: list.totals.stake,
      pnl: list.totals.pnl,
      settledStake: list.totals.settledStake,
      roi: list.totals.roi,
    });
    expect(r.model).toBe('MPTO');

    // Only bet a's CLV counts: the same figure the Bets view shows for it. Bet c's close is stale (the Bets view
    // still shows its CLV, flagged), bet b's line moved.
    const byId = new Map(list.bets.map((x) => [x.id, x]));
    expect(byId.get(c)).toMatchObject({ closeStale: true });
    expect(byId.get(c)!.clvByModel).not.toBeNull();
    expect(byId.get(b)!.clvByModel).toBeNull();
    expect(r.clvStates).toMatchObject({ counted: 1, stale: 1, lineMoved: 1 });
    const clvA = byId.get(a)!.clvByModel!.MPTO!;
    expect(clvA).toBeGreaterThan(0); // 2.10 against a fair close near 2.1: the price shortened to 2.00
    expect(r.total).toMatchObject({ clvBets: 1, beatClose: 1, beatRate: 100, ev: Math.round(100 * clvA) / 100 });
    expect(r.total.averageClv).toBeCloseTo(clvA, 10);
    expect(r.histogram.bins.reduce((n, x) => n + x.count, 0)).toBe(1);

    // Named from the service's sports list (the snapshot has no sport name) and the match's league.
    const sport = r.breakdowns.find((d) => d.dimension === 'sport')!.groups;
    expect(sport.map((g) => [g.label, g.bets, g.pnl])).toEqual([
      ['Soccer', 2, 157.5],
      ['Tennis', 1, -20],
    ]);
    const league = r.breakdowns.find((d) => d.dimension === 'league')!.groups;
    expect(league.map((g) => g.label)).toEqual(['England - Premier League', 'ATP Doha']);

    // All three were placed at T0 and settled: the series has them in id order.
    expect(r.series.betId).toEqual([a, b, c]);
    expect(r.series.cumPnl).toEqual([110, 157.5, 137.5]);

    // The range is the placed time's: [from, to).
    expect((await h['bets:report']({ from: T0 + 1 })).total.bets).toBe(0);
    expect((await h['bets:report']({ from: T0, to: T0 + 1 })).total).toMatchObject({ bets: 3, pnl: 137.5 });
  });

  it("reads each bet's CLV under every model with each close de-vigged once, the same figures as the Bets view's list", async () => {
    store = openStore({ path: ':memory:', clock: () => T0 });
    writeLedgerBets(store, { matches: 40, bets: 300 });
    // A close MPTO cannot price (a 150 longshot beside a 7% overround), and one no model can (its away side unpriced).
    const odd = snapshot(900, 29, 100, 'League 0', [
      market(9000, { prices: { home: 1.02, draw: 12, away: 150 } }),
      market(9001, { market: 'spread', line: -0.5, prices: { home: 1.9, away: 1 } }),
    ]);
    store.odds.recordSnapshot(odd, T0);
    store.bets.applyLineCloseOps([
      { type: 'price', eventId: 900, market: odd.markets[0]!, at: T0 },
      { type: 'price', eventId: 900, market: odd.markets[1]!, at: T0 },
      { type: 'kickoff', eventId: 900, at: T0 + HOUR, reason: 'kickoff', confirmed: true },
    ]);
    const mptoUnpriced = store.bets.addBet(
      { eventId: 900, lineId: 9000, side: 'home', price: 1.05, stake: 100 },
      T0,
    ).id;
    const unpriced = store.bets.addBet({ eventId: 900, lineId: 9001, side: 'home', price: 1.95, stake: 100 }, T0).id;
    store.settlements.recordSettledPage(
      [
        settlement(
          odd,
          [settled(9000, null, 'win', 'loss', 'loss'), settled(9001, -0.5, 'win', 'loss', 'loss', 'spread')],
          [1, 0],
          T0 + 3 * HOUR,
        ),
      ],
      1,
    );
    const every = store.bets.listBets();
    expect(every.find((b) => b.id === mptoUnpriced)?.clvByModel).toMatchObject({
      MPTO: null,
      SHIN: expect.any(Number),
    });
    expect(every.find((b) => b.id === unpriced)).toMatchObject({ clvByModel: null, closingPrice: 1.9 });
    // Two bets on one line: the second takes the first's fair prices.
    store.bets.addBet({ eventId: 900, lineId: 9000, side: 'home', price: 1.06, stake: 50 }, T0 + 1);
    const list = store.bets.listBets();
    const ledger = store.bets.ledgerBets();
    expect(ledger.map((b) => [b.id, b.clvByModel, b.pnl, b.closeStale])).toEqual(
      list.map((b) => [b.id, b.clvByModel, b.pnl, b.closeStale]),
    );
    for (const model of DEVIG_MODELS)
      expect(ledgerReport(ledger, model).total.clvBets).toBe(
        list.filter((b) => b.clvByModel?.[model] != null && !b.closeStale).length,
      );
  });

  it(
    `${BETS} bets over ${MATCHES} matches (the bench times 10,000): the report reads what the Bets view lists, every bet with its CLV`,
    { timeout: 120_000 },
    async () => {
      logSoak(`ledger report: ${BETS} bets over ${MATCHES} matches (full: 10,000 over 500)`);
      store = openStore({ path: ':memory:', clock: () => T0 });
      writeLedgerBets(store, { matches: MATCHES, bets: BETS });
      const h = handlers(store);
      const r = (await h['bets:report']({})) as LedgerReport;
      const list = await h['bets:list']({});
      expect(r.total.bets).toBe(BETS);
      expect(r.series.betId).toHaveLength(BETS);
      expect(r.total.clvBets).toBe(BETS);
      expect(r.total.pnl).toBe(list.totals.pnl);
    },
  );
});
