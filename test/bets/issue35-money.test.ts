// Issue 35 on the bet log as the app writes it (bets through the bet log, closes through the closing-line follower's
// operations, results through the settled walk's ingest; SQLite in memory): a void match, a side quoted at 1.0 that
// reaches the close, and the report's expected value on a draw-no-bet line from the match's own moneyline close.
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerSeriesCsv, type LedgerReport } from '../../src/shared/ledger';
import { openStore, type Store } from '../../src/core/store';
import { ledgerHandlers, market, settled, settlement, snapshot, T0 } from '../support/ledgerBets';

const MIN = 60_000;
let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
});
const handlers = (s: Store) => ledgerHandlers(s, 'EM');

describe('issue 35 on the bet log', () => {
  it('a quarter line of an abandoned 0-0 the service pushes: void, P/L 0 (not "half lost, -50"); a cancelled Under 2.75: void, not "won, +90"', async () => {
    store = openStore({ path: ':memory:', clock: () => T0 });
    const ev = snapshot(1, 29, 100, 'League', [
      market(11, { market: 'spread', line: -0.25, prices: { home: 1.9, away: 1.95 } }),
      market(12, { market: 'totals', line: 2.75, prices: { over: 2.0, under: 1.9 } }),
    ]);
    store.odds.recordSnapshot(ev, T0);
    const home = store.bets.addBet({ eventId: 1, lineId: 11, side: 'home', price: 1.9, stake: 100 }, T0);
    const under = store.bets.addBet({ eventId: 1, lineId: 12, side: 'under', price: 1.9, stake: 100 }, T0);
    const s = {
      ...settlement(
        ev,
        [settled(11, -0.25, 'push', 'push', 'push', 'spread'), settled(12, 2.75, 'push', 'push', 'push', 'totals')],
        [0, 0],
        T0 + 3 * 60 * MIN,
      ),
      status: 'abandoned',
    };
    store.settlements.recordSettledPage([s], Math.floor((T0 + 3 * 60 * MIN) / 1000));
    const list = await handlers(store)['bets:list']({});
    const byId = new Map(list.bets.map((b) => [b.id, b]));
    expect(byId.get(home.id)).toMatchObject({ result: 'void', pnl: 0, resultBy: 'service', settleByHand: null });
    expect(byId.get(under.id)).toMatchObject({ result: 'void', pnl: 0 });
    expect(list.totals).toMatchObject({ pnl: 0, settledStake: 200 });
  });

  it("a void bet's CLV is not counted: the report's expected value and beat-the-close leave out a stake that was never at risk", async () => {
    store = openStore({ path: ':memory:', clock: () => T0 });
    const line = market(11, { market: 'spread', line: -0.5, prices: { home: 1.95, away: 1.95 } });
    const ev = snapshot(4, 29, 100, 'League', [line]);
    store.odds.recordSnapshot(ev, T0);
    store.bets.applyLineCloseOps([{ type: 'price', eventId: 4, market: line, at: T0 }]);
    store.bets.addBet({ eventId: 4, lineId: 11, side: 'home', price: 2.1, stake: 100 }, T0 + MIN);
    store.bets.applyLineCloseOps([
      { type: 'price', eventId: 4, market: { ...line, prices: { home: 1.9, away: 2.0 } }, at: T0 + 59 * MIN },
      { type: 'kickoff', eventId: 4, at: T0 + 60 * MIN, reason: 'started', confirmed: true },
    ]);
    const s = {
      ...settlement(ev, [settled(11, -0.5, 'push', 'push', 'push', 'spread')], [0, 0], T0 + 3 * 60 * MIN),
      status: 'abandoned',
    };
    store.settlements.recordSettledPage([s], Math.floor((T0 + 3 * 60 * MIN) / 1000));
    const r = (await handlers(store)['bets:report']({})) as LedgerReport;
    // The bet beat the close (2.10 against a fair 1.95), but its match was abandoned: void, P/L 0, nothing expected.
    expect(r.total).toMatchObject({ bets: 1, pnl: 0, clvBets: 0, beatClose: 0, ev: 0 });
    expect(r.clvStates.void).toBe(1);
    expect(r.series.ev).toEqual([null]);
  });

  it('a side quoted at 1.0 before kick-off never makes a three-way close two-way: CLV (EM) +3.95%, not +45.0%', async () => {
    store = openStore({ path: ':memory:', clock: () => T0 });
    const open = market(10, { prices: { home: 2.5, draw: 3.4, away: 2.9 } });
    const ev = snapshot(2, 29, 100, 'League', [open]);
    store.odds.recordSnapshot(ev, T0);
    store.bets.applyLineCloseOps([{ type: 'price', eventId: 2, market: open, at: T0 }]);
    const bet = store.bets.addBet({ eventId: 2, lineId: 10, side: 'home', price: 2.7, stake: 100 }, T0 + MIN);
    // The draw at 1.0 reaches the close by another path than the stream's parser (a snapshot, a future parser).
    store.bets.applyLineCloseOps([
      {
        type: 'price',
        eventId: 2,
        market: { ...open, prices: { home: 2.5, draw: 1.0, away: 2.9 } },
        at: T0 + 50 * MIN,
      },
      { type: 'kickoff', eventId: 2, at: T0 + 60 * MIN, reason: 'started', confirmed: true },
    ]);
    const b = (await handlers(store)['bets:list']({})).bets.find((x) => x.id === bet.id)!;
    expect(b.clvByModel!.EM).toBeCloseTo(3.95, 2);
    expect(store.bets.lineCloses(2)[0]!.closing).toEqual({ home: 2.5, draw: 3.4, away: 2.9 });
  });

  it("the report's expected value of a draw-no-bet bet takes its push share from the match's closing moneyline", async () => {
    store = openStore({ path: ':memory:', clock: () => T0 });
    // A moneyline with no margin: a 27% draw under every model; draw no bet (spread 0) at 1.95 / 1.95 closes at 2.00 / 2.00.
    const ml = market(30, { prices: { home: 1 / 0.365, draw: 1 / 0.27, away: 1 / 0.365 } });
    const dnb = market(31, { market: 'spread', line: 0, prices: { home: 1.95, away: 1.95 } });
    const ev = snapshot(3, 29, 100, 'League', [ml, dnb]);
    store.odds.recordSnapshot(ev, T0);
    store.bets.applyLineCloseOps(ev.markets.map((m) => ({ type: 'price' as const, eventId: 3, market: m, at: T0 })));
    store.bets.addBet({ eventId: 3, lineId: 31, side: 'home', price: 2.1, stake: 100 }, T0 + MIN);
    store.bets.applyLineCloseOps([
      { type: 'price', eventId: 3, market: { ...dnb, prices: { home: 2, away: 2 } }, at: T0 + 59 * MIN },
      { type: 'kickoff', eventId: 3, at: T0 + 60 * MIN, reason: 'started', confirmed: true },
    ]);
    store.settlements.recordSettledPage(
      [
        settlement(
          ev,
          [settled(30, null, 'win', 'loss', 'loss'), settled(31, 0, 'win', 'loss', 'loss', 'spread')],
          [1, 0],
          T0 + 3 * 60 * MIN,
        ),
      ],
      Math.floor((T0 + 3 * 60 * MIN) / 1000),
    );
    const r = (await handlers(store)['bets:report']({})) as LedgerReport;
    expect(r.total).toMatchObject({ clvBets: 1, ev: 3.65, evUnknown: 0 });
    expect(r.total.averageClv).toBeCloseTo(5, 10);
    expect(r.pushSources).toEqual({ none: 0, draw: 1, unknown: 0 });
    // The chart's CSV names the bet's push share and its source: the fair draw of the closing moneyline, 27%.
    const [header, row] = ledgerSeriesCsv(r).trim().split(/\r?\n/);
    expect(header).toMatch(/,ev,cum_ev,ev_push_source,ev_push_share$/);
    expect(row).toMatch(/,3\.65,3\.65,draw,0\.27$/);
  });
});
