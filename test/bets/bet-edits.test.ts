// Issue 34, class 1: a recorded bet's price, stake and note can be changed and the bet removed and brought back, each
// change kept as a revision (bet_revisions); a removed bet leaves the list, the totals' source, the report's and the
// export's, and Undo restores it under its id with its result and P/L as they were. The store is real (SQLite in
// memory); the settlement comes through the same ingest as the settled walk's pages.
import { afterEach, describe, expect, it } from 'vitest';
import { formatServiceTime, type EventOdds } from '../../src/shared/api';
import { openStore, type Store } from '../../src/core/store';

const T0 = Date.UTC(2026, 10, 22, 12);
const MIN = 60_000;
const snapshot: EventOdds = {
  event_id: 1,
  sport_id: 1,
  league_id: 1,
  league_name: 'L',
  runner_home: 'Home FC',
  runner_away: 'Away FC',
  starts: formatServiceTime(T0 + 3_600_000),
  live_status: 0,
  score_home: null,
  score_away: null,
  markets: [
    {
      line_id: 10,
      period: 0,
      market: 'moneyline',
      side: null,
      line: null,
      prices: { home: 2.1, draw: 3.4, away: 3.6 },
      max_win: 500,
      updated_at: formatServiceTime(T0),
    },
  ],
};

let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

describe('editing and removing a bet', () => {
  it('an edit changes the bet and its P/L and keeps every value it had; the same values again add nothing', () => {
    store = openStore({ path: ':memory:', clock: () => T0 });
    store.odds.recordSnapshot(snapshot, T0);
    const bet = store.bets.addBet({ eventId: 1, lineId: 10, side: 'home', price: 2.1, stake: 100 }, T0);
    expect(bet).toMatchObject({ note: '', editedAt: null });
    expect(store.bets.betHistory(bet.id)).toEqual([
      { revision: 1, at: T0, change: 'recorded', price: 2.1, stake: 100, note: '' },
    ]);

    // Typed at 2.1 but taken at 2.15, for 50: the stake and price change, then a note.
    expect(store.bets.editBet(bet.id, { price: 2.15, stake: 50 }, T0 + MIN)).toMatchObject({
      id: bet.id,
      price: 2.15,
      stake: 50,
      note: '',
      editedAt: T0 + MIN,
    });
    expect(store.bets.editBet(bet.id, { note: 'taken late' }, T0 + 2 * MIN)).toMatchObject({
      price: 2.15,
      stake: 50,
      note: 'taken late',
      editedAt: T0 + 2 * MIN,
    });
    expect(store.bets.editBet(bet.id, { price: 2.15, note: 'taken late' }, T0 + 3 * MIN)).toMatchObject({
      editedAt: T0 + 2 * MIN,
    });
    expect(store.bets.betHistory(bet.id).map((r) => [r.revision, r.change, r.price, r.stake, r.note])).toEqual([
      [1, 'recorded', 2.1, 100, ''],
      [2, 'edited', 2.15, 50, ''],
      [3, 'edited', 2.15, 50, 'taken late'],
    ]);

    // Settled home win: the P/L follows the edited price and stake (50 x 1.15).
    store.settlements.recordSettledPage(
      [
        {
          event_id: 1,
          sport_id: 1,
          league_id: 1,
          league_name: 'L',
          runner_home: 'Home FC',
          runner_away: 'Away FC',
          starts: formatServiceTime(T0 + 3_600_000),
          score_home: 2,
          score_away: 0,
          status: 'ended',
          settled_at: formatServiceTime(T0 + 4 * 3_600_000),
          settlement: [
            {
              line_id: 10,
              period: 0,
              market: 'moneyline',
              line: null,
              outcome_home: 'win',
              outcome_draw: 'loss',
              outcome_away: 'loss',
            },
          ],
        },
      ],
      Math.floor((T0 + 4 * 3_600_000) / 1000),
    );
    expect(store.bets.listBets()[0]).toMatchObject({ result: 'win', pnl: 57.5 });
    // No such bet: nothing changes.
    expect(store.bets.editBet(999, { stake: 1 }, T0)).toBeNull();
  });

  it('a removed bet leaves every list and report; restored, it is back under its id as it was; each step is a revision', () => {
    store = openStore({ path: ':memory:', clock: () => T0 });
    store.odds.recordSnapshot(snapshot, T0);
    const keep = store.bets.addBet({ eventId: 1, lineId: 10, side: 'away', price: 3.6, stake: 10 }, T0);
    const bet = store.bets.addBet({ eventId: 1, lineId: 10, side: 'draw', price: 3.4, stake: 20 }, T0 + MIN);
    store.bets.editBet(bet.id, { note: 'hedge' }, T0 + 2 * MIN);

    expect(store.bets.removeBet(bet.id, T0 + 3 * MIN)).toBe(true);
    expect(store.bets.listBets().map((b) => b.id)).toEqual([keep.id]);
    expect(store.bets.ledgerBets().map((b) => b.id)).toEqual([keep.id]);
    // Removed twice, edited or settled by hand while removed: refused.
    expect(store.bets.removeBet(bet.id, T0 + 3 * MIN)).toBe(false);
    expect(store.bets.editBet(bet.id, { stake: 5 }, T0 + 3 * MIN)).toBeNull();
    expect(store.bets.settleBetByHand(bet.id, 'win')).toBeNull();

    const back = store.bets.restoreBet(bet.id, T0 + 4 * MIN);
    expect(back).toMatchObject({ id: bet.id, placedAt: T0 + MIN, side: 'draw', price: 3.4, stake: 20, note: 'hedge' });
    expect(store.bets.listBets().map((b) => b.id)).toEqual([bet.id, keep.id]);
    // Only a removed bet can be restored.
    expect(store.bets.restoreBet(bet.id, T0 + 5 * MIN)).toBeNull();
    expect(store.bets.restoreBet(999, T0 + 5 * MIN)).toBeNull();
    expect(store.bets.betHistory(bet.id).map((r) => [r.revision, r.at, r.change, r.note])).toEqual([
      [1, T0 + MIN, 'recorded', ''],
      [2, T0 + 2 * MIN, 'edited', 'hedge'],
      [3, T0 + 3 * MIN, 'removed', 'hedge'],
      [4, T0 + 4 * MIN, 'restored', 'hedge'],
    ]);
    expect(store.bets.betHistory(999)).toEqual([]);
  });
});
